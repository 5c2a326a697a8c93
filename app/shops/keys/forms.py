"""The form that makes a shop API key."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DateField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional


class NewKeyForm(FlaskForm):
    name = StringField(
        _l("Key name"),
        validators=[DataRequired(_l("Give the key a name.")), Length(max=80)],
        render_kw={"maxlength": 80},
    )
    role = SelectField(
        _l("Role"),
        choices=[SelectChoice("clerk", _l("Clerk")), SelectChoice("manager", _l("Manager"))],
        default="clerk",
    )
    expires_on = DateField(_l("Last valid day (optional)"), validators=[Optional()])
