"""Founder subscription operations under /api/internal/admin/subscriptions/<id>: every row and refusal of the
transition table, the input checks, the audit rows, and the dealer's access following each change."""

import uuid
from datetime import datetime, timedelta

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.billing.models import Brand, Plan, Subscription
from app.billing.subscriptions import transitions
from app.core.db import utcnow
from app.extensions import db
from app.internal_admin.guard import AUTH_HEADER
from app.internal_admin.models import AuditEntry
from app.internal_admin.subscriptions_api import snapshot
from app.vehicles.models import Vehicle
from tests.support.strategies import JSON_SCALARS, JSON_VALUES

TOKEN = "internal-test-token-subscriptions"
FOUNDER = {"reason": "Bayi telefonla istedi", "founderId": "kurucu-1"}
PREFIX = "/api/internal/admin/subscriptions"
STATES = ("pending", "trial", "active", "cancelled", "expired")
# Which states each operation starts from (the spec's table); every other state is refused.
ALLOWED = {
    "trial/extend": {"trial", "active"},
    "activate": {"trial", "pending"},
    "change-plan": {"trial", "active"},
    "cancel": {"trial", "active"},
    "resume": {"cancelled"},
    "brands": {"trial", "active"},
}
ACTIONS = {
    "trial/extend": "subscription.extend",
    "activate": "subscription.activate",
    "change-plan": "subscription.change_plan",
    "cancel": "subscription.cancel",
    "resume": "subscription.resume",
    "brands": "subscription.brands",
}
STATUS_LABELS = {
    "pending": "Ödeme bekleniyor",
    "trial": "Ücretsiz deneme",
    "active": "Aktif",
    "cancelled": "İptal edildi",
    "expired": "Süresi doldu",
}


@pytest.fixture(autouse=True)
def _internal_token(app, monkeypatch):
    monkeypatch.setitem(app.config, "INTERNAL_API_TOKEN", TOKEN)


@pytest.fixture
def founder(app):
    """The founder panel calls server to server: no cookie of any dealer."""
    return app.test_client()


@pytest.fixture
def call(founder):
    """`call(subscription_or_id, "cancel", **fields)`: POST the operation with the founder's reason and id."""

    def post(target, op, body=None, token=TOKEN, headers=None, **fields):
        target_id = target.id if isinstance(target, Subscription) else target
        sent = {**FOUNDER, **fields} if body is None else body
        all_headers = dict(headers or {})
        if token is not None:
            all_headers[AUTH_HEADER] = token
        return founder.post(f"{PREFIX}/{target_id}/{op}", json=sent, headers=all_headers)

    return post


@pytest.fixture
def dealer(create_user):
    return create_user()


def reloaded(subscription):
    db.session.expire_all()
    return db.session.get(Subscription, subscription.id)


def audit_rows(target_id=None):
    query = sa.select(AuditEntry).order_by(AuditEntry.id)
    if target_id is not None:
        query = query.where(AuditEntry.target_id == str(target_id))
    return list(db.session.scalars(query))


def parse(moment):
    return datetime.fromisoformat(moment)


def valid_fields(op, catalog):
    """A body each operation accepts for a subscription on the trio plan."""
    return {
        "trial/extend": {"days": 5},
        "activate": {},
        "change-plan": {"newPlanId": catalog.plans["single"].id},
        "cancel": {},
        "resume": {},
        "brands": {"brandIds": catalog.brand_ids(6)[3:]},
    }[op]


def error_of(response, status):
    assert response.status_code == status, response.get_json()
    return response.get_json()["error"]


