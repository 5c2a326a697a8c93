"""The equivalents API: a number's group, a manager's confirmation of a link, a shop's rejection of one."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_babel import gettext as _
from flask_login import current_user

from app.core.openapi import documented
from app.core.security import shop_role
from app.core.validation import json_body
from app.equivalents import services
from app.equivalents.groups import group_of
from app.equivalents.presenters import group_view
from app.equivalents.schemas import EquivalentGroupOut, EquivalentLinkBody, EquivalentLinkConfirmed

bp = Blueprint("equivalents_api", __name__, url_prefix="/api/equivalents")

# An id out of range (0) fails the converter after the method is matched: the other method's 405 answers it.
BY_ID_ERRORS = (404, 405)


@bp.get("/<path:number>")
@shop_role("clerk")
@documented(EquivalentGroupOut)
def get_group(number: str):
    """A number's equivalents (same part, the supersession chain) and where each came from."""
    services.checked_number(number, _("The number"))
    return jsonify(group_view(group_of(number, current_user.shop_id)))


@bp.post("/links")
@shop_role("manager")
@documented(EquivalentLinkConfirmed, status=201, body=EquivalentLinkBody)
def confirm_link():
    """Confirm a link between two numbers for the shop (a second confirmation is the same link)."""
    link = services.confirm(current_user, services.checked_link(json_body()))
    return jsonify(services.link_shown(link)), 201


@bp.post("/links/<int:link_id>/reject")
@shop_role("manager")
@documented(EquivalentLinkConfirmed, errors=BY_ID_ERRORS)
def reject_link(link_id: int):
    """Reject a link for the shop: its groups no longer follow it (for this shop only)."""
    link = services.get_link(current_user, link_id)
    services.reject(current_user, link)
    return jsonify(services.link_shown(link, rejected=True))


@bp.delete("/links/<int:link_id>/reject")
@shop_role("manager")
@documented(EquivalentLinkConfirmed, errors=BY_ID_ERRORS)
def unreject_link(link_id: int):
    """Take back the shop's rejection of a link."""
    link = services.get_link(current_user, link_id)
    services.unreject(current_user, link)
    return jsonify(services.link_shown(link))
