"""Sign-in pages (filled in below by the pages work)."""

from flask import Blueprint

bp = Blueprint("auth_pages", __name__)
