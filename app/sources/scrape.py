"""The scrape source: a public HTML parts catalog read with plain HTTP requests, with a headless-browser fallback.

Pages are fetched with `requests` and parsed with BeautifulSoup. Every page of the catalog wraps its content in
`<main data-page="...">`; when that is missing because the page is a JavaScript-only shell or a "checking your
browser" challenge, the same URL is opened in headless Chromium through Selenium and the rendered HTML is parsed the
same way (app.sources.scrape_browser). Anything else without the expected structure (timeouts, 5xx, broken HTML) is a
failure. A parts page shows its schema picture with an HTML image map (app.sources.pictures); the image itself is a
static file, read with `requests` whichever way the page came.

Scrape parts from a local source dump (app.sources.scrape_dump) are read only for catalog codes listed in
SCRAPE_DUMP_ALLOWED_CATALOGS (default empty: none). The errors and records are in app.sources.scrape_types.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import requests
from bs4 import BeautifulSoup, Tag

from app.sources.base import Car, LookupResult, RetryListener, timed
from app.sources.pictures import from_image_map, read_image
from app.sources.quantity import parse_quantity
from app.sources.scrape_browser import HeadlessBrowser
from app.sources.scrape_dump import read_dump_parts
from app.sources.scrape_types import (
    BrandInfo,
    GroupInfo,
    PartRow,
    PartsSheet,
    ScrapeError,
    ScrapeNotFoundError,
    ScrapeUnavailableError,
    VehicleInfo,
    WizardMatch,
    WizardPage,
)

log = logging.getLogger(__name__)

WIZARD_STEPS = ("body", "engine", "gearbox", "year")
CHALLENGE_MARKERS = ("checking your browser", "just a moment")
FALSE_WORDS = {"0", "false", "no", "off", ""}


# --- configuration -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScrapeSettings:
    base_url: str
    timeout_seconds: float = 8.0
    browser_fallback: bool = True
    dump_allowed_catalogs: frozenset[str] = frozenset()
    dump_dir: str = ""
    chromium_path: str = "/usr/bin/chromium"
    chromedriver_path: str = "/usr/bin/chromedriver"

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> ScrapeSettings:
        return cls(
            base_url=str(config.get("SCRAPE_BASE_URL", "") or "").strip().rstrip("/"),
            timeout_seconds=int(config.get("SCRAPE_TIMEOUT_MS", 8000)) / 1000,
            browser_fallback=_flag(config.get("SCRAPE_BROWSER_FALLBACK", True)),
            dump_allowed_catalogs=_code_set(config.get("SCRAPE_DUMP_ALLOWED_CATALOGS", "")),
            dump_dir=str(config.get("SCRAPE_DUMP_DIR", "") or ""),
            chromium_path=str(config.get("SCRAPE_CHROMIUM_PATH", "/usr/bin/chromium")),
            chromedriver_path=str(config.get("SCRAPE_CHROMEDRIVER_PATH", "/usr/bin/chromedriver")),
        )


def _flag(value: Any) -> bool:
    return value if isinstance(value, bool) else str(value).strip().lower() not in FALSE_WORDS


def _code_set(value: str | list[str] | tuple[str, ...] | frozenset[str] | None) -> frozenset[str]:
    items = (value or "").split(",") if isinstance(value, str) or value is None else value
    return frozenset(item.strip().upper() for item in items if item and item.strip())


# --- the adapter ---------------------------------------------------------------------------------------------------


class ScrapeSource:
    name = "scrape"

    def __init__(self, settings: ScrapeSettings, session: requests.Session | None = None) -> None:
        if not settings.base_url:
            raise ValueError("scrape needs SCRAPE_BASE_URL")
        self.settings = settings
        self._session = session or requests.Session()
        self._browser = HeadlessBrowser(settings.chromium_path, settings.chromedriver_path, settings.timeout_seconds)
        self.browser_pages = 0  # pages that needed the browser, for logs and tests

    def close(self) -> None:
        self._session.close()
        self._browser.close()

    def __enter__(self) -> ScrapeSource:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- the VinSource side --------------------------------------------------------------------------------------

    def lookup_vin(self, vin: str, on_retry: RetryListener | None = None) -> LookupResult:  # no retries
        return timed(self.name, lambda: self.cars_for_vin(vin), (ScrapeError,))

    def cars_for_vin(self, vin: str) -> list[Car]:
        main = self._page("/search", "search", {"vin": vin.strip().upper()})
        results = _require(main.select_one("#results"), "search results")
        return [_car(item) for item in results.select(".candidate")]

    # --- browsing ------------------------------------------------------------------------------------------------

    def brands(self) -> list[BrandInfo]:
        main = self._page("/brands", "brands")
        items = _require(main.select_one("#brands"), "brand list").select("li.brand")
        return [BrandInfo(_attr(item, "data-brand"), item.get_text(strip=True)) for item in items]

    def vehicles(self, brand: str) -> list[VehicleInfo]:
        main = self._page(f"/brand/{brand}/", "vehicles")
        rows = _require(main.select_one("#vehicles"), "vehicle table").select("tr.vehicle")
        return [_vehicle(row) for row in rows]

    def groups(self, catalog_code: str) -> list[GroupInfo]:
        main = self._page(f"/vehicle/{catalog_code}/", "groups")
        items = _require(main.select_one("#groups"), "group list").select("li.group")
        return [_group(item) for item in items]

    def parts(self, catalog_code: str, group_id: str) -> list[PartRow]:
        return list(self.parts_sheet(catalog_code, group_id).parts)

    def parts_sheet(self, catalog_code: str, group_id: str) -> PartsSheet:
        """A group's part rows and its schema picture, whose hotspots come from the page's image map."""
        path = f"/vehicle/{catalog_code}/group/{group_id}/"
        main = self._page(path, "parts")
        rows = _require(main.select_one("#parts"), "parts table").select("tbody tr.part")
        return PartsSheet(tuple(_part(row) for row in rows), from_image_map(main, f"{self.settings.base_url}{path}"))

    def image(self, url: str) -> bytes:
        """The bytes of a schema picture, read without the browser (pictures are static files); a 4xx answer or a
        body that is no usable image is refused (ImageRefusedError), timeouts and 5xx are unavailable."""
        try:
            with self._session.get(url, timeout=self.settings.timeout_seconds, stream=True) as response:
                if response.status_code >= 500:
                    raise ScrapeUnavailableError(f"image: HTTP {response.status_code}")
                return read_image(response)
        except requests.RequestException as error:
            raise ScrapeUnavailableError(f"image: {type(error).__name__}") from error

    def wizard(self, brand: str, selected: Mapping[str, str] | None = None, step: str | None = None) -> WizardPage:
        """The options of `step` (default: the first unanswered one) given the options already `selected`."""
        chosen = {key: str(value) for key, value in (selected or {}).items() if key in WIZARD_STEPS and value}
        params = {**chosen, **({"step": step} if step else {})}
        main = self._page(f"/wizard/{brand}", "wizard", params)
        box = _require(main.select_one("#wizard"), "wizard")
        options = tuple(_attr(item, "data-value") for item in box.select("#options li.option"))
        matches = tuple(
            WizardMatch(
                _attr(item, "data-catalog-code"), item.get("data-car-id"), item.get_text(strip=True),
                _year(item.get("data-year")), item.get("data-engine"),
            )
            for item in box.select("#matches li.match")
        )  # fmt: skip
        picked = {_attr(item, "data-key"): _attr(item, "data-value") for item in box.select("#selected li.selected")}
        return WizardPage(brand, box.get("data-step") or None, options, picked, matches)

    # --- the local source dump -----------------------------------------------------------------------------------

    def dump_parts(self, catalog_code: str, group_id: str) -> list[PartRow]:
        """Parts of a group from the local source dump; refused for every catalog code not allow-listed."""
        return read_dump_parts(self.settings.dump_dir, self.settings.dump_allowed_catalogs, catalog_code, group_id)

    # --- transport -----------------------------------------------------------------------------------------------

    def _page(self, path: str, kind: str, params: dict[str, str] | None = None) -> Tag:
        """The `<main data-page=kind>` element of a page, from requests or, for shells and challenges, the browser."""
        url = f"{self.settings.base_url}{path}"
        try:
            response = self._session.get(url, params=params, timeout=self.settings.timeout_seconds)
        except requests.RequestException as error:
            raise ScrapeUnavailableError(f"{path}: {type(error).__name__}") from error
        soup = BeautifulSoup(response.text, "html.parser")
        if _is_challenge(response.status_code, soup):
            return self._browser_page(response.url, kind, "challenge")
        if response.status_code == 404:
            raise ScrapeNotFoundError(f"{path}: HTTP 404")
        if response.status_code >= 400:
            raise ScrapeUnavailableError(f"{path}: HTTP {response.status_code}")
        main = _main(soup, kind)
        if main is not None:
            return main
        if _is_js_shell(soup):
            return self._browser_page(response.url, kind, "javascript shell")
        raise ScrapeUnavailableError(f"{path}: page without the expected structure")

    def _browser_page(self, url: str, kind: str, reason: str) -> Tag:
        if not self.settings.browser_fallback:
            raise ScrapeUnavailableError(f"{reason} and the browser fallback is off")
        log.info("scrape: %s at %s, opening it in the browser", reason, url)
        html = self._browser.render(url, kind)
        main = _main(BeautifulSoup(html, "html.parser"), kind)
        if main is None:
            raise ScrapeUnavailableError(f"{reason}: the browser did not get the page either")
        self.browser_pages += 1
        return main


# --- HTML to dataclasses -------------------------------------------------------------------------------------------


def _main(soup: BeautifulSoup, kind: str) -> Tag | None:
    main = soup.find("main", attrs={"data-page": kind})
    return main if isinstance(main, Tag) else None


def _is_challenge(status: int, soup: BeautifulSoup) -> bool:
    if status not in (200, 403, 429, 503):
        return False
    text = soup.get_text(" ", strip=True).lower()
    return soup.find("main") is None and any(marker in text for marker in CHALLENGE_MARKERS)


def _is_js_shell(soup: BeautifulSoup) -> bool:
    return soup.find("main") is None and bool(soup.find("script")) and bool(soup.find(id="app"))


def _require(element: Tag | None, what: str) -> Tag:
    if element is None:
        raise ScrapeUnavailableError(f"page without the {what}")
    return element


def _attr(element: Tag, name: str) -> str:
    value = element.get(name)
    if not value:
        raise ScrapeUnavailableError(f"missing {name} on <{element.name}>")
    return str(value)


def _year(value: Any) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() else None


def _parameters(element: Tag) -> dict[str, str]:
    names = {"modelcode": "modelCode", "builddate": "buildDate"}
    return {
        names.get(key[len("data-param-") :], key[len("data-param-") :]): str(value)
        for key, value in element.attrs.items()
        if key.startswith("data-param-")
    }


def _vehicle(row: Tag) -> VehicleInfo:
    parameters = _parameters(row)
    return VehicleInfo(
        catalog_code=_attr(row, "data-catalog-code"),
        car_id=row.get("data-car-id"),
        brand=_attr(row, "data-brand"),
        model=_attr(row, "data-model"),
        name=row.get("data-name") or row.get_text(" ", strip=True),
        year=_year(parameters.get("year")),
        engine=parameters.get("engine"),
        parameters=parameters,
    )


def _car(item: Tag) -> Car:
    vehicle = _vehicle(item)
    return Car(
        source="scrape",
        brand=vehicle.brand,
        model=vehicle.model,
        car_id=vehicle.car_id,
        catalog_id=vehicle.catalog_code,
        year=vehicle.year,
        engine=vehicle.engine,
        criteria=item.get("data-criteria"),
        parameters=vehicle.parameters,
        raw={"catalog_code": vehicle.catalog_code, "session": _attr(item, "data-session")},
    )


def _group(item: Tag) -> GroupInfo:
    category = item.get("data-category")
    return GroupInfo(_attr(item, "data-group-id"), item.get_text(strip=True), str(category) if category else None)


def _part(row: Tag) -> PartRow:
    def cell(name: str) -> str | None:
        found = row.select_one(f"td.{name}")
        text = found.get_text(strip=True) if found else ""
        return text or None

    oem, name = cell("oem"), cell("name")
    if oem is None or name is None:
        raise ScrapeUnavailableError("part row without OEM or name")
    unavailable = "unavailable" in (row.get("class") or [])
    models = tuple(code.strip() for code in (cell("models") or "").split(",") if code.strip())
    return PartRow(oem, name, cell("pos"), cell("remark"), unavailable, parse_quantity(cell("qty")), models)
