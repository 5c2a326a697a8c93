"""What the catalog pages show, built from the services' answers: the main area (overview, a category with its part
rows, search results, a refusal) and the tree (closed, or opened down to a category). The dealer's vehicle page
(app.catalog.views), the printed parts list (app.catalog.exports) and the public demo (app.demo.views) share them."""

from __future__ import annotations

from typing import Any

from flask import Response, render_template
from flask_babel import gettext as _

from app.accounts.models import User
from app.catalog import deep_links, services
from app.catalog.fit import presenters as fit_presenters
from app.catalog.models import Category
from app.catalog.search import services as search
from app.core.errors import ApiError
from app.core.htmx import swappable
from app.sources.portal import ILLUSTRATION_PATTERN
from app.vehicles.models import Vehicle

PLAN_LIMITED = {"subscription_required", "brand_not_in_plan"}  # the refusal links to the plans
QUERY_MAX_LENGTH = 100


def retargeted(main: dict[str, Any], status: int = 200, code: str = "refused") -> Response:
    """The main area, answered to a request for another part of the page (a tree branch) that has to show it; a
    refusal's status through core.htmx.swappable."""
    html = render_template("catalog/_main_response.html", vehicle=None, main=main)
    headers = {"HX-Retarget": "#catalog-main", "HX-Reswap": "outerHTML"}
    return swappable(Response(html, status=status, headers=headers), code)


# --- what the main area shows -------------------------------------------------------------------------------------


def overview_main(vehicle: Vehicle, tree: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "overview", "title": vehicle.title, "children": tree["nodes"], "loadError": tree["loadError"]}


def category_main(
    vehicle: Vehicle, detail: dict[str, Any], selected_part: int | None = None, fit_notice: str | None = None
) -> dict[str, Any]:
    """`selected_part` (a search result followed to its leaf) is shown selected, with its hotspot. The rows that fit
    the vehicle come first; the rows that do not are apart (`notFitting`, shown collapsed), or left out under the
    dealer's "only what fits" switch. `fit_notice`: why the dealer's last answer to the question was refused."""
    category = node(detail["category"])
    fitting_only = bool((detail.get("fit") or {}).get("fittingOnly"))
    fitting, not_fitting, hidden = fit_presenters.split_rows(detail["parts"], fitting_only, selected_part)
    rows, anchors = _part_rows([*fitting, *not_fitting])
    selected = next((row for row in rows if row["id"] == selected_part), None)
    return {
        "kind": "category",
        "title": category["label"],
        "category": category,
        "ancestors": [_crumb(item) for item in detail["ancestors"]],
        "children": [node(child) for child in detail["children"]],
        "parts": fitting,
        "notFitting": not_fitting,
        "notFittingOpen": bool(selected and selected["fitStatus"] == fit_presenters.NO),
        "dimmedPositions": fit_presenters.dimmed_positions(detail["parts"]),
        "fit": {**fit_presenters.leaf_fit(detail, hidden), "notice": fit_notice},
        "anchors": anchors,
        "showModelCodes": any(row["modelCodes"] for row in rows),
        "selectedPart": selected["id"] if selected else None,
        "selectedPosition": selected["position"] if selected else None,
        "trail": deep_links.trail(detail),
        "schema": detail["schema"],
        "loadError": detail["loadError"],
        "offers": detail.get("offers"),
    }


def error_main(error: ApiError) -> dict[str, Any]:
    return {
        "kind": "error",
        "title": _("Cannot be shown"),
        "message": error.message,
        "plan_limited": error.code in PLAN_LIMITED,
    }


def search_main(vehicle: Vehicle, raw_query: str, user: User | None = None) -> dict[str, Any]:
    """The catalog search's results: categories with their hit counts, parts with their breadcrumbs and their fit for
    the vehicle as `user` has it."""
    main: dict[str, Any] = {"kind": "search", "title": _("Search: %(query)s", query=raw_query), "query": raw_query}
    try:
        found = search.search(vehicle, search.parse_query(raw_query), user)
    except ApiError as error:
        return {**main, "message": error.message}
    categories = [{**node(item), "trail": [_crumb(step) for step in item["ancestors"]]} for item in found["categories"]]
    found_parts = found["parts"]
    parts = [
        {
            **fit_presenters.with_fit(part),
            "trail": [_crumb(step) for step in part["breadcrumb"]],
            "leafId": part["leaf"]["id"],
        }
        for part in _with_copy_labels(found_parts)
    ]
    return {**main, **found, "categories": categories, "parts": parts}


