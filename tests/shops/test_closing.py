"""A shop closes through HTTP: its owner deletes it after typing its name (every member signed out, each left with an
empty shop of their own, the shop's data gone, payments kept), never while a paid plan has time left; a member who
deletes their account leaves what they made to the shop; the last owner of a shop with members cannot delete theirs;
a person alone in their shop takes its data with their account."""

from __future__ import annotations

import sqlalchemy as sa

from app.accounts.models import User
from app.billing.models import Payment, Subscription
from app.extensions import db
from app.quotes.models import Quote
from app.shops.models import Branch, Shop, ShopActivity
from tests.conftest import PASSWORD
from tests.support.shops import colleague

LAST_OWNER = (
    "Dükkânınızın son sahibisiniz ve dükkânda başka üyeler var. Hesabınızı silmeden önce birini sahip yapın ya da "
    "dükkânı silin."
)


def quote_by(person, customer: str) -> int:
    made = person.api("POST", "/api/quotes", {"customer": customer})
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"]


def shop_of(email: str):
    return db.session.scalar(sa.select(User.shop_id).where(User.email == email))


def delete_account(person):
    return person.api("POST", "/api/account/delete", {"confirmation": PASSWORD})


def test_the_owner_deletes_the_shop_after_typing_its_name(app, create_user, person):
    owner_user = create_user(email="kapanan@example.com", name="Kapanan Oto")
    colleague(create_user, owner_user, "clerk", email="tezgah@example.com", name="Tezgâh")
    shop_id = owner_user.shop_id
    owner, clerk = person("kapanan@example.com"), person("tezgah@example.com")
    quote_id = quote_by(clerk, "Gizli Müşteri")
    db.session.add(Payment(shop_id=shop_id, user_id=owner_user.id, amount=100, status="completed", method="eft"))
    db.session.commit()

    wrong = owner.form("/dukkan/sil", {"confirmation": "Başka Oto"})
    kept = db.session.get(Shop, shop_id) is not None
    page = owner.get("/dukkan").get_data(as_text=True)
    deleted = owner.form("/dukkan/sil", {"confirmation": "  kapanan oto "})

    assert wrong.status_code == 303 and kept
    assert "Silmek için dükkânın adını tam olarak yazın. Hiçbir şey silinmedi." in page
    assert deleted.status_code == 303 and deleted.headers["Location"].endswith("/login")
    db.session.expire_all()
    assert db.session.get(Shop, shop_id) is None
    assert db.session.get(Quote, quote_id) is None
    for table in (Branch, ShopActivity):
        assert db.session.scalar(sa.select(sa.func.count()).select_from(table).where(table.shop_id == shop_id)) == 0
    assert db.session.scalar(sa.select(Payment.amount).where(Payment.user_id == owner_user.id)) == 100
    # Both were signed out, and each has an empty shop of their own now.
    assert clerk.get("/api/shop/members").status_code == 401
    assert owner.get("/api/shop/members").status_code == 401
    assert len({shop_of("kapanan@example.com"), shop_of("tezgah@example.com"), shop_id}) == 3
    again = person("tezgah@example.com")
    assert [item["role"] for item in again.get("/api/shop/members").get_json()["items"]] == ["owner"]
    assert again.get("/api/quotes").get_json()["quotes"] == []


def test_the_shop_is_deleted_through_the_api_by_an_owner_only(create_user, person):
    owner_user = create_user(email="api-sahip@example.com", name="Api Oto")
    shop_id = owner_user.shop_id
    colleague(create_user, owner_user, "manager", email="api-mudur@example.com")
    manager = person("api-mudur@example.com")
    owner = person("api-sahip@example.com")

    refused = manager.api("DELETE", "/api/shop", {"confirmation": "Api Oto"})
    mismatch = owner.api("DELETE", "/api/shop", {"confirmation": ""})
    deleted = owner.api("DELETE", "/api/shop", {"confirmation": "Api Oto"})

    assert refused.status_code == 403
    assert mismatch.status_code == 400 and mismatch.get_json()["error"]["code"] == "confirmation_mismatch"
    assert deleted.status_code == 200 and deleted.get_json() == {"status": True}
    db.session.expire_all()
    assert db.session.get(Shop, shop_id) is None


def test_a_paid_plan_with_time_left_keeps_the_shop_and_a_trial_ends_with_it(create_user, person, make_subscription):
    paying = create_user(email="odeyen@example.com", name="Ödeyen Oto")
    paying_shop = paying.shop_id
    make_subscription(paying, "active", plan_key="full")
    trying = create_user(email="deneyen@example.com", name="Deneyen Oto")
    trial = make_subscription(trying, "trial", plan_key="full")

    refused = person("odeyen@example.com").api("DELETE", "/api/shop", {"confirmation": "Ödeyen Oto"})
    deleted = person("deneyen@example.com").api("DELETE", "/api/shop", {"confirmation": "Deneyen Oto"})

    assert refused.status_code == 409
    assert refused.get_json()["error"]["code"] == "paid_plan_running"
    assert refused.get_json()["error"]["message"].startswith("Dükkânınızın ücretli planı ")
    db.session.expire_all()
    assert db.session.get(Shop, paying_shop) is not None
    assert deleted.status_code == 200
    assert db.session.get(Subscription, trial.id).status == "cancelled"


def test_a_member_who_deletes_their_account_leaves_their_work_to_the_shop(create_user, person):
    owner_user = create_user(email="kalan@example.com", name="Kalan Oto")
    colleague(create_user, owner_user, "clerk", email="giden@example.com", name="Giden Tezgâh")
    clerk = person("giden@example.com")
    quote_id = quote_by(clerk, "Kalan Müşteri")

    assert delete_account(clerk).status_code == 200

    db.session.expire_all()
    assert db.session.get(User, owner_user.id) is not None
    quotes = person("kalan@example.com").get("/api/quotes").get_json()["quotes"]
    assert [(item["id"], item["customer"]) for item in quotes] == [(quote_id, "Kalan Müşteri")]


def test_the_last_owner_of_a_shop_with_members_keeps_their_account_until_another_owner_exists(create_user, person):
    owner_user = create_user(email="son-sahip@example.com", name="Son Sahip")
    shop_id = owner_user.shop_id
    partner = colleague(create_user, owner_user, "manager", email="ortak@example.com")
    owner = person("son-sahip@example.com")

    refused = delete_account(owner)
    partner.shop_role = "owner"
    db.session.commit()
    deleted = delete_account(owner)

    assert refused.status_code == 409 and refused.get_json()["error"]["message"] == LAST_OWNER
    assert deleted.status_code == 200
    db.session.expire_all()
    assert db.session.get(Shop, shop_id) is not None  # the partner runs it on


def test_a_person_alone_in_their_shop_takes_its_data_with_their_account(create_user, person):
    alone = create_user(email="yalniz@example.com", name="Yalnız Oto")
    shop_id = alone.shop_id
    quote_id = quote_by(person("yalniz@example.com"), "Tek Müşteri")

    assert delete_account(person("yalniz@example.com")).status_code == 200

    db.session.expire_all()
    assert db.session.get(Shop, shop_id) is None
    assert db.session.get(Quote, quote_id) is None
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Branch).where(Branch.shop_id == shop_id)) == 0
