"""The referral page of the account area (/account/referrals): the share link, the progress to each reward, the
referees, and applying a code later. The HTML counterpart of app.referrals.api, calling the same services."""

from __future__ import annotations

from datetime import datetime

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired, Length

from app.core.errors import ApiError
from app.core.validation import int_arg
from app.referrals import services

bp = Blueprint("referral_pages", __name__, url_prefix="/account/referrals")


class ApplyForm(FlaskForm):
    code = StringField(
        _l("Referral code"),
        validators=[DataRequired(), Length(max=16)],
        render_kw={"autocomplete": "off", "autocapitalize": "characters"},
    )


def _page(form: ApplyForm, error: str | None = None, status: int = 200) -> tuple[str, int]:
    page = int_arg(request.args, "page", 1)
    items, more = services.referrals_of(current_user, page)
    for item in items:
        item["joined"] = datetime.fromisoformat(item["createdAt"])
    return render_template(
        "referrals/referrals.html",
        stats=services.stats(current_user),
        items=items,
        page=page,
        has_more=more,
        referred=services.referral_of(current_user),
        form=form,
        error=error,
    ), status


@bp.get("")
def page():
    return _page(ApplyForm(formdata=None))


@bp.post("/apply")
def apply():
    form = ApplyForm()
    if not form.validate():
        return _page(form, _("Enter a referral code."), 400)
    try:
        services.apply(current_user, form.code.data)
    except ApiError as error:
        return _page(form, error.message, error.status)
    flash(_("The referral code is applied. Thank you!"), "success")
    return redirect(url_for(".page"), code=303)
