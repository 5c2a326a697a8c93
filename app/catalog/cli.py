"""`flask catalog ...`: bring stored names up to the dictionary (`retranslate`), give stored part rows their fit answer
by the rules in force (`refit`), and translation's `translate-names`.

Flask registers a blueprint's CLI group under its name, and a second group with the same name replaces the first:
so the `catalog` group is this one blueprint's, and translation's command (text in, text out) is added to it here.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import click
from flask import Blueprint

from app.catalog import name_translation
from app.catalog.fit import recompute
from app.extensions import db
from app.translation import services as names
from app.translation.cli import translate_names

bp = Blueprint("catalog_cli", __name__, cli_group="catalog")
bp.cli.add_command(translate_names)

STALL_SECONDS = 30  # nothing done for this long: no worker is running


@bp.cli.command("retranslate")
@click.option("--inline", is_flag=True, help="Translate here and now instead of queuing tr- jobs for the worker.")
@click.option("--no-wait", is_flag=True, help="Queue the tr- jobs and return without waiting for them.")
def retranslate(inline: bool, no_wait: bool) -> None:
    """Bring every stored category and part name up to the dictionary in force (after a dictionary update)."""
    version = names.job_translator().version
    total = name_translation.pending_count(version)
    if not total:
        click.echo(f"Every stored name is up to date (dictionary {version}).")
        return
    click.echo(f"{total} stored names are behind dictionary {version}.")
    if inline:
        translator = names.job_translator()
        with click.progressbar(length=total, label="Translating") as bar:
            for vehicle_id in name_translation.pending_vehicle_ids(version):
                name_translation.translate_vehicle(vehicle_id, translator, bar.update)
        return
    click.echo(f"Queued {name_translation.queue_retranslation()} on the translation queue.")
    if not no_wait:
        _follow(lambda: name_translation.pending_count(version), total, "Translating")


@bp.cli.command("refit")
@click.option("--inline", is_flag=True, help="Compute here and now instead of queuing the fit-recompute jobs.")
@click.option("--no-wait", is_flag=True, help="Queue the fit-recompute jobs and return without waiting for them.")
def refit(inline: bool, no_wait: bool) -> None:
    """Give every stored part row its fit answer by the rules in force (rows stored before them read as maybe)."""
    total = recompute.pending_count()
    if not total:
        click.echo("Every stored part row has its fit answer.")
        return
    click.echo(f"{total} stored part rows wait for their fit answer.")
    if inline:
        with click.progressbar(length=total, label="Computing fits") as bar:
            recompute.recompute_all(bar.update)
        return
    click.echo(f"Queued {recompute.queue_recompute()} on the {recompute.QUEUE} queue.")
    if not no_wait:
        _follow(recompute.pending_count, total, "Computing fits")


def _follow(pending: Callable[[], int], total: int, label: str) -> None:
    """A progress bar of what the worker has done, until nothing is `pending` or nothing moves for a while."""
    done, last_change = 0, time.monotonic()
    with click.progressbar(length=total, label=label) as bar:
        while done < total:
            time.sleep(1)
            db.session.rollback()  # a fresh snapshot: the worker commits in its own transactions
            now_done = total - pending()
            if now_done > done:
                bar.update(now_done - done)
                done, last_change = now_done, time.monotonic()
            elif time.monotonic() - last_change > STALL_SECONDS:
                raise click.ClickException(
                    "Nothing was done for 30 s: is a worker running (`make worker`)? Or run with --inline."
                )