# --- the transition table -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("op", ALLOWED)
def test_each_operation_runs_from_its_states_and_is_refused_from_every_other(
    call, dealer, make_subscription, billing_catalog, op, state
):
    subscription = make_subscription(dealer, state, "trio")
    before = snapshot(subscription)

    response = call(subscription, op, **valid_fields(op, billing_catalog))

    [entry] = audit_rows(subscription.id)
    assert (entry.action, entry.target_type, entry.founder_id) == (ACTIONS[op], "subscription", "kurucu-1")
    assert entry.reason == "Bayi telefonla istedi"
    assert entry.before == before
    after = snapshot(reloaded(subscription))
    if state not in ALLOWED[op]:
        assert error_of(response, 409) == {
            "code": "invalid_transition",
            "message": f"Aboneliğin şu anki durumunda ({STATUS_LABELS[state]}) bu değişiklik yapılamaz.",
        }
        assert after == before
        assert (entry.outcome, entry.after) == ("invalid_transition", None)
        return
    assert response.status_code == 200, response.get_json()
    assert (entry.outcome, entry.after) == ("ok", after)
    expected_status = {"activate": "active", "cancel": "cancelled", "resume": "active"}.get(op, state)
    assert after["status"] == expected_status
    body = response.get_json()
    if op != "trial/extend":
        assert body["id"] == str(subscription.id) and body["userId"] == str(dealer.id)
        assert body["status"] == expected_status
    if op == "cancel":
        assert after["cancelledAt"] is not None and body["cancelledAt"] == after["cancelledAt"]
    if op == "resume":
        assert after["cancelledAt"] is None and after["endDate"] == before["endDate"]
    if op == "change-plan":
        assert (after["planKey"], after["brandIds"]) == ("single", before["brandIds"])
    if op == "brands":
        assert after["brandIds"] == sorted(billing_catalog.brand_ids(6)[3:])
    if op == "trial/extend":
        assert parse(after["endDate"]) == parse(before["endDate"]) + timedelta(days=5)


def test_activate_moves_the_dates_to_a_new_period(call, dealer, make_subscription):
    subscription = make_subscription(dealer, "trial", "full")

    response = call(subscription, "activate")

    assert response.status_code == 200
    activated = reloaded(subscription)
    assert activated.status == "active"
    assert abs(activated.start_date - utcnow()) < timedelta(minutes=1)
    assert activated.end_date > activated.start_date + timedelta(days=27)


def test_activating_a_pending_subscription_replaces_the_users_trial(call, dealer, make_subscription):
    trial = make_subscription(dealer, "trial", "full")
    pending = make_subscription(dealer, "pending", "trio")

    response = call(pending, "activate")

    assert response.status_code == 200, response.get_json()
    assert reloaded(pending).status == "active"
    assert reloaded(trial).status not in ("active", "trial")


# --- extend -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("days", [1, 90])
def test_extend_accepts_1_to_90_days_and_answers_the_old_and_new_end(call, dealer, make_subscription, days):
    subscription = make_subscription(dealer, "trial", "full", days_left=3)
    previous_end = subscription.end_date

    response = call(subscription, "trial/extend", days=days)

    assert response.status_code == 200
    body = response.get_json()
    assert body == {
        "previousEndDate": previous_end.isoformat(),
        "newEndDate": (previous_end + timedelta(days=days)).isoformat(),
        "daysAdded": days,
        "status": "trial",
    }
    assert reloaded(subscription).end_date == previous_end + timedelta(days=days)


@pytest.mark.parametrize("days", [0, 91, -1, 10**30, True, False, 7.0, 7.5, "7", None, [7], {"days": 7}])
def test_extend_refuses_days_outside_1_to_90_or_not_a_whole_number(call, dealer, make_subscription, days):
    subscription = make_subscription(dealer, "trial", "full")
    before = snapshot(subscription)

    response = call(subscription, "trial/extend", days=days)

    assert error_of(response, 400) == {"code": "invalid_days", "message": "Uzatma 1 ile 90 gün arasında olmalıdır."}
    assert snapshot(reloaded(subscription)) == before
    [entry] = audit_rows(subscription.id)
    assert (entry.outcome, entry.before, entry.after) == ("invalid_days", before, None)


def test_extend_without_days_is_refused(call, dealer, make_subscription):
    subscription = make_subscription(dealer, "active")

    assert error_of(call(subscription, "trial/extend"), 400)["code"] == "invalid_days"


def test_an_ended_trial_is_extended_from_now_not_from_its_old_end(call, dealer, make_subscription):
    subscription = make_subscription(dealer, "trial", "full", days_left=-5)
    previous_end = subscription.end_date

    response = call(subscription, "trial/extend", days=7)

    body = response.get_json()
    assert parse(body["previousEndDate"]) == previous_end
    new_end = reloaded(subscription).end_date
    assert abs(new_end - (utcnow() + timedelta(days=7))) < timedelta(minutes=1)
    assert parse(body["newEndDate"]) == new_end


# --- change-plan ----------------------------------------------------------------------------------------------------


@pytest.fixture
def other_single_plan(billing_catalog):
    """A second active one-brand plan: a change between equal brand counts."""
    plan = Plan(key="single-plus", name="Tek Marka Artı", brand_count=1, monthly_price=49_900, yearly_price=499_000)
    db.session.add(plan)
    db.session.commit()
    return plan


