"""A stand-in for the catapi parts-catalog API on loopback, serving the shared sandbox catalog.

The real API is reached through rotating proxies with a short-lived token, so the sandbox listens on one port per
"proxy" (all serving the same catalog) plus one for the token service. `faults` can be changed while it runs, so
tests and `make run` can make proxies slow, hang, fail or answer garbage.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from app.core.loopback import LoopbackServer
from app.sources.sandbox.catalog import DEFAULT_SEED, CarListing, Category, SchemaPicture, Vehicle
from app.sources.sandbox.common import Sandbox
from app.sources.sandbox.schema_image import render_schema_png

log = logging.getLogger(__name__)

SANDBOX_USERNAME = "sandbox"
SANDBOX_PASSWORD = "sandbox-password"  # noqa: S105 - the sandbox's own fixed credential, not a secret
DEFAULT_PAGE_LIMIT = 25
MAX_PAGE_LIMIT = 100

URLS = Map(
    [
        Rule("/catalogs/", endpoint="catalogs"),
        Rule("/catalogs/<catalog_id>/models/", endpoint="models"),
        Rule("/catalogs/<catalog_id>/cars-parameters/", endpoint="cars_parameters"),
        Rule("/catalogs/<catalog_id>/cars2/", endpoint="cars"),
        Rule("/catalogs/<catalog_id>/cars2/<car_id>", endpoint="car"),
        Rule("/car/info", endpoint="car_info"),
        Rule("/catalogs/<catalog_id>/groups2", endpoint="groups"),
        Rule("/catalogs/<catalog_id>/schemas", endpoint="schemas"),
        Rule("/catalogs/<catalog_id>/parts2", endpoint="parts"),
        Rule("/images/<vehicle_key>/<code>.png", endpoint="image"),
    ],
    strict_slashes=False,
)


@dataclass
class CatapiFaults:
    """What the sandbox gets wrong on purpose; proxy indexes count from 0 in `CatapiSandbox.urls` order."""

    latency_ms: int = 0
    error_rate: float = 0.0  # share of API calls answered 503
    hang: bool = False  # every proxy sleeps `hang_seconds` before answering
    hang_seconds: float = 2.0
    hanging_proxies: frozenset[int] = frozenset()
    failing_proxies: frozenset[int] = frozenset()  # these answer 502 like a dead proxy
    garbage: bool = False  # API calls answer 200 with a body that is not JSON
    rate_limited_seconds: int = 0  # above 0: API calls answer 429 with this Retry-After
    token_ttl_seconds: int = 3600


@dataclass(frozen=True)
class RecordedCall:
    server: str  # "auth" or "proxy-N"
    method: str
    path: str
    status: int


@dataclass
class _State:
    """Replaced whole on reset, so a request still hanging from an earlier test records into the old one."""

    tokens: dict[str, float] = field(default_factory=dict)  # token -> expiry (on the sandbox's clock)
    calls: list[RecordedCall] = field(default_factory=list)


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(data), status=status, mimetype="application/json", headers=headers)


def _error(message: str, status: int) -> Response:
    return _json({"code": status, "message": message}, status)


class CatapiSandbox(Sandbox):
    """The fake catapi: `urls` are the proxy base URLs, `token_url` the token service."""

    def __init__(
        self,
        seed: int = DEFAULT_SEED,
        proxies: int = 3,
        faults: CatapiFaults | None = None,
        username: str = SANDBOX_USERNAME,
        password: str = SANDBOX_PASSWORD,
        host: str = "127.0.0.1",
    ) -> None:
        super().__init__(seed, faults or CatapiFaults())
        self._credentials = (username, password)
        self._state = _State()
        self._auth = LoopbackServer(self._wsgi_for("auth", self._auth_app), host=host, name="catapi-token")
        self._proxies = [
            LoopbackServer(self._wsgi_for(f"proxy-{index}", self._proxy_app(index)), host=host, name="catapi-proxy")
            for index in range(proxies)
        ]

    # --- lifecycle ---------------------------------------------------------------------------------------------

    @property
    def urls(self) -> list[str]:
        return [server.url for server in self._proxies]

    def settings(self) -> dict[str, str]:
        """The settings that point the catapi adapter at this sandbox."""
        username, password = self._credentials
        return {
            "CATAPI_BASE_URLS": ",".join(self.urls),
            "CATAPI_TOKEN_URL": self.token_url,
            "CATAPI_USERNAME": username,
            "CATAPI_PASSWORD": password,
        }

    @property
    def token_url(self) -> str:
        return f"{self._auth.url}/token"

    def start(self) -> CatapiSandbox:
        for server in (self._auth, *self._proxies):
            server.start()
        log.info("catapi sandbox: token service %s, proxies %s", self.token_url, ", ".join(self.urls))
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes any request sleeping in a hang
        for server in (self._auth, *self._proxies):
            server.stop()

    # --- what tests look at or do ------------------------------------------------------------------------------

    def calls(self, server: str | None = None, path_prefix: str = "") -> list[RecordedCall]:
        with self._lock:
            calls = list(self._state.calls)
        return [
            call for call in calls if (server is None or call.server == server) and call.path.startswith(path_prefix)
        ]

    def reset(self) -> None:
        """Forget calls and tokens and clear the faults, between tests."""
        with self._lock:
            self._state = _State()
        self.faults = CatapiFaults()

    def revoke_tokens(self) -> None:
        """Invalidate every issued token, as an upstream restart would; clients see 401 next time."""
        with self._lock:
            self._state.tokens.clear()

    # --- WSGI plumbing -----------------------------------------------------------------------------------------

    def _wsgi_for(self, server: str, handler: Callable[[Request], Response]) -> Callable:
        @Request.application
        def application(request: Request) -> Response:
            state = self._state
            response = handler(request)
            with self._lock:
                state.calls.append(RecordedCall(server, request.method, request.path, response.status_code))
            return response

        return application

    def _auth_app(self, request: Request) -> Response:
        if request.path != "/token" or request.method != "POST":
            return _error("Not found", 404)
        body = request.get_json(silent=True) or {}
        if (body.get("username"), body.get("password")) != self._credentials:
            return _error("Invalid credentials", 401)
        token, ttl = secrets.token_urlsafe(24), self.faults.token_ttl_seconds
        with self._lock:
            self._state.tokens[token] = self.clock() + ttl
        return _json({"token": token, "expiresIn": ttl})

    def _proxy_app(self, index: int) -> Callable[[Request], Response]:
        def handle(request: Request) -> Response:
            faults = self.faults
            if index in faults.failing_proxies:
                return Response("<html><body>502 Bad Gateway</body></html>", status=502, mimetype="text/html")
            self._pause(faults.latency_ms / 1000)
            if faults.hang or index in faults.hanging_proxies:
                self._pause(faults.hang_seconds)
            if self._unlucky():
                return _error("Upstream temporarily unavailable", 503)
            if faults.rate_limited_seconds:
                refused = _error("Too many requests", 429)
                refused.headers["Retry-After"] = str(faults.rate_limited_seconds)
                return refused
            return self._route(request)

        return handle

    def _route(self, request: Request) -> Response:
        adapter = URLS.bind_to_environ(request.environ)
        try:
            endpoint, args = adapter.match()
        except NotFound:
            return _error("Not found", 404)
        except HTTPException as error:
            return _error(error.description or "Bad request", error.code or 400)
        if endpoint == "image":
            return self._image(**args)  # images sit on a CDN in the real API: no token
        if not self._authorised(request):
            return _error("Unauthorized", 401)
        if self.faults.garbage:
            return Response("<html>upstream error page</html>", status=200, mimetype="application/json")
        try:
            return getattr(self, f"_{endpoint}")(request, **args)
        except LookupError:
            return _error("Not found", 404)

    def _authorised(self, request: Request) -> bool:
        header = request.headers.get("Authorization", "")
        token = header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else ""
        with self._lock:
            expiry = self._state.tokens.get(token)
        return expiry is not None and expiry > self.clock()

    # --- the API -----------------------------------------------------------------------------------------------

    def _catalogs(self, _request: Request) -> Response:
        catalogs: dict[str, dict] = {}
        for vehicle in self.catalog.vehicles:
            entry = catalogs.setdefault(vehicle.catalog_id, {"id": vehicle.catalog_id, "name": vehicle.brand})
            entry.setdefault("models", set()).add(vehicle.model_id)
        return _json([{"id": c["id"], "name": c["name"], "modelsCount": len(c["models"])} for c in catalogs.values()])

    def _models(self, _request: Request, catalog_id: str) -> Response:
        vehicles = self._vehicles_of(catalog_id)
        models = {vehicle.model_id: {"id": vehicle.model_id, "name": vehicle.model} for vehicle in vehicles}
        return _json(list(models.values()))

    def _cars_parameters(self, request: Request, catalog_id: str) -> Response:
        vehicles = self._vehicles_of(catalog_id, request.args.get("modelId"))
        values: dict[str, set[str]] = {}
        for vehicle in vehicles:
            for listing in vehicle.listings:
                for key, value in _listing_parameters(vehicle, listing).items():
                    values.setdefault(key, set()).add(value)
        return _json(
            [
                {
                    "key": key,
                    "name": key.title(),
                    "values": [{"idx": _idx(key, value), "value": value} for value in sorted(options)],
                }
                for key, options in values.items()
            ]
        )

    def _cars(self, request: Request, catalog_id: str) -> Response:
        """The model's cars; each `parameter` (an idx of cars-parameters) narrows them to cars with that value."""
        vehicles = self._vehicles_of(catalog_id, request.args.get("modelId"))
        wanted = set(request.args.getlist("parameter"))
        cars = [
            _car_json(vehicle, listing.car_id, listing.name, listing=listing)
            for vehicle in vehicles
            for listing in vehicle.listings
            if wanted <= {_idx(key, value) for key, value in _listing_parameters(vehicle, listing).items()}
        ]
        return _page(request, cars)

    def _car(self, _request: Request, catalog_id: str, car_id: str) -> Response:
        vehicle = self._vehicle_for(catalog_id, car_id)
        listing = next(listing for listing in vehicle.listings if listing.car_id == car_id)
        return _json(_car_json(vehicle, car_id, listing.name, listing=listing))

    def _car_info(self, request: Request) -> Response:
        vin = request.args.get("q", "").strip().upper()
        vehicles = self.catalog.cars_for_vin(vin, "catapi")
        return _json([_car_json(vehicle, vehicle.car_id, vehicle.name, vin) for vehicle in vehicles])

    def _groups(self, request: Request, catalog_id: str) -> Response:
        vehicle = self._vehicle_for(catalog_id, request.args.get("carId", ""))
        group_id = request.args.get("groupId")
        if not group_id:
            return _json([_group_json(main, vehicle, request) for main in vehicle.categories])
        category = vehicle.category(group_id)
        if category is not None:
            children = [_group_json(child, vehicle, request) for child in category.children]
            return _json(children + [_schema_group_json(s, category.id, vehicle, request) for s in category.schemas])
        if vehicle.schema(group_id) is not None:
            return _json([])
        raise LookupError(group_id)

    def _schemas(self, request: Request, catalog_id: str) -> Response:
        vehicle = self._vehicle_for(catalog_id, request.args.get("carId", ""))
        items = [
            _schema_group_json(schema, category.id, vehicle, request)
            for category in vehicle.all_categories()
            for schema in category.schemas
        ]
        return _page(request, items)

    def _parts(self, request: Request, catalog_id: str) -> Response:
        vehicle = self._vehicle_for(catalog_id, request.args.get("carId", ""))
        schema = vehicle.schema(request.args.get("groupId", ""))
        if schema is None:
            raise LookupError("schema")
        criteria = request.args.get("criteria", "").strip()
        return _json(_parts_json(schema, vehicle, request, _criteria(criteria) if criteria else None))

    def _image(self, vehicle_key: str, code: str) -> Response:
        if vehicle_key not in {vehicle.key for vehicle in self.catalog.vehicles}:
            return _error("Not found", 404)
        png = render_schema_png(self.seed, vehicle_key, code)
        return Response(png, mimetype="image/png") if png else _error("Not found", 404)

    def _vehicles_of(self, catalog_id: str, model_id: str | None = None) -> list[Vehicle]:
        vehicles = [vehicle for vehicle in self.catalog.vehicles if vehicle.catalog_id == catalog_id]
        if not vehicles:
            raise LookupError(catalog_id)
        return [vehicle for vehicle in vehicles if model_id in (None, "", vehicle.model_id)]

    def _vehicle_for(self, catalog_id: str, car_id: str) -> Vehicle:
        vehicle = self.catalog.vehicle_for_car(car_id)
        if vehicle is None or vehicle.catalog_id != catalog_id:
            raise LookupError(car_id)
        return vehicle


