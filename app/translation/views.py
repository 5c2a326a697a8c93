"""The admin's translation page: the words the dictionary does not know, and a form that teaches it one."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from app.catalog import name_translation, translation_gaps
from app.core.errors import ApiError
from app.core.security import requires_role
from app.translation import glossary
from app.translation.admin import add_term, remove_term
from app.translation.forms import KINDS, TermForm

bp = Blueprint("translation_pages", __name__, url_prefix="/admin/translations")

INVALID_FORM = 400


@bp.get("")
@requires_role("admin")
def page():
    form = TermForm(formdata=None, english=(request.args.get("english") or "")[: glossary.TERM_MAX_LENGTH])
    return _page(form)


@bp.post("/terms")
@requires_role("admin")
def save_term():
    form = TermForm()
    if not form.validate():
        return _page(form, status=INVALID_FORM)
    try:
        add_term(form.english.data, form.turkish.data, form.kind.data, current_user.id)
    except ApiError as error:
        return _page(form, error=error.message, status=error.status)
    _queue_retranslation_and_flash(_("Saved."))
    return redirect(url_for(".page"), code=303)


@bp.post("/terms/<int:term_id>/delete")
@requires_role("admin")
def delete_term(term_id: int):
    try:
        remove_term(term_id)
    except ApiError as error:
        flash(error.message, "error")
        return redirect(url_for(".page"), code=303)
    _queue_retranslation_and_flash(_("Removed."))
    return redirect(url_for(".page"), code=303)


def _queue_retranslation_and_flash(done: str) -> None:
    """Queue the re-translation of the stored names for when the change commits, and say whether it was queued."""
    if name_translation.queue_retranslation_on_commit():
        flash(done + " " + _("Stored names are being translated again in the background."), "success")
    else:
        later = _("New names follow it now; run `flask catalog retranslate` for the stored ones.")
        flash(done + " " + later, "warning")


def _page(form: TermForm, error: str | None = None, status: int = 200) -> tuple[str, int]:
    html = render_template(
        "translation/admin.html",
        form=form,
        kinds=KINDS,
        error=error,
        untranslated=translation_gaps.untranslated(),
        terms=glossary.terms(),
    )
    return html, status
