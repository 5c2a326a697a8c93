"""A stand-in for the dealer parts portal on loopback, serving the shared sandbox catalog with Turkish names.

The real portal is a website behind a form login: a session cookie opens every page, the session expires and the
client has to sign in again. Per brand service (vw, bmw, ...) it identifies VINs as JSON and shows the category tree
and the parts tables as HTML. Picture-level nodes link to their parts in several shapes (external vin/model items,
BOM, image board, per-part detail), some of them relative to the service directory. Every parts page shows the
illustration above its table with a list of hotspot boxes in data attributes (`data-pos`, `data-x`, `data-y`,
`data-w`, `data-h`); the image sits behind the login like every page. `faults` can be changed while it runs.
"""

from __future__ import annotations

import html
import json
import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from werkzeug.wrappers import Request, Response

from app.sources.sandbox.catalog import (
    DEFAULT_SEED,
    CatalogPart,
    Hotspot,
    RowFit,
    SchemaPicture,
    Vehicle,
)
from app.sources.sandbox.common import PictureFault, SingleServerSandbox, declared_size, picture_response
from app.sources.wmi import PORTAL_SERVICES

log = logging.getLogger(__name__)

SANDBOX_USERNAME = "bayi"
SANDBOX_PASSWORD = "portal-password"  # noqa: S105 - the sandbox's own fixed credential, not a secret
SESSION_COOKIE = "PORTALSESSID"
CSRF_FIELD = "__RequestToken"

# How picture-level nodes link to their parts, in turn over a vehicle's pictures.
LINK_SHAPES = ("vin_items", "mdl_items", "bom", "board", "part_detail")

# Items the MALFORMED picture fault adds to a hotspot list; none of them is a usable box with a position.
MALFORMED_HOTSPOTS = (
    '<li class="hotspot" data-pos="91" data-x="abc" data-y="10" data-w="40" data-h="20"></li>',
    '<li class="hotspot" data-pos="92" data-x="10" data-y="10" data-w="-40" data-h="20"></li>',
    '<li class="hotspot" data-pos="93" data-x="10" data-y="10" data-h="20"></li>',
    '<li class="hotspot" data-pos="" data-x="10" data-y="10" data-w="40" data-h="20"></li>',
    '<li class="hotspot" data-x="10" data-y="10" data-w="40" data-h="20">94</li>',
    '<li class="hotspot" data-pos="95" data-x="99999" data-y="10" data-w="40" data-h="20"></li>',
    '<li class="hotspot" data-pos="96" data-x="nan" data-y="10" data-w="40" data-h="20"></li>',
)


@dataclass
class PortalFaults:
    latency_ms: int = 0
    error_rate: float = 0.0  # share of pages answered 503
    garbage: bool = False  # pages answer 200 with a body that is neither the expected HTML nor JSON
    session_ttl_seconds: float = 1800.0  # after this a session cookie sends every page to /login
    login_broken: bool = False  # POST /login answers 500
    pictures: str = PictureFault.NONE  # what the parts pages get wrong about their illustration


@dataclass(frozen=True)
class RecordedCall:
    method: str
    path: str
    status: int
    query: str = ""  # the tree pages name their vehicle and group in it


@dataclass
class _State:
    sessions: dict[str, float] = field(default_factory=dict)  # session id -> expiry (on the sandbox's clock)
    csrf_tokens: set[str] = field(default_factory=set)
    calls: list[RecordedCall] = field(default_factory=list)


def _page(title: str, body: str, status: int = 200) -> Response:
    text = f'<!DOCTYPE html><html lang="tr"><head><meta charset="utf-8"><title>{html.escape(title)}</title></head>'
    return Response(f"{text}<body>{body}</body></html>", status=status, mimetype="text/html")


def _json(data: Any, status: int = 200) -> Response:
    return Response(json.dumps(data, ensure_ascii=False), status=status, mimetype="application/json")


def _redirect(location: str) -> Response:
    return Response("", status=302, headers={"Location": location})


def service_of(vehicle: Vehicle) -> str | None:
    return PORTAL_SERVICES.get(vehicle.catalog_id)