# --- JSON shapes ---------------------------------------------------------------------------------------------------


def _page(request: Request, items: list[dict]) -> Response:
    page = max(request.args.get("page", 1, type=int) or 1, 1)
    limit = min(max(request.args.get("limit", DEFAULT_PAGE_LIMIT, type=int) or DEFAULT_PAGE_LIMIT, 1), MAX_PAGE_LIMIT)
    chunk = items[(page - 1) * limit : page * limit]
    return _json(chunk, headers={"X-Total-Count": str(len(items))})


def _listing_parameters(vehicle: Vehicle, listing: CarListing) -> dict[str, str]:
    return {"year": str(listing.year), "engine": listing.engine, "gearbox": listing.gearbox, "body": vehicle.body}


def _idx(key: str, value: str) -> str:
    return f"{key}:{value}"


def _car_json(
    vehicle: Vehicle, car_id: str, name: str, vin: str | None = None, listing: CarListing | None = None
) -> dict:
    """A car as catapi answers it; a listed engine variant gives its own year, engine, gearbox and model code, and
    criteria without a build date or options; a VIN's car its complete option codes."""
    own = vehicle.parameters
    if listing is not None:
        variant = {"modelCode": vehicle.build.variant_codes[listing.engine]}
        own = {**own, **_listing_parameters(vehicle, listing), **variant}
    parameters = [{"key": key, "name": key, "value": value} for key, value in own.items()]
    return {
        "catalogId": vehicle.catalog_id,
        "carId": car_id,
        "id": car_id,
        "brand": vehicle.brand,
        "name": name,
        "model": vehicle.model,
        "modelId": vehicle.model_id,
        "modelName": vehicle.model,
        "vin": vin,
        "criteria": vehicle.criteria if listing is None else vehicle.listing_criteria(listing),
        "parameters": parameters,
        **({"optionCodes": list(vehicle.build.options)} if listing is None else {}),
    }


