"""Reading pages through their elements, so an assert holds whatever the order of the attributes."""

from __future__ import annotations

from bs4 import BeautifulSoup, Tag


def elements(html: str, selector: str) -> list[Tag]:
    """Every element of `html` matching the CSS `selector`."""
    return BeautifulSoup(html, "html.parser").select(selector)


def the(html: str, selector: str) -> Tag:
    """The one element of `html` matching `selector` (AssertionError when there are none or several)."""
    found = elements(html, selector)
    assert len(found) == 1, f"{len(found)} elements match {selector!r}"
    return found[0]
