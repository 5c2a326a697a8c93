"""Where the catalog's templates (templates/catalog/) link to: one object in the template context, so the signed-in
vehicle page and the public demo render the same templates, each with its own URLs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import url_for

ID_SLOT = 987654321  # the stand-in id of a URL pattern


@dataclass(frozen=True)
class CatalogLinks:
    """The catalog's URLs, built from endpoint names: the page (the root groups, or the results of `?q=`), a category
    (optionally with one of its parts selected) and a tree branch; the OEM copy log and the call to register are None
    on a page without them, and the templates then leave them out."""

    page_endpoint: str
    category_endpoint: str
    children_endpoint: str
    copy_log_endpoint: str | None = None
    register_endpoint: str | None = None
    deep_link_endpoint: str | None = None
    # Where a reference row whose picture is not stored yet leads (app.catalog.references); None on the demo, which
    # reads stored rows only: its rows then search for the code.
    reference_endpoint: str | None = None
    # The leaf's parts list as a CSV file and as a page to print (app.catalog.exports); None on the demo.
    export_csv_endpoint: str | None = None
    print_endpoint: str | None = None
    # Where a part's OEM code is used (app.catalog.where_used.views); None on the demo, which opens no other vehicle.
    where_used_endpoint: str | None = None
    # The leaf's fit question answered or cleared, and the "only what fits" switch (app.catalog.fit.views); None on the
    # demo, which has no dealer to remember them for.
    fit_answer_endpoint: str | None = None
    fit_clear_endpoint: str | None = None
    fitting_only_endpoint: str | None = None
    # A parts row's "Add to quote" and the drawing's link to the vehicle's open quote (app.quotes.views); None on the
    # demo, which has no dealer.
    quote_add_endpoint: str | None = None
    quote_open_endpoint: str | None = None
    values: Mapping[str, Any] = field(default_factory=dict)  # what every endpoint above takes (the vehicle's id)
    # URL patterns built once per links object: a parts table links a hundred rows, and url_for is the costly part.
    _patterns: dict[str, str] = field(default_factory=dict, init=False, repr=False, compare=False)

    def home(self, query: str | None = None) -> str:
        """The page with the root groups, or with the results of searching `query`."""
        return url_for(self.page_endpoint, q=query or None, **self.values)

    def category(self, category_id: int, part: int | None = None) -> str:
        if part is not None:
            return url_for(self.category_endpoint, category_id=category_id, part=part, **self.values)
        return self._url(self.category_endpoint, "category_id", category_id)

    def reference(self, reference: Mapping[str, Any]) -> str:
        """Where a reference row (`{"code", "categoryId"}`) leads: its stored picture, else the page that finds it,
        else the search for its code."""
        if reference.get("categoryId") is not None:
            return self.category(reference["categoryId"])
        if self.reference_endpoint is not None:
            return url_for(self.reference_endpoint, code=reference["code"], **self.values)
        return self.home(reference["code"])

    def children(self, category_id: int) -> str:
        return self._url(self.children_endpoint, "category_id", category_id)

    def copy_log(self, part_id: int) -> str | None:
        if self.copy_log_endpoint is None:
            return None
        return self._url(self.copy_log_endpoint, "part_id", part_id)

    def where_used(self, part_id: int) -> str | None:
        """The panel listing the vehicles and pictures that carry the part's code, on a page that offers it."""
        if self.where_used_endpoint is None:
            return None
        return self._url(self.where_used_endpoint, "part_id", part_id)

    def deep_link(self, trail: str) -> str | None:
        """The stable link of a picture (app.catalog.deep_links); a part's adds `?pos=&oem=` (catalog.js)."""
        if self.deep_link_endpoint is None:
            return None
        return url_for(self.deep_link_endpoint, trail=trail, **self.values)

    def export_csv(self, category_id: int) -> str | None:
        """The leaf's parts list as a CSV file, on a page that offers it."""
        if self.export_csv_endpoint is None:
            return None
        return url_for(self.export_csv_endpoint, category_id=category_id, **self.values)

    def print_view(self, category_id: int) -> str | None:
        """The leaf's parts list as a page to print, on a page that offers it."""
        if self.print_endpoint is None:
            return None
        return url_for(self.print_endpoint, category_id=category_id, **self.values)

    def fit_answer(self, category_id: int) -> str | None:
        """Where the leaf's question is answered (a form), on a page that asks it."""
        return self._optional(self.fit_answer_endpoint, category_id)

    def fit_clear(self, category_id: int) -> str | None:
        return self._optional(self.fit_clear_endpoint, category_id)

    def fitting_only(self, category_id: int) -> str | None:
        """Where the "only what fits" switch is turned, the leaf shown again after it."""
        return self._optional(self.fitting_only_endpoint, category_id)

    def quote_add(self, part_id: int) -> str | None:
        """Where a parts row's "Add to quote" form posts, on a page that offers it."""
        if self.quote_add_endpoint is None:
            return None
        return self._url(self.quote_add_endpoint, "part_id", part_id)

    def quote_open(self) -> str | None:
        """The vehicle's open quote, on a page that offers it."""
        return None if self.quote_open_endpoint is None else url_for(self.quote_open_endpoint, **self.values)

    def _optional(self, endpoint: str | None, category_id: int) -> str | None:
        return None if endpoint is None else self._url(endpoint, "category_id", category_id)

    def _url(self, endpoint: str, name: str, value: int) -> str:
        """url_for(endpoint, name=value): built once with a stand-in id, then only the id is put in."""
        pattern = self._patterns.get(endpoint)
        if pattern is None:
            built = url_for(endpoint, **{name: ID_SLOT}, **self.values)
            # Never expected, but a stand-in seen twice (a vehicle with that very id) could not be told apart.
            pattern = self._patterns[endpoint] = built if built.count(str(ID_SLOT)) == 1 else ""
        if not pattern:
            return url_for(endpoint, **{name: value}, **self.values)
        return pattern.replace(str(ID_SLOT), str(int(value)))

    def register(self, placement: str) -> str | None:
        """The call to register at `placement` (banner, footer, category_footer), on a page that has one."""
        if self.register_endpoint is None:
            return None
        return url_for(self.register_endpoint, placement=placement)


def dealer_links(vehicle_id: int) -> CatalogLinks:
    """The signed-in vehicle page's links: its own URLs and the copy log (one object per request: the patterns it
    builds are the request's URLs)."""
    return CatalogLinks(
        page_endpoint="catalog_views.vehicle_page",
        category_endpoint="catalog_views.category",
        children_endpoint="catalog_views.children",
        copy_log_endpoint="catalog_copies_api.copy",
        deep_link_endpoint="catalog_views.deep_link",
        reference_endpoint="catalog_views.reference",
        export_csv_endpoint="catalog_exports.parts_csv",
        print_endpoint="catalog_exports.print_view",
        where_used_endpoint="catalog_where_used.panel",
        fit_answer_endpoint="catalog_fit_views.answer",
        fit_clear_endpoint="catalog_fit_views.clear",
        fitting_only_endpoint="catalog_fit_views.fitting_only",
        quote_add_endpoint="quotes_views.add_part",
        quote_open_endpoint="quotes_views.vehicle_quote",
        values={"vehicle_id": vehicle_id},
    )
