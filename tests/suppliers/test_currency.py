"""TCMB rates through the real adapter against the TCMB sandbox: storing, converting, staleness, failed fetches."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
import sqlalchemy as sa
from werkzeug.wrappers import Response

from app.core.loopback import LoopbackServer
from app.extensions import db
from app.sources.sandbox.tcmb import bulletin_xml
from app.sources.tcmb import MAX_BYTES, TcmbError, fetch_bulletin, parse_bulletin
from app.suppliers.currency import services, tasks
from app.suppliers.currency.models import CurrencyRate

FRIDAY = date(2026, 11, 27)


@pytest.fixture
def tcmb(upstreams):
    upstreams.tcmb.faults.date = FRIDAY.strftime("%d.%m.%Y")
    return upstreams.tcmb


def _rates() -> dict[tuple[str, date], Decimal]:
    rows = db.session.scalars(sa.select(CurrencyRate))
    return {(row.currency, row.rate_date): Decimal(row.try_per_unit) for row in rows}


def test_the_job_stores_the_bulletins_forex_selling_rate_per_unit(app, tcmb):
    assert tasks.fetch_rates() == 9
    bulletin = parse_bulletin(bulletin_xml(FRIDAY).encode())
    by_code = {rate.code: rate for rate in bulletin.rates}
    rates = _rates()
    assert rates[("EUR", FRIDAY)] == by_code["EUR"].forex_selling
    assert by_code["JPY"].unit == 100
    assert rates[("JPY", FRIDAY)] == (by_code["JPY"].forex_selling / 100).quantize(Decimal("0.000001"))
    assert rates[("JPY", FRIDAY)] < 1  # per yen, not per hundred


def test_the_job_twice_has_the_effect_of_once(app, tcmb):
    tasks.fetch_rates()
    first = _rates()
    tasks.fetch_rates()
    assert _rates() == first
    assert db.session.scalar(sa.select(sa.func.count()).select_from(CurrencyRate)) == len(first)


def test_in_try_converts_with_the_rate_and_its_date(app, tcmb):
    tasks.fetch_rates()
    price = services.in_try(Decimal("12.50"), "eur", on=FRIDAY)
    rate = _rates()[("EUR", FRIDAY)]
    assert price.has_rate and not price.stale
    assert price.rate == rate and price.rate_date == FRIDAY
    assert price.amount == (Decimal("12.50") * rate).quantize(Decimal("0.01"))
    yen = services.in_try(1000, "JPY", on=FRIDAY)
    assert yen.amount == (1000 * _rates()[("JPY", FRIDAY)]).quantize(Decimal("0.01"))


def test_try_passes_through_and_a_currency_without_a_rate_says_so(app, tcmb):
    tasks.fetch_rates()
    lira = services.in_try("99.999", "TRY", on=FRIDAY)
    assert (lira.amount, lira.rate, lira.stale) == (Decimal("100.00"), Decimal(1), False)
    for amount, currency in (
        (10, "XYZ"),
        (10, ""),
        ("on lira", "EUR"),
        ("NaN", "USD"),
        ("1e400", "EUR"),
        (None, "TRY"),
    ):
        answer = services.in_try(amount, currency, on=FRIDAY)
        assert not answer.has_rate
        assert answer.amount is None and answer.rate is None and answer.rate_date is None
    assert not services.in_try(10, "EUR", on=date(2026, 11, 26)).has_rate  # no rate from before that day


@pytest.mark.parametrize(
    ("on", "stale"),
    [
        (date(2026, 11, 28), False),  # Saturday
        (date(2026, 11, 30), False),  # Monday: one working day
        (date(2026, 12, 1), False),  # Tuesday: two
        (date(2026, 12, 2), True),  # Wednesday: three
    ],
)
def test_a_rate_is_stale_after_two_working_days_across_a_weekend(app, tcmb, on, stale):
    tasks.fetch_rates()
    assert services.in_try(1, "USD", on=on).stale is stale


def test_a_public_holiday_is_not_a_working_day():
    wednesday_before_republic_day = date(2026, 10, 28)
    assert not services.is_working_day(date(2026, 10, 29))
    assert not services.is_stale(wednesday_before_republic_day, date(2026, 11, 2))  # Fri, (Sat, Sun), Mon
    assert services.is_stale(wednesday_before_republic_day, date(2026, 11, 3))
    assert services.working_days_after(date(2026, 12, 31), date(2027, 1, 4)) == 1  # 1 Jan (a Friday), the weekend
    assert services.is_stale(date(2025, 1, 1), date(2026, 1, 1))


def test_the_newest_rate_on_or_before_the_day_is_used(app, tcmb):
    tasks.fetch_rates()
    tcmb.faults.date = "30.11.2026"
    tasks.fetch_rates()
    assert services.in_try(1, "EUR", on=FRIDAY).rate_date == FRIDAY
    assert services.in_try(1, "EUR", on=date(2026, 12, 3)).rate_date == date(2026, 11, 30)
    assert set(services.rates_on(FRIDAY)) >= {"USD", "EUR", "JPY"}


@pytest.mark.parametrize(
    "fault",
    [{"error_status": 503}, {"error_status": 500}, {"malformed": True}, {"doctype": True}, {"date": "32.13.2026"}],
)
def test_a_failed_or_malformed_fetch_keeps_the_last_rates(app, tcmb, fault):
    tasks.fetch_rates()
    before = _rates()
    for name, value in fault.items():
        setattr(tcmb.faults, name, value)
    with pytest.raises((TcmbError, ValueError)):
        tasks.fetch_rates()
    db.session.rollback()
    assert _rates() == before
    assert services.in_try(10, "EUR", on=FRIDAY).has_rate


def test_a_hanging_bank_times_out(app, tcmb, monkeypatch):
    monkeypatch.setitem(app.config, "TCMB_TIMEOUT_MS", 300)
    tcmb.faults.hang_seconds = 3
    with pytest.raises(TcmbError, match="reached"):
        tasks.fetch_rates()


def test_a_file_past_the_size_cap_is_refused():
    huge = b"<Tarih_Date>" + b" " * (MAX_BYTES + 1)
    server = LoopbackServer(lambda environ, start: Response(huge)(environ, start), name="tcmb-huge").start()
    try:
        with pytest.raises(TcmbError, match="larger"):
            fetch_bulletin(server.url, 5)
    finally:
        server.stop()


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"<html><body>Hata</body></html>",
        b'<Tarih_Date Tarih="yarin"></Tarih_Date>',
        b'<Tarih_Date Tarih="27.11.2026"></Tarih_Date>',
        b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><Tarih_Date Tarih="&a;"/>',
    ],
)
def test_what_is_not_a_bulletin_is_refused(body):
    with pytest.raises(TcmbError):
        parse_bulletin(body)


def test_an_entry_without_a_usable_rate_is_skipped():
    body = bulletin_xml(FRIDAY).replace("<Unit>1</Unit>", "<Unit>0</Unit>", 1).encode()
    codes = {rate.code for rate in parse_bulletin(body).rates}
    assert "USD" not in codes and "EUR" in codes


def test_the_fetch_is_queued_once_and_scheduled_after_the_bulletin(app, tcmb):
    import worker

    entry = next(item for item in worker.SCHEDULE if item.func == "app.suppliers.currency.tasks.queue_fetch")
    assert entry.cron.split()[4] == "1-5"
    assert tasks.queue_fetch() == tasks.JOB_ID
    assert tasks.queue_fetch() is None  # the first is still queued


def test_the_rate_note_says_the_rate_its_day_and_when_it_is_old(app):
    from app.suppliers.currency.texts import rate_note

    rates = {"EUR": services.RateOnDay("EUR", Decimal("49.6011"), FRIDAY)}
    with app.test_request_context("/"):
        assert rate_note(services.convert(10, "EUR", rates, FRIDAY)) == "1 EUR = 49,6011 ₺ (TCMB 27.11.2026)"
        assert rate_note(services.convert(10, "EUR", rates, date(2026, 12, 2))).endswith(", kur eski")
        assert rate_note(services.convert(10, "USD", rates, FRIDAY)) == "USD için henüz TCMB kuru yok"
        assert rate_note(services.convert(10, "TRY", rates, FRIDAY)) == ""


def test_a_starting_worker_queues_the_fetch_only_when_nothing_was_fetched_today(app, tcmb):
    from app.extensions import queues

    tasks.queue_when_missing()
    queued = queues.get(tasks.QUEUE).fetch_job(tasks.JOB_ID)
    assert queued is not None
    queued.delete()
    tasks.fetch_rates()
    tasks.queue_when_missing()
    assert queues.get(tasks.QUEUE).fetch_job(tasks.JOB_ID) is None
