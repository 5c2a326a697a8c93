"""A dealer with a paid plan in a real browser: /plans marks it, offers no second purchase, and a cheaper plan is
scheduled for the end of the period and shown on /subscription."""

import pytest
import sqlalchemy as sa

from app.accounts.models import User
from app.extensions import db
from tests.support.browser import register
from tests.support.dealers import commit_active_plan

pytestmark = [pytest.mark.e2e, pytest.mark.no_isolation]

BRANDS = ("Audi", "BMW", "Fiat")


def give_trio_plan(app, email: str) -> None:
    with app.app_context():
        commit_active_plan(db.session.scalar(sa.select(User).where(User.email == email)), "trio", BRANDS, days_left=20)
        db.session.remove()


def plan_card(page, name: str):
    return page.locator("section.plan-card", has=page.get_by_role("heading", name=name))


def test_an_active_dealer_sees_the_plan_buys_no_second_one_and_schedules_a_downgrade(app, card_live_server, page):
    email = register(page, card_live_server)
    give_trio_plan(app, email)

    page.goto(card_live_server + "/plans")

    trio = plan_card(page, "Üç Marka")
    assert trio.get_by_text("Mevcut planınız").is_visible()
    assert trio.get_by_text("Audi, BMW, Fiat").is_visible()
    assert page.get_by_text("Tüm fiyatlara KDV dahildir.").is_visible()
    # Nothing on the page buys a plan beside the current one: the same plan and the cheaper one have no payment.
    assert trio.get_by_role("button").count() == 0
    single = plan_card(page, "Tek Marka")
    assert single.get_by_role("button", name="Ödemeye geç").count() == 0
    assert plan_card(page, "Tam Erişim").get_by_role("button", name="Yükselt ve öde").is_visible()
    # And the API refuses it too, with a Turkish message.
    refused = page.evaluate(
        """async () => {
            const body = JSON.stringify({planKey: "single", billingPeriod: "monthly", brandIds: [1]});
            const response = await fetch("/api/payments/card/checkout",
                {method: "POST", headers: {"Content-Type": "application/json"}, body});
            return [response.status, (await response.json()).error.code];
        }"""
    )
    assert refused == [409, "use_downgrade"]

    single.get_by_label("BMW", exact=True).check()
    single.get_by_role("button", name="Dönem sonunda bu plana geç").click()

    page.wait_for_url(card_live_server + "/subscription")
    assert page.get_by_text("planınız Tek Marka olacak", exact=False).first.is_visible()
    scheduled = page.locator(".scheduled-change")
    assert "Tek Marka" in scheduled.inner_text() and "(BMW)" in scheduled.inner_text()
    assert "Aktif" in page.locator(".subscription-card h2").inner_text()

    scheduled.get_by_role("button", name="Mevcut planımda kalayım").click()
    page.wait_for_url(card_live_server + "/subscription")
    assert page.locator(".scheduled-change").count() == 0
    # The one console line is the refused purchase above, which the browser reports as a failed load.
    assert [error for error in page.console_errors if "409" not in error] == []
