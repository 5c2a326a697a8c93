"""The shop's API keys page (/shop/keys, owner only): the list, the form that makes one, revoking. The same services
as app.shops.keys.api."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user

from app.core.errors import ApiError
from app.core.security import shop_role
from app.shops.keys import services
from app.shops.keys.forms import NewKeyForm
from app.shops.keys.presenters import key_json

bp = Blueprint("shop_keys_pages", __name__, url_prefix="/shop/keys")

INVALID_FORM = 400


def _page(form: NewKeyForm | None = None, secret: str | None = None, status: int = 200) -> tuple[str, int]:
    keys = services.keys_of(current_user.shop_id)
    creators = services.creators_of(keys)
    return render_template(
        "shops/keys.html",
        keys=[key_json(key, creators) for key in keys],
        form=form or NewKeyForm(formdata=None),
        secret=secret,
    ), status


@bp.get("")
@shop_role("owner")
def keys():
    return _page()


@bp.post("")
@shop_role("owner")
def create_key():
    """Make a key and show it on this answer only (no redirect: the key is never put in a cookie or a URL)."""
    form = NewKeyForm()
    if not form.validate():
        return _page(form, status=INVALID_FORM)
    try:
        made = services.create_key(current_user, form.name.data.strip(), form.role.data, form.expires_on.data)
    except ApiError as error:
        form.expires_on.errors = [error.message]
        return _page(form, status=INVALID_FORM)
    return _page(secret=made.secret)


@bp.post("/<int:key_id>/revoke")
@shop_role("owner")
def revoke_key(key_id: int):
    key = services.revoke_key(current_user.shop_id, key_id)
    flash(_("The key %(name)s is revoked.", name=key.name), "success")
    return redirect(url_for(".keys"), code=303)
