"""`flask translate extract|update|compile`: thin wrappers around pybabel with the project's paths."""

from __future__ import annotations

import subprocess
import sys

from flask import Flask

from app.config import PROJECT_ROOT

POT_FILE = PROJECT_ROOT / "translations" / "messages.pot"
CATALOGS = PROJECT_ROOT / "translations"


def _pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], check=True, cwd=PROJECT_ROOT)  # noqa: S603 - fixed argv


def register_translate_commands(app: Flask) -> None:
    @app.cli.group("translate")
    def translate() -> None:
        """Manage the tr and en message catalogs."""

    @translate.command("update")
    def update() -> None:
        """Extract messages from code and templates and merge them into the catalogs."""
        _pybabel("extract", "-F", "babel.cfg", "-k", "_l", "--sort-by-file", "--no-location", "-o", str(POT_FILE), ".")
        _pybabel(
            "update", "-i", str(POT_FILE), "-d", str(CATALOGS), "--no-fuzzy-matching", "--ignore-obsolete", "-w", "120"
        )

    @translate.command("compile")
    def compile_catalogs() -> None:
        """Compile the catalogs into the .mo files the app reads."""
        _pybabel("compile", "-d", str(CATALOGS))
