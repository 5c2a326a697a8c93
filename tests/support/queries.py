"""Counting the SQL statements a request sends, so a hot page cannot slip into one query per row (N+1)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa
from flask import Flask

from app.extensions import db

# The test's isolation (every request in a savepoint of the test's transaction), not the request's own work.
ISOLATION = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


@contextmanager
def counted_statements(app: Flask) -> Iterator[list[str]]:
    """The statements sent on the app's engine inside the block, savepoint handling left out."""
    with app.app_context():
        engine = db.engine
    statements: list[str] = []

    def record(_connection, _cursor, statement: str, *_rest: object) -> None:
        if not statement.lstrip().upper().startswith(ISOLATION):
            statements.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


def statements_of(app: Flask, request) -> tuple[object, list[str]]:
    """Run `request()` (a client call) and return its response and the statements it sent."""
    with counted_statements(app) as statements:
        response = request()
    return response, list(statements)


def keep_session(client) -> None:
    """Have the process keep `client`'s session (app.auth.session_cache), as for a dealer already at work: the first
    request teaches it the session's user, the next reads the rows under that user's tokens and keeps them. Then a
    request's statements are its own, with no session read among them."""
    for _ in range(2):
        client.get("/api/auth/get-session")
