"""mail transport: the outbox keeps each message's delivery state (pending, sending, sent, failed), its attempts and
last error, an HTML part, the recipient's language, a reply-to address and a key for messages sent once per cause; clicks on tracked links

Revision ID: 8d4f2a6c1e57
Revises: 5e2a7c9d1b43
Create Date: 2026-11-25 11:40:00.000000

"""
from alembic import op
import sqlalchemy as sa

import app.core.db


# revision identifiers, used by Alembic.
revision = '8d4f2a6c1e57'
down_revision = '5e2a7c9d1b43'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('email_outbox') as batch:
        batch.add_column(sa.Column('reply_to', sa.String(length=254), nullable=True))
        batch.add_column(sa.Column('locale', sa.String(length=8), server_default='tr', nullable=False))
        batch.add_column(sa.Column('body_html', sa.Text(), nullable=True))
        batch.add_column(sa.Column('status', sa.String(length=16), server_default='pending', nullable=False))
        batch.add_column(sa.Column('attempts', sa.Integer(), server_default='0', nullable=False))
        batch.add_column(sa.Column('last_error', sa.String(length=500), nullable=True))
        batch.add_column(sa.Column('next_attempt_at', app.core.db.UTCDateTime(), nullable=True))
        batch.add_column(sa.Column('claimed_at', app.core.db.UTCDateTime(), nullable=True))
        batch.add_column(sa.Column('failed_at', app.core.db.UTCDateTime(), nullable=True))
        batch.add_column(sa.Column('dedupe_key', sa.String(length=120), nullable=True))
        batch.create_unique_constraint(op.f('uq_email_outbox_dedupe_key'), ['dedupe_key'])
        batch.create_check_constraint(
            'status', sa.column('status').in_(('pending', 'sending', 'sent', 'failed'))
        )
        batch.create_index('ix_email_outbox_status_next_attempt_at', ['status', 'next_attempt_at'])
    op.create_table(
        'email_click',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('template', sa.String(length=64), nullable=False),
        sa.Column('path', sa.String(length=500), nullable=False),
        sa.Column('clicked_at', app.core.db.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_email_click')),
    )
    op.create_index(op.f('ix_email_click_template'), 'email_click', ['template'], unique=False)
    # A message recorded as sent before there was a transport keeps that state.
    op.execute("UPDATE email_outbox SET status = 'sent' WHERE sent_at IS NOT NULL")


def downgrade():
    op.drop_index(op.f('ix_email_click_template'), table_name='email_click')
    op.drop_table('email_click')
    with op.batch_alter_table('email_outbox') as batch:
        batch.drop_index('ix_email_outbox_status_next_attempt_at')
        batch.drop_constraint('status', type_='check')
        batch.drop_constraint(op.f('uq_email_outbox_dedupe_key'), type_='unique')
        for column in ('dedupe_key', 'failed_at', 'claimed_at', 'next_attempt_at', 'last_error', 'attempts', 'status', 'body_html',
                       'locale', 'reply_to'):
            batch.drop_column(column)
