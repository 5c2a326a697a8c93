"""`flask seed` runs each domain's step in order and can run again."""

from app.extensions import redis_store

CALLS_KEY = "test:seed:calls"


def record_step() -> str:
    redis_store.client.rpush(CALLS_KEY, "record")
    return "recorded"


def second_step() -> str:
    redis_store.client.rpush(CALLS_KEY, "second")
    return "done"


def test_seed_runs_registered_steps_in_order(app, runner, monkeypatch):
    monkeypatch.setitem(app.config, "SEED_STEPS", [record_step, second_step])

    result = runner.invoke(args=["seed"])

    assert result.exit_code == 0, result.output
    assert f"seed {__name__}.record_step: recorded" in result.output
    assert redis_store.client.lrange(CALLS_KEY, 0, -1) == [b"record", b"second"]


def test_seed_with_the_real_steps_succeeds_twice(runner):
    first = runner.invoke(args=["seed"])
    second = runner.invoke(args=["seed"])

    assert first.exit_code == 0, first.output
    assert second.exit_code == 0, second.output