@pytest.mark.parametrize(
    ("state", "current", "new", "needed"),
    [
        ("active", "single", "trio", True),  # 1 brand held, 3 wanted
        ("active", "trio", "single", True),
        ("active", "single", "full", False),  # the Full plan grants every brand by itself
        ("active", "full", "trio", True),  # every brand held, 3 wanted
        ("trial", "full", "single", True),
        ("trial", "trio", "full", False),
        ("active", "single", "single-plus", False),  # 1 brand held, 1 wanted
    ],
)
def test_change_plan_replaces_the_plan_keeps_the_brands_and_says_whether_to_choose_again(
    call, dealer, make_subscription, billing_catalog, other_single_plan, state, current, new, needed
):
    subscription = make_subscription(dealer, state, current)
    brands_before = sorted(brand.id for brand in subscription.brands)
    new_plan = db.session.scalar(sa.select(Plan).where(Plan.key == new))

    response = call(subscription, "change-plan", newPlanId=new_plan.id)

    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["brandReassignmentNeeded"] is needed
    assert body["plan"]["key"] == new and body["status"] == state
    changed = reloaded(subscription)
    assert changed.plan_id == new_plan.id
    assert sorted(brand.id for brand in changed.brands) == brands_before


def test_change_plan_to_the_current_plan_is_refused(call, dealer, make_subscription, billing_catalog):
    subscription = make_subscription(dealer, "active", "trio")

    response = call(subscription, "change-plan", newPlanId=billing_catalog.plans["trio"].id)

    assert error_of(response, 409) == {"code": "same_plan", "message": "Abonelik zaten bu planda."}
    assert audit_rows(subscription.id)[0].outcome == "same_plan"


@pytest.mark.parametrize("plan_id", ["unknown", "inactive", None, "2", 2.0, True, -1, 0, 2**40, [1], {"id": 1}])
def test_change_plan_to_an_unknown_inactive_or_mistyped_plan_is_refused(
    call, dealer, make_subscription, billing_catalog, plan_id
):
    if plan_id == "unknown":
        plan_id = max(plan.id for plan in billing_catalog.plans.values()) + 100
    elif plan_id == "inactive":
        billing_catalog.plans["full"].active = False
        db.session.commit()
        plan_id = billing_catalog.plans["full"].id
    subscription = make_subscription(dealer, "active", "trio")
    before = snapshot(subscription)

    response = call(subscription, "change-plan", newPlanId=plan_id)

    assert error_of(response, 400) == {"code": "invalid_plan", "message": "Satıştaki planlardan birini seçin."}
    assert snapshot(reloaded(subscription)) == before


def test_change_plan_drops_a_scheduled_downgrade(call, dealer, make_subscription, billing_catalog):
    subscription = make_subscription(dealer, "active", "full")
    subscription.scheduled_plan = billing_catalog.plans["single"]
    subscription.scheduled_brand_ids = billing_catalog.brand_ids(1)
    db.session.commit()

    assert call(subscription, "change-plan", newPlanId=billing_catalog.plans["trio"].id).status_code == 200

    changed = reloaded(subscription)
    assert (changed.scheduled_plan_id, changed.scheduled_brand_ids) == (None, None)


# --- brands ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("state", ["active", "trial"])
def test_brands_replace_the_whole_set(call, dealer, make_subscription, billing_catalog, state):
    subscription = make_subscription(dealer, state, "trio")
    chosen = billing_catalog.brand_ids(10)[-3:]

    response = call(subscription, "brands", brandIds=list(reversed(chosen)))

    assert response.status_code == 200
    assert sorted(brand["id"] for brand in response.get_json()["brands"]) == sorted(chosen)
    assert sorted(brand.id for brand in reloaded(subscription).brands) == sorted(chosen)


def test_brands_of_the_full_plan_are_refused(call, dealer, make_subscription, billing_catalog):
    subscription = make_subscription(dealer, "active", "full")
    before = snapshot(subscription)

    response = call(subscription, "brands", brandIds=billing_catalog.brand_ids(1))

    assert error_of(response, 409) == {
        "code": "full_plan_brands",
        "message": "Tam Erişim planı tüm markaları içerir; seçim yapmanız gerekmez.",
    }
    assert snapshot(reloaded(subscription)) == before


