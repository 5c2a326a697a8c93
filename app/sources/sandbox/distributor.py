"""A stand-in for three Turkish parts distributors' B2B services on loopback, one path prefix each
(app.sources.sandbox.distributor_data has their lists).

Per distributor `/<key>/...`:
- `GET api/v1/urunler?sayfa=&adet=`: the list a page at a time (JSON), and `GET api/v1/urunler/ara?no=`: the lines a
  number finds (own code, brand number, EAN or a number of the OE field); both need the `X-Api-Key` header.
- `GET fiyat-listesi.xml` and `GET fiyat-listesi.csv`: the whole list (flat XML, `;`-separated CSV in the distributor's
  encoding), streamed; HTTP basic auth, or the API key header.

`faults` can be changed while it runs (or set by SANDBOX_DISTRIBUTOR_* settings): latency, a hang, every request
answered with a status, a share of 503s, the credentials refused (the distributor changed them), a feed cut short;
`lines` makes every list that many lines long, for benchmarks.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from xml.sax.saxutils import escape

from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from app.sources.sandbox.catalog import DEFAULT_SEED
from app.sources.sandbox.common import SingleServerSandbox
from app.sources.sandbox.distributor_data import (
    BY_KEY,
    DISTRIBUTORS,
    Distributor,
    DistributorLine,
    default_lines,
    lines,
    normalised,
)

log = logging.getLogger(__name__)

API_KEY_HEADER = "X-Api-Key"
DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE = 100, 500
FEED_CHUNK_LINES = 500

URLS = Map(
    [
        Rule("/<distributor>/api/v1/urunler", endpoint="page"),
        Rule("/<distributor>/api/v1/urunler/ara", endpoint="lookup"),
        Rule("/<distributor>/fiyat-listesi.xml", endpoint="xml"),
        Rule("/<distributor>/fiyat-listesi.csv", endpoint="csv"),
    ]
)


@dataclass
class DistributorFaults:
    latency_ms: int = 0
    hang_seconds: float = 0.0  # sleep before answering, longer than a client's timeout
    error_status: int = 0  # every request answered with this status (500, 503)
    error_rate: float = 0.0  # share of requests answered 503
    credentials_changed: bool = False  # the right credentials are refused with 401, as after a password change
    truncated: bool = False  # the feeds stop half way, the XML without its closing tags
    lines: int = 0  # every list this many lines long (0: one round of the sandbox catalog's numbers)


@dataclass(frozen=True)
class DistributorConnection:
    """How the product reaches a demo distributor: its feed (pulled on a schedule) and its JSON API."""

    key: str
    name: str
    currency: str
    feed_url: str
    feed_format: str  # "xml" or "csv"
    auth_kind: str  # "basic" (username, password) or "token" (api_key in the api_key_header)
    username: str
    password: str
    api_key: str
    api_key_header: str
    api_url: str


def demo_distributors(base_url: str) -> tuple[DistributorConnection, ...]:
    """The three demo distributors served at `base_url` (SANDBOX_DISTRIBUTOR_URL): two XML feeds behind basic auth,
    one CSV feed behind a token header; none when no sandbox runs (`base_url` empty)."""
    base = base_url.rstrip("/")
    if not base:
        return ()
    formats = {"anadolu": ("xml", "basic"), "ege": ("xml", "basic"), "marmara": ("csv", "token")}
    return tuple(
        DistributorConnection(
            key=item.key,
            name=item.name,
            currency=item.currency,
            feed_url=f"{base}/{item.key}/fiyat-listesi.{formats[item.key][0]}",
            feed_format=formats[item.key][0],
            auth_kind=formats[item.key][1],
            username=item.username,
            password=item.password,
            api_key=item.api_key,
            api_key_header=API_KEY_HEADER,
            api_url=f"{base}/{item.key}/api/v1",
        )
        for item in DISTRIBUTORS
    )


@dataclass(frozen=True)
class RecordedCall:
    path: str
    status: int


@dataclass
class _State:
    calls: list[RecordedCall] = field(default_factory=list)


class DistributorSandbox(SingleServerSandbox):
    server_name = "distributor-sandbox"
    streams = True

    def __init__(
        self, seed: int = DEFAULT_SEED, faults: DistributorFaults | None = None, host: str = "127.0.0.1"
    ) -> None:
        super().__init__(seed, faults or DistributorFaults(), host)
        self._state = _State()

    def settings(self) -> dict[str, str]:
        """The setting that names this server; the demo suppliers' addresses come from `demo_distributors`."""
        return {"SANDBOX_DISTRIBUTOR_URL": self.url}

    def connections(self) -> tuple[DistributorConnection, ...]:
        return demo_distributors(self.url)

    def calls(self, path_prefix: str = "") -> list[RecordedCall]:
        with self._lock:
            return [call for call in self._state.calls if call.path.startswith(path_prefix)]

    def reset(self) -> None:
        with self._lock:
            self._state = _State()
        self.faults = DistributorFaults()

    def lines(self, distributor_key: str) -> Iterable[DistributorLine]:
        """The distributor's list as the faults make it: the kept default, or `faults.lines` generated."""
        if self.faults.lines:
            return lines(BY_KEY[distributor_key], self.seed, self.faults.lines)
        return default_lines(distributor_key, self.seed)

    @Request.application
    def _wsgi(self, request: Request) -> Response:
        state = self._state
        response = self._handle(request)
        with self._lock:
            state.calls.append(RecordedCall(request.path, response.status_code))
        return response

    def _handle(self, request: Request) -> Response:
        try:
            endpoint, args = URLS.bind_to_environ(request.environ).match()
            distributor = BY_KEY.get(args["distributor"])
            if distributor is None:
                raise NotFound()
        except HTTPException as error:
            return _json({"hata": "Bulunamadı"}, error.code or 404)
        faulty = self._fault_response()
        if faulty is not None:
            return faulty
        if not self._authorised(request, distributor, feed=endpoint in ("xml", "csv")):
            return _refused(feed=endpoint in ("xml", "csv"))
        return getattr(self, f"_{endpoint}")(request, distributor)

    def _fault_response(self) -> Response | None:
        faults = self.faults
        self._pause(faults.hang_seconds or faults.latency_ms / 1000)
        if faults.error_status:
            return _json({"hata": "Sunucu hatası"}, faults.error_status)
        if self._unlucky():
            return _json({"hata": "Servis geçici olarak kullanılamıyor"}, 503)
        return None

    def _authorised(self, request: Request, distributor: Distributor, feed: bool) -> bool:
        if self.faults.credentials_changed:
            return False
        if request.headers.get(API_KEY_HEADER) == distributor.api_key:
            return True
        auth = request.authorization
        return (
            feed and auth is not None and (auth.username, auth.password) == (distributor.username, distributor.password)
        )

    def _page(self, request: Request, distributor: Distributor) -> Response:
        page, size = _positive(request.args.get("sayfa"), 1), _positive(request.args.get("adet"), DEFAULT_PAGE_SIZE)
        if page is None or size is None or size > MAX_PAGE_SIZE:
            return _json({"hata": f"sayfa ve adet pozitif tamsayı olmalı (adet en çok {MAX_PAGE_SIZE})"}, 400)
        total = self.faults.lines or len(default_lines(distributor.key, self.seed))
        start = (page - 1) * size
        chosen = itertools.islice(self.lines(distributor.key), start, start + size)
        return _json(
            {
                "sayfa": page,
                "adet": size,
                "toplamKayit": total,
                "toplamSayfa": -(-total // size),
                "urunler": [item_json(line) for line in chosen],
            }
        )

    def _lookup(self, request: Request, distributor: Distributor) -> Response:
        number = normalised(request.args.get("no", ""))
        if len(number) < 3:
            return _json({"hata": "Aranan numara en az 3 karakter olmalı"}, 400)
        if self.faults.lines:
            found = [line for line in self.lines(distributor.key) if number in line.numbers()]
        else:
            everything = default_lines(distributor.key, self.seed)
            found = [everything[index] for index in _number_index(distributor.key, self.seed).get(number, ())]
        return _json({"no": request.args.get("no", ""), "urunler": [item_json(line) for line in found]})

    def _xml(self, _request: Request, distributor: Distributor) -> Response:
        chunks = xml_feed(distributor, self.lines(distributor.key), self.faults.truncated)
        return Response(chunks, mimetype="application/xml", content_type="application/xml; charset=utf-8")

    def _csv(self, _request: Request, distributor: Distributor) -> Response:
        chunks = csv_feed(distributor, self.lines(distributor.key), self.faults.truncated)
        charset = "utf-8" if distributor.csv_encoding == "utf-8-sig" else "windows-1254"
        return Response(chunks, content_type=f"text/csv; charset={charset}")


@lru_cache(maxsize=8)
def _number_index(distributor_key: str, seed: int) -> dict[str, tuple[int, ...]]:
    index: dict[str, list[int]] = {}
    for position, line in enumerate(default_lines(distributor_key, seed)):
        for number in line.numbers():
            index.setdefault(number, []).append(position)
    return {number: tuple(positions) for number, positions in index.items()}


def item_json(line: DistributorLine) -> dict:
    """A line as the JSON API answers it."""
    return {
        "stokKodu": line.code,
        "marka": line.brand,
        "ureticiKodu": line.article,
        "urunAdi": line.name,
        "fiyat": float(line.price),
        "paraBirimi": line.currency,
        "stok": line.stock,
        "barkod": line.ean,
        "oeNo": line.oe_text,
    }


def feed_columns(distributor: Distributor) -> tuple[str, ...]:
    """The feed's column names (the XML's child tags, the CSV's header), its warehouses' stock last."""
    stock_columns = tuple(f"Stok_{_ascii(warehouse)}" for warehouse in distributor.warehouses)
    return (
        "StokKodu",
        "Marka",
        "UreticiKodu",
        "UrunAdi",
        "OENo",
        "Barkod",
        "Fiyat",
        "ParaBirimi",
        "Stok",
        *stock_columns,
    )


def feed_row(line: DistributorLine) -> tuple[str, ...]:
    stock = list(line.stock.values())
    counts = [value for value in stock if isinstance(value, int)]
    summary = str(sum(counts)) if len(counts) == len(stock) else "Var" if "Var" in stock else "Yok"
    return (line.code, line.brand, line.article, line.name, line.oe_text, line.ean, turkish_amount(line.price),
            line.currency, summary, *(str(value) for value in stock))  # fmt: skip


def turkish_amount(amount: Decimal) -> str:
    """1234.5 -> "1.234,50"."""
    return f"{amount:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")


