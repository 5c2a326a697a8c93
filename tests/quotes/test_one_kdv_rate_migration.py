"""The one-KDV-rate migration on a database with data (SQLite and PostgreSQL): each shop's quote rate becomes its
offer settings' rate (the quotes' wins where both were set; the offers' display choice kept), a shop with offer
settings only keeps its own, and the downgrade gives the quote settings their rate back."""

from __future__ import annotations

from decimal import Decimal

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from app.accounts.services import create_user
from app.extensions import db
from tests.core.test_migrations import empty_app, empty_database_url  # noqa: F401 - the fixtures used here

REVISION, BEFORE = "e42b5c0a0008", "e42b5c0a0007"
PROFILE = sa.table(
    "quote_profile", sa.column("shop_id", sa.Uuid()), sa.column("shop_name"), sa.column("kdv_rate", sa.Numeric(5, 2))
)
SETTINGS = sa.table(
    "offer_settings", sa.column("shop_id", sa.Uuid()), sa.column("with_kdv"), sa.column("kdv_rate", sa.Numeric(5, 2))
)


def settings() -> dict:
    query = sa.select(SETTINGS.c.shop_id, SETTINGS.c.with_kdv, SETTINGS.c.kdv_rate)
    return {shop: (bool(with_kdv), Decimal(rate)) for shop, with_kdv, rate in db.session.execute(query)}


@pytest.mark.no_isolation
def test_each_shops_quote_rate_becomes_its_one_rate_and_the_downgrade_gives_it_back(empty_app):  # noqa: F811
    with empty_app.app_context():
        upgrade(revision=BEFORE)
        quotes_only, both, offers_only = (
            create_user(email=f"{name}@example.com", name=name, password="parola-1234").shop_id
            for name in ("teklif", "ikisi", "tedarik")
        )
        db.session.execute(
            sa.insert(PROFILE),
            [
                {"shop_id": quotes_only, "shop_name": "A", "kdv_rate": Decimal(10)},
                {"shop_id": both, "shop_name": "B", "kdv_rate": Decimal(8)},
            ],
        )
        db.session.execute(
            sa.insert(SETTINGS),
            [
                {"shop_id": both, "with_kdv": True, "kdv_rate": Decimal(18)},
                {"shop_id": offers_only, "with_kdv": False, "kdv_rate": Decimal(15)},
            ],
        )
        db.session.commit()
        db.session.remove()

        upgrade(revision=REVISION)

        assert settings() == {
            quotes_only: (False, Decimal(10)),
            both: (True, Decimal(8)),
            offers_only: (False, Decimal(15)),
        }
        assert "kdv_rate" not in {column["name"] for column in sa.inspect(db.engine).get_columns("quote_profile")}
        db.session.execute(sa.update(SETTINGS).where(SETTINGS.c.shop_id == both).values(kdv_rate=Decimal(1)))
        db.session.commit()
        db.session.remove()

        downgrade(revision=BEFORE)

        rates = dict(db.session.execute(sa.select(PROFILE.c.shop_id, PROFILE.c.kdv_rate)).all())
        assert rates == {quotes_only: Decimal(10), both: Decimal(1)}
        db.session.remove()
