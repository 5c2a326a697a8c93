"""What the accounts domain tells the domains above it (blinker, as Flask's own).

`user_created` is sent inside the transaction that adds a user, with the flushed `user`: the shops domain gives a
user who joins no shop a one-person shop of their own, in that same transaction.

`user_deleting` is sent with the `user` before their account is deleted: a receiver refuses by raising ApiError (the
shops domain: the last owner of a shop with other members). `user_deleted` follows, with the `shop_id` they were in
(the shops domain closes a shop left without members).
"""

from __future__ import annotations

from blinker import Namespace

_signals = Namespace()

user_created = _signals.signal("user-created")
user_deleting = _signals.signal("user-deleting")
user_deleted = _signals.signal("user-deleted")
