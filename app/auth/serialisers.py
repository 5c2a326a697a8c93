"""How auth answers in JSON: the signed-in user and the session (the auth API and the admin API answer users so)."""

from __future__ import annotations

from app.accounts.models import User
from app.auth.models import AuthSession


def user_json(user: User) -> dict:
    return {
        "id": str(user.id),
        "email": user.email,
        "name": user.name,
        "role": user.role,
        "status": user.status,
        "emailVerified": user.email_verified,
        "referralCode": user.referral_code,
        "referralCreditDays": user.referral_credit_days,
        "createdAt": user.created_at.isoformat(),
    }


def session_json(row: AuthSession) -> dict:
    return {
        "expiresAt": row.expires_at.isoformat(),
        "persistent": row.persistent,
        "impersonatedBy": str(row.impersonated_by) if row.impersonated_by else None,
        "impersonationReadonly": row.impersonation_readonly,
    }
