"""Public pages: the contact form, and the KVKK privacy notice, terms of use and cookie notice in the visitor's
language (legal texts are whole documents per language, templates/legal/<page>.<lang>.html, not strings)."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import EmailField, HiddenField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length

from app.core.errors import ApiError
from app.core.security import public
from app.site.contact import MESSAGE_MAX, send_contact_message
from app.site.throttles import contact_throttle

bp = Blueprint("site_pages", __name__)

LEGAL_PAGES = {"privacy": "/privacy", "terms": "/terms", "cookies": "/cookies"}


class ContactForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=100)], render_kw={"autocomplete": "name"})
    email = EmailField(_l("E-mail"), validators=[DataRequired(), Length(max=254)], render_kw={"autocomplete": "email"})
    message = TextAreaField(_l("Message"), validators=[DataRequired(), Length(max=MESSAGE_MAX)], render_kw={"rows": 6})
    captcha_token = HiddenField()


@bp.get("/contact")
@public
def contact():
    return render_template("site/contact.html", form=ContactForm(formdata=None), error=None)


@bp.post("/contact")
@public
@contact_throttle
def submit_contact():
    form = ContactForm()
    data = {"name": form.name.data, "email": form.email.data, "message": form.message.data}
    data["captchaToken"] = request.form.get("cf-turnstile-response") or form.captcha_token.data
    try:
        send_contact_message(data, request.remote_addr)
    except ApiError as error:
        return render_template("site/contact.html", form=form, error=error.message), error.status
    flash(_("Thank you! Your message is on its way; we will answer by e-mail."), "success")
    return redirect(url_for(".contact"), code=303)


def _legal(page: str):
    language = "en" if str(get_locale()) == "en" else "tr"
    return render_template(f"legal/{page}.{language}.html", page=page)


for _page, _path in LEGAL_PAGES.items():
    bp.add_url_rule(_path, endpoint=_page, view_func=public(lambda page=_page: _legal(page)))
