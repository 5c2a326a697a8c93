"""The owner's API keys page: a key made through the form is shown on that answer only; revoking from the list."""

from __future__ import annotations

import re

import sqlalchemy as sa

from app.extensions import db
from app.shops.keys.models import ShopApiKey
from tests.conftest import csrf_token_from

PAGE = "/shop/keys"
SECRET = re.compile(r'<code class="api-key-secret">(pb_[A-Za-z0-9_-]+)</code>')


def test_a_key_made_on_the_page_is_shown_once(client, create_user, sign_in):
    sign_in(create_user().email)
    token = csrf_token_from(client.get(PAGE).get_data(as_text=True))

    made = client.post(PAGE, data={"csrf_token": token, "name": "Muhasebe", "role": "manager", "expires_on": ""})

    html = made.get_data(as_text=True)
    assert made.status_code == 200 and "Şimdi kopyalayın" in html
    secret = SECRET.search(html).group(1)
    again = client.get(PAGE).get_data(as_text=True)
    assert secret not in again and f"{secret[:11]}…" in again
    assert "Henüz kullanılmadı" in again and "Müdür" in again
    row = db.session.scalar(sa.select(ShopApiKey))
    assert (row.name, row.role, row.expires_at) == ("Muhasebe", "manager", None)


def test_a_form_without_a_name_makes_nothing(client, create_user, sign_in):
    sign_in(create_user().email)
    token = csrf_token_from(client.get(PAGE).get_data(as_text=True))

    refused = client.post(PAGE, data={"csrf_token": token, "name": "", "role": "clerk"})

    assert refused.status_code == 400 and "Anahtara bir ad verin." in refused.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(ShopApiKey)) == 0


def test_a_key_revoked_on_the_page(app, client, create_user, sign_in):
    sign_in(create_user().email)
    token = csrf_token_from(client.get(PAGE).get_data(as_text=True))
    made = client.post(PAGE, data={"csrf_token": token, "name": "Depo", "role": "clerk"}).get_data(as_text=True)
    secret = SECRET.search(made).group(1)
    row = db.session.scalar(sa.select(ShopApiKey))

    revoked = client.post(f"{PAGE}/{row.id}/revoke", data={"csrf_token": token})

    assert revoked.status_code == 303
    assert "Depo anahtarı iptal edildi." in client.get(PAGE).get_data(as_text=True)
    assert app.test_client().get("/api/quotes", headers={"Authorization": f"Bearer {secret}"}).status_code == 401