def xml_feed(distributor: Distributor, feed_lines: Iterable[DistributorLine], truncated: bool) -> Iterator[bytes]:
    row = "".join(f"<{tag}>{{}}</{tag}>" for tag in feed_columns(distributor))
    template = f"<Urun>{row}</Urun>\n"
    yield b'<?xml version="1.0" encoding="UTF-8"?>\n<Urunler>\n'
    for chunk in _chunks(feed_lines, truncated):
        yield "".join(template.format(*map(_escaped, feed_row(line))) for line in chunk).encode()
    if not truncated:
        yield b"</Urunler>\n"


def _escaped(value: str) -> str:
    return escape(value) if "&" in value or "<" in value or ">" in value else value


def csv_feed(distributor: Distributor, feed_lines: Iterable[DistributorLine], truncated: bool) -> Iterator[bytes]:
    encoding = "utf-8" if distributor.csv_encoding == "utf-8-sig" else distributor.csv_encoding
    bom = b"\xef\xbb\xbf" if distributor.csv_encoding == "utf-8-sig" else b""
    yield bom + _csv_text([feed_columns(distributor)]).encode(encoding, errors="replace")
    for chunk in _chunks(feed_lines, truncated):
        yield _csv_text(feed_row(line) for line in chunk).encode(encoding, errors="replace")


