"""The quote pages: the dealer's quotes (/teklifler), one quote with its lines edited in place (HTMX swaps the lines
component, `#quote-lines`; without JavaScript each form answers 303 back to the page), its share panel (the link is
shown once, when made: only its hash is kept), print and CSV, the settings; the "Teklife ekle" buttons of the catalog
(a small "Eklendi (3)" fragment for HTMX, else 303 back); and the customer's read-only page /teklif/<token>, no
account (/t/ is taken by the mails' tracked links).
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any
from urllib.parse import quote as percent_encoded
from urllib.parse import urlsplit

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_limiter.util import get_remote_address
from flask_login import current_user

from app.catalog import on_offer
from app.core.errors import ApiError
from app.core.htmx import swappable, vary_on_htmx, wants_fragment
from app.core.security import public, shop_role, without_form_token
from app.core.validation import is_id
from app.extensions import limiter
from app.quotes import presenters, services, visitors
from app.quotes.models import Quote

bp = Blueprint("quotes_views", __name__)

# The beacon is sent once a page; a visitor's address (a shop's customers may share one) gets plenty.
opened_throttle = limiter.limit("30 per minute", key_func=get_remote_address, scope="quote-opened")

PAGE_HELPERS = {
    "branch_details": services.branch_details,
    "is_frozen": services.is_frozen,
    "money": presenters.money,
    "number": presenters.number,
    "share_state": services.share_state,
    "line_total": services.line_total,
}
# The dealer's own: a line's supplier, cost and margin (never on the customer's page or the printed quote).
DEALER_HELPERS = {"line_margin": services.line_margin, "margin_totals": services.margin_totals}


# --- the dealer's quotes ------------------------------------------------------------------------------------------


@bp.get("/teklifler")
@shop_role("clerk")
def index() -> str:
    """The dealer's quotes with their state and totals."""
    rows = [(quote, services.totals(quote, lines), len(lines)) for quote, lines in services.quotes_of(current_user)]
    return render_template("quotes/list.html", rows=rows, **PAGE_HELPERS)


@bp.get("/teklifler/<int:quote_id>")
@shop_role("clerk")
def quote_page(quote_id: int) -> str:
    return _page(services.quote_of(current_user, quote_id))


@bp.post("/teklifler/<int:quote_id>/lines")
@shop_role("clerk")
def add_free_line(quote_id: int) -> Response:
    """A free line (labour, other items) from the form under the lines."""
    form = request.form
    return _changed(
        quote_id,
        lambda quote: services.add_free_line(
            quote, form.get("name"), form.get("quantity") or None, form.get("unit_price")
        ),
    )


@bp.post("/teklifler/<int:quote_id>/lines/<int:line_id>")
@shop_role("clerk")
def edit_line(quote_id: int, line_id: int) -> Response:
    changes = {"quantity": request.form.get("quantity"), "unitPrice": request.form.get("unit_price")}
    if "name" in request.form:
        changes["name"] = request.form["name"]
    return _changed(quote_id, lambda quote: services.edit_line(quote, services.line_of(quote, line_id), changes))


@bp.post("/teklifler/<int:quote_id>/lines/<int:line_id>/offer")
@shop_role("clerk")
def choose_offer(quote_id: int, line_id: int) -> Response:
    """A part line's offer chosen from the offers under it: the supplier's cost and the marked-up price."""

    def chosen(quote: Quote) -> None:  # read after the quote: another shop's answers 404 whatever the form holds
        line = services.line_of(quote, line_id)
        services.choose_offer(current_user, quote, line, lambda: _offer_id(request.form.get("offer") or None))

    return _changed(quote_id, chosen)


@bp.post("/teklifler/<int:quote_id>/kdv")
@shop_role("clerk")
def set_rate(quote_id: int) -> Response:
    """This quote's KDV rate, from the form under its totals."""
    return _changed(quote_id, lambda quote: services.set_quote_rate(quote, request.form.get("kdv_rate")))


@bp.post("/teklifler/<int:quote_id>/lines/<int:line_id>/delete")
@shop_role("clerk")
def delete_line(quote_id: int, line_id: int) -> Response:
    return _changed(quote_id, lambda quote: services.delete_line(quote, services.line_of(quote, line_id)))


@bp.post("/teklifler/<int:quote_id>/new-version")
@shop_role("clerk")
def new_version(quote_id: int) -> Response:
    """A sent quote's "Yeni sürüm oluştur": a draft copy to change and send again (303 to it)."""
    copy = services.new_version(services.quote_of(current_user, quote_id))
    return redirect(url_for(".quote_page", quote_id=copy.id), code=303)


@bp.post("/teklifler/<int:quote_id>/share")
@shop_role("clerk")
def share(quote_id: int) -> Response:
    """A new link: the share panel shows it (and the WhatsApp button) this once; a page without HTMX is the quote's
    page itself, answered to the POST, since the link cannot be shown again after a redirect."""
    quote = services.quote_of(current_user, quote_id)
    link = presenters.shared_url(services.share(current_user, quote))
    if wants_fragment():
        return vary_on_htmx(Response(render_template("quotes/_share.html", **_share_context(quote, link))))
    return vary_on_htmx(Response(_page(quote, link=link)))


