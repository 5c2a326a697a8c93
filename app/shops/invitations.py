"""Invitations by e-mail: owner or manager invites an address with a role (and a branch); the mail carries a
single-use link valid 7 days, whose token is stored only as its hash. Accepting creates the account, or moves an
existing person here from their one-person shop (see `joining`); resending makes a new link (the old one dies)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from dataclasses import dataclass
from datetime import timedelta

import sqlalchemy as sa
from flask import url_for
from flask_babel import gettext as _

from app.accounts.models import User
from app.accounts.services import create_user, find_user_by_email, normalize_email, validate_email
from app.core.db import utcnow
from app.core.errors import ApiError
from app.extensions import db
from app.notifications.services import send_email
from app.shops import activity, holdings
from app.shops.branches import branch_of_shop
from app.shops.labels import role_label
from app.shops.members import check_role, ensure_may_handle
from app.shops.models import Branch, Shop, ShopActivity, ShopInvitation

LIFETIME = timedelta(days=7)
INVITATION_PATH = "/davet/{token}"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _pending(query: sa.Select) -> sa.Select:
    return query.where(
        ShopInvitation.accepted_at.is_(None), ShopInvitation.revoked_at.is_(None), ShopInvitation.expires_at > utcnow()
    )


def pending_of(shop_id: uuid.UUID) -> list[ShopInvitation]:
    query = sa.select(ShopInvitation).where(ShopInvitation.shop_id == shop_id).order_by(ShopInvitation.id)
    return list(db.session.scalars(_pending(query)))


def shaped(invitation: ShopInvitation) -> dict:
    return {
        "id": invitation.id,
        "email": invitation.email,
        "role": invitation.role,
        "branchId": invitation.branch_id,
        "createdAt": invitation.created_at.isoformat(),
        "expiresAt": invitation.expires_at.isoformat(),
    }


def seats_in_use(shop_id: uuid.UUID) -> int:
    """Members plus pending invitations: what the seat limit counts."""
    members = db.session.scalar(sa.select(sa.func.count()).select_from(User).where(User.shop_id == shop_id))
    invited = db.session.scalar(
        _pending(sa.select(sa.func.count()).select_from(ShopInvitation).where(ShopInvitation.shop_id == shop_id))
    )
    return members + invited


def _ensure_a_seat(shop_id: uuid.UUID, seat_limit: int | None) -> None:
    if seat_limit is not None and seats_in_use(shop_id) >= seat_limit:
        raise ApiError(
            "seats_full",
            _(
                "All %(seats)d seats of your plan are taken (members and open invitations). Add a seat on the "
                "subscription page to invite someone else.",
                seats=seat_limit,
            ),
            409,
            details={"addSeatUrl": url_for("billing_pages.subscription", _anchor="seats")},
        )


def invite(
    actor: User, email: str, role: object, branch_id: object = None, *, seat_limit: int | None
) -> ShopInvitation:
    """Invite `email` into the actor's shop as `role`, starting in `branch_id` (else the actor's branch); refused past
    `seat_limit` (None: no limit), for a member of this shop or an address already invited and pending."""
    email = validate_email(normalize_email(email))
    role = check_role(role)
    ensure_may_handle(actor, role)
    branch = branch_of_shop(actor.shop_id, branch_id) if branch_id is not None else None
    existing = find_user_by_email(email)
    if existing is not None and existing.shop_id == actor.shop_id:
        raise ApiError("already_member", _("This person is already a member of your shop."), 409)
    query = sa.select(ShopInvitation.id).where(ShopInvitation.shop_id == actor.shop_id, ShopInvitation.email == email)
    if db.session.scalar(_pending(query)) is not None:
        raise ApiError("already_invited", _("This address already has an open invitation: resend it instead."), 409)
    _ensure_a_seat(actor.shop_id, seat_limit)
    invitation = ShopInvitation(
        shop_id=actor.shop_id,
        email=email,
        role=role,
        branch_id=branch.id if branch else actor.branch_id,
        invited_by=actor.id,
        token_hash="",
        expires_at=utcnow(),
    )
    db.session.add(invitation)
    _mail_new_link(actor, invitation)
    activity.record(actor, "invitation_sent", f"{email} ({role})")
    return invitation


def _mail_new_link(actor: User, invitation: ShopInvitation) -> None:
    token = secrets.token_urlsafe(32)
    invitation.token_hash, invitation.expires_at = _hash(token), utcnow() + LIFETIME
    db.session.flush()
    shop = db.session.get(Shop, invitation.shop_id)
    send_email(
        invitation.email,
        "shop_invitation",
        locale=actor.locale,
        inviter=actor.name,
        shop=shop.name,
        role=invitation.role,
        role_label=role_label,
        path=INVITATION_PATH.format(token=token),
    )


def invitation_of_shop(actor: User, invitation_id: int) -> ShopInvitation:
    invitation = db.session.get(ShopInvitation, invitation_id)
    if invitation is None or invitation.shop_id != actor.shop_id:
        raise ApiError("invitation_not_found", _("No such invitation in your shop."), 404)
    ensure_may_handle(actor, invitation.role)
    if invitation.accepted_at is not None or invitation.revoked_at is not None:
        raise ApiError("invitation_closed", _("This invitation was already accepted or revoked."), 409)
    return invitation


def resend(actor: User, invitation_id: int) -> ShopInvitation:
    """A new link, valid 7 days from now; the old link no longer works."""
    invitation = invitation_of_shop(actor, invitation_id)
    _mail_new_link(actor, invitation)
    activity.record(actor, "invitation_resent", invitation.email)
    return invitation


def revoke(actor: User, invitation_id: int) -> ShopInvitation:
    invitation = invitation_of_shop(actor, invitation_id)
    invitation.revoked_at = utcnow()
    db.session.flush()
    activity.record(actor, "invitation_revoked", invitation.email)
    return invitation


# --- the invited person's side ----------------------------------------------------------------------------------


def _dead_link() -> ApiError:
    return ApiError(
        "invitation_invalid",
        _("This invitation link is invalid, expired, revoked or already used. Ask for a new one."),
        400,
    )


def open_invitation(token: str | None) -> ShopInvitation:
    """The pending invitation behind a link's token; an unknown, expired, revoked or used one is refused alike."""
    if not token or len(token) > 100:
        raise _dead_link()
    invitation = db.session.scalar(sa.select(ShopInvitation).where(ShopInvitation.token_hash == _hash(token)))
    if invitation is None or not hmac.compare_digest(invitation.token_hash, _hash(token)):
        raise _dead_link()
    if invitation.accepted_at or invitation.revoked_at or invitation.expires_at <= utcnow():
        raise _dead_link()
    return invitation


