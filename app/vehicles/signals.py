"""What the vehicles domain tells the domains above it, so it needs to know none of them (blinker, as Flask's own).

`vehicle_stored` is sent after the commit that stored a new vehicle (a decoded VIN's, a candidate's, a browsed
car's), with its `vehicle_id`; the catalog subscribes and queues the walk of its tree. A receiver runs after the commit
(app.core.after_commit): it must not use the database session, and its failure never undoes the vehicle.
"""

from __future__ import annotations

from functools import partial

from blinker import Namespace
from flask import current_app

from app.core.after_commit import after_commit

_signals = Namespace()

vehicle_stored = _signals.signal("vehicle-stored")


def announce_stored(vehicle_id: int) -> None:
    """Send `vehicle_stored` for the vehicle once the current transaction, which inserts it, commits."""
    after_commit(partial(vehicle_stored.send, current_app._get_current_object(), vehicle_id=vehicle_id))
