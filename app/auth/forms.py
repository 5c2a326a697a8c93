"""Forms of the sign-in pages; the services check the rules (e-mail shape, password strength)."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, EmailField, HiddenField, PasswordField, StringField
from wtforms.validators import DataRequired, Length, Optional

EMAIL_REQUIRED = _l("Enter your e-mail address.")
PASSWORD_REQUIRED = _l("Enter your password.")
TOO_LONG = _l("This is too long.")


def email_field() -> EmailField:
    return EmailField(
        _l("E-mail"),
        validators=[DataRequired(EMAIL_REQUIRED), Length(max=254, message=TOO_LONG)],
        render_kw={"autocomplete": "email", "inputmode": "email"},
    )


def password_field(label: str, autocomplete: str) -> PasswordField:
    return PasswordField(
        label,
        validators=[DataRequired(PASSWORD_REQUIRED), Length(max=128, message=TOO_LONG)],
        render_kw={"autocomplete": autocomplete},
    )


class LoginForm(FlaskForm):
    email = email_field()
    password = password_field(_l("Password"), "current-password")
    remember = BooleanField(_l("Remember me"))


class RegisterForm(FlaskForm):
    name = StringField(
        _l("Name"),
        validators=[DataRequired(_l("Enter your name.")), Length(max=100, message=TOO_LONG)],
        render_kw={"autocomplete": "name"},
    )
    email = email_field()
    password = password_field(_l("Password"), "new-password")
    referral_code = StringField(
        _l("Referral code (optional)"),
        validators=[Optional(), Length(max=16, message=TOO_LONG)],
        render_kw={"autocomplete": "off", "autocapitalize": "characters"},
    )


class ForgotPasswordForm(FlaskForm):
    email = email_field()


class ResetPasswordForm(FlaskForm):
    token = HiddenField()
    password = password_field(_l("New password"), "new-password")


class VerifyEmailForm(FlaskForm):
    token = HiddenField()
