"""A stand-in for the 'scrape' public HTML catalog on loopback, built from the shared sandbox catalog (English names).

Pages: /brands, /brand/<brand>/ (vehicles), /vehicle/<code>/ (groups), /vehicle/<code>/group/<group_id>/ (parts
table under the schema picture and its image map), /search?vin= (candidate list) and
/wizard/<brand>?step=&body=&engine=... (parameter options). Every page wraps its content in `<main data-page="...">`,
which is what the adapter looks for. Pictures are static files beside the parts page (.../schema.png), served past the
browser challenge as a CDN would.

`faults` can be changed while it runs: latency, 5xx noise, broken HTML, a JavaScript-only shell (content rendered in
the browser from an inline JSON blob), a "checking your browser" challenge that a small script passes by setting
a cookie and reloading, and broken pictures (app.sources.sandbox.common.PictureFault).
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from html import escape

from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from app.sources.sandbox.catalog import DEFAULT_SEED, CarListing, CatalogPart, Hotspot, SchemaPicture, Vehicle
from app.sources.sandbox.common import PictureFault, SingleServerSandbox, declared_size, picture_response

log = logging.getLogger(__name__)

# A VIN the scrape catalog answers with two cars (the shared VIN table has none such for scrape).
VIN_SCRAPE_SEVERAL = "NMTKZ3BE70R200005"
EXTRA_VINS: dict[str, tuple[str, ...]] = {VIN_SCRAPE_SEVERAL: ("toyota-corolla-hybrid", "toyota-corolla-petrol")}

WIZARD_STEPS = ("body", "engine", "gearbox", "year")
CLEARANCE_COOKIE = "pb_clearance"
IMAGE_NAME = "schema.png"

# Areas the MALFORMED picture fault adds to a map: none has a usable box and position but the last two (a polygon,
# and a circle overshooting the corner).
MALFORMED_AREAS = (
    '<area shape="rect" coords="a,b,c,d" href="#" alt="91">',
    '<area shape="rect" coords="10,10,50" alt="92">',
    '<area shape="rect" coords="" alt="93">',
    '<area shape="rect" alt="93">',
    '<area shape="default" href="#" alt="94">',
    '<area shape="rect" coords="10,10,60,40" href="#">',
    '<area shape="rect" coords="50,50,50,80" alt="95">',
    '<area shape="rect" coords="-900,-900,-800,-800" alt="96">',
    '<area shape="rect" coords="1e999,0,5,5" alt="97">',
    '<area shape="circle" coords="100,100,-5" alt="97">',
    '<area shape="rect" coords="0,0,10,10" alt="12345678901234567890123">',
    '<area shape="poly" coords="30,30,60,30,45,70" alt="98">',
    '<area shape="circle" coords="0,0,20" title="99">',
)

URLS = Map(
    [
        Rule("/brands", endpoint="brands"),
        Rule("/brand/<brand>/", endpoint="vehicles"),
        Rule("/vehicle/<code>/", endpoint="groups"),
        Rule("/vehicle/<code>/group/<group_id>/", endpoint="parts"),
        Rule(f"/vehicle/<code>/group/<group_id>/{IMAGE_NAME}", endpoint="image"),
        Rule("/search", endpoint="search"),
        Rule("/wizard/<brand>", endpoint="wizard"),
    ],
    strict_slashes=False,
)


@dataclass
class ScrapeFaults:
    latency_ms: int = 0
    error_rate: float = 0.0  # share of pages answered 503
    garbage: bool = False  # pages answer 200 with broken HTML that has none of the expected structure
    js_only: bool = False  # pages are an empty shell that a script fills from an inline JSON blob
    challenge: bool = False  # pages without the clearance cookie answer a "checking your browser" page
    pictures: str = PictureFault.NONE  # what the parts pages get wrong about their picture


@dataclass(frozen=True)
class RecordedCall:
    path: str
    status: int
    user_agent: str


@dataclass
class _State:
    calls: list[RecordedCall] = field(default_factory=list)


def catalog_code(vehicle: Vehicle) -> str:
    """The scrape catalog's own code for a vehicle, e.g. REN-BH."""
    return f"{vehicle.catalog_id[:3].upper()}-{vehicle.model_code}"


