"""A list as a source of equivalents, written by the job that put the list in use: its links replace the ones the
source's previous list made, committed on their own, so a failure leaves the previous links and the list in use."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable

from app.equivalents.services import NumberLink, replace_source
from app.extensions import db

log = logging.getLogger(__name__)


def feed(links: Iterable[NumberLink], *, shop_id: uuid.UUID, source: str, detail: str, what: str) -> None:
    """Make `links` the source's (committed); a failure is logged (`what`: the list, for the log) and rolled back."""
    try:
        count = replace_source(links, shop_id=shop_id, source=source, detail=detail)
        db.session.commit()
    except Exception:
        db.session.rollback()
        log.exception("equivalents of %s not recorded", what)
        return
    log.info("%s: %s equivalent links", what, count)