class PortalSandbox(SingleServerSandbox):
    """The fake dealer portal: `url` is its base address."""

    server_name = "portal-sandbox"

    def __init__(
        self,
        seed: int = DEFAULT_SEED,
        faults: PortalFaults | None = None,
        username: str = SANDBOX_USERNAME,
        password: str = SANDBOX_PASSWORD,
        host: str = "127.0.0.1",
    ) -> None:
        super().__init__(seed, faults or PortalFaults(), host)
        self._credentials = (username, password)
        self._state = _State()
        self._shapes = {
            vehicle.key: {schema.code: index for index, schema in enumerate(vehicle.all_schemas())}
            for vehicle in self.catalog.vehicles
        }

    def settings(self) -> dict[str, str]:
        """The settings that point the portal adapter at this sandbox."""
        username, password = self._credentials
        return {"PORTAL_BASE_URL": self.url, "PORTAL_USERNAME": username, "PORTAL_PASSWORD": password}

    # --- what tests look at or do ------------------------------------------------------------------------------

    def calls(self, path_prefix: str = "") -> list[RecordedCall]:
        with self._lock:
            calls = list(self._state.calls)
        return [call for call in calls if call.path.startswith(path_prefix)]

    def reset(self) -> None:
        with self._lock:
            self._state = _State()
        self.faults = PortalFaults()

    def expire_sessions(self) -> None:
        """End every session at once, as a portal restart would; clients land on /login next time."""
        with self._lock:
            self._state.sessions.clear()

    def link_shape(self, vehicle: Vehicle, code: str) -> str:
        return LINK_SHAPES[self._shapes[vehicle.key][code] % len(LINK_SHAPES)]

    # --- WSGI plumbing -----------------------------------------------------------------------------------------

    @Request.application
    def _wsgi(self, request: Request) -> Response:
        state = self._state
        response = self._handle(request)
        with self._lock:
            state.calls.append(
                RecordedCall(request.method, request.path, response.status_code, request.query_string.decode())
            )
        return response

    def _handle(self, request: Request) -> Response:
        faults = self.faults
        self._pause(faults.latency_ms / 1000)
        if request.path == "/login":
            return self._login(request)
        if not self._signed_in(request):
            return _redirect("/login")
        if self._unlucky():
            return _page("Hata", "<h1>Servis geçici olarak kullanılamıyor</h1>", 503)
        if faults.garbage:
            return Response("<html><body>Bakım çalışması", status=200, mimetype="text/html")
        handler = self._route(request.path)
        if handler is None:
            return _page("Bulunamadı", "<h1>Sayfa bulunamadı</h1>", 404)
        try:
            return handler(request)
        except LookupError:
            return _page("Bulunamadı", "<h1>Kayıt bulunamadı</h1>", 404)

    def _route(self, path: str) -> Callable[[Request], Response] | None:
        if match := re.fullmatch(r"/extern/([a-z]+)/(vin_items|mdl_items)", path):
            return lambda request: self._extern(request, match.group(2))
        if match := re.fullmatch(r"/([a-z]+)/(vin|groups|bom|board|part_detail|illustration)", path):
            service, page = match.groups()
            if service not in set(PORTAL_SERVICES.values()):
                return None
            return lambda request: getattr(self, f"_{page}")(request, service)
        return None

    # --- login -------------------------------------------------------------------------------------------------

    def _login(self, request: Request) -> Response:
        if request.method == "POST":
            if self.faults.login_broken:
                return _page("Hata", "<h1>Oturum servisi yanıt vermiyor</h1>", 500)
            form = request.form
            with self._lock:
                csrf_ok = form.get(CSRF_FIELD, "") in self._state.csrf_tokens
            if csrf_ok and (form.get("username"), form.get("password")) == self._credentials:
                session_id = secrets.token_urlsafe(18)
                with self._lock:
                    self._state.sessions[session_id] = self.clock() + self.faults.session_ttl_seconds
                response = _redirect("/")
                response.set_cookie(SESSION_COOKIE, session_id, httponly=True, path="/")
                return response
            return self._login_form("Kullanıcı adı veya şifre hatalı.")
        return self._login_form()

    def _login_form(self, error: str = "") -> Response:
        token = secrets.token_urlsafe(12)
        with self._lock:
            self._state.csrf_tokens.add(token)
        message = f'<p class="error">{html.escape(error)}</p>' if error else ""
        return _page(
            "Bayi Girişi",
            f'<h1>Bayi Girişi</h1>{message}<form id="login" method="post" action="/login">'
            f'<input type="hidden" name="{CSRF_FIELD}" value="{token}">'
            '<input type="text" name="username"><input type="password" name="password">'
            '<button type="submit">Giriş</button></form>',
        )

    def _signed_in(self, request: Request) -> bool:
        session_id = request.cookies.get(SESSION_COOKIE, "")
        with self._lock:
            expiry = self._state.sessions.get(session_id)
        return expiry is not None and expiry > self.clock()

    # --- pages -------------------------------------------------------------------------------------------------

    def _vin(self, request: Request, service: str) -> Response:
        vin = request.args.get("vin", "").strip().upper()
        vehicles = [item for item in self.catalog.cars_for_vin(vin, "portal") if service_of(item) == service]
        return _json({"vin": vin, "vehicles": [_vehicle_json(item) for item in vehicles[:1]]})

    def _groups(self, request: Request, service: str) -> Response:
        vehicle = self._vehicle(request.args.get("vehicle", ""), service)
        parent = request.args.get("parent", "")
        base = f"/{service}/groups?vehicle={vehicle.car_id}&parent="
        if not parent:
            rows = [_node_row(main.id, main.name_tr, base + main.id) for main in vehicle.categories]
        else:
            category = vehicle.category(parent)
            if category is None:
                raise LookupError(parent)
            rows = [_node_row(child.id, child.name_tr, base + child.id) for child in category.children]
            rows += [self._picture_row(vehicle, service, schema) for schema in category.schemas]
        return _page("Gruplar", f'<table class="groups"><tbody>{"".join(rows)}</tbody></table>')

    def _picture_row(self, vehicle: Vehicle, service: str, schema: SchemaPicture) -> str:
        index = self._shapes[vehicle.key][schema.code]
        shape = LINK_SHAPES[index % len(LINK_SHAPES)]
        query = f"vehicle={vehicle.car_id}&code={schema.code}"
        link = {
            "vin_items": f"/extern/{service}/vin_items?{query}",
            "mdl_items": f"/extern/{service}/mdl_items?model={vehicle.model_code}&code={schema.code}",
            "bom": f"bom?{query}",  # relative to the service directory, as the real portal writes some links
            "board": f"/{service}/board?{query}",
            "part_detail": f"/{service}/part_detail?{query}&pos=1",
        }[shape]
        remark = f"{vehicle.year}'den itibaren" if index % 6 == 1 else ""
        models = f"{vehicle.model_code}, {vehicle.model_code}X" if index % 4 == 2 else vehicle.model_code
        return _node_row(
            schema.code, schema.title_tr, link, unavailable=index % 7 == 3, remark=remark, models=models,
            presel=index % 3 == 0,
        )  # fmt: skip

    def _extern(self, request: Request, kind: str) -> Response:
        if kind == "mdl_items":
            model = request.args.get("model", "")
            vehicle = next((item for item in self.catalog.vehicles if item.model_code == model), None)
            if vehicle is None:
                raise LookupError(model)
        else:
            vehicle = self._vehicle(request.args.get("vehicle", ""))
        return self._parts_page(vehicle, request.args.get("code", ""))

    def _bom(self, request: Request, service: str) -> Response:
        vehicle = self._vehicle(request.args.get("vehicle", ""), service)
        return self._parts_page(vehicle, request.args.get("code", ""), heading="Malzeme listesi")

    def _board(self, request: Request, service: str) -> Response:
        vehicle = self._vehicle(request.args.get("vehicle", ""), service)
        return self._parts_page(vehicle, request.args.get("code", ""))

    def _part_detail(self, request: Request, service: str) -> Response:
        vehicle = self._vehicle(request.args.get("vehicle", ""), service)
        return self._parts_page(vehicle, request.args.get("code", ""), position=request.args.get("pos"))

    def _illustration(self, request: Request, service: str) -> Response:
        vehicle = self._vehicle(request.args.get("vehicle", ""), service)
        found = picture_response(self.seed, vehicle.key, request.args.get("code", ""), self.faults.pictures)
        if found is None:
            raise LookupError("illustration")
        return found

    def _parts_page(
        self, vehicle: Vehicle, code: str, heading: str = "Parçalar", position: str | None = None
    ) -> Response:
        schema = vehicle.schema(code)
        if schema is None:
            raise LookupError(code)
        parts = [part for part in schema.parts if position in (None, part.position)]
        rows = "".join(_part_row(part) for part in parts)
        head = (
            "<tr><th>Poz.</th><th>OEM</th><th>Parça adı</th><th>Adet</th><th>Açıklama</th><th>Model</th><th>PR</th>"
            "<th>Tarih</th><th>Motor</th><th>Şanzıman</th></tr>"
        )
        title = html.escape(schema.title_tr)
        figure = _illustration_block(vehicle, schema, self.faults.pictures)
        return _page(heading, f'<h1>{title}</h1>{figure}<table class="parts"><thead>{head}</thead>'
                              f"<tbody>{rows}</tbody></table>")  # fmt: skip

    def _vehicle(self, car_id: str, service: str | None = None) -> Vehicle:
        vehicle = next((item for item in self.catalog.vehicles if item.car_id == car_id), None)
        if vehicle is None or (service is not None and service_of(vehicle) != service):
            raise LookupError(car_id)
        return vehicle


