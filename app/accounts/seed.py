"""Seed step: the first admin, from ADMIN_EMAIL and ADMIN_PASSWORD."""

from __future__ import annotations

from flask import current_app

from app.accounts.services import create_user, find_user_by_email


def admin_user() -> str:
    email, password = current_app.config["ADMIN_EMAIL"], current_app.config["ADMIN_PASSWORD"]
    if not email or not password:
        return "skipped (ADMIN_EMAIL and ADMIN_PASSWORD are not both set)"
    existing = find_user_by_email(email)
    if existing is not None:
        if existing.role != "admin":
            existing.role = "admin"
            return f"{existing.email} promoted to admin"
        return f"{existing.email} already admin"
    user = create_user(email=email, name="Admin", password=password, role="admin", email_verified=True)
    return f"{user.email} created"