@bp.post("/teklifler/<int:quote_id>/revoke")
@shop_role("clerk")
def revoke(quote_id: int) -> Response:
    quote = services.quote_of(current_user, quote_id)
    services.revoke(quote)
    if wants_fragment():
        return vary_on_htmx(Response(render_template("quotes/_share.html", **_share_context(quote))))
    flash(_("The link no longer works."), "success")
    return redirect(url_for(".quote_page", quote_id=quote.id), code=303)


@bp.get("/teklifler/<int:quote_id>/print")
@shop_role("clerk")
def print_view(quote_id: int) -> str:
    """The quote on an A4 page (its own print CSS), to print or save as PDF."""
    quote = services.quote_of(current_user, quote_id)
    return render_template("quotes/document.html", printing=True, **_document_context(quote))


@bp.get("/teklifler/<int:quote_id>/teklif.csv")
@shop_role("clerk")
def csv_export(quote_id: int) -> Response:
    quote = services.quote_of(current_user, quote_id)
    data, name, ascii_name = presenters.csv_file(quote, services.lines_of(quote))
    response = Response(data, content_type="text/csv; charset=utf-8")
    response.headers.set("Content-Disposition", "attachment", filename=ascii_name, **{"filename*": _utf8(name)})
    return response


@bp.route("/teklifler/ayarlar", methods=["GET", "POST"])
@shop_role("manager")
def settings() -> Any:
    """The shop name and phone the customer sees, and the KDV rate of the next quotes."""
    profile = services.profile_of(current_user.shop_id)
    rate = services.kdv_rate_of(current_user.shop_id)
    if request.method == "GET":
        return render_template(
            "quotes/settings.html", profile=profile, kdv_rate=rate, form=None, error=None, **PAGE_HELPERS
        )
    form = request.form
    data = {"shopName": form.get("shop_name"), "phone": form.get("phone"), "kdvRate": form.get("kdv_rate")}
    try:
        services.save_profile(current_user.shop_id, data)
    except ApiError as error:
        return render_template(
            "quotes/settings.html", profile=profile, kdv_rate=rate, form=form, error=error.message, **PAGE_HELPERS
        ), error.status
    flash(_("Your quote settings are saved."), "success")
    return redirect(url_for(".settings"), code=303)


# --- from the catalog ---------------------------------------------------------------------------------------------


@bp.post("/teklifler/vehicles/<int:vehicle_id>/parts/<int:part_id>")
@shop_role("clerk")
def add_part(vehicle_id: int, part_id: int) -> Response:
    """A parts row's "Teklife ekle": the part goes to the vehicle's open quote (made on the first add); with an
    `offer` field (a supplier's line), that offer's cost and marked-up price come with it."""
    back = _back_to(request.referrer, url_for("catalog_views.vehicle_page", vehicle_id=vehicle_id))
    offer = request.form.get("offer") or None  # an offer's button: the supplier's line chosen with the part
    shown = {"vehicle_id": vehicle_id, "part_id": part_id, "offer": offer}
    try:
        quote, _line = services.add_catalog_part(current_user, vehicle_id, part_id, _offer_id(offer))
    except ApiError as error:
        if wants_fragment():
            html = render_template("quotes/_added.html", error=error.message, **shown)
            return swappable(Response(html, status=error.status), error.code)
        flash(error.message, "error")
        return redirect(back, code=303)
    count = len(services.lines_of(quote))
    if wants_fragment():
        html = render_template("quotes/_added.html", quote=quote, count=count, **shown)
        return vary_on_htmx(Response(html))
    flash(_("Added to the quote (%(num)d lines).", num=count), "success")
    return redirect(back, code=303)


@bp.get("/teklifler/vehicles/<int:vehicle_id>")
@shop_role("clerk")
def vehicle_quote(vehicle_id: int) -> Response:
    """A drawing's "Teklif" link: the vehicle's open quote, else the list of quotes."""
    quote = services.open_quote(current_user, vehicle_id)
    if quote is None:
        flash(_("This vehicle has no open quote yet: add parts to it with “Add to quote”."), "info")
        return redirect(url_for(".index"), code=303)
    return redirect(url_for(".quote_page", quote_id=quote.id), code=303)


# --- the customer's page ------------------------------------------------------------------------------------------


@bp.get("/teklif/<token>")
@public
def shared(token: str) -> Any:
    """The shared quote, read-only, for whoever has the link (a link preview's fetch too: reading it records nothing,
    its Open Graph tags draw the preview card); revoked or expired: a 410 page. Once shown, the page's beacon says a
    person opened it (`opened`)."""
    try:
        quote = services.shared_quote(token[:100])
    except ApiError as error:
        return render_template("quotes/gone.html", message=error.message, status=error.status), error.status
    context = _document_context(quote)
    html = render_template(
        "quotes/document.html",
        printing=False,
        shared=True,
        newer_sent=services.newer_version_sent(quote),
        beacon=url_for(".opened", token=token[:100]),
        card=presenters.preview_card(quote, context["shop"], context["totals"]),
        **context,
    )
    response = Response(html)
    response.headers["Referrer-Policy"] = "no-referrer"  # the token stays out of any link followed from the page
    response.headers["X-Robots-Tag"] = "noindex"
    return response