@dataclass(frozen=True)
class Joining:
    """How `user` may join the invitation's shop: "move" (their empty shop goes away), "choose" (their shop's data stays
    behind: they must say so), or refused with a reason."""

    way: str
    reason: str | None = None


def joining(user: User, invitation: ShopInvitation) -> Joining:
    if user.shop_id == invitation.shop_id:
        return Joining("refused", _("You are already a member of this shop."))
    if holdings.other_members(user.shop_id, user.id):
        return Joining(
            "refused",
            _("Your current shop has other members. Remove them or hand the shop over before joining another shop."),
        )
    if holdings.has_paid_history(user.shop_id):
        return Joining(
            "refused",
            _(
                "Your current shop has a paid subscription history, which cannot be left behind. Please contact "
                "support to join another shop."
            ),
        )
    if holdings.has_data(user.shop_id):
        return Joining("choose")
    return Joining("move")


def preview(token: str, user: User | None) -> dict:
    """What the invitation's page shows: the shop, the role and what accepting will do for this visitor."""
    invitation = open_invitation(token)
    shop = db.session.get(Shop, invitation.shop_id)
    answer = {"shopName": shop.name, "email": invitation.email, "role": invitation.role}
    if user is not None and user.is_authenticated:
        if user.email != invitation.email:
            return answer | {"action": "other_account", "reason": _("This invitation is for another e-mail address.")}
        way = joining(user, invitation)
        return answer | {"action": way.way, "reason": way.reason}
    exists = find_user_by_email(invitation.email) is not None
    return answer | {"action": "sign_in" if exists else "create", "reason": None}


def accept_as_new(token: str, name: str, password: str) -> User:
    """Create the invited person's account in the shop (the link proved the address)."""
    invitation = open_invitation(token)
    if not name.strip():
        raise ApiError("missing_field", _("Enter your name."), 400)
    if find_user_by_email(invitation.email) is not None:
        raise ApiError("sign_in_first", _("An account with this e-mail exists: sign in to accept the invitation."), 409)
    user = create_user(
        email=invitation.email,
        name=name,
        password=password,
        email_verified=True,
        shop_id=invitation.shop_id,
        shop_role=invitation.role,
    )
    return _joined(user, invitation)


def accept_as_member(token: str, user: User, leave_data_behind: bool) -> User:
    """Move a signed-in person into the shop: an empty one-person shop is deleted; one with data stays behind only
    when they said so; a shop with other members or a paid history is refused."""
    invitation = open_invitation(token)
    if user.email != invitation.email:
        raise ApiError("other_account", _("This invitation is for another e-mail address."), 403)
    way = joining(user, invitation)
    if way.way == "refused":
        raise ApiError("cannot_join", way.reason, 409)
    if way.way == "choose" and not leave_data_behind:
        raise ApiError(
            "choice_needed",
            _(
                "Your current shop has data (vehicles, quotes, lists or history). It stays behind in your old shop if "
                "you join: confirm that you want to leave it behind."
            ),
            409,
        )
    old_shop_id = user.shop_id
    user.shop_id, user.shop_role = invitation.shop_id, invitation.role
    db.session.flush()
    if way.way == "move":
        _delete_empty_shop(old_shop_id)
    return _joined(user, invitation)


def _joined(user: User, invitation: ShopInvitation) -> User:
    user.branch_id = invitation.branch_id or _first_branch(invitation.shop_id)
    invitation.accepted_at = utcnow()
    db.session.flush()
    activity.record(user, "member_joined", f"{user.name} ({invitation.role})")
    return user


def _first_branch(shop_id: uuid.UUID) -> int | None:
    return db.session.scalar(sa.select(Branch.id).where(Branch.shop_id == shop_id).order_by(Branch.id).limit(1))


def _delete_empty_shop(shop_id: uuid.UUID) -> None:
    for model in (ShopInvitation, ShopActivity, Branch):
        db.session.execute(sa.delete(model).where(model.shop_id == shop_id))
    db.session.execute(sa.delete(Shop).where(Shop.id == shop_id))
