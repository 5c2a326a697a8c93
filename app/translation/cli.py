"""`flask catalog ...`: check translations from a shell, and bring stored names up to the dictionary."""

from __future__ import annotations

import json
import sys
import time

import click
import sqlalchemy as sa
from flask import Blueprint

from app.extensions import db
from app.translation import Translator, default_translator, tasks
from app.translation import services as names

bp = Blueprint("translation_cli", __name__, cli_group="catalog")


@bp.cli.command("translate-names")
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line: source, tr and unknown words.")
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


STALL_SECONDS = 30  # no name translated for this long: no worker is running


@bp.cli.command("retranslate")
@click.option("--inline", is_flag=True, help="Translate here and now instead of queuing tr- jobs for the worker.")
@click.option("--no-wait", is_flag=True, help="Queue the tr- jobs and return without waiting for them.")
def retranslate(inline: bool, no_wait: bool) -> None:
    """Bring every stored category and part name up to the dictionary in force (after a dictionary update)."""
    version = names.job_translator().version
    total = tasks.pending_count(version)
    if not total:
        click.echo(f"Every stored name is up to date (dictionary {version}).")
        return
    click.echo(f"{total} stored names are behind dictionary {version}.")
    if inline:
        translator = names.job_translator()
        with click.progressbar(length=total, label="Translating") as bar:
            for vehicle_id in tasks.pending_vehicle_ids(version):
                tasks.translate_vehicle(vehicle_id, translator, bar.update)
        return
    click.echo(f"Queued {tasks.queue_retranslation()} on the translation queue.")
    if not no_wait:
        _follow(version, total)


def _follow(version: str, total: int) -> None:
    """A progress bar of the names the worker has translated, until none is left or nothing moves for a while."""
    done, last_change = 0, time.monotonic()
    with click.progressbar(length=total, label="Translating") as bar:
        while done < total:
            time.sleep(1)
            db.session.rollback()  # a fresh snapshot: the worker commits in its own transactions
            now_done = total - tasks.pending_count(version)
            if now_done > done:
                bar.update(now_done - done)
                done, last_change = now_done, time.monotonic()
            elif time.monotonic() - last_change > STALL_SECONDS:
                raise click.ClickException(
                    "No name was translated for 30 s: is a worker running (`make worker`)? Or run with --inline."
                )
