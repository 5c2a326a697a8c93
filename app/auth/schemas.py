"""What the /api/auth routes read and answer, for the OpenAPI document (the routes check their input themselves)."""

from __future__ import annotations

from pydantic import Field, RootModel

from app.core.openapi import ApiModel


class SignUpBody(ApiModel):
    name: str = Field(max_length=100)
    email: str = Field(max_length=254, examples=["bayi@example.com"])
    password: str = Field(max_length=128, description="At least 8 characters.")
    remember_me: bool = True
    referral_code: str | None = Field(None, max_length=16, description="The referring dealer's code, if any.")


class SignInBody(ApiModel):
    email: str = Field(max_length=254, examples=["bayi@example.com"])
    password: str = Field(max_length=128)
    remember_me: bool = False


class EmailBody(ApiModel):
    email: str = Field(max_length=254, examples=["bayi@example.com"])


class ResetPasswordBody(ApiModel):
    token: str = Field(max_length=128)
    new_password: str = Field(max_length=128)


class SocialSignInBody(ApiModel):
    provider: str = Field(max_length=32, examples=["google"])
    callback_url: str | None = Field(
        None, alias="callbackURL", max_length=2000, description="A path of this site to come back to."
    )
    referral_code: str | None = Field(None, max_length=16, description="Applied when this sign-in creates the user.")


class CaptchaHeaders(ApiModel):
    x_captcha_response: str = Field(
        "", alias="x-captcha-response", description="The captcha token, when the captcha is on."
    )


class VerifyEmailQuery(ApiModel):
    token: str = ""
    callback_url: str = Field("", alias="callbackURL", description="A path of this site: answered with 303 to it.")


class UserOut(ApiModel):
    id: str
    email: str
    name: str
    role: str
    status: str
    email_verified: bool
    referral_code: str | None
    referral_credit_days: int
    created_at: str


class SessionOut(ApiModel):
    expires_at: str
    persistent: bool
    impersonated_by: str | None
    impersonation_readonly: bool


class SignedIn(ApiModel):
    user: UserOut
    session: SessionOut


class MaybeSignedIn(RootModel[SignedIn | None]):
    """The session's user and session, or null without one."""


class Success(ApiModel):
    success: bool


class Exists(ApiModel):
    exists: bool


class StatusMessage(ApiModel):
    status: bool
    message: str


class SocialStart(ApiModel):
    url: str = Field(description="The provider's address: send the browser there.")
    redirect: bool
