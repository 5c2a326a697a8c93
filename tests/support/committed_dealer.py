"""A dealer with a Full plan, committed for real, for tests that cannot run in the rolled-back transaction (page
decodes in a background thread, live servers); everything the test made is deleted afterwards."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import sqlalchemy as sa
from flask import Flask

from app.accounts.models import User
from app.billing.models import Brand, Payment, Plan, Subscription
from app.core.loopback import LoopbackServer
from app.extensions import db, redis_store
from app.shops.models import Shop
from app.vehicles.background import THREAD_PREFIX
from app.vehicles.models import QueryLog, Vehicle, VinRequest
from tests.conftest import PASSWORD
from tests.support.dealers import commit_full_plan_dealer

THREAD_WAIT_SECONDS = 30


@dataclass(frozen=True)
class Dealer:
    id: uuid.UUID
    email: str
    password: str = PASSWORD


def wait_for_page_decodes(timeout: float = THREAD_WAIT_SECONDS) -> None:
    """Let every page decode thread finish, so nothing writes while the test's rows are deleted."""
    for thread in threading.enumerate():
        if thread.name.startswith(THREAD_PREFIX):
            thread.join(timeout)


@contextmanager
def committed_dealer(app: Flask) -> Iterator[Dealer]:
    """Seed the catalog if needed, commit a user with an active Full plan, and remove it all at the end.

    The dealer's shop goes with everything in it (its members, their query log and VIN requests, its payments and
    subscriptions; its lists, quotes, history and activity by the cascades), vehicles that did not exist before are
    deleted too, and Redis is emptied (resolve cache, locks, progress records, queued prefetch jobs).
    """
    with app.app_context():
        redis_store.client.flushdb()
        seeded_before = db.session.scalar(sa.select(sa.func.count()).select_from(Plan)) > 0
        vins_before = set(db.session.scalars(sa.select(Vehicle.vin)))
        user = commit_full_plan_dealer(f"page-dealer-{uuid.uuid4().hex[:12]}@example.com", "Sayfa Bayi", PASSWORD)
        dealer, shop_id = Dealer(user.id, user.email), user.shop_id
        db.session.remove()
    try:
        yield dealer
    finally:
        wait_for_page_decodes()
        with app.app_context():
            _remove_shop(shop_id, dealer.id)
            db.session.execute(sa.delete(Vehicle).where(Vehicle.vin.not_in(vins_before)))
            if not seeded_before:
                db.session.execute(sa.delete(Plan))
                db.session.execute(sa.delete(Brand))
            db.session.commit()
            db.session.remove()
            redis_store.client.flushdb()


def _remove_shop(shop_id: uuid.UUID, dealer_id: uuid.UUID) -> None:
    members = list(db.session.scalars(sa.select(User.id).where(User.shop_id == shop_id))) + [dealer_id]
    db.session.execute(sa.delete(VinRequest).where(VinRequest.user_id.in_(members)))
    db.session.execute(sa.delete(QueryLog).where(sa.or_(QueryLog.user_id.in_(members), QueryLog.shop_id == shop_id)))
    db.session.execute(sa.delete(Payment).where(sa.or_(Payment.user_id.in_(members), Payment.shop_id == shop_id)))
    owned = sa.or_(Subscription.user_id.in_(members), Subscription.shop_id == shop_id)
    db.session.execute(sa.delete(Subscription).where(owned))
    db.session.execute(sa.delete(User).where(User.id.in_(members)))
    db.session.execute(sa.delete(Shop).where(Shop.id == shop_id))


@contextmanager
def served_dealer(app: Flask) -> Iterator[tuple[str, Dealer]]:
    """A live server of `app` on loopback and a committed dealer: (its address, the dealer); the server stops first."""
    with committed_dealer(app) as dealer:
        server = LoopbackServer(app, name="live-server").start()
        try:
            yield server.url, dealer
        finally:
            server.stop()
