"""Rewards are serialised per referrer (committed data, both backends): five referees confirming their e-mail at the
same moment through HTTP reach every milestone once, none skipped and none doubled."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa

from app.accounts.models import User
from app.auth.services import VERIFICATION_LIFETIME, issue_token
from app.extensions import db, redis_store
from app.notifications.models import OutboxEmail
from app.referrals import services
from app.referrals.models import ReferralReward

pytestmark = pytest.mark.no_isolation

REFERRER = "usta.eszamanli@example.com"


@pytest.fixture
def referees(app, create_user):
    """A referrer with one qualified referral and five pending ones; each pending referee's verification token."""
    with app.app_context():
        redis_store.client.flushdb()
        referrer = create_user(email=REFERRER)
        services.apply(create_user(email="cirak0.eszamanli@example.com", email_verified=True), referrer.referral_code)
        tokens = []
        for number in range(1, 6):
            referee = create_user(email=f"cirak{number}.eszamanli@example.com", email_verified=False)
            services.apply(referee, referrer.referral_code)
            tokens.append(issue_token(referee, "email_verification", VERIFICATION_LIFETIME))
        db.session.commit()
        referrer_id = referrer.id
        db.session.remove()
    yield referrer_id, tokens
    with app.app_context():
        db.session.execute(sa.delete(User).where(User.email.like("%.eszamanli@example.com")))
        db.session.execute(sa.delete(OutboxEmail).where(OutboxEmail.to_address.like("%.eszamanli@example.com")))
        db.session.commit()
        db.session.remove()
        redis_store.client.flushdb()


def test_referees_qualifying_at_once_reach_each_milestone_once(app, referees):
    referrer_id, tokens = referees
    start = threading.Barrier(len(tokens))
    answers: list[int] = []

    def confirm(token: str) -> None:
        client = app.test_client()
        start.wait()
        answers.append(client.get(f"/api/auth/verify-email?token={token}").status_code)

    threads = [threading.Thread(target=confirm, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert answers == [200] * 5
    with app.app_context():
        rewards = db.session.execute(
            sa.select(ReferralReward.every, ReferralReward.reached_at_count)
            .where(ReferralReward.referrer_id == referrer_id)
            .order_by(ReferralReward.reached_at_count)
        ).all()
        assert [tuple(row) for row in rewards] == [(3, 3), (5, 5), (3, 6)]
        assert db.session.get(User, referrer_id).referral_credit_days == 7 + 14 + 7
        db.session.remove()