def _image_url(request: Request, vehicle: Vehicle, schema: SchemaPicture) -> str:
    return f"{request.host_url}images/{vehicle.key}/{schema.code}.png"


def _group_json(category: Category, vehicle: Vehicle, request: Request) -> dict:
    first = next((schema for schema in category.schemas), None)
    return {
        "id": category.id,
        "parentId": category.parent_id,
        "name": category.name_en,
        "hasSubgroups": bool(category.children or category.schemas),
        "hasParts": False,
        "img": _image_url(request, vehicle, first) if first else None,
        "description": None,
    }


def _schema_group_json(schema: SchemaPicture, category_id: str, vehicle: Vehicle, request: Request) -> dict:
    return {
        "id": schema.code,
        "groupId": schema.code,
        "parentId": category_id,
        "categoryId": category_id,
        "name": schema.title_en,
        "hasSubgroups": False,
        "hasParts": True,
        "img": _image_url(request, vehicle, schema),
        "description": schema.code,
    }


def _criteria(text: str) -> dict[str, str]:
    """A criteria string "modelCode=AU;buildDate=2017-03" as its values (pieces without "=" are skipped)."""
    pairs = (piece.split("=", 1) for piece in text.split(";") if "=" in piece)
    return {key.strip(): value.strip() for key, value in pairs if key.strip() and value.strip()}


def _parts_json(
    schema: SchemaPicture, vehicle: Vehicle, request: Request, criteria: dict[str, str] | None = None
) -> dict:
    """A picture's rows; with criteria, without the rows they contradict (catapi's parts2 filter)."""
    groups: dict[str | None, list[dict]] = {}
    for part in schema.parts:
        if criteria is not None and part.fit is not None and part.fit.contradicted_by(criteria):
            continue
        groups.setdefault(part.position, []).append(
            {
                "id": part.key,
                "number": part.oem,
                "name": part.name_en,
                "positionNumber": part.position,
                "notice": part.notice,
                "quantity": part.quantity,  # null: as needed (and on reference rows)
                "unavailable": part.unavailable,
            }
        )
    return {
        "img": _image_url(request, vehicle, schema),
        "imgWidth": schema.width,
        "imgHeight": schema.height,
        "imgDescription": schema.title_en,
        "brand": vehicle.brand,
        "partGroups": [
            {"name": rows[0]["name"], "number": rows[0]["number"], "positionNumber": position, "parts": rows}
            for position, rows in groups.items()
        ],
        "positions": [
            {"number": spot.position, "coordinates": [spot.x1, spot.y1, spot.x2, spot.y2]} for spot in schema.hotspots
        ],
    }
