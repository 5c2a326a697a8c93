"""Referrals: a dealer shares their code; a user who signs up with it (or applies it later) is their referee, and
qualifies when their e-mail is verified. Every 3rd qualified referral banks 7 credit days for the referrer and every
5th 14 (both at the 15th); billing spends the banked days at the next trial or activation.

Qualification is serialised per referrer: the referrer's row is locked (PostgreSQL; SQLite's write lock serialises
anyway) before the referral moves to qualified and the milestones are counted, so two referees qualifying at the same
moment reach the count one after the other; a reward's row is unique per referrer and milestone, so one is never
given twice.
"""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from flask import current_app
from flask_babel import gettext as _

from app.accounts.models import User
from app.accounts.services import normalize_email, validate_email
from app.core.db import insert_for, utcnow
from app.core.errors import ApiError
from app.core.text import masked_email
from app.extensions import db
from app.notifications.services import send_email
from app.referrals.models import Referral, ReferralReward

MILESTONES = ((3, 7), (5, 14))  # every n-th qualified referral gives d credit days
PAGE_SIZE = 20
CODE_PATTERN = re.compile(r"[A-Za-z0-9]{4,16}")


def canonical_email(address: str) -> str:
    """The address with the local part's dots and plus tag removed: the same mailbox however it is spelled."""
    local, _at, domain = normalize_email(address).partition("@")
    return f"{local.split('+', 1)[0].replace('.', '')}@{domain}"


def share_url(user: User) -> str:
    return f"{current_app.config['BASE_URL']}/register?ref={user.referral_code}"


def invite(inviter: User, raw_email: str) -> bool:
    """Mail the referral invitation (with the inviter's link) to an address; False when this inviter invited it before
    (it is not mailed twice). An address that has an account, or the inviter's own in any spelling, is refused."""
    email = validate_email(normalize_email(raw_email))
    ensure_not_self(inviter, email)
    canonical = canonical_email(email)
    registered = db.session.scalars(sa.select(User.email).where(User.email.like(f"%@{email.partition('@')[2]}")))
    if any(canonical_email(address) == canonical for address in registered):
        raise ApiError("already_registered", _("This address already has a Parça Bul account."), 409)
    written = send_email(
        email,
        "referral_invitation",
        locale=inviter.locale,
        dedupe_key=f"invite-{inviter.id}-{canonical}"[:120],
        inviter=inviter.name,
        code=inviter.referral_code,
        path=f"/register?ref={inviter.referral_code}",
    )
    return written is not None


def referrer_for(raw_code: Any) -> User:
    """The owner of a referral code, or a clear refusal (checked before anything is written)."""
    code = raw_code.strip() if isinstance(raw_code, str) else ""
    if not CODE_PATTERN.fullmatch(code):
        raise ApiError("invalid_referral_code", _("This referral code is not valid."), 400)
    referrer = db.session.scalar(sa.select(User).where(User.referral_code == code.upper()))
    if referrer is None:
        raise ApiError("referral_code_not_found", _("No dealer has this referral code."), 404)
    return referrer


def ensure_not_self(referrer: User, email: str) -> None:
    if canonical_email(referrer.email) == canonical_email(email):
        raise ApiError("self_referral", _("You cannot use your own referral code."), 400)


def apply(referee: User, raw_code: Any) -> Referral:
    """Make `referee` the code owner's referral. Applying the same code again changes nothing; another code after one
    was applied is refused. A referee whose e-mail is verified qualifies at once."""
    referrer = referrer_for(raw_code)
    ensure_not_self(referrer, referee.email)
    db.session.execute(
        insert_for(db.session, Referral)
        .values(referrer_id=referrer.id, referee_id=referee.id, status="pending", created_at=utcnow())
        .on_conflict_do_nothing(index_elements=[Referral.referee_id])
    )
    referral = referral_of(referee)
    if referral.referrer_id != referrer.id:
        raise ApiError("already_referred", _("A referral code has already been applied to your account."), 409)
    if referee.email_verified:
        qualify(referee)
        db.session.refresh(referral)
    return referral


