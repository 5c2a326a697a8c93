"""What the accounts domain tells the domains above it (blinker, as Flask's own).

`user_created` is sent inside the transaction that adds a user, with the flushed `user`: the shops domain gives a
user who joins no shop a one-person shop of their own, in that same transaction.
"""

from __future__ import annotations

from blinker import Namespace

_signals = Namespace()

user_created = _signals.signal("user-created")
