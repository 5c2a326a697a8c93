"""`flask billing end-periods`: what the scheduled job does, run by hand."""

from __future__ import annotations

import click
from flask import Blueprint

from app.billing import periods

bp = Blueprint("billing_cli", __name__, cli_group="billing")


@bp.cli.command("end-periods")
def end_periods_command() -> None:
    """Expire subscriptions past their end date and start the downgrades scheduled for then."""
    report = periods.end_periods()
    click.echo(f"period end: {report.expired} expired, {report.downgrades} scheduled downgrades started")
