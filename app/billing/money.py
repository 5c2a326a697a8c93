"""Money as the product shows it: kuruş in, Turkish lira out."""

from __future__ import annotations

from decimal import Decimal

from flask_babel import format_decimal


def turkish_amount(kurus: int) -> str:
    """Kuruş as lira with Turkish separators whatever the page language (notes, the provider sandbox): "1.499,00"."""
    lira, rest = divmod(int(kurus), 100)
    return f"{lira:,}".replace(",", ".") + f",{rest:02d}"


def format_tl(kurus: int) -> str:
    """Kuruş as lira the Turkish way: 149900 -> "1.499,00 ₺" (separators follow the page language)."""
    return f"{format_decimal(Decimal(kurus) / 100, format='#,##0.00')} ₺"
