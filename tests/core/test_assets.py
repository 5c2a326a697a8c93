"""The front-end build (`make assets`: package.json's "vendor" list, .ci/build-assets.mjs) produces every static file
that a template, the code or a static script or stylesheet refers to, and the site serves each of them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.config import PROJECT_ROOT

STATIC = PROJECT_ROOT / "app" / "static"
VENDOR = STATIC / "vendor"
BUILD_HINT = 'run `make assets` (package.json\'s "vendor" lists what the build copies)'

# url_for('static', filename=<expression>) in a template or in Python.
STATIC_URL_FOR = re.compile(r"""url_for\(\s*["']static["']\s*,\s*filename\s*=\s*(?P<expr>[^)]+?)\s*\)""")
STRING = re.compile(r"""(?P<quote>["'])(?P<text>[^"']*)(?P=quote)""")
# In a script or stylesheet: an absolute /static/ address, a stylesheet's url() or @import, a source map.
ABSOLUTE_STATIC = re.compile(r"""["'`(]/static/(?P<path>[^"'`)?#\s]+)""")
CSS_URL = re.compile(r"""(?:url\(\s*["']?|@import\s+["'])(?P<path>[^"')\s]+)""")
SOURCE_MAP = re.compile(r"""[#@]\s*sourceMappingURL=(?P<path>[^\s*"']+)""")
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//|#)", re.IGNORECASE)


def _template_pattern(expression: str) -> str:
    """The static path an expression names, as a glob: its string parts kept, every variable part a `*`."""
    parts = re.split(r"\s*[~+]\s*", expression.strip())
    return "".join(m.group("text") if (m := STRING.fullmatch(part)) else "*" for part in parts)


def _template_references() -> set[tuple[str, str]]:
    """(where, glob) for every url_for('static', ...) of the templates and the code."""
    sources = [*sorted((PROJECT_ROOT / "templates").rglob("*.html")), *sorted((PROJECT_ROOT / "app").rglob("*.py"))]
    references = set()
    for path in sources:
        for match in STATIC_URL_FOR.finditer(path.read_text(encoding="utf-8")):
            references.add((str(path.relative_to(PROJECT_ROOT)), _template_pattern(match.group("expr"))))
    return references


def _asset_references(path: Path) -> set[str]:
    """Static paths (relative to app/static) a script or stylesheet refers to."""
    text = path.read_text(encoding="utf-8", errors="replace")
    found = {m.group("path") for m in ABSOLUTE_STATIC.finditer(text)}
    relative = [m.group("path") for m in SOURCE_MAP.finditer(text)]
    if path.suffix == ".css":
        relative += [m.group("path") for m in CSS_URL.finditer(text)]
    for reference in relative:
        if not EXTERNAL.match(reference):
            found.add(str((path.parent / reference).resolve().relative_to(STATIC.resolve())))
    return found


def _static_files() -> list[Path]:
    return sorted(path for path in STATIC.rglob("*") if path.is_file() and path.suffix in {".js", ".css"})


def _vendor_list() -> dict[str, str]:
    return json.loads((PROJECT_ROOT / "package.json").read_text(encoding="utf-8"))["vendor"]


def test_the_built_vendor_folder_holds_exactly_what_package_json_lists():
    built = {
        str(path.relative_to(VENDOR))
        for path in VENDOR.rglob("*")
        if path.is_file() and not path.name.startswith(".")  # .built: make's record of the last build
    }

    assert built == set(_vendor_list()), BUILD_HINT


def test_every_vendored_file_is_used_by_a_template_the_code_or_another_vendored_file():
    """Nothing shipped for nothing; and the scans below see every library the pages load."""
    referenced = {pattern for _where, pattern in _template_references()}
    for asset in VENDOR.rglob("*"):
        if asset.is_file():
            referenced |= _asset_references(asset)

    assert sorted(f"vendor/{name}" for name in _vendor_list() if f"vendor/{name}" not in referenced) == []


def test_every_static_file_a_template_or_the_code_refers_to_is_built_and_served(client):
    missing = []
    for where, pattern in sorted(_template_references()):
        matches = sorted(STATIC.glob(pattern))
        if not matches:
            missing.append(f"{where}: {pattern}")
        for path in matches:
            response = client.get(f"/static/{path.relative_to(STATIC)}")
            response.close()
            if response.status_code != 200:
                missing.append(f"{where}: {pattern} answers {response.status_code}")

    assert missing == [], BUILD_HINT


@pytest.mark.parametrize("asset", _static_files(), ids=lambda path: str(path.relative_to(STATIC)))
def test_every_file_a_static_script_or_stylesheet_refers_to_exists(asset):
    missing = sorted(path for path in _asset_references(asset) if not (STATIC / path).is_file())

    assert missing == [], BUILD_HINT