def _csv_text(rows: Iterable[Iterable[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=";", lineterminator="\r\n").writerows(rows)
    return buffer.getvalue()


def _chunks(feed_lines: Iterable[DistributorLine], truncated: bool) -> Iterator[list[DistributorLine]]:
    """The lines in chunks; a truncated feed stops after its first half (the first chunk at least)."""
    materialised = feed_lines if isinstance(feed_lines, tuple) else None
    limit = len(materialised) // 2 if truncated and materialised is not None else None
    iterator = iter(feed_lines)
    sent = 0
    while chunk := list(itertools.islice(iterator, FEED_CHUNK_LINES)):
        yield chunk
        sent += len(chunk)
        if truncated and (limit is None or sent >= limit):
            return


def _ascii(text: str) -> str:
    return text.translate(str.maketrans("İıŞşĞğÜüÖöÇç", "IiSsGgUuOoCc")).replace(" ", "_")


def _positive(raw: str | None, default: int) -> int | None:
    if raw is None or raw == "":
        return default
    usable = raw.isascii() and raw.isdigit() and len(raw) <= 9
    return int(raw) if usable and int(raw) > 0 else None


def _json(body: dict, status: int = 200) -> Response:
    return Response(json.dumps(body, ensure_ascii=False), status=status, content_type="application/json; charset=utf-8")


def _refused(feed: bool) -> Response:
    response = _json({"hata": "Yetkisiz erişim: kimlik bilgileri geçersiz"}, 401)
    if feed:
        response.headers["WWW-Authenticate"] = 'Basic realm="Fiyat listesi"'
    return response
