"""The kept session rows (app.auth.session_cache): a signed-in request reads no session row once its tokens stand,
and every change to the user or their sessions is seen by the next request."""

import sqlalchemy as sa

from app.accounts.models import User
from app.auth.session_cache import EPOCH_KEY
from app.auth.sessions import COOKIE_NAME, revoke_user_sessions
from app.extensions import db, redis_store
from tests.conftest import SITE

ACCOUNT = "/api/account/connections"


def _statements(app, action) -> list[str]:
    seen: list[str] = []

    def record(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        action()
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    return seen


def _signed_in(client, create_user, sign_in, **user_fields):
    user = create_user(**user_fields)
    sign_in(user.email)
    assert client.get(ACCOUNT).status_code == 200  # the session's user is known from here on
    assert client.get(ACCOUNT).status_code == 200  # and its rows are kept
    return user


def test_a_kept_session_answers_without_reading_its_row(app, client, create_user, sign_in):
    _signed_in(client, create_user, sign_in)

    reads = _statements(app, lambda: client.get(ACCOUNT))

    assert reads, "the route reads the account's connections"
    assert not any('"session"' in statement for statement in reads), reads


def test_a_suspension_is_seen_by_the_next_request(app, client, create_user, sign_in):
    user = _signed_in(client, create_user, sign_in)

    db.session.get(User, user.id).status = "suspended"
    db.session.commit()

    response = client.get(ACCOUNT)
    assert response.status_code == 403
    assert response.get_json()["error"]["code"] == "account_suspended"


def test_a_role_change_is_seen_by_the_next_request(app, client, create_user, sign_in):
    user = _signed_in(client, create_user, sign_in, role="admin")
    assert client.get("/api/admin/users").status_code == 200

    db.session.get(User, user.id).role = "user"
    db.session.commit()

    assert client.get("/api/admin/users").status_code == 403


def test_sessions_revoked_by_a_bulk_delete_end_at_once(app, client, create_user, sign_in):
    user = _signed_in(client, create_user, sign_in)

    revoke_user_sessions(user.id)
    db.session.commit()

    assert client.get(ACCOUNT).status_code == 401


def test_sign_out_ends_a_kept_session_for_a_stolen_cookie(client, create_user, sign_in):
    _signed_in(client, create_user, sign_in)
    stolen = client.get_cookie(COOKIE_NAME).value

    assert client.post("/api/auth/sign-out", json={}, headers=SITE).status_code == 200

    client.set_cookie(COOKIE_NAME, stolen)
    assert client.get(ACCOUNT).status_code == 401


def test_an_expired_kept_session_is_refused(app, client, create_user, sign_in):
    _signed_in(client, create_user, sign_in)
    kept = next(iter(app.extensions["auth_session_cache"]._kept.values()))
    kept.session["expires_at"] = kept.session["expires_at"].replace(year=2000)

    assert client.get(ACCOUNT).status_code == 401


def test_lost_versions_trust_nothing_kept(app, client, create_user, sign_in):
    user = _signed_in(client, create_user, sign_in)
    # A change made past the ORM session (SQL by hand), then Redis emptied (restarted): the row is read again.
    users = User.__table__
    db.session.connection().execute(sa.update(users).where(users.c.id == user.id).values(status="banned"))
    db.session.commit()
    redis_store.client.flushdb()

    assert client.get(ACCOUNT).get_json()["error"]["code"] == "account_banned"
    assert redis_store.client.get(EPOCH_KEY) is not None
