"""What the /api/account routes read and answer, for the OpenAPI document (the routes check their input themselves)."""

from __future__ import annotations

from pydantic import Field

from app.core.openapi import ApiModel


class Connection(ApiModel):
    provider: str
    email: str | None
    linked_at: str


class SignInMethods(ApiModel):
    has_password: bool
    connections: list[Connection]


class ChangePasswordBody(ApiModel):
    current_password: str | None = Field(None, max_length=128, description="Required when the account has a password.")
    new_password: str = Field(max_length=128)


class PasswordChanged(ApiModel):
    status: bool
    other_sessions_ended: int


class DeleteAccountBody(ApiModel):
    confirmation: str = Field(max_length=254, description="The password, or the e-mail for a social-only account.")