# --- HTML and JSON shapes ------------------------------------------------------------------------------------------


def _vehicle_json(vehicle: Vehicle) -> dict:
    return {
        "vehicleId": vehicle.car_id,
        "brand": vehicle.brand,
        "model": vehicle.model,
        "name": vehicle.name,
        "year": vehicle.year,
        "engine": vehicle.engine,
        "gearbox": vehicle.gearbox,
        "body": vehicle.body,
        "modelCode": vehicle.model_code,
        "buildData": vehicle.build_data,
    }


def _node_row(
    external_id: str, name: str, link: str, unavailable: bool = False, remark: str = "", models: str = "",
    presel: bool = False,
) -> str:  # fmt: skip
    classes = "node unavailable" if unavailable else "node"
    return (
        f'<tr class="{classes}" data-id="{html.escape(external_id)}" data-presel="{int(presel)}">'
        f'<td class="name"><a href="{html.escape(link)}">{html.escape(name)}</a></td>'
        f'<td class="remark">{html.escape(remark)}</td><td class="models">{html.escape(models)}</td></tr>'
    )


def _illustration_block(vehicle: Vehicle, schema: SchemaPicture, fault: str) -> str:
    """The illustration with its hotspot list, as the portal shows it above a parts table."""
    service = service_of(vehicle)
    if service is None or fault == PictureFault.MISSING:
        return ""
    source = f"/{service}/illustration?vehicle={vehicle.car_id}&code={schema.code}"
    width, height = declared_size(schema, fault)
    items = [_hotspot_item(spot) for spot in schema.hotspots]
    items += MALFORMED_HOTSPOTS if fault == PictureFault.MALFORMED else ()
    return (
        f'<div class="illustration"><img src="{html.escape(source)}" width="{width}" height="{height}"'
        f' alt="{html.escape(schema.title_tr)}"><ol class="hotspots">{"".join(items)}</ol></div>'
    )