BAD_BRAND_SETS = {
    "too few": (lambda ids: ids[:2], "Bu plan için tam olarak 3 marka seçin."),
    "too many": (lambda ids: ids[:4], "Bu plan için tam olarak 3 marka seçin."),
    "none": (lambda ids: [], "Bu plan için tam olarak 3 marka seçin."),
    "duplicates": (lambda ids: [ids[0], ids[0], ids[1]], "Her marka yalnızca bir kez seçilebilir."),
    "unknown id": (lambda ids: [ids[0], ids[1], 2_000_000], "Seçilen markalardan biri kullanılamıyor."),
    "inactive brand": (lambda ids: [ids[0], ids[1], "INACTIVE"], "Seçilen markalardan biri kullanılamıyor."),
    "strings": (lambda ids: [str(value) for value in ids[:3]], None),
    "floats": (lambda ids: [float(value) for value in ids[:3]], None),
    "bools": (lambda ids: [True, False, True], None),
    "zero and negative": (lambda ids: [0, -1, ids[0]], None),
    "a string": (lambda ids: ",".join(map(str, ids[:3])), None),
    "an object": (lambda ids: {"ids": ids[:3]}, None),
    "a number": (lambda ids: ids[0], None),
    "missing": (lambda ids: None, None),
    "nested lists": (lambda ids: [[value] for value in ids[:3]], None),
}


@pytest.mark.parametrize("case", BAD_BRAND_SETS.values(), ids=BAD_BRAND_SETS.keys())
def test_a_wrong_brand_set_is_refused_and_the_old_one_kept(call, dealer, make_subscription, billing_catalog, case):
    build, message = case
    inactive = Brand(name="Eski Marka", slug="eski-marka", active=False)
    db.session.add(inactive)
    db.session.commit()
    subscription = make_subscription(dealer, "active", "trio")
    before = snapshot(subscription)
    ids = billing_catalog.brand_ids(7)[3:]  # four brands the subscription does not hold
    brand_ids = build(ids)
    if isinstance(brand_ids, list):
        brand_ids = [inactive.id if value == "INACTIVE" else value for value in brand_ids]

    response = call(subscription, "brands", **({} if brand_ids is None else {"brandIds": brand_ids}))

    error = error_of(response, 400)
    assert error["code"] == "invalid_brand_set"
    if message:
        assert error["message"] == message
    assert snapshot(reloaded(subscription)) == before
    [entry] = audit_rows(subscription.id)
    assert (entry.outcome, entry.before, entry.after) == ("invalid_brand_set", before, None)


# --- resume ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("other_state", ["trial", "active"])
def test_resume_is_refused_while_the_user_has_another_live_subscription(call, dealer, make_subscription, other_state):
    cancelled = make_subscription(dealer, "cancelled", "trio")
    other = make_subscription(dealer, other_state, "full")

    response = call(cancelled, "resume")

    assert error_of(response, 409) == {
        "code": "other_live_subscription",
        "message": "Kullanıcının deneme sürümünde ya da aktif başka bir aboneliği var; bunu sürdürmeden önce onu "
        "sonlandırın.",
    }
    assert reloaded(cancelled).status == "cancelled"
    assert reloaded(other).status == other_state
    assert audit_rows(cancelled.id)[0].outcome == "other_live_subscription"


def test_resume_racing_another_live_subscription_is_a_409_not_a_500(call, dealer, make_subscription, monkeypatch):
    """Should the other live subscription appear after the check, the one-live-per-user index refuses the change."""
    cancelled = make_subscription(dealer, "cancelled", "trio")
    other = make_subscription(dealer, "active", "full")
    # The check reads LIVE_STATUSES when it runs: with none, it sees no other live subscription, as in a race.
    monkeypatch.setattr(transitions, "LIVE_STATUSES", ())

    response = call(cancelled, "resume")

    assert error_of(response, 409)["code"] == "other_live_subscription"
    assert reloaded(cancelled).status == "cancelled"
    assert reloaded(other).status == "active"


def test_resume_is_allowed_when_the_other_subscriptions_are_not_live(call, dealer, make_subscription):
    cancelled = make_subscription(dealer, "cancelled", "trio")
    for state in ("expired", "cancelled", "pending"):
        make_subscription(dealer, state, "single")

    assert call(cancelled, "resume").status_code == 200
    assert reloaded(cancelled).status == "active"


