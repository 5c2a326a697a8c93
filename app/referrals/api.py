"""The caller's referrals under /api/referrals: progress, the list of referees, and applying a code later."""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_login import current_user

from app.accounts.models import User
from app.core.openapi import documented
from app.core.validation import int_arg, json_body
from app.extensions import db
from app.referrals import services
from app.referrals.schemas import (
    AppliedReferral,
    ApplyReferralBody,
    ReferralList,
    ReferralListQuery,
    ReferralStats,
)

bp = Blueprint("referrals_api", __name__, url_prefix="/api/referrals")


@bp.get("/stats")
@documented(ReferralStats, summary="The caller's referral code, counts, reward days and milestone progress")
def stats():
    return jsonify(services.stats(current_user))


@bp.get("")
@documented(ReferralList, query=ReferralListQuery, summary="The caller's referees, newest first")
def referrals():
    page = int_arg(request.args, "page", 1)
    items, more = services.referrals_of(current_user, page)
    return jsonify(items=items, page=page, hasMore=more)


@bp.post("/apply")
@documented(AppliedReferral, body=ApplyReferralBody, errors=(404, 409), summary="Apply a referral code (once)")
def apply():
    referral = services.apply(current_user, json_body().get("code"))
    referrer = db.session.get(User, referral.referrer_id)
    return jsonify(status=referral.status, referrerName=referrer.name)
