"""The referral page of the account area (/account/referrals): the share link, the progress to each reward, the
referees, and applying a code later. The HTML counterpart of app.referrals.api, calling the same services."""

from __future__ import annotations

from datetime import datetime

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import EmailField, StringField
from wtforms.validators import DataRequired, Length

from app.core.errors import ApiError
from app.core.security import shop_role
from app.core.validation import int_arg
from app.referrals import services
from app.referrals.throttles import invite_throttle

bp = Blueprint("referral_pages", __name__, url_prefix="/account/referrals")


class InviteForm(FlaskForm):
    email = EmailField(
        _l("E-mail"),
        validators=[DataRequired(), Length(max=254)],
        render_kw={"autocomplete": "off", "inputmode": "email"},
    )


class ApplyForm(FlaskForm):
    code = StringField(
        _l("Referral code"),
        validators=[DataRequired(), Length(max=16)],
        render_kw={"autocomplete": "off", "autocapitalize": "characters"},
    )


def _page(
    form: ApplyForm | None = None,
    error: str | None = None,
    status: int = 200,
    invite_form: InviteForm | None = None,
    invite_error: str | None = None,
) -> tuple[str, int]:
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
        form=form or ApplyForm(formdata=None),
        error=error,
        invite_form=invite_form or InviteForm(formdata=None),
        invite_error=invite_error,
    ), status


@bp.get("")
@shop_role("owner")
def page():
    return _page()


@bp.post("/invite")
@shop_role("owner")
@invite_throttle
def invite():
    form = InviteForm()
    if not form.validate():
        return _page(invite_form=form, invite_error=_("Enter an e-mail address."), status=400)
    try:
        mailed = services.invite(current_user, form.email.data)
    except ApiError as error:
        return _page(invite_form=form, invite_error=error.message, status=error.status)
    if mailed:
        flash(_("The invitation is on its way to %(email)s.", email=form.email.data.strip()), "success")
    else:
        flash(_("You invited %(email)s before; it was not mailed again.", email=form.email.data.strip()), "warn")
    return redirect(url_for(".page"), code=303)


@bp.post("/apply")
@shop_role("owner")
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