def _attrs(values: dict[str, object]) -> str:
    return " ".join(f'{key}="{escape(str(value))}"' for key, value in values.items() if value is not None)


def _page(kind: str, title: str, body: str) -> str:
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{escape(title)}</title></head>'
        f'<body><main data-page="{kind}"><h1>{escape(title)}</h1>{body}</main></body></html>'
    )


class ScrapeSandbox(SingleServerSandbox):
    server_name = "scrape-sandbox"

    def __init__(self, seed: int = DEFAULT_SEED, faults: ScrapeFaults | None = None, host: str = "127.0.0.1") -> None:
        super().__init__(seed, faults or ScrapeFaults(), host)
        self.clearance = secrets.token_hex(8)
        self._by_code = {catalog_code(vehicle): vehicle for vehicle in self.catalog.vehicles}
        self._state = _State()

    def settings(self) -> dict[str, str]:
        """The settings that point the scrape adapter at this sandbox."""
        return {"SCRAPE_BASE_URL": self.url}

    def calls(self, path_prefix: str = "") -> list[RecordedCall]:
        with self._lock:
            return [call for call in self._state.calls if call.path.startswith(path_prefix)]

    def reset(self) -> None:
        with self._lock:
            self._state = _State()
        self.faults = ScrapeFaults()

    def vehicle(self, code: str) -> Vehicle:
        return self._by_code[code]

    def cars_for_vin(self, vin: str) -> tuple[Vehicle, ...]:
        vin = vin.strip().upper()
        if vin in EXTRA_VINS:
            return tuple(self.catalog.vehicle(key) for key in EXTRA_VINS[vin])
        return self.catalog.cars_for_vin(vin, "scrape")

    # --- WSGI ----------------------------------------------------------------------------------------------------

    @Request.application
    def _wsgi(self, request: Request) -> Response:
        state = self._state
        response = self._handle(request)
        with self._lock:
            state.calls.append(RecordedCall(request.path, response.status_code, request.user_agent.string))
        return response

    def _handle(self, request: Request) -> Response:
        faults = self.faults
        self._pause(faults.latency_ms / 1000)
        if self._unlucky():
            return _html("<html><body><h1>503 Service Unavailable</h1></body></html>", 503)
        is_image = request.path.endswith(f"/{IMAGE_NAME}")
        if faults.challenge and not is_image and request.cookies.get(CLEARANCE_COOKIE) != self.clearance:
            return _html(self._challenge_page(), 403)
        if faults.garbage and not is_image:
            return _html("<html><body><div class='content'><p>Temporarily unavaila<td><tr></body", 200)
        try:
            endpoint, args = URLS.bind_to_environ(request.environ).match()
            answer = getattr(self, f"_{endpoint}")(request, **args)
        except (NotFound, LookupError):
            return _html(_page("not-found", "Not found", "<p>No such page.</p>"), 404)
        except HTTPException as error:
            return _html(_page("error", "Bad request", ""), error.code or 400)
        if isinstance(answer, Response):
            return answer
        return _html(_js_shell(answer) if faults.js_only else answer)

    def _challenge_page(self) -> str:
        return (
            "<!doctype html><html><head><title>Just a moment...</title></head><body>"
            "<div id='challenge'><h1>Checking your browser before accessing the catalog</h1>"
            "<noscript>Please enable JavaScript and cookies to continue.</noscript></div>"
            f"<script>setTimeout(function () {{ document.cookie = '{CLEARANCE_COOKIE}={self.clearance}; path=/';"
            " location.reload(); }, 150);</script></body></html>"
        )

    # --- pages ---------------------------------------------------------------------------------------------------

    def _brands(self, _request: Request) -> str:
        brands = {vehicle.catalog_id: vehicle.brand for vehicle in self.catalog.vehicles}
        items = "".join(
            f'<li class="brand" data-brand="{escape(key)}"><a href="/brand/{escape(key)}/">{escape(name)}</a></li>'
            for key, name in sorted(brands.items())
        )
        return _page("brands", "Brands", f'<ul id="brands">{items}</ul>')

    def _vehicles(self, _request: Request, brand: str) -> str:
        vehicles = self._vehicles_of(brand)
        rows = "".join(
            f"<tr {_attrs(_vehicle_attrs(vehicle))}>"
            f'<td class="name"><a href="/vehicle/{catalog_code(vehicle)}/">{escape(vehicle.name)}</a></td>'
            f"<td>{vehicle.year}</td><td>{escape(vehicle.engine)}</td></tr>"
            for vehicle in vehicles
        )
        return _page("vehicles", f"{vehicles[0].brand} vehicles", f'<table id="vehicles"><tbody>{rows}</tbody></table>')

    def _groups(self, _request: Request, code: str) -> str:
        vehicle = self.vehicle(code)
        items = []
        for category in vehicle.all_categories():
            for schema in category.schemas:
                attrs = {"class": "group", "data-group-id": schema.code, "data-category": category.name_en}
                href = f"/vehicle/{code}/group/{schema.code}/"
                items.append(f'<li {_attrs(attrs)}><a href="{href}">{escape(schema.title_en)}</a></li>')
        return _page("groups", vehicle.name, f'<ul id="groups" data-catalog-code="{code}">{"".join(items)}</ul>')

    def _parts(self, _request: Request, code: str, group_id: str) -> str:
        vehicle = self.vehicle(code)
        schema = vehicle.schema(group_id)
        if schema is None:
            raise LookupError(group_id)
        rows = "".join(
            f'<tr class="part{" unavailable" if part.unavailable else ""}">'
            f'<td class="oem">{escape(part.oem)}</td><td class="name">{escape(part.name_en)}</td>'
            f'<td class="qty">{_quantity_text(part)}</td><td class="pos">{escape(part.position or "")}</td>'
            f'<td class="remark">{escape(part.notice_with_dates or "")}</td>'
            f'<td class="models">{escape(", ".join(part.fit.model_codes if part.fit else ()))}</td></tr>'
            for part in schema.parts
        )
        table = (
            f'<table id="parts" data-group-id="{escape(schema.code)}"><thead><tr><th>OEM</th><th>Name</th>'
            f"<th>Qty</th><th>Pos.</th><th>Remark</th><th>Models</th></tr></thead><tbody>{rows}</tbody></table>"
        )
        return _page("parts", schema.title_en, _schema_figure(code, schema, self.faults.pictures) + table)

    def _image(self, _request: Request, code: str, group_id: str) -> Response:
        found = picture_response(self.seed, self.vehicle(code).key, group_id, self.faults.pictures)
        if found is None:
            raise LookupError(group_id)
        return found

    def _search(self, request: Request) -> str:
        vin = request.args.get("vin", "").strip().upper()
        vehicles = self.cars_for_vin(vin)
        items = "".join(
            f"<div {_attrs({**_vehicle_attrs(vehicle), **_build_attrs(vehicle), 'class': 'candidate'})}"
            f' data-index="{index}"'
            f' data-session="{_session(vin, vehicle)}"><span>{escape(vehicle.name)}</span></div>'
            for index, vehicle in enumerate(vehicles)
        )
        empty = "" if vehicles else '<p class="empty">No vehicle found for this VIN.</p>'
        return _page("search", f"VIN {vin}", f'<div id="results" data-count="{len(vehicles)}">{items}{empty}</div>')

    def _wizard(self, request: Request, brand: str) -> str:
        vehicles = self._vehicles_of(brand)
        selected = {step: request.args[step] for step in WIZARD_STEPS if request.args.get(step)}
        step = request.args.get("step") or next((item for item in WIZARD_STEPS if item not in selected), "")
        if step and step not in WIZARD_STEPS:
            raise LookupError(step)
        matches = [
            (vehicle, listing)
            for vehicle in vehicles
            for listing in vehicle.listings
            if all(_listing_value(vehicle, listing, key) == value for key, value in selected.items())
        ]
        options = sorted({_listing_value(vehicle, listing, step) for vehicle, listing in matches}) if step else []
        option_items = "".join(
            f'<li class="option" data-value="{escape(value)}">{escape(value)}</li>' for value in options
        )
        match_items = "".join(
            f'<li class="match" data-catalog-code="{catalog_code(vehicle)}" data-car-id="{listing.car_id}"'
            f' data-year="{listing.year}" data-engine="{escape(listing.engine)}">{escape(listing.name)}</li>'
            for vehicle, listing in matches
        )
        chosen = "".join(
            f'<li class="selected" data-key="{key}" data-value="{escape(value)}">{escape(value)}</li>'
            for key, value in selected.items()
        )
        body = (
            f'<div id="wizard" data-brand="{escape(brand)}" data-step="{step}">'
            f'<ul id="selected">{chosen}</ul><ul id="options">{option_items}</ul>'
            f'<ul id="matches">{match_items}</ul></div>'
        )
        return _page("wizard", f"{vehicles[0].brand} wizard", body)

    def _vehicles_of(self, brand: str) -> list[Vehicle]:
        vehicles = [vehicle for vehicle in self.catalog.vehicles if vehicle.catalog_id == brand.lower()]
        if not vehicles:
            raise LookupError(brand)
        return vehicles


