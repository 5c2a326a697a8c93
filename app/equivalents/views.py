"""The equivalents page (/muadil): a number's group with where each equivalent came from, what of it is on the shelf
and offered, and the vehicles carrying it (app.catalog.numbers); a manager confirms a link or rejects one for the
shop. HTMX swaps the group fragment; without JavaScript each form answers with a redirect."""

from __future__ import annotations

from flask import Blueprint, Response, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from app.catalog import numbers
from app.core.errors import ApiError
from app.core.htmx import swappable, wants_fragment
from app.core.security import shop_role
from app.equivalents import services
from app.equivalents.presenters import CONFIRMABLE, RELATION_LABELS

bp = Blueprint("equivalents_views", __name__, url_prefix="/muadil")


@bp.get("")
@shop_role("clerk")
def search():
    """The search form; a number asked goes to its group's page."""
    asked = request.args.get("numara", "")
    if not asked.strip():
        return _page(None, None)
    try:
        services.checked_number(asked, _("The number"))
    except ApiError as error:
        return swappable(make_response(_page(None, error.message), error.status))
    return redirect(url_for(".group", number=services.link_key(asked)), code=303)


@bp.get("/<path:number>")
@shop_role("clerk")
def group(number: str):
    """A number's group: the page, or its fragment for HTMX."""
    return _answer(number)


@bp.post("/<number>/bagla")
@shop_role("manager")
def confirm(number: str):
    """A manager links another number to this one for the shop."""
    data = {"a": request.form.get("b", ""), "b": number, "type": request.form.get("type", "same")}
    try:
        services.checked_number(number, _("The number"))
        services.confirm(current_user, services.checked_link(data))
    except ApiError as error:
        return _answer(number, error)
    return _after_change(number)


@bp.post("/<number>/baglanti/<int:link_id>/reddet")
@shop_role("manager")
def reject(number: str, link_id: int):
    services.reject(current_user, services.get_link(current_user, link_id))
    return _after_change(number)


@bp.post("/<number>/baglanti/<int:link_id>/geri-al")
@shop_role("manager")
def unreject(number: str, link_id: int):
    services.unreject(current_user, services.get_link(current_user, link_id))
    return _after_change(number)


def _after_change(number: str) -> Response:
    if wants_fragment():
        return _answer(number)
    return redirect(url_for(".group", number=services.link_key(number) or number), code=303)


def _context(number: str, error: str | None) -> dict:
    found = numbers.lookup(current_user, number)
    return {
        "shown": found["group"],
        "found": found,
        "asked": services.link_key(number),
        "manager": current_user.has_shop_role("manager"),
        "confirmable": {kind: RELATION_LABELS[kind] for kind in CONFIRMABLE},
        "error": error,
    }


def _answer(number: str, refusal: ApiError | None = None) -> Response:
    """The group's page or fragment; a number that is none, or a refused change, keeps its 4xx (rolled back)."""
    try:
        services.checked_number(number, _("The number"))
    except ApiError as error:
        return swappable(make_response(_page(None, error.message), error.status))
    context = _context(number, refusal.message if refusal else None)
    template = "equivalents/_group.html" if wants_fragment() else "equivalents/group.html"
    return swappable(make_response(render_template(template, **context), refusal.status if refusal else 200))


def _page(number: str | None, error: str | None) -> str:
    return render_template("equivalents/group.html", shown=None, asked=number, error=error, manager=False)
