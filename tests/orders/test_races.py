"""The races a double click makes, played in the order that loses: the second request read the order (or the line)
before the first one wrote, so only the database's conditions stop it."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm.attributes import set_committed_value

from app.accounts.models import User
from app.extensions import db
from app.orders import services
from app.orders.models import SupplierOrder, SupplierOrderLine
from app.quotes.models import QuoteLine
from tests.conftest import SITE, outbox
from tests.orders.conftest import FILTER, OIL, add, offer_lines, supplier


def test_a_send_that_read_the_order_open_after_another_sent_it_sends_nothing(shop, manager, smtp):
    smtp()
    basbug = supplier(manager, "Başbuğ Otomotiv")
    order_id = add(manager, basbug, offer_lines(manager, basbug, FILTER)).get_json()["order"]["id"]
    member = db.session.get(User, shop["manager"].user.id)
    order = db.session.get(SupplierOrder, order_id)
    assert order.status == "open"  # read before the other click sent it
    assert manager.post(f"/api/orders/{order_id}/send", headers=SITE).get_json()["mailed"] is True
    set_committed_value(order, "status", "open")  # what the slower request still holds (not a change to write)

    assert services.send(member, order) is False
    assert order.status == "sent" and len(outbox("supplier_order")) == 1


def test_a_line_added_by_a_request_that_did_not_see_the_first_is_not_added_again(manager):
    basbug = supplier(manager, "Başbuğ Otomotiv")
    lines = offer_lines(manager, basbug, FILTER, OIL)
    order_id = add(manager, basbug, lines[:1]).get_json()["order"]["id"]
    order = db.session.get(SupplierOrder, order_id)

    again = services._added(order, db.session.get(QuoteLine, lines[0]))  # the other click's insert, too late

    assert again is False
    count = sa.select(sa.func.count()).select_from(SupplierOrderLine).where(SupplierOrderLine.quote_line_id == lines[0])
    assert db.session.scalar(count) == 1