def test_resume_after_the_period_ended_is_refused(call, dealer, make_subscription):
    cancelled = make_subscription(dealer, "cancelled", "trio", days_left=-1)

    response = call(cancelled, "resume")

    assert error_of(response, 409) == {
        "code": "period_over",
        "message": "Aboneliğin süresi dolmuş; artık sürdürülemez.",
    }
    assert reloaded(cancelled).status == "cancelled"


# --- what every operation shares ----------------------------------------------------------------------------------


@pytest.mark.parametrize("op", ALLOWED)
def test_an_unknown_subscription_is_not_found_and_the_attempt_is_audited(call, billing_catalog, op):
    missing = uuid.uuid4()

    response = call(missing, op, **valid_fields(op, billing_catalog))

    assert error_of(response, 404) == {
        "code": "subscription_not_found",
        "message": "Bu kimliğe sahip bir abonelik bulunamadı.",
    }
    [entry] = audit_rows(missing)
    assert (entry.action, entry.outcome, entry.before, entry.after) == (
        ACTIONS[op],
        "subscription_not_found",
        None,
        None,
    )


@pytest.mark.parametrize("target", ["not-a-uuid", "1", "0" * 40])
@pytest.mark.parametrize("op", ALLOWED)
def test_an_id_that_is_not_a_uuid_is_not_found(call, op, target):
    assert error_of(call(target, op), 404)["code"] == "not_found"


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        ({"founderId": "kurucu-1"}, "missing_field", "Gerekçe zorunludur."),
        ({"founderId": "kurucu-1", "reason": "  "}, "missing_field", "Gerekçe zorunludur."),
        ({"reason": "destek"}, "missing_field", "Kurucu kimliği zorunludur."),
        ({"reason": "destek", "founderId": 7}, "invalid_field", "Kurucu kimliği metin olmalıdır."),
        ([], "invalid_json", None),
    ],
)
@pytest.mark.parametrize("op", ALLOWED)
def test_founder_and_reason_are_required_before_anything_is_done(
    call, dealer, make_subscription, billing_catalog, op, body, code, message
):
    subscription = make_subscription(dealer, "active", "trio")
    before = snapshot(subscription)
    if isinstance(body, dict):
        body = {**body, **valid_fields(op, billing_catalog)}

    error = error_of(call(subscription, op, body=body), 400)

    assert error["code"] == code
    if message:
        assert error["message"] == message
    assert snapshot(reloaded(subscription)) == before
    assert audit_rows() == []


@pytest.mark.parametrize("token", [None, "", "wrong-token", TOKEN + "x"])
@pytest.mark.parametrize("op", ALLOWED)
def test_a_missing_or_wrong_token_is_refused(call, dealer, make_subscription, billing_catalog, op, token):
    subscription = make_subscription(dealer, "active", "trio")
    before = snapshot(subscription)

    response = call(subscription, op, token=token, **valid_fields(op, billing_catalog))

    assert error_of(response, 401)["code"] == "invalid_internal_token"
    assert snapshot(reloaded(subscription)) == before
    assert audit_rows() == []


def test_a_refusal_is_in_english_when_asked(call, dealer, make_subscription):
    subscription = make_subscription(dealer, "expired")

    response = call(subscription, "cancel", headers={"Accept-Language": "en"})

    assert error_of(response, 409)["message"] == (
        "This change is not possible in the subscription's current state (Expired)."
    )


def test_the_audit_trail_keeps_each_call_in_order(call, dealer, make_subscription, billing_catalog):
    subscription = make_subscription(dealer, "active", "trio")
    first = snapshot(subscription)

    call(subscription, "cancel")
    cancelled = snapshot(reloaded(subscription))
    call(subscription, "cancel", founderId="kurucu-2", reason="ikinci deneme")
    call(subscription, "resume")
    resumed = snapshot(reloaded(subscription))

    rows = [
        (entry.action, entry.founder_id, entry.reason, entry.outcome, entry.before, entry.after)
        for entry in audit_rows(subscription.id)
    ]
    assert rows == [
        ("subscription.cancel", "kurucu-1", "Bayi telefonla istedi", "ok", first, cancelled),
        ("subscription.cancel", "kurucu-2", "ikinci deneme", "invalid_transition", cancelled, None),
        ("subscription.resume", "kurucu-1", "Bayi telefonla istedi", "ok", cancelled, resumed),
    ]
    assert cancelled["status"] == "cancelled" and cancelled["cancelledAt"]
    assert resumed == {**first, "status": "active", "cancelledAt": None}
    assert first == {
        "status": "active",
        "planKey": "trio",
        "endDate": subscription.end_date.isoformat(),
        "brandIds": sorted(billing_catalog.brand_ids(3)),
        "cancelledAt": None,
    }


