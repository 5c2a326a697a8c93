"""Forms of the account page."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import PasswordField, StringField
from wtforms.validators import DataRequired, Length


class ChangePasswordForm(FlaskForm):
    # Optional: a user who signs in only with a social account has no password to give yet.
    current_password = PasswordField(
        _l("Current password"), validators=[Length(max=128)], render_kw={"autocomplete": "current-password"}
    )
    new_password = PasswordField(
        _l("New password"),
        validators=[DataRequired(_l("Enter the new password.")), Length(max=128)],
        render_kw={"autocomplete": "new-password"},
    )


class DeleteAccountForm(FlaskForm):
    confirmation = StringField(
        _l("Confirmation"),
        validators=[DataRequired(_l("Type the confirmation to delete the account.")), Length(max=254)],
        render_kw={"autocomplete": "off"},
    )