@bp.post("/teklif/<token>/opened")
@public
@without_form_token
@opened_throttle
def opened(token: str) -> Response:
    """The shared page's beacon, sent by a browser once the page is shown: the quote's first opening is recorded
    (not its dealer's own, not a preview fetcher's, not one sent from another site). The token in the path is the
    only proof needed, so a session-less visitor needs no form token; a cross-site POST is refused. 204 either way:
    nothing here tells one link from another."""
    if not visitors.same_site_post(request):
        return Response(status=403)
    if not visitors.is_link_preview(request.headers.get("User-Agent", "")):
        with suppress(ApiError):  # a link gone or unknown records nothing, and says nothing more
            services.mark_opened(token[:100], current_user if current_user.is_authenticated else None)
    return Response(status=204)


# --- answers ------------------------------------------------------------------------------------------------------


def _page(quote: Quote, link: str | None = None, error: str | None = None, status: int = 200) -> Any:
    lines = services.lines_of(quote)
    context = {**_lines_context(quote, lines, error), **_share_context(quote, link, lines)}
    return render_template("quotes/quote.html", **context), status


def _changed(quote_id: int, change: Any) -> Response:
    """A change of the lines: HTMX gets the lines component again (with the refusal beside the form), a page 303
    back to the quote (a refusal: the page with the message and its 4xx)."""
    quote = services.quote_of(current_user, quote_id)
    try:
        change(quote)
    except ApiError as error:
        if error.status == 404:
            raise
        if wants_fragment():
            html = render_template(
                "quotes/_lines.html", **_lines_context(quote, services.lines_of(quote), error.message)
            )
            return swappable(Response(html, status=error.status), error.code)
        html, _status = _page(quote, error=error.message)
        return swappable(Response(html, status=error.status), error.code)
    if wants_fragment():
        html = render_template("quotes/_lines.html", **_lines_context(quote, services.lines_of(quote)))
        return vary_on_htmx(Response(html))
    return redirect(url_for(".quote_page", quote_id=quote.id), code=303)


def _lines_context(quote: Quote, lines: list, error: str | None = None) -> dict[str, Any]:
    """The lines with their totals and, under each part line without a supplier yet, the shop's offers for it."""
    totals = services.totals(quote, lines)
    open_codes = {line.oem_code for line in lines if line.kind == "part" and line.oem_code and not line.supplier_id}
    offers = on_offer.offers_of_codes(current_user, open_codes, None) if not services.is_frozen(quote) else None
    context = {"quote": quote, "lines": lines, "totals": totals, "error": error, "offers": offers}
    return {**context, **PAGE_HELPERS, **DEALER_HELPERS}


def _share_context(quote: Quote, link: str | None = None, lines: list | None = None) -> dict[str, Any]:
    whatsapp = None
    if link:
        shop = services.shop_name(quote.shop_id, services.profile_of(quote.shop_id))
        whatsapp = presenters.whatsapp_url(shop, quote, lines if lines is not None else services.lines_of(quote), link)
    return {"quote": quote, "link": link, "whatsapp": whatsapp, **PAGE_HELPERS}


def _document_context(quote: Quote) -> dict[str, Any]:
    """What the customer's page and the print page show: the shop, the vehicle, the lines, the totals, pictures."""
    lines = services.lines_of(quote)
    shop, phone = _shop_of(quote)
    return {
        "quote": quote,
        "lines": lines,
        "totals": services.totals(quote, lines),
        "shop": shop,
        "phone": phone,
        "thumbnails": presenters.thumbnails(lines),
        **PAGE_HELPERS,
    }


def _shop_of(quote: Quote) -> tuple[str, str | None]:
    """The shop's name and phone as the quote was sent (a sent quote is frozen), else as the settings say now."""
    if services.is_frozen(quote) and quote.sent_shop_name is not None:
        return quote.sent_shop_name, quote.sent_phone
    profile = services.profile_of(quote.shop_id)
    return services.shop_name(quote.shop_id, profile), profile.phone


def _offer_id(value: str | None) -> int | None:
    """The offer field's supplier line id (None: no offer chosen); anything else is refused."""
    if value is None:
        return None
    if not (value.isascii() and value.isdigit() and is_id(int(value))):
        raise ApiError("invalid_field", _("%(field)s must be a record id.", field="offer"), 400)
    return int(value)


def _back_to(referrer: str | None, default: str) -> str:
    """The page the button was on, when it is this site's (a path), else `default`."""
    if referrer:
        parts = urlsplit(referrer)
        if parts.netloc == request.host and parts.path.startswith("/"):
            return parts.path + (f"?{parts.query}" if parts.query else "")
    return default


def _utf8(name: str) -> str:
    return f"UTF-8''{percent_encoded(name, safe='!#$&+-.^_`|~')}"