def _schema_figure(code: str, schema: SchemaPicture, fault: str) -> str:
    """The picture above the parts table with an image map over its numbered callouts, as such catalogs draw it."""
    if fault == PictureFault.MISSING:
        return ""
    name = f"schema-{schema.code}"
    width, height = declared_size(schema, fault)
    areas = [_area(spot) for spot in schema.hotspots]
    areas += MALFORMED_AREAS if fault == PictureFault.MALFORMED else ()
    return (
        f'<div class="schema"><img src="/vehicle/{code}/group/{schema.code}/{IMAGE_NAME}" width="{width}"'
        f' height="{height}" usemap="#{name}" alt="{escape(schema.title_en)}">'
        f'<map name="{name}">{"".join(areas)}</map></div>'
    )


def _area(spot: Hotspot) -> str:
    position = escape(spot.position)
    return (
        f'<area shape="rect" coords="{spot.x1},{spot.y1},{spot.x2},{spot.y2}" href="#pos-{position}"'
        f' alt="{position}" title="{position}">'
    )


def _quantity_text(part: CatalogPart) -> str:
    """The Qty cell as such catalogs fill it: the count, "as needed" on rows without one, nothing on reference rows."""
    if part.quantity is not None:
        return str(part.quantity)
    return "" if part.reference_code else "as needed"


