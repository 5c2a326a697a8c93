"""The catapi source: a parts-catalog REST API reached through rotating proxies with a short-lived bearer token.

Every call starts at the next proxy in turn; a timeout, refused connection, 5xx or unreadable body moves the retry
to the following proxy. The token is fetched on first use, kept until shortly before it expires and fetched again
once within a call when a proxy answers 401.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import requests

from app.sources.base import Car, LookupResult, RetryListener, timed
from app.sources.pictures import HotspotBox
from app.sources.quantity import parse_quantity

log = logging.getLogger(__name__)

T = TypeVar("T")
TOKEN_EXPIRY_MARGIN_SECONDS = 30.0  # renew this long before the upstream's expiry so no call races it
DEFAULT_PAGE_LIMIT = 25


class CatapiError(Exception):
    """Any catapi call that gave no usable answer."""


class CatapiUnavailableError(CatapiError):
    """Every attempt failed (timeouts, refused connections, 5xx, unreadable bodies)."""


class CatapiRejectedError(CatapiError):
    """The upstream refused the request itself (unknown id, bad credentials); retrying elsewhere will not help."""


class CatapiNotFoundError(CatapiRejectedError):
    """The upstream has no such catalog, model, car or group (HTTP 404)."""


class CatapiRateLimitedError(CatapiError):
    """The upstream asked us to slow down (HTTP 429): every proxy speaks for the same account, so none is tried
    next; `retry_after` is the wait it asked for, in seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.source = "catapi"


class _RetryableError(CatapiError):
    pass


# --- configuration -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CatapiSettings:
    base_urls: tuple[str, ...]
    token_url: str
    username: str
    password: str = field(repr=False)
    timeout_seconds: float = 6.0
    max_retries: int = 4

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> CatapiSettings:
        base_urls = _url_list(config.get("CATAPI_BASE_URLS", ""))
        token_url = config.get("CATAPI_TOKEN_URL", "") or (f"{base_urls[0]}/token" if base_urls else "")
        return cls(
            base_urls=base_urls,
            token_url=token_url,
            username=config.get("CATAPI_USERNAME", ""),
            password=config.get("CATAPI_PASSWORD", ""),
            timeout_seconds=int(config.get("PCAT_DECODE_TIMEOUT_MS", 6000)) / 1000,
            max_retries=int(config.get("PCAT_DECODE_MAX_RETRIES", 4)),
        )

    @property
    def attempts(self) -> int:
        return 1 + max(self.max_retries, 0)


