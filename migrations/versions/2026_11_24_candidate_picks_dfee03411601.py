"""candidate picks: each dealer's own choice among a VIN's candidates; one shared vehicle row per chosen candidate

A VIN keeps at most one confirmed vehicle (candidate_key '') and one row per candidate any dealer chose (unique vin +
candidate_key); vehicle_pick holds which candidate each dealer chose.

Revision ID: dfee03411601
Revises: 249eecbe8560
Create Date: 2026-11-24 09:00:00.000000

"""
from contextlib import contextmanager

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'dfee03411601'
down_revision = '249eecbe8560'
branch_labels = None
depends_on = None


@contextmanager
def _sqlite_foreign_keys_off():
    """SQLite changes a table's constraints by copying it; with foreign keys on, dropping the old copy would delete
    every row that references the vehicle (categories, parts, history) through ON DELETE CASCADE. SQLite's own recipe:
    foreign keys off, which works only outside a transaction, for one transaction that is checked before it commits."""
    with _sqlite_foreign_keys(False):
        yield


@contextmanager
def _sqlite_foreign_keys(enabled):
    """One transaction with SQLite's foreign keys `enabled`, checked before it commits; the setting the migrations
    run with (migrations/env.py turns it off) is restored after it. The caller's transaction is committed first; a
    transaction is open again afterwards for Alembic's version row."""
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        yield
        return
    raw = bind.connection.driver_connection
    raw.execute("COMMIT")
    was = raw.execute("PRAGMA foreign_keys").fetchone()[0]
    raw.execute(f"PRAGMA foreign_keys={'ON' if enabled else 'OFF'}")
    raw.execute("BEGIN IMMEDIATE")
    try:
        yield
        broken = raw.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"foreign keys broken by the vehicle table copy: {broken[:5]}")
        raw.execute("COMMIT")
    except BaseException:
        raw.execute("ROLLBACK")
        raise
    finally:
        raw.execute(f"PRAGMA foreign_keys={'ON' if was else 'OFF'}")
        raw.execute("BEGIN")


def _json_text(column, key):
    if op.get_bind().dialect.name == "postgresql":
        return f"({column} ->> '{key}')"
    return f"json_extract({column}, '$.{key}')"


def _picks_from_the_query_log():
    """Until now the first dealer's pick became every dealer's vehicle. A vehicle whose VIN was answered with
    candidates and then picked becomes that candidate; each dealer who picked it keeps it as their own pick (their
    last pick's time). Dealers who only decoded it afterwards see the candidate list next time."""
    picked = f"{_json_text('q.timings', 'candidate_pick')} IN ('catapi', 'scrape')"
    listed = f"{_json_text('c.timings', 'result_kind')} IN ('catapi_candidates', 'scrape_candidates')"
    op.execute(
        "INSERT INTO vehicle_pick (user_id, vin, vehicle_id, picked_at) "
        "SELECT q.user_id, v.vin, v.id, MAX(q.created_at) FROM query_log q JOIN vehicle v ON v.vin = q.vin "
        f"WHERE q.success AND q.user_id IS NOT NULL AND {picked} "
        f"AND EXISTS (SELECT 1 FROM query_log c WHERE c.vin = q.vin AND {listed}) "
        "GROUP BY q.user_id, v.vin, v.id"
    )
    # The key a pick of the same candidate gives today (app.vehicles.picks.candidate_key); a car without an id keeps
    # a key of its own, so a new pick of it stores a new row rather than guessing which place it had in the list.
    car_id = _json_text('raw_data', 'carId')
    op.execute(
        f"UPDATE vehicle SET candidate_key = source || ':' || COALESCE({car_id}, '#migrated-' || CAST(id AS TEXT)) "
        "WHERE id IN (SELECT vehicle_id FROM vehicle_pick)"
    )


def _one_vehicle_per_vin():
    """Before the VIN is unique again: a VIN keeps its confirmed vehicle, else the candidate stored first; the other
    candidates go with their catalogs, history links and picks (foreign keys on: the database cascades)."""
    op.execute(
        "DELETE FROM vehicle WHERE id <> (SELECT kept.id FROM vehicle kept WHERE kept.vin = vehicle.vin "
        "ORDER BY CASE WHEN kept.candidate_key = '' THEN 0 ELSE 1 END, kept.id LIMIT 1)"
    )


def upgrade():
    with _sqlite_foreign_keys_off():
        with op.batch_alter_table('vehicle', schema=None) as batch_op:
            batch_op.add_column(sa.Column('candidate_key', sa.String(length=300), server_default='', nullable=False))
            batch_op.drop_constraint('uq_vehicle_vin', type_='unique')
            batch_op.create_unique_constraint(batch_op.f('uq_vehicle_vin_candidate_key'), ['vin', 'candidate_key'])

    op.create_table('vehicle_pick',
    sa.Column('user_id', sa.Uuid(), nullable=False),
    sa.Column('vin', sa.String(length=17), nullable=False),
    sa.Column('vehicle_id', sa.Integer(), nullable=False),
    sa.Column('picked_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_vehicle_pick_user_id_user'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['vehicle_id'], ['vehicle.id'], name=op.f('fk_vehicle_pick_vehicle_id_vehicle'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', 'vin', name=op.f('pk_vehicle_pick'))
    )
    with op.batch_alter_table('vehicle_pick', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_vehicle_pick_vehicle_id'), ['vehicle_id'], unique=False)

    _picks_from_the_query_log()


def downgrade():
    with _sqlite_foreign_keys(True):  # the dropped candidates' rows go with them
        _one_vehicle_per_vin()
    with op.batch_alter_table('vehicle_pick', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_vehicle_pick_vehicle_id'))
    op.drop_table('vehicle_pick')

    with _sqlite_foreign_keys_off():
        with op.batch_alter_table('vehicle', schema=None) as batch_op:
            batch_op.drop_constraint(batch_op.f('uq_vehicle_vin_candidate_key'), type_='unique')
            batch_op.create_unique_constraint(batch_op.f('uq_vehicle_vin'), ['vin'])
            batch_op.drop_column('candidate_key')