def _part_rows(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The table's rows (fit_presenters.with_fit's copies, filled in here), the first row of each position carrying
    that position's anchor (what a hotspot links to), each with its copy button's name."""
    anchors: dict[str, str] = {}
    label = _copy_label_pattern()
    for row in rows:
        position = row["position"]
        anchor = None
        if position and position not in anchors:
            anchor = anchors[position] = f"pos-{len(anchors) + 1}"
        row.update(anchor=anchor, copyLabel=label % {"code": row["oemCode"]})
    return rows, anchors


def _with_copy_labels(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each part row (a copy) with the name of its copy button."""
    label = _copy_label_pattern()
    return [{**part, "copyLabel": label % {"code": part["oemCode"]}} for part in parts]


def _copy_label_pattern() -> str:
    """The copy button's name, from one translation for the whole table: looking it up again for each of a hundred
    rows was a tenth of the page's rendering. The name begins with the button's text, so whoever works the page by
    voice can say what they see (WCAG 2.5.3, label in name)."""
    return _("%(action)s: OEM code %(code)s", action=_("Copy"), code="%(code)s")


# --- the tree -----------------------------------------------------------------------------------------------------


def tree_view(roots: dict[str, Any]) -> dict[str, Any]:
    """The root groups (`{"categories", "loadError"}` as the services give them), every branch closed."""
    return {"nodes": [node(root) for root in roots["categories"]], "loadError": roots["loadError"], "current": None}


def opened_tree(
    vehicle: Vehicle, selected: Category, detail: dict[str, Any], user: User | None = None
) -> dict[str, Any]:
    """The roots, opened along the selected category's ancestors (and the category itself when it is a group), from
    stored rows only: a stored category's ancestors and their children are stored. Leaves' fit counts: `user`'s."""
    ancestor_ids = [ancestor["id"] for ancestor in detail["ancestors"]]
    levels = services.stored_levels(vehicle, ancestor_ids, user)
    tree = tree_view({"categories": levels.get(None, []), "loadError": False})
    level = tree["nodes"]
    for ancestor_id in ancestor_ids:
        opened = next((item for item in level if item["id"] == ancestor_id), None)
        if opened is None:
            break
        opened["children"] = [node(child) for child in levels.get(ancestor_id, [])]
        level = opened["children"]
    else:
        opened = next((item for item in level if item["id"] == selected.id), None)
        if opened is not None and not selected.is_leaf and detail["children"]:
            opened["children"] = [node(child) for child in detail["children"]]
    return {**tree, "current": selected.id}


def opened_node(category: Category, branch: dict[str, Any]) -> dict[str, Any]:
    """A group's tree node opened on `branch` (its children); a branch that failed to load stays closed, marked."""
    opened = node(services.category_view(category))
    if branch["loadError"]:
        opened["loadError"] = True  # left closed; opening it again tries again
    else:
        opened["children"] = [node(child) for child in branch["categories"]]
    return opened


def node(view: dict[str, Any]) -> dict[str, Any]:
    """A category as the templates show it: the name without its {NNN-NNN} code (shown apart), children unknown."""
    return {**view, "label": _label(view), "children": None, "loadError": False, "fit": fit_presenters.tree_fit(view)}


def _crumb(item: dict[str, Any]) -> dict[str, Any]:
    return {"id": item["id"], "label": _label(item)}


def _label(view: dict[str, Any]) -> str:
    """The name without the {NNN-NNN} illustration code (the page shows the code on its own)."""
    return " ".join(ILLUSTRATION_PATTERN.sub(" ", view["name"]).split()) or view["name"]
