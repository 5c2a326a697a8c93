"""Referral codes, who brought whom, milestone rewards."""

from flask import Blueprint


def blueprints() -> list[Blueprint]:
    """The domain's blueprints, registered in this order (imported here so that a model import loads no route)."""
    from app.referrals import api, views

    return [api.bp, views.bp]
