"""A shop's offers kept in the process, by number, for as long as what they were made of stands.

An offer is made of the shop's suppliers and their terms, the lists in use and the numbers their lines answer to,
the equivalent links and the shop's rejections of them, the shop's KDV choice and the Central Bank's rates: rows of
the WATCHED tables. Every transaction that writes one of them (an INSERT, UPDATE or DELETE statement on it, however
sent: the ORM, Core, a COPY's final INSERT ... SELECT) raises the one row of `offer_epoch` just before it commits (or
releases its savepoint), in the same transaction: a reader that sees the new epoch sees the new rows, and one that
read the old epoch kept offers under it that no later reader will take. The catalog's row statements read the epoch
beside the rows (`offers.lists_column`), so a kept page of offers costs no statement. Raising it last keeps the row
locked only for the commit itself.

Offers also change with the clock: the delivery day by each supplier's order cut-off, the rate's age by the day. A
kept entry is good until the next cut-off of the suppliers it was made with or the next midnight in Istanbul.

Writes are rare beside reads (a manager's change, a list switched in use, the day's rates), and the epoch is one for
all shops: a change anywhere makes every process compute offers again once.
"""

from __future__ import annotations

import re
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from flask import Flask, current_app
from sqlalchemy.orm import Session

EXTENSION = "offer_cache"
EPOCH_TABLE = "offer_epoch"
WATCHED = frozenset(
    {
        "supplier",
        "supplier_brand_discount",
        "supplier_active",
        "supplier_number",
        "offer_settings",
        "equivalent_link",
        "equivalent_rejection",
        "currency_rate",
    }
)
_WRITE = re.compile(r'\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)', re.IGNORECASE)
_RAISE = f"UPDATE {EPOCH_TABLE} SET version = version + 1 WHERE id = 1"  # noqa: S608 - constant names
_TOUCHED = "offer_epoch_to_raise"  # the DBAPI connection's info: a watched table was written in this transaction


@dataclass(frozen=True)
class _Entry:
    epoch: int
    good_until: datetime
    offers: tuple[Any, ...]


class OfferCache:
    """(shop, folded number) -> the number's offers (an empty tuple: none), with the epoch and the moment they hold
    to; at most `max_weight` offers and numbers together (OFFER_CACHE_SIZE: an offer with its view is about 2.3 kB),
    the least recently used going first."""

    def __init__(self, max_weight: int) -> None:
        self.max_weight = max_weight
        self.weight = 0
        self._entries: OrderedDict[tuple[uuid.UUID, str], _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def kept(self, shop_id: uuid.UUID, keys: Iterable[str], epoch: int, now: datetime) -> dict[str, tuple]:
        """The keys kept under `epoch` and still good at `now`, with their offers."""
        found = {}
        with self._lock:
            for key in keys:
                entry = self._entries.get((shop_id, key))
                if entry is not None and entry.epoch == epoch and now < entry.good_until:
                    self._entries.move_to_end((shop_id, key))
                    found[key] = entry.offers
        return found

    def keep(self, shop_id: uuid.UUID, offers: dict[str, tuple], epoch: int, good_until: datetime) -> None:
        with self._lock:
            for key, found in offers.items():
                replaced = self._entries.pop((shop_id, key), None)
                if replaced is not None:
                    self.weight -= 1 + len(replaced.offers)
                self._entries[(shop_id, key)] = _Entry(epoch, good_until, found)
                self.weight += 1 + len(found)
            while self.weight > self.max_weight and self._entries:
                _key, dropped = self._entries.popitem(last=False)
                self.weight -= 1 + len(dropped.offers)


def cache() -> OfferCache | None:
    """This app's cache of offers; None when OFFER_CACHE_SIZE is 0 (offers computed on every request)."""
    return current_app.extensions.get(EXTENSION)


def epoch_column() -> sa.ScalarSelect[Any]:
    """The epoch as an uncorrelated subquery a statement reads beside its rows."""
    table = sa.table(EPOCH_TABLE, sa.column("id"), sa.column("version"))
    return sa.select(table.c.version).where(table.c.id == 1).scalar_subquery()


def written_here(session: Session) -> bool:
    """Whether the session's transaction wrote one of the WATCHED tables: what it reads is not yet everyone's (and
    may be rolled back), so it is neither taken from nor kept in the cache."""
    return session.in_transaction() and bool(session.connection().info.get(_TOUCHED))


def _on_statement(conn, _cursor, statement: str, _parameters, _context, _executemany) -> None:
    written = _WRITE.match(statement)
    if written is not None and written.group(1).lower() in WATCHED:
        conn.info[_TOUCHED] = True


def _raise_epoch(conn, *_args) -> None:
    """Raise the epoch inside the transaction about to commit (straight on the driver's cursor: the connection is
    committing, and the statement must not mark it again)."""
    if conn.info.pop(_TOUCHED, False):
        cursor = conn.connection.dbapi_connection.cursor()
        try:
            cursor.execute(_RAISE)
        finally:
            cursor.close()


def _forget(conn, *_args) -> None:
    conn.info.pop(_TOUCHED, None)


def init_offer_cache(app: Flask) -> None:
    """The app's cache of offers (OFFER_CACHE_SIZE; 0: none), and every engine's writes watched (idempotent: the
    listeners are the Engine class's)."""
    size = int(app.config.get("OFFER_CACHE_SIZE", 0))
    if size > 0:
        app.extensions[EXTENSION] = OfferCache(size)
    if sa.event.contains(sa.Engine, "after_cursor_execute", _on_statement):
        return
    sa.event.listen(sa.Engine, "after_cursor_execute", _on_statement)
    sa.event.listen(sa.Engine, "commit", _raise_epoch)
    sa.event.listen(sa.Engine, "release_savepoint", _raise_epoch)
    sa.event.listen(sa.Engine, "rollback", _forget)