def qualify(referee: User) -> None:
    """The referee's e-mail is verified: their referral qualifies (once) and the referrer's milestones are counted."""
    referral = db.session.scalar(
        sa.select(Referral).where(Referral.referee_id == referee.id, Referral.status == "pending")
    )
    if referral is None:
        return
    referrer = db.session.scalar(sa.select(User).where(User.id == referral.referrer_id).with_for_update())
    moved = db.session.execute(
        sa.update(Referral)
        .where(Referral.id == referral.id, Referral.status == "pending")
        .values(status="qualified", qualified_at=utcnow())
        .execution_options(synchronize_session=False)
    ).rowcount
    if not moved:
        return
    count = _qualified_count(referrer)
    _mail(referrer, "referral_qualified", referee=referee.name, count=count)
    for every, days in MILESTONES:
        if count % every == 0:
            _reward(referrer, every, count, days)


def _reward(referrer: User, every: int, count: int, days: int) -> None:
    given = db.session.execute(
        insert_for(db.session, ReferralReward)
        .values(referrer_id=referrer.id, every=every, reached_at_count=count, days=days, created_at=utcnow())
        .on_conflict_do_nothing(
            index_elements=[ReferralReward.referrer_id, ReferralReward.every, ReferralReward.reached_at_count]
        )
    ).rowcount
    if not given:
        return
    db.session.execute(
        sa.update(User)
        .where(User.id == referrer.id)
        .values(referral_credit_days=User.referral_credit_days + days)
        .execution_options(synchronize_session=False)
    )
    db.session.refresh(referrer, ["referral_credit_days"])
    _mail(referrer, "referral_reward", days=days, count=count, banked=referrer.referral_credit_days)


def _mail(referrer: User, template: str, **context: object) -> None:
    send_email(referrer.email, template, locale=referrer.locale, name=referrer.name, **context)


def _qualified_count(referrer: User) -> int:
    return db.session.scalar(
        sa.select(sa.func.count())
        .select_from(Referral)
        .where(Referral.referrer_id == referrer.id, Referral.status == "qualified")
    )


def referral_of(referee: User) -> Referral | None:
    """The referral that brought `referee`, if a code was applied."""
    return db.session.scalar(sa.select(Referral).where(Referral.referee_id == referee.id))


def stats(user: User) -> dict[str, Any]:
    """The dealer's code and link, counts, the credit days earned so far and the progress to each milestone."""
    counts = dict(
        db.session.execute(
            sa.select(Referral.status, sa.func.count()).where(Referral.referrer_id == user.id).group_by(Referral.status)
        ).all()
    )
    earned = db.session.scalar(
        sa.select(sa.func.coalesce(sa.func.sum(ReferralReward.days), 0)).where(ReferralReward.referrer_id == user.id)
    )
    qualified = counts.get("qualified", 0)
    return {
        "code": user.referral_code,
        "shareUrl": share_url(user),
        "qualified": qualified,
        "pending": counts.get("pending", 0),
        "rewardDaysTotal": earned,
        "bankedDays": user.referral_credit_days or 0,
        "milestones": [
            {"every": every, "days": days, "progress": qualified % every, "remaining": every - qualified % every}
            for every, days in MILESTONES
        ],
    }


def referrals_of(user: User, page: int = 1) -> tuple[list[dict[str, Any]], bool]:
    """The dealer's referees, newest first, a page at a time; and whether more pages follow."""
    rows = db.session.execute(
        sa.select(Referral, User.name, User.email)
        .join(User, User.id == Referral.referee_id)
        .where(Referral.referrer_id == user.id)
        .order_by(Referral.created_at.desc(), Referral.id.desc())
        .offset((page - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE + 1)
    ).all()
    items = [
        {
            "refereeName": name,
            "maskedEmail": masked_email(email),
            "status": referral.status,
            "createdAt": referral.created_at.isoformat(),
            "qualifiedAt": referral.qualified_at.isoformat() if referral.qualified_at else None,
        }
        for referral, name, email in rows[:PAGE_SIZE]
    ]
    return items, len(rows) > PAGE_SIZE
