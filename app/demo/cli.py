"""`flask demo seed`: store the demo vehicle and its whole tree now, in the foreground, with progress lines."""

from __future__ import annotations

import click
from flask import Blueprint, current_app

from app.demo import seed

bp = Blueprint("demo_cli", __name__, cli_group="demo")


@bp.cli.command("seed")
@click.option("--wait/--queue", default=True, help="Store the tree here (default) or queue it for the worker.")
def seed_command(wait: bool) -> None:
    """Store the demo vehicle (DEMO_VEHICLE_ID, else DEMO_VIN through catapi) and its tree.

    Run by hand, it reaches whatever catapi is configured, whatever DEMO_SEED says: running it is the asking.
    """
    config = current_app.config
    try:
        if config.get("DEMO_VEHICLE_ID") is not None:
            summary = seed.fill_tree(int(config["DEMO_VEHICLE_ID"]), wait, click.echo)
        elif config.get("DEMO_VIN"):
            summary = seed.seed(config["DEMO_VIN"], wait, click.echo)
        else:
            raise click.ClickException("set DEMO_VEHICLE_ID or DEMO_VIN first")
    except seed.DemoSeedError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"demo: {summary}")