def _url_list(value: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    items = value.split(",") if isinstance(value, str) else value
    return tuple(item.strip().rstrip("/") for item in items if item.strip())


# --- what the browsing calls return --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page(Generic[T]):
    items: tuple[T, ...]
    total: int
    page: int
    limit: int

    @property
    def has_next(self) -> bool:
        return self.page * self.limit < self.total


@dataclass(frozen=True)
class CatalogInfo:
    id: str
    name: str
    models_count: int


@dataclass(frozen=True)
class ModelInfo:
    id: str
    name: str


@dataclass(frozen=True)
class ParameterValue:
    idx: str  # what cars() takes to filter on this value
    value: str


@dataclass(frozen=True)
class CarParameter:
    """One of a model's car parameters (year, engine, gearbox, body...) with the values its cars take."""

    key: str
    name: str
    values: tuple[ParameterValue, ...]


@dataclass(frozen=True)
class GroupInfo:
    id: str
    parent_id: str | None
    name: str
    has_subgroups: bool
    has_parts: bool
    image_url: str | None


@dataclass(frozen=True)
class SchemaInfo:
    group_id: str
    category_id: str | None  # the category the picture belongs to; catapi groups are derived from it
    name: str
    image_url: str


@dataclass(frozen=True)
class PartRow:
    id: str
    oem: str
    name: str
    position: str | None
    remark: str | None
    unavailable: bool
    quantity: int | None = None  # how many the drawing takes (app.sources.quantity); None: not a count


@dataclass(frozen=True)
class PartsSheet:
    image_url: str
    width: int
    height: int
    parts: tuple[PartRow, ...]
    hotspots: tuple[HotspotBox, ...]


# --- the adapter ---------------------------------------------------------------------------------------------------


@dataclass
class _Token:
    value: str
    renew_at: float  # on the adapter's clock


class CatapiSource:
    name = "catapi"

    def __init__(
        self,
        settings: CatapiSettings,
        session: requests.Session | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not settings.base_urls:
            raise ValueError("catapi needs at least one base URL")
        self.settings = settings
        self._session = session or requests.Session()
        self._clock = clock  # when the token is due for renewal
        self._proxy_order = itertools.cycle(range(len(settings.base_urls)))
        self._token: _Token | None = None
        self._lock = threading.Lock()

    def close(self) -> None:
        self._session.close()

    def __enter__(self) -> CatapiSource:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- the VinSource side --------------------------------------------------------------------------------------

    def lookup_vin(self, vin: str, on_retry: RetryListener | None = None) -> LookupResult:
        return timed(self.name, lambda: self.cars_for_vin(vin, on_retry), (CatapiError,))

    def cars_for_vin(self, vin: str, on_retry: RetryListener | None = None) -> list[Car]:
        payload, _ = self._get("/car/info", {"q": vin}, on_retry)
        return [_car(item) for item in _expect_list(payload)]

    # --- browsing ------------------------------------------------------------------------------------------------

    def catalogs(self) -> list[CatalogInfo]:
        payload, _ = self._get("/catalogs/")
        items = _expect_list(payload)
        return [CatalogInfo(str(item["id"]), item["name"], int(item.get("modelsCount", 0))) for item in items]

    def models(self, catalog: str) -> list[ModelInfo]:
        payload, _ = self._get(f"/catalogs/{catalog}/models/")
        return [ModelInfo(str(item["id"]), item["name"]) for item in _expect_list(payload)]

    def car_parameters(self, catalog: str, model: str) -> list[CarParameter]:
        payload, _ = self._get(f"/catalogs/{catalog}/cars-parameters/", {"modelId": model})
        return [_parameter(item) for item in _expect_list(payload)]

    def cars(
        self,
        catalog: str,
        model: str,
        page: int = 1,
        limit: int = DEFAULT_PAGE_LIMIT,
        parameters: tuple[str, ...] = (),
    ) -> Page[Car]:
        """The model's cars, narrowed to those with every parameter value in `parameters` (their idx)."""
        params: dict[str, Any] = {"modelId": model, "page": page, "limit": limit}
        if parameters:
            params["parameter"] = list(parameters)
        payload, total = self._get(f"/catalogs/{catalog}/cars2/", params)
        return Page(tuple(_car(item) for item in _expect_list(payload)), total, page, limit)

    def car(self, catalog: str, car_id: str) -> Car:
        payload, _ = self._get(f"/catalogs/{catalog}/cars2/{car_id}")
        if not isinstance(payload, dict):
            raise CatapiUnavailableError("unexpected answer: expected a car")
        return _car(payload)

    def groups(self, catalog: str, car_id: str, group_id: str | None = None) -> list[GroupInfo]:
        params = {"carId": car_id, **({"groupId": group_id} if group_id else {})}
        payload, _ = self._get(f"/catalogs/{catalog}/groups2", params)
        return [_group(item) for item in _expect_list(payload)]

    def schemas(self, catalog: str, car_id: str, page: int = 1, limit: int = DEFAULT_PAGE_LIMIT) -> Page[SchemaInfo]:
        payload, total = self._get(f"/catalogs/{catalog}/schemas", {"carId": car_id, "page": page, "limit": limit})
        items = tuple(
            SchemaInfo(str(item["groupId"]), item.get("categoryId"), item["name"], item["img"])
            for item in _expect_list(payload)
        )
        return Page(items, total, page, limit)

    def parts(self, catalog: str, car_id: str, group_id: str, criteria: str | None = None) -> PartsSheet:
        """A picture's part rows; with the car's `criteria`, only the rows the upstream says are for that car."""
        params = {"carId": car_id, "groupId": group_id, **({"criteria": criteria} if criteria else {})}
        payload, _ = self._get(f"/catalogs/{catalog}/parts2", params)
        return _parts_sheet(payload)

    def image(self, url: str) -> bytes:
        """The bytes of a schema picture; images are public, so no token and no proxy rotation."""
        try:
            response = self._session.get(url, timeout=self.settings.timeout_seconds)
            response.raise_for_status()
        except requests.RequestException as error:
            raise CatapiUnavailableError(f"image: {type(error).__name__}") from error
        return response.content

    # --- transport -----------------------------------------------------------------------------------------------

    def _get(
        self, path: str, params: dict[str, Any] | None = None, on_retry: RetryListener | None = None
    ) -> tuple[Any, int]:
        """The decoded JSON body and X-Total-Count (0 when absent), trying the proxies in turn."""
        last_error: Exception | None = None
        for attempt in range(1, self.settings.attempts + 1):
            base_url = self._next_base_url()
            try:
                return self._get_once(base_url, path, params)
            except _RetryableError as error:
                last_error = error
                log.info("catapi %s via %s failed (attempt %d): %s", path, base_url, attempt, error)
                if on_retry is not None and attempt < self.settings.attempts:
                    on_retry(str(error))
        raise CatapiUnavailableError(f"{path} failed after {self.settings.attempts} attempts: {last_error}")

    def _get_once(self, base_url: str, path: str, params: dict[str, Any] | None) -> tuple[Any, int]:
        response = self._send(base_url, path, params, self._current_token())
        if response.status_code == 401:
            # The upstream may drop tokens before their stated expiry; one fresh token per call, then give up.
            self._forget_token()
            response = self._send(base_url, path, params, self._current_token())
        if response.status_code == 401:
            raise CatapiRejectedError(f"{path}: token refused")
        if response.status_code >= 500:
            raise _RetryableError(f"HTTP {response.status_code}")
        if response.status_code == 429:
            raise CatapiRateLimitedError(f"{path}: HTTP 429", _retry_after(response.headers.get("Retry-After")))
        if response.status_code == 404:
            raise CatapiNotFoundError(f"{path}: HTTP 404")
        if response.status_code >= 400:
            raise CatapiRejectedError(f"{path}: HTTP {response.status_code}")
        try:
            payload = response.json()
        except ValueError as error:
            raise _RetryableError("unreadable JSON") from error
        return payload, _total_count(response)

    def _send(self, base_url: str, path: str, params: dict[str, Any] | None, token: str) -> requests.Response:
        try:
            return self._session.get(
                f"{base_url}{path}",
                params=params,
                headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
                timeout=self.settings.timeout_seconds,
            )
        except requests.RequestException as error:
            raise _RetryableError(type(error).__name__) from error

    def _next_base_url(self) -> str:
        with self._lock:
            return self.settings.base_urls[next(self._proxy_order)]

    # --- token ---------------------------------------------------------------------------------------------------

    def _current_token(self) -> str:
        with self._lock:
            token = self._token
        if token is not None and self._clock() < token.renew_at:
            return token.value
        fresh = self._fetch_token()
        with self._lock:
            self._token = fresh
        return fresh.value

    def _forget_token(self) -> None:
        with self._lock:
            self._token = None

    def _fetch_token(self) -> _Token:
        credentials = {"username": self.settings.username, "password": self.settings.password}
        try:
            response = self._session.post(
                self.settings.token_url, json=credentials, timeout=self.settings.timeout_seconds
            )
        except requests.RequestException as error:
            raise _RetryableError(f"token: {type(error).__name__}") from error
        if response.status_code in (401, 403):
            raise CatapiRejectedError("token: credentials refused")
        if response.status_code != 200:
            raise _RetryableError(f"token: HTTP {response.status_code}")
        try:
            body = response.json()
            value, lifetime = str(body["token"]), float(body["expiresIn"])
        except (ValueError, KeyError, TypeError) as error:
            raise _RetryableError("token: unreadable answer") from error
        margin = min(TOKEN_EXPIRY_MARGIN_SECONDS, lifetime / 10)
        return _Token(value, self._clock() + lifetime - margin)


# --- JSON to dataclasses -------------------------------------------------------------------------------------------


def _expect_list(payload: Any) -> list[dict]:
    if not isinstance(payload, list) or not all(isinstance(item, dict) for item in payload):
        raise CatapiUnavailableError("unexpected answer: expected a list of objects")
    return payload


def _total_count(response: requests.Response) -> int:
    try:
        return int(response.headers.get("X-Total-Count", "0"))
    except ValueError:
        return 0


def _car(item: dict) -> Car:
    try:
        parameters = {str(entry["key"]): str(entry["value"]) for entry in item.get("parameters") or []}
        year = parameters.get("year")
        return Car(
            source="catapi",
            brand=item["brand"],
            model=item.get("model") or item.get("modelName") or item["name"],
            car_id=str(item.get("carId") or item["id"]),
            catalog_id=item["catalogId"],
            year=int(year) if year and year.isdigit() else None,
            engine=parameters.get("engine"),
            criteria=item.get("criteria"),
            parameters=parameters,
            raw={"name": item.get("name"), "modelId": item.get("modelId"), **_option_codes(item.get("optionCodes"))},
        )
    except (KeyError, TypeError) as error:
        raise CatapiUnavailableError(f"unexpected car: missing {error}") from error


def _option_codes(codes: Any) -> dict[str, list[str]]:
    """car/info's complete option (PR) code list, kept in the car's raw data; nothing when the answer has none."""
    if not isinstance(codes, list):
        return {}
    return {"optionCodes": [str(code) for code in codes if isinstance(code, str | int) and str(code).strip()]}


def _parameter(item: dict) -> CarParameter:
    try:
        values = tuple(ParameterValue(str(value["idx"]), str(value["value"])) for value in item["values"])
        return CarParameter(str(item["key"]), str(item.get("name") or item["key"]), values)
    except (KeyError, TypeError) as error:
        raise CatapiUnavailableError(f"unexpected parameter: {type(error).__name__} {error}") from error


def _group(item: dict) -> GroupInfo:
    try:
        return GroupInfo(
            id=str(item["id"]),
            parent_id=item.get("parentId"),
            name=item["name"],
            has_subgroups=bool(item.get("hasSubgroups")),
            has_parts=bool(item.get("hasParts")),
            image_url=item.get("img"),
        )
    except KeyError as error:
        raise CatapiUnavailableError(f"unexpected group: missing {error}") from error


def _parts_sheet(payload: Any) -> PartsSheet:
    try:
        parts = tuple(
            PartRow(
                str(part["id"]), part["number"], part["name"], part.get("positionNumber"), part.get("notice"),
                bool(part.get("unavailable")), parse_quantity(part.get("quantity")),
            )
            for group in payload["partGroups"]
            for part in group["parts"]
        )  # fmt: skip
        hotspots = tuple(
            HotspotBox(str(spot["number"]), *map(int, spot["coordinates"])) for spot in payload["positions"]
        )
        return PartsSheet(payload["img"], int(payload["imgWidth"]), int(payload["imgHeight"]), parts, hotspots)
    except (KeyError, TypeError, ValueError) as error:
        raise CatapiUnavailableError(f"unexpected parts answer: {type(error).__name__} {error}") from error


RATE_LIMIT_DEFAULT_WAIT = 60
RATE_LIMIT_MAX_WAIT = 3600


def _retry_after(header: str | None) -> int:
    """The seconds a 429's Retry-After asks for (a number of seconds; a date or nothing means a minute), at most an
    hour."""
    try:
        seconds = int((header or "").strip())
    except ValueError:
        return RATE_LIMIT_DEFAULT_WAIT
    return min(max(seconds, 1), RATE_LIMIT_MAX_WAIT)
