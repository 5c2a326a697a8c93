"""Account pages."""

from flask import Blueprint

bp = Blueprint("accounts_pages", __name__)
