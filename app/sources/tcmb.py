"""The Central Bank's (TCMB) daily exchange rates: `today.xml` fetched within a timeout and a size cap, and parsed.

The bulletin lists each currency's rates per `Unit` (100 for JPY), so the rate per one unit of a currency is the
rate divided by its unit. The file is refused, never half read, when it is not the shape TCMB publishes; one holding
a DOCTYPE is refused before parsing, as the standard library's parser would expand the entities it declares.
"""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

import requests

log = logging.getLogger(__name__)

MAX_BYTES = 512 * 1024  # the real file is about 10 KB
CHUNK_BYTES = 16 * 1024


class TcmbError(Exception):
    """The rates could not be fetched, or the file is not a TCMB bulletin."""


@dataclass(frozen=True)
class BulletinRate:
    code: str
    unit: int
    forex_buying: Decimal | None
    forex_selling: Decimal | None

    @property
    def try_per_unit(self) -> Decimal | None:
        """TRY for one unit of the currency at the forex selling rate (docs/decisions.md)."""
        return None if self.forex_selling is None else self.forex_selling / self.unit


@dataclass(frozen=True)
class Bulletin:
    day: date
    number: str
    rates: tuple[BulletinRate, ...]


def fetch_bulletin(url: str, timeout_seconds: float, session: requests.Session | None = None) -> Bulletin:
    """Fetch and parse the bulletin at `url`; TcmbError on any failure."""
    return parse_bulletin(_download(url, timeout_seconds, session or requests.Session()))


def _download(url: str, timeout_seconds: float, session: requests.Session) -> bytes:
    try:
        with session.get(url, timeout=timeout_seconds, stream=True) as response:
            if response.status_code != 200:
                raise TcmbError(f"TCMB answered {response.status_code}")
            body = bytearray()
            for chunk in response.iter_content(CHUNK_BYTES):
                body += chunk
                if len(body) > MAX_BYTES:
                    raise TcmbError(f"TCMB's file is larger than {MAX_BYTES} bytes")
            return bytes(body)
    except requests.RequestException as error:
        raise TcmbError(f"TCMB could not be reached: {type(error).__name__}") from error


def parse_bulletin(body: bytes) -> Bulletin:
    """The bulletin in `body`; TcmbError when it is not well-formed, declares a DOCTYPE, or lacks its date."""
    if b"<!DOCTYPE" in body.upper() or b"<!ENTITY" in body.upper():
        raise TcmbError("TCMB's file declares a DOCTYPE")
    try:
        root = ET.fromstring(body)  # noqa: S314 (no DOCTYPE, so no entity to expand; defusedxml is no dependency)
    except ET.ParseError as error:
        raise TcmbError(f"TCMB's file is not well-formed XML: {error}") from error
    if root.tag != "Tarih_Date":
        raise TcmbError(f"TCMB's file starts with <{root.tag}>, not <Tarih_Date>")
    try:
        day = datetime.strptime(root.get("Tarih", ""), "%d.%m.%Y").date()
    except ValueError as error:
        raise TcmbError("TCMB's file has no readable date") from error
    rates = tuple(rate for rate in map(_rate, root.iter("Currency")) if rate is not None)
    if not rates:
        raise TcmbError("TCMB's file lists no currency")
    return Bulletin(day, root.get("Bulten_No", ""), rates)


def _rate(element: ET.Element) -> BulletinRate | None:
    code = (element.get("CurrencyCode") or element.get("Kod") or "").strip().upper()
    unit_text = (element.findtext("Unit") or "").strip()
    if len(code) != 3 or not code.isalpha() or not unit_text.isdigit() or int(unit_text) == 0:
        log.warning("TCMB: a currency entry without a usable code or unit skipped (%r)", code)
        return None
    buying, selling = _amount(element.findtext("ForexBuying")), _amount(element.findtext("ForexSelling"))
    return BulletinRate(code, int(unit_text), buying, selling)


def _amount(text: str | None) -> Decimal | None:
    try:
        value = Decimal((text or "").strip())
    except InvalidOperation:
        return None
    return value if value.is_finite() and value > 0 else None
