"""The daily lifecycle job: a trial ending in two days gets the trial-ending mail and a subscription that ended a week
ago the win-back mail, each once however often the job runs; trials outside the day's window, dealers back on a plan
and suspended users get none."""

from __future__ import annotations

from app.billing import tasks
from tests.conftest import outbox


def test_a_trial_ending_in_two_days_is_mailed_once_however_often_the_job_runs(create_user, make_subscription):
    ending = create_user(email="bitiyor@example.com")
    make_subscription(ending, "trial", plan_key="full", days_left=2.5)
    make_subscription(create_user(), "trial", plan_key="full", days_left=1)  # yesterday's window
    make_subscription(create_user(), "trial", plan_key="full", days_left=4)  # a later window
    make_subscription(create_user(status="suspended"), "trial", plan_key="full", days_left=2.5)

    first, second = tasks.lifecycle_mail(), tasks.lifecycle_mail()

    assert first == {"trialEnding": 1, "winBack": 0} and second == {"trialEnding": 0, "winBack": 0}
    [mail] = outbox("trial_ending")
    assert mail.to_address == "bitiyor@example.com" and mail.subject.startswith("Parça Bul deneme süreniz")
    assert "/plans" in mail.body_text


def test_a_dealer_whose_plan_ended_a_week_ago_gets_the_win_back_mail_once(create_user, make_subscription):
    gone = create_user(email="gitti@example.com")
    make_subscription(gone, "expired", days_left=-7.5)
    back = create_user(email="dondu@example.com")
    make_subscription(back, "expired", days_left=-7.5)
    make_subscription(back, "active", days_left=20)
    make_subscription(create_user(), "expired", days_left=-3)  # too early for a win-back

    first, second = tasks.lifecycle_mail(), tasks.lifecycle_mail()

    assert first == {"trialEnding": 0, "winBack": 1} and second == {"trialEnding": 0, "winBack": 0}
    [mail] = outbox("win_back")
    assert mail.to_address == "gitti@example.com" and mail.subject == "Sizi Parça Bul'da özledik"
    assert "aboneliğiniz bir hafta önce sona erdi" in mail.body_text and "/plans" in mail.body_text