def _listing_value(vehicle: Vehicle, listing: CarListing, key: str) -> str:
    return {"body": vehicle.body, "engine": listing.engine, "gearbox": listing.gearbox, "year": str(listing.year)}[key]


def _vehicle_attrs(vehicle: Vehicle) -> dict[str, object]:
    return {
        "class": "vehicle",
        "data-catalog-code": catalog_code(vehicle),
        "data-car-id": vehicle.car_id,
        "data-brand": vehicle.brand,
        "data-model": vehicle.model,
        "data-name": vehicle.name,
        "data-criteria": vehicle.criteria,
        **{f"data-param-{key.lower()}": value for key, value in vehicle.parameters.items()},
    }


def _build_attrs(vehicle: Vehicle) -> dict[str, object]:
    """What the VIN answer adds to the listed car: the build month (the web catalog prints no option codes)."""
    built = vehicle.build.build_date
    return {"data-param-builddate": f"{built.month:02d}.{built.year}"}


def _session(vin: str, vehicle: Vehicle) -> str:
    digest = hashlib.sha256(f"{vin}/{vehicle.key}".encode()).hexdigest()[:16]
    return f"ssd:{catalog_code(vehicle)}:{digest}"


def _js_shell(html: str) -> str:
    """The same page as an empty shell plus the content as JSON, rendered by a script in the browser."""
    start, end = html.index("<main"), html.index("</main>") + len("</main>")
    blob = json.dumps({"html": html[start:end]}).replace("</", "<\\/")
    return (
        f"{html[:start]}<div id='app'></div><noscript>This catalog needs JavaScript.</noscript>"
        f"<script id='page-data' type='application/json'>{blob}</script>"
        "<script>setTimeout(function () { var data = JSON.parse(document.getElementById('page-data').textContent);"
        " document.getElementById('app').innerHTML = data.html; }, 50);</script>"
        f"{html[end:]}"
    )


def _html(body: str, status: int = 200) -> Response:
    return Response(body, status=status, mimetype="text/html")