def _hotspot_item(spot: Hotspot) -> str:
    position = html.escape(spot.position)
    return (
        f'<li class="hotspot" data-pos="{position}" data-x="{spot.x1}" data-y="{spot.y1}"'
        f' data-w="{spot.x2 - spot.x1}" data-h="{spot.y2 - spot.y1}">{position}</li>'
    )


# The conditions only a remark states, as the portal writes them in Turkish (app.catalog.fit.remarks reads both).
TURKISH_NOTES = {
    "with air conditioning": "klimalı",
    "without air conditioning": "klimasız",
    "automatic gearbox": "otomatik şanzıman",
    "manual gearbox": "manuel şanzıman",
    "2-door": "2 kapılı",
    "4/5-door": "4/5 kapılı",
    "LHD": "soldan direksiyonlu",
}


def _turkish_remark(remark: str | None) -> str:
    if not remark:
        return ""
    if match := re.fullmatch(r"from (\d\d\.\d{4})", remark):
        return f"{match.group(1)} itibaren"
    if match := re.fullmatch(r"up to (\d\d\.\d{4})", remark):
        return f"{match.group(1)} tarihine kadar"
    return remark


def _turkish_note(note: str) -> str:
    if note.startswith("not for "):
        return f"{note.removeprefix('not for ')} hariç"
    return TURKISH_NOTES.get(note, note)


def _turkish_dates(fit: RowFit) -> str:
    start, end = (f"{date.month:02d}.{date.year}" if date else "" for date in (fit.date_from, fit.date_to))
    if start and end:
        return f"{start}-{end}"
    return f"{start} itibaren" if start else f"{end} tarihine kadar" if end else ""


def _part_row(part: CatalogPart) -> str:
    """A part row; its applicability in the PR, date, engine, gearbox and model columns and the remark."""
    classes = "part unavailable" if part.unavailable else "part"
    quantity = "" if part.quantity is None else str(part.quantity)  # an empty cell: as needed
    fit = part.fit or RowFit()
    remark = "; ".join(text for text in (_turkish_remark(part.remark), fit.note and _turkish_note(fit.note)) if text)
    cells = (
        part.position or "", part.oem, part.name_tr, quantity, remark, ", ".join(fit.model_codes), fit.options or "",
        _turkish_dates(fit), ", ".join(fit.engine_codes), ", ".join(fit.gearbox_codes),
    )  # fmt: skip
    names = ("pos", "oem", "name", "qty", "remark", "models", "pr", "date", "engine", "gearbox")
    body = "".join(f'<td class="{name}">{html.escape(value)}</td>' for name, value in zip(names, cells, strict=True))
    return f'<tr class="{classes}">{body}</tr>'
