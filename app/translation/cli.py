"""`flask catalog translate-names`: check translations from a shell (app.catalog.cli adds it to the `catalog` group)."""

from __future__ import annotations

import json
import sys

import click
import sqlalchemy as sa
from flask.cli import with_appcontext

from app.extensions import db
from app.translation import Translator, default_translator
from app.translation import services as names


@click.command("translate-names")
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line: source, tr and unknown words.")
@with_appcontext
def translate_names(as_json: bool) -> None:
    """Read English names from stdin, one a line, and print the Turkish of each, in the same order."""
    translator = _translator_in_force()
    for line in sys.stdin:
        source = line.rstrip("\r\n")
        translation = translator.translate(source)
        if as_json:
            record = {"source": source, "tr": translation.text, "unknown": list(translation.unknown)}
            click.echo(json.dumps(record, ensure_ascii=False))
        else:
            click.echo(translation.text)


def _translator_in_force() -> Translator:
    """The dictionary with the admins' terms; the builtin one alone when the database is not there (yet)."""
    try:
        return names.current_translator()
    except sa.exc.SQLAlchemyError:
        db.session.rollback()
        click.echo("Database not reachable or not migrated: the builtin dictionary alone is used.", err=True)
        return default_translator()
