"""The admin's form for adding a dictionary term."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired, Length

from app.translation.glossary import TERM_MAX_LENGTH


class TermForm(FlaskForm):
    english = StringField(
        _l("English"),
        validators=[DataRequired(_l("Write the English term.")), Length(max=TERM_MAX_LENGTH)],
        render_kw={"autocomplete": "off", "spellcheck": "false"},
    )
    turkish = StringField(
        _l("Turkish"),
        validators=[DataRequired(_l("Write the Turkish term.")), Length(max=TERM_MAX_LENGTH)],
        render_kw={"autocomplete": "off", "lang": "tr"},
    )
    # Radio buttons drawn by the template (KINDS); the service refuses any other value.
    kind = StringField(_l("Kind"), default="noun", validators=[Length(max=10)])


KINDS = (
    ("noun", _l("A thing (filter → yağ filtresi)")),
    ("modifier", _l("A word before a thing (front → ön fren diski)")),
)
