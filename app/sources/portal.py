"""The portal source: a dealer parts portal behind a form login, with JSON VIN identification and HTML pages.

A VIN goes to the portal service its WMI maps to (app.sources.wmi); makes the portal does not serve, or whose VIN
identification it has suspended, are answered NONE without any call. Pages are read with one login session (a
cookie jar); when a page sends us to /login the session has expired, so we sign in again once and repeat the page.

Browsing returns typed nodes and part rows. Picture-level nodes link to their parts in several shapes (external
vin/model items, BOM, image board, per-part detail): those are leaves, never drilled as categories. Part rows that
point to another illustration ('bk. tablo: 115-010') are recognised as reference rows. A parts page shows its
illustration with a list of hotspot boxes in data attributes (app.sources.pictures); the image is read in the session.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urljoin, urlsplit

import requests
from bs4 import BeautifulSoup, Tag

from app.sources.base import Car, LookupResult, Outcome, RetryListener, timed
from app.sources.pictures import ImageRefusedError, SchemaImage, from_coordinate_list, read_image
from app.sources.quantity import parse_quantity
from app.sources.wmi import DEFAULT_PORTAL_SUSPENDED, identify

log = logging.getLogger(__name__)

LOGIN_PATH = "/login"
REFERENCE_OEM = "N/A"
CODE_PATTERN = re.compile(r"\b(\d{3}-\d{3})\b")
ILLUSTRATION_PATTERN = re.compile(r"\{(\d{3}-\d{3})\}")
# The two Turkish 'see table' phrasings and the code after them, with the separator before them.
REFERENCE_PHRASE = re.compile(r"[\s,;]*(?:bk\.\s*tablo:|bakınız\s+tablo,\s*konum:)\s*(?:\d{3}-\d{3})?", re.IGNORECASE)
LEAF_PATH = re.compile(r"(?:/extern/[^/]+/(?:vin_items|mdl_items)|(?:^|/)(?:bom|board|part_detail))$")


class PortalError(Exception):
    """Any portal call that gave no usable answer."""


class PortalUnavailableError(PortalError):
    """Timeouts, refused connections, 5xx and unreadable pages."""


class PortalLoginError(PortalError):
    """The portal refused our credentials, or kept sending us back to the login page."""


class PortalRejectedError(PortalError):
    """The portal refused the request itself (unknown vehicle or page)."""


# --- configuration -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PortalSettings:
    base_url: str
    username: str
    password: str = field(repr=False)
    timeout_seconds: float = 8.0
    suspended: frozenset[str] = DEFAULT_PORTAL_SUSPENDED

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> PortalSettings:
        return cls(
            base_url=str(config.get("PORTAL_BASE_URL", "")).strip().rstrip("/"),
            username=config.get("PORTAL_USERNAME", ""),
            password=config.get("PORTAL_PASSWORD", ""),
            timeout_seconds=int(config.get("PORTAL_TIMEOUT_MS", 8000)) / 1000,
        )


# --- what the browsing calls return --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PortalNode:
    external_id: str
    name: str  # Turkish, as the portal shows it; picture-level names carry their {NNN-NNN} code
    link_path: str  # as the portal wrote it: absolute, or relative to the service directory
    unavailable: bool = False
    remark: str | None = None
    model_codes: tuple[str, ...] = ()
    presel: bool = False
    is_leaf: bool = False

    @property
    def illustration_code(self) -> str | None:
        match = ILLUSTRATION_PATTERN.search(self.name)
        return match.group(1) if match else None


@dataclass(frozen=True)
class PortalPart:
    oem: str
    name: str
    position: str | None
    remark: str | None
    unavailable: bool
    model_codes: tuple[str, ...] = ()
    reference_code: str | None = None  # set on reference rows: the illustration they point to
    label: str = ""  # what to display: the name, with the 'see table' phrasing stripped on reference rows
    quantity: int | None = None  # the Adet column (app.sources.quantity); None: empty ("as needed") or no count
    # Which cars the row is for, as the portal writes it (app.catalog.fit.rules reads them): the PR column's option
    # expression ("1ZD/1ZF+!9AA"), the date column ("06.2015-11.2017", "06.2015 itibaren"), engine and gearbox codes.
    options: str | None = None
    dates: str | None = None
    engine_codes: tuple[str, ...] = ()
    gearbox_codes: tuple[str, ...] = ()

    @property
    def is_reference(self) -> bool:
        return self.reference_code is not None


@dataclass(frozen=True)
class PortalSheet:
    parts: tuple[PortalPart, ...]
    picture: SchemaImage | None  # None when the page has no usable illustration


def is_leaf_link(link: str) -> bool:
    """Links whose page is a parts list (external items, BOM, image board, per-part detail), not a category."""
    return bool(LEAF_PATH.search(urlsplit(link).path.rstrip("/")))


def parse_part(oem: str, name: str, position: str | None, remark: str | None, unavailable: bool,
               model_codes: tuple[str, ...] = (), quantity: int | None = None) -> PortalPart:  # fmt: skip
    """A part row, recognising reference rows: oem N/A, a 'see table' phrasing in the name, NNN-NNN in the remark."""
    reference_code = None
    label = name
    code = CODE_PATTERN.search(remark or "")
    if oem.strip().upper() == REFERENCE_OEM and REFERENCE_PHRASE.search(name) and code:
        reference_code = code.group(1)
        label = REFERENCE_PHRASE.sub("", name).strip(" ,;")
        quantity = None  # a pointer to another picture, not a part anyone takes
    return PortalPart(oem, name, position, remark, unavailable, model_codes, reference_code, label, quantity)


# --- the adapter ---------------------------------------------------------------------------------------------------


class PortalSource:
    name = "portal"

    def __init__(self, settings: PortalSettings, session: requests.Session | None = None) -> None:
        if not settings.base_url:
            raise ValueError("portal needs a base URL")
        self.settings = settings
        self._session = session or requests.Session()
        self._signed_in = False
        self._lock = threading.Lock()  # one login at a time

    def close(self) -> None:
        self._session.close()

    def __enter__(self) -> PortalSource:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- the VinSource side --------------------------------------------------------------------------------------

    def lookup_vin(self, vin: str, on_retry: RetryListener | None = None) -> LookupResult:  # no retries
        info = identify(vin)
        if info is None or not info.routed_to_portal(self.settings.suspended):
            return LookupResult(self.name, Outcome.NONE)
        service = info.portal_service or ""
        return timed(self.name, lambda: self.cars_for_vin(vin, service), (PortalError,))

    def cars_for_vin(self, vin: str, service: str) -> list[Car]:
        response = self._get(f"/{service}/vin", {"vin": vin.strip().upper()})
        try:
            vehicles = response.json()["vehicles"]
            return [_car(item, service) for item in vehicles]
        except (ValueError, KeyError, TypeError) as error:
            raise PortalUnavailableError(f"vin: unreadable answer ({type(error).__name__})") from error

    # --- browsing ------------------------------------------------------------------------------------------------

    def main_groups(self, service: str, vehicle: str) -> list[PortalNode]:
        return self._nodes(self._get(f"/{service}/groups", {"vehicle": vehicle}))

    def children(self, service: str, vehicle: str, parent: str) -> list[PortalNode]:
        return self._nodes(self._get(f"/{service}/groups", {"vehicle": vehicle, "parent": parent}))

    def parts(self, link: str, service: str | None = None) -> list[PortalPart]:
        """The part rows behind a leaf link; a relative link is read against the service directory."""
        return list(self.parts_sheet(link, service).parts)

    def parts_sheet(self, link: str, service: str | None = None) -> PortalSheet:
        """The part rows behind a leaf link and the illustration above them, whose hotspots come from its coordinate
        list; a relative link is read against the service directory."""
        directory = f"{self.settings.base_url}/{service}/" if service else f"{self.settings.base_url}/"
        response = self._get(urljoin(directory, link))
        soup = _soup(response)
        table = soup.find("table", class_="parts")
        if not isinstance(table, Tag):
            raise PortalUnavailableError("parts: unexpected page")
        illustration = soup.find(class_="illustration")
        picture = from_coordinate_list(illustration, response.url) if isinstance(illustration, Tag) else None
        return PortalSheet(tuple(_part(row) for row in table.select("tbody tr")), picture)

    def image(self, url: str) -> bytes:
        """The bytes of an illustration, read in the login session; refused (ImageRefusedError) when the portal has
        no such page or the body is no usable image."""
        try:
            response = self._get(url, stream=True)
        except PortalRejectedError as error:
            raise ImageRefusedError(str(error)) from error
        with response:
            try:
                return read_image(response)
            except requests.RequestException as error:
                raise PortalUnavailableError(f"image: {type(error).__name__}") from error

    # --- session -------------------------------------------------------------------------------------------------

    def login(self) -> None:
        with self._lock:
            self._signed_in = False
            self._session.cookies.clear()
            form_page = self._send("GET", LOGIN_PATH)
            if form_page.status_code != 200:
                raise PortalUnavailableError(f"login form: HTTP {form_page.status_code}")
            form = _soup(form_page).find("form")
            if not isinstance(form, Tag):
                raise PortalUnavailableError("login form: unexpected page")
            fields = {
                str(item.get("name")): str(item.get("value") or "")
                for item in form.find_all("input", type="hidden")
                if item.get("name")
            }
            fields |= {"username": self.settings.username, "password": self.settings.password}
            answer = self._send("POST", LOGIN_PATH, data=fields)
            if answer.status_code >= 500:
                raise PortalUnavailableError(f"login: HTTP {answer.status_code}")
            if answer.status_code != 302 or _is_login_redirect(answer):
                raise PortalLoginError("login: credentials refused")
            self._signed_in = True

    # --- transport -----------------------------------------------------------------------------------------------

    def _get(self, path_or_url: str, params: dict[str, Any] | None = None, stream: bool = False) -> requests.Response:
        if not self._signed_in:
            self.login()
        response = self._send("GET", path_or_url, params=params, stream=stream)
        if _is_login_redirect(response):
            log.info("portal session expired; signing in again")
            self.login()
            response = self._send("GET", path_or_url, params=params, stream=stream)
            if _is_login_redirect(response):
                raise PortalLoginError("session refused right after login")
        if response.status_code >= 500:
            raise PortalUnavailableError(f"HTTP {response.status_code}")
        if response.status_code != 200:
            raise PortalRejectedError(f"{urlsplit(response.url).path}: HTTP {response.status_code}")
        return response

    def _send(self, method: str, path_or_url: str, **kwargs: Any) -> requests.Response:
        url = path_or_url if "://" in path_or_url else f"{self.settings.base_url}{path_or_url}"
        try:
            return self._session.request(
                method, url, allow_redirects=False, timeout=self.settings.timeout_seconds, **kwargs
            )
        except requests.RequestException as error:
            raise PortalUnavailableError(type(error).__name__) from error

    def _nodes(self, response: requests.Response) -> list[PortalNode]:
        table = _soup(response).find("table", class_="groups")
        if not isinstance(table, Tag):
            raise PortalUnavailableError("groups: unexpected page")
        return [_node(row) for row in table.select("tbody tr")]


# --- pages to dataclasses ------------------------------------------------------------------------------------------


def _is_login_redirect(response: requests.Response) -> bool:
    return response.status_code in (301, 302, 303, 307) and urlsplit(response.headers.get("Location", "")).path in (
        LOGIN_PATH,
        LOGIN_PATH.lstrip("/"),
    )


def _soup(response: requests.Response) -> BeautifulSoup:
    response.encoding = response.encoding or "utf-8"
    return BeautifulSoup(response.text, "html.parser")


def _cell(row: Tag, name: str) -> str:
    cell = row.find("td", class_=name)
    return cell.get_text(" ", strip=True) if isinstance(cell, Tag) else ""


def _codes(text: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in text.split(",") if item.strip())


def _node(row: Tag) -> PortalNode:
    anchor = row.select_one("td.name a")
    external_id = row.get("data-id")
    if anchor is None or not external_id:
        raise PortalUnavailableError("groups: unexpected row")
    link = str(anchor.get("href") or "")
    return PortalNode(
        external_id=str(external_id),
        name=anchor.get_text(" ", strip=True),
        link_path=link,
        unavailable="unavailable" in (row.get("class") or []),
        remark=_cell(row, "remark") or None,
        model_codes=_codes(_cell(row, "models")),
        presel=row.get("data-presel") == "1",
        is_leaf=is_leaf_link(link),
    )


def _part(row: Tag) -> PortalPart:
    oem, name = _cell(row, "oem"), _cell(row, "name")
    if not oem or not name:
        raise PortalUnavailableError("parts: unexpected row")
    part = parse_part(
        oem, name, _cell(row, "pos") or None, _cell(row, "remark") or None,
        "unavailable" in (row.get("class") or []), _codes(_cell(row, "models")), parse_quantity(_cell(row, "qty")),
    )  # fmt: skip
    if part.is_reference:
        return part  # a pointer to another picture is for whichever car that picture is for
    return replace(
        part,
        options=_cell(row, "pr") or None,
        dates=_cell(row, "date") or None,
        engine_codes=_codes(_cell(row, "engine")),
        gearbox_codes=_codes(_cell(row, "gearbox")),
    )


def _car(item: dict, service: str) -> Car:
    year = item.get("year")
    return Car(
        source="portal",
        brand=item["brand"],
        model=item["model"],
        car_id=str(item["vehicleId"]),
        catalog_id=service,
        year=int(year) if isinstance(year, int | str) and str(year).isdigit() else None,
        engine=item.get("engine"),
        parameters={key: str(item[key]) for key in ("year", "engine", "gearbox", "body", "modelCode") if item.get(key)},
        raw={"service": service, "vehicleId": str(item["vehicleId"]), "name": item.get("name"), **_build_data(item)},
    )


BUILD_DATA_KEYS = ("modelCode", "engineCode", "gearboxCode", "buildDate", "market")


def _build_data(item: dict) -> dict[str, dict[str, Any]]:
    """The car's build data as the portal gives it (app.catalog.fit.vehicle_facts reads it); nothing when absent."""
    build = item.get("buildData")
    if not isinstance(build, dict):
        return {}
    kept: dict[str, Any] = {key: str(build[key]) for key in BUILD_DATA_KEYS if isinstance(build.get(key), str | int)}
    codes = build.get("prCodes")
    if isinstance(codes, list):
        kept["prCodes"] = [str(code) for code in codes if isinstance(code, str) and code.strip()]
    return {"buildData": kept}
