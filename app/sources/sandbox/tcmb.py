"""A stand-in for the Central Bank's (TCMB) daily rates on loopback: `/kurlar/today.xml` in TCMB's shape, and the
archive's `/kurlar/<YYYYMM>/<DDMMYYYY>.xml` for a given day.

Knobs (`faults`, or SANDBOX_TCMB_* settings): the day the bulletin says (`date`, DD.MM.YYYY; empty: the last working
day in Istanbul), every request answered with a status, a hang, a body cut short, a DOCTYPE with an entity bomb.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from app.sources.sandbox.catalog import DEFAULT_SEED
from app.sources.sandbox.common import SingleServerSandbox
from app.sources.sandbox.distributor_data import SANDBOX_TRY_PER_UNIT

ISTANBUL = ZoneInfo("Europe/Istanbul")
PATH = "/kurlar/today.xml"

# (code, unit, Turkish name, English name, ForexBuying on the sandbox's base day); XDR has no banknote rates.
CURRENCIES = (
    ("USD", 1, "ABD DOLARI", "US DOLLAR", SANDBOX_TRY_PER_UNIT["USD"]),
    ("AUD", 1, "AVUSTRALYA DOLARI", "AUSTRALIAN DOLLAR", Decimal("27.6215")),
    ("DKK", 1, "DANİMARKA KRONU", "DANISH KRONE", Decimal("6.6302")),
    ("EUR", 1, "EURO", "EURO", SANDBOX_TRY_PER_UNIT["EUR"]),
    ("GBP", 1, "İNGİLİZ STERLİNİ", "POUND STERLING", Decimal("56.0318")),
    ("CHF", 1, "İSVİÇRE FRANGI", "SWISS FRANK", Decimal("52.7410")),
    ("SEK", 1, "İSVEÇ KRONU", "SWEDISH KRONA", Decimal("4.4801")),
    ("JPY", 100, "JAPON YENİ", "JAPENESE YEN", Decimal("27.2104")),
    ("XDR", 1, "ÖZEL ÇEKME HAKKI (SDR)", "SPECIAL DRAWING RIGHT (SDR)", Decimal("57.3210")),
)
ENTITY_BOMB = (
    '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;">'
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>\n<Tarih_Date Tarih="&lol3;"></Tarih_Date>\n'
)

URLS = Map([Rule(PATH, endpoint="today"), Rule("/kurlar/<month>/<day>.xml", endpoint="archive")])


@dataclass
class TcmbFaults:
    date: str = ""  # DD.MM.YYYY the bulletin says; empty: the last working day in Istanbul
    latency_ms: int = 0
    hang_seconds: float = 0.0
    error_status: int = 0  # every request answered with this status
    error_rate: float = 0.0  # share of requests answered 503
    malformed: bool = False  # the body stops half way
    doctype: bool = False  # the body is a DOCTYPE with an entity bomb


class TcmbSandbox(SingleServerSandbox):
    server_name = "tcmb-sandbox"

    def __init__(self, seed: int = DEFAULT_SEED, faults: TcmbFaults | None = None, host: str = "127.0.0.1") -> None:
        super().__init__(seed, faults or TcmbFaults(), host)
        self.requests = 0

    @property
    def rates_url(self) -> str:
        return f"{self.url}{PATH}"

    def settings(self) -> dict[str, str]:
        """The setting that points the currency rates job at this sandbox."""
        return {"TCMB_RATES_URL": self.rates_url}

    def reset(self) -> None:
        self.faults = TcmbFaults()
        self.requests = 0

    @Request.application
    def _wsgi(self, request: Request) -> Response:
        self.requests += 1
        try:
            endpoint, args = URLS.bind_to_environ(request.environ).match()
        except HTTPException as error:
            return Response("Sayfa bulunamadı", status=error.code or 404)
        faults = self.faults
        self._pause(faults.hang_seconds or faults.latency_ms / 1000)
        if faults.error_status:
            return Response("<html><body>Hata</body></html>", status=faults.error_status, mimetype="text/html")
        if self._unlucky():
            return Response("<html><body>Servis kullanılamıyor</body></html>", status=503, mimetype="text/html")
        if faults.doctype:
            return Response(ENTITY_BOMB, mimetype="text/xml")
        day = self._day() if endpoint == "today" else _archive_day(args["day"])
        if day is None:
            return Response("Sayfa bulunamadı", status=404)
        body = bulletin_xml(day)
        return Response(body[: len(body) // 2] if faults.malformed else body, mimetype="text/xml")

    def _day(self) -> date:
        if self.faults.date:
            return datetime.strptime(self.faults.date, "%d.%m.%Y").date()
        day = datetime.now(ISTANBUL).date()
        while day.weekday() >= 5:
            day -= timedelta(days=1)
        return day


def _archive_day(name: str) -> date | None:
    try:
        return datetime.strptime(name, "%d%m%Y").date()
    except ValueError:
        return None


def _rate(value: Decimal) -> str:
    return f"{value:.4f}"


def bulletin_xml(day: date) -> str:
    """The day's bulletin in TCMB's shape; its rates move a little with the day."""
    shift = Decimal(zlib.crc32(day.isoformat().encode()) % 200 - 100) / Decimal(10_000)  # within ±1 %
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n<?xml-stylesheet type="text/xsl" href="isokur.xsl"?>\n',
        f'<Tarih_Date Tarih="{day:%d.%m.%Y}" Date="{day:%m/%d/%Y}"  Bulten_No="{day:%Y}/{day:%j}" >\n',
    ]
    for order, (code, unit, name_tr, name_en, base) in enumerate(CURRENCIES):
        buying = base * (1 + shift)
        selling = buying * Decimal("1.0018")
        banknote = code != "XDR"
        parts.append(
            f'\t<Currency CrossOrder="{order}" Kod="{code}" CurrencyCode="{code}">\n'
            f"\t\t\t<Unit>{unit}</Unit>\n\t\t\t<Isim>{name_tr}</Isim>\n\t\t\t<CurrencyName>{name_en}</CurrencyName>\n"
            f"\t\t\t<ForexBuying>{_rate(buying)}</ForexBuying>\n\t\t\t<ForexSelling>{_rate(selling)}</ForexSelling>\n"
            f"\t\t\t<BanknoteBuying>{_rate(buying * Decimal('0.9993')) if banknote else ''}</BanknoteBuying>\n"
            f"\t\t\t<BanknoteSelling>{_rate(selling * Decimal('1.0015')) if banknote else ''}</BanknoteSelling>\n"
            "\t\t\t<CrossRateUSD/>\n\t\t\t<CrossRateOther/>\n\t</Currency>\n"
        )
    parts.append("</Tarih_Date>\n")
    return "".join(parts)
