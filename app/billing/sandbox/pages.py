"""The sandbox's own pages, the hosted pay page and the receipt, in the product's look: templates/ rendered with
Jinja2 (autoescaped; the sandbox is a plain werkzeug app, not Flask), and the stylesheet and icon they load."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from jinja2 import Environment, PackageLoader, StrictUndefined

from app.billing.money import turkish_amount

# The product's own stylesheet and icon, served from the sandbox so its pages look like the rest of Parça Bul.
STATIC_DIR = Path(__file__).resolve().parents[2] / "static"
ASSETS = {"app.css": ("css/app.css", "text/css"), "favicon.svg": ("favicon.svg", "image/svg+xml")}
STYLESHEET_PATH = "/assets/app.css"
RECEIPT_ZONE = ZoneInfo("Europe/Istanbul")


def display_amount(amount: int, currency: str) -> str:
    """The amount as the product shows it, the Turkish way: 149900 TRY -> "1.499,00 ₺" (other currencies by code)."""
    symbol = "₺" if currency.upper() == "TRY" else currency.upper()
    return f"{turkish_amount(amount)} {symbol}"


def receipt_date(timestamp: int) -> str:
    return f"{datetime.fromtimestamp(timestamp, RECEIPT_ZONE):%d.%m.%Y}"


_templates = Environment(
    loader=PackageLoader("app.billing.sandbox"),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_templates.filters.update(amount=display_amount, receipt_date=receipt_date)
_templates.globals.update(stylesheet_path=STYLESHEET_PATH)


def pay_page_html(session: dict) -> str:
    """The hosted checkout page: what is paid for, and Pay and Cancel while the session is open."""
    return _templates.get_template("pay.html").render(session=session)


def receipt_html(charge: dict) -> str:
    return _templates.get_template("receipt.html").render(charge=charge)
