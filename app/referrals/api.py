"""The caller's referrals under /api/referrals: progress, the list of referees, and applying a code later."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from app.accounts.models import User
from app.core.openapi import documented
from app.core.security import shop_role
from app.core.validation import int_arg, json_body, text_field
from app.extensions import db
from app.referrals import services
from app.referrals.schemas import (
    AppliedReferral,
    ApplyReferralBody,
    InviteBody,
    Invited,
    ReferralList,
    ReferralListQuery,
    ReferralStats,
)
from app.referrals.throttles import invite_throttle

bp = Blueprint("referrals_api", __name__, url_prefix="/api/referrals")

EMAIL = _l("E-mail")


@bp.get("/stats")
@documented(ReferralStats, summary="The caller's referral code, counts, reward days and milestone progress")
@shop_role("owner")
def stats():
    return jsonify(services.stats(current_user))


@bp.get("")
@documented(ReferralList, query=ReferralListQuery, summary="The caller's referees, newest first")
@shop_role("owner")
def referrals():
    page = int_arg(request.args, "page", 1)
    items, more = services.referrals_of(current_user, page)
    return jsonify(items=items, page=page, hasMore=more)


@bp.post("/invite")
@documented(Invited, body=InviteBody, errors=(409, 429), summary="Mail the caller's referral link to an address")
@shop_role("owner")
@invite_throttle
def invite():
    mailed = services.invite(current_user, text_field(json_body(), "email", EMAIL, max_length=254))
    return jsonify(status=True, alreadyInvited=not mailed)


@bp.post("/apply")
@documented(AppliedReferral, body=ApplyReferralBody, errors=(404, 409), summary="Apply a referral code (once)")
@shop_role("owner")
def apply():
    referral = services.apply(current_user, json_body().get("code"))
    referrer = db.session.get(User, referral.referrer_id)
    return jsonify(status=referral.status, referrerName=referrer.name)
