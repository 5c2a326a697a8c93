"""A request made with a shop API key (`Authorization: Bearer <key>` on /api): who it acts as, and how it is found.

The keys themselves belong to the shops domain, above this one, so auth only knows them through the loader the shops
domain registers at start (`load_keys_with`): a key in, a `KeyPrincipal` out (None for an unknown, revoked or expired
key). The principal is the key's creator, seen through the key: the creator's id, shop and branch (so writes record
who made the key), a shop role capped by the key's (a clerk key is a clerk, even an owner's), never a site role
(`role` is "user": no admin route). A key is read only under /api and never for the internal admin API, which has its
own token; on a page, the Authorization header is not looked at.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import g, request

from app.accounts.models import SHOP_RANK, User
from app.core.errors import is_api_request

BEARER = "bearer "
AUTHORIZATION = "HTTP_AUTHORIZATION"  # the WSGI environ's name of the Authorization header (not a setting)
INTERNAL_API_PREFIX = "/api/internal/"  # app.internal_admin.guard.URL_PREFIX lies under it (its own token)
REQUEST_KEY = "api_key_principal"  # flask.g: the request's principal, or INVALID, once the header was read

INVALID = object()  # a Bearer header whose key is unknown, revoked or expired
_UNREAD = object()


class KeyPrincipal:
    """The key's creator as a request made with the key sees them: everything the user row says, except the site role
    (never admin) and the shop role (the lower of the key's and the creator's)."""

    is_authenticated = True
    is_anonymous = False
    role = "user"
    is_admin = False

    def __init__(self, user: User, key_id: int, key_role: str) -> None:
        object.__setattr__(self, "_user", user)
        object.__setattr__(self, "api_key_id", key_id)
        object.__setattr__(self, "key_role", key_role)

    @property
    def shop_role(self) -> str:
        return min(self.key_role, self._user.shop_role, key=SHOP_RANK.__getitem__)

    def has_shop_role(self, needed: str) -> bool:
        return SHOP_RANK[self.shop_role] >= SHOP_RANK[needed]

    @property
    def user(self) -> User:
        """The creator's row (for a service that must hold the ORM object itself)."""
        return self._user

    def get_id(self) -> str:
        return self._user.get_id()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._user, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._user, name, value)  # a service's change (the branch worked in) lands on the row, as for a session

    def __repr__(self) -> str:
        return f"<KeyPrincipal key={self.api_key_id} {self.shop_role} of {self._user.id}>"


KeyLoader = Callable[[str], KeyPrincipal | None]
_loaders: list[KeyLoader] = []


def load_keys_with(loader: KeyLoader) -> None:
    """Register the function that turns a presented key into its principal (the shops domain, at start)."""
    _loaders[:] = [loader]


def presented_key() -> str | None:
    """The key of an `Authorization: Bearer` header on an /api route that keys may reach, else None."""
    header = request.environ.get(AUTHORIZATION, "")  # read on every /api request: no header normalising
    if header[: len(BEARER)].lower() != BEARER or not is_api_request():
        return None
    if request.path.startswith(INTERNAL_API_PREFIX):
        return None
    return header[len(BEARER) :].strip()


def key_principal() -> KeyPrincipal | object | None:
    """The request's key principal, INVALID for a key that opens nothing, None when no key was presented (read once)."""
    principal = g.get(REQUEST_KEY, _UNREAD)  # one look into flask.g: this runs on every request, twice
    if principal is _UNREAD:
        key = presented_key()
        principal = None if key is None else (_loaders[0](key) if _loaders and key else None) or INVALID
        setattr(g, REQUEST_KEY, principal)
    return principal


def rate_limit_identity() -> str | None:
    """The limits' name for a request made with a live key (every limit then counts per key)."""
    principal = key_principal()
    return f"api-key:{principal.api_key_id}" if isinstance(principal, KeyPrincipal) else None