# --- access follows ----------------------------------------------------------------------------------------------


@pytest.fixture
def dealer_vehicle(billing_catalog):
    """Factory: a stored vehicle of the brand `brand_id`, whose catalog progress is brand-bound."""
    vins = iter(f"WVWZZZAUZHW1000{number:02d}" for number in range(1, 100))

    def make(brand_id):
        brand = db.session.get(Brand, brand_id)
        vehicle = Vehicle(vin=next(vins), brand_id=brand.id, brand_name=brand.name, model="Model", source="catapi")
        db.session.add(vehicle)
        db.session.commit()
        return vehicle.id

    return make


def progress_status(client, vehicle_id):
    response = client.get(f"/api/vehicles/{vehicle_id}/categories/progress")
    return response.status_code, (response.get_json().get("error") or {}).get("code")


def test_access_follows_cancel_resume_and_extend(
    client, sign_in, call, dealer, make_subscription, billing_catalog, dealer_vehicle
):
    subscription = make_subscription(dealer, "active", "trio")
    vehicle = dealer_vehicle(subscription.brands[0].id)
    sign_in(dealer.email)
    assert progress_status(client, vehicle) == (200, None)

    assert call(subscription, "cancel").status_code == 200
    assert progress_status(client, vehicle) == (403, "subscription_required")

    assert call(subscription, "resume").status_code == 200
    assert progress_status(client, vehicle) == (200, None)


def test_an_ended_trial_opens_again_once_extended(
    client, sign_in, call, dealer, make_subscription, billing_catalog, dealer_vehicle
):
    subscription = make_subscription(dealer, "trial", "full", days_left=-1)
    vehicle = dealer_vehicle(billing_catalog.brand_ids(1)[0])
    sign_in(dealer.email)
    assert progress_status(client, vehicle) == (403, "subscription_required")

    assert call(subscription, "trial/extend", days=3).status_code == 200
    assert progress_status(client, vehicle) == (200, None)


def test_access_follows_the_brands_and_the_plan(
    client, sign_in, call, dealer, make_subscription, billing_catalog, dealer_vehicle
):
    subscription = make_subscription(dealer, "active", "single")
    old_brand, new_brand = billing_catalog.brand_ids(2)
    old_vehicle, new_vehicle = dealer_vehicle(old_brand), dealer_vehicle(new_brand)
    sign_in(dealer.email)
    assert progress_status(client, new_vehicle) == (403, "brand_not_in_plan")

    assert call(subscription, "brands", brandIds=[new_brand]).status_code == 200
    assert progress_status(client, new_vehicle) == (200, None)
    assert progress_status(client, old_vehicle) == (403, "brand_not_in_plan")

    assert call(subscription, "change-plan", newPlanId=billing_catalog.plans["full"].id).status_code == 200
    assert progress_status(client, old_vehicle) == (200, None)


# --- no input gives a 500 -------------------------------------------------------------------------------------------

FIELDS = st.sampled_from(["days", "newPlanId", "brandIds", "reason", "founderId"])
BODIES = st.one_of(
    JSON_VALUES,
    st.dictionaries(FIELDS, JSON_VALUES, max_size=5),
    st.fixed_dictionaries(
        {"reason": st.just("destek"), "founderId": st.just("kurucu-1")},
        optional={
            "days": JSON_SCALARS,
            "newPlanId": JSON_SCALARS | st.integers(1, 5),
            "brandIds": st.lists(st.integers(-2, 40) | JSON_SCALARS, max_size=5) | JSON_VALUES,
        },
    ),
)


def test_no_body_makes_an_operation_fail_with_a_server_error(founder, dealer, make_subscription):
    subscriptions = [make_subscription(dealer, state, "trio") for state in ("cancelled", "expired", "pending")]
    subscriptions.append(make_subscription(dealer, "active", "single"))

    @settings(
        max_examples=150,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(op=st.sampled_from(list(ALLOWED)), target=st.sampled_from(range(len(subscriptions))), body=BODIES)
    def never_a_500(op, target, body):
        response = founder.post(f"{PREFIX}/{subscriptions[target].id}/{op}", json=body, headers={AUTH_HEADER: TOKEN})
        assert response.status_code < 500, (op, body, response.get_json())
        if response.status_code >= 400:
            assert response.get_json()["error"]["code"]

    never_a_500()
