"""Live progress of one page decode, kept in Redis so any web process can answer the page's polls.

One hash per decode under `decode:progress:<user id>:<token>`: when it started, the VIN, each stage's latest state
(`stage:<name>`), and at the end the outcome the page renders. The user id in the key means a token is only ever
read back for the user who started it. Records live `TTL_SECONDS` after their last write.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import redis

from app.core.redis_store import redis_key
from app.vehicles.decode import StageListener

log = logging.getLogger(__name__)

KEY_PREFIX = "decode:progress"
TTL_SECONDS = 120
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")

# The stages the page lists, in the order a decode reaches them.
STAGES = ("cache", "catapi", "scrape", "portal", "vin_api")
PENDING = "pending"  # a stage not reached (yet)


@dataclass(frozen=True)
class Progress:
    """What a poll reads: the stages so far and, once the decode has ended, its outcome."""

    token: str
    vin: str
    pick: str
    started_at: float
    stages: dict[str, str] = field(default_factory=dict)
    outcome: dict[str, Any] | None = None
    finished_at: float | None = None

    @property
    def done(self) -> bool:
        return self.outcome is not None

    def state(self, stage: str) -> str:
        return self.stages.get(stage, PENDING)

    def elapsed_seconds(self, now: float | None = None) -> float:
        end = self.finished_at if self.finished_at is not None else (now or time.time())
        return max(end - self.started_at, 0.0)


class ProgressRecord:
    """One decode's progress hash. Holds its Redis client, so its listener works in any thread, app context or not."""

    def __init__(self, client: redis.Redis, user_id: str, token: str) -> None:
        self._client = client
        self.user_id = user_id
        self.token = token
        self.key = redis_key(KEY_PREFIX, user_id, token)

    @classmethod
    def create(cls, client: redis.Redis, user_id: str, vin: str, pick: str | None = None) -> ProgressRecord:
        """Start the record of a new decode under a fresh random token."""
        record = cls(client, user_id, secrets.token_urlsafe(18))
        record._write({"vin": vin, "pick": pick or "", "started_at": repr(time.time())})
        return record

    @classmethod
    def find(cls, client: redis.Redis, user_id: str, token: str) -> ProgressRecord | None:
        """The record behind a token from a URL, or None when the token is malformed."""
        return cls(client, user_id, token) if TOKEN_PATTERN.fullmatch(token) else None

    def listener(self) -> StageListener:
        """The decode's `on_stage` callback: called from pool threads, so it needs nothing but this record."""

        def on_stage(stage: str, state: str) -> None:
            try:
                self._write({f"stage:{stage}": state})
            except redis.RedisError:  # progress is only shown; losing a step must never break the decode
                log.warning("decode progress %s: stage %s not recorded", self.token[:6], stage, exc_info=True)

        return on_stage

    def finish(self, outcome: dict[str, Any]) -> None:
        """Store the outcome; every poll from now on renders it instead of the stage list."""
        self._write({"outcome": json.dumps(outcome, ensure_ascii=False), "finished_at": repr(time.time())})

    def claim_report(self) -> bool:
        """True for exactly one caller once the decode is done: the one that reports the outcome to analytics."""
        return bool(self._client.hsetnx(self.key, "reported", "1"))

    def read(self) -> Progress | None:
        """The decode as it stands, or None when the record has expired or never existed."""
        fields = {key.decode(): value.decode() for key, value in self._client.hgetall(self.key).items()}
        if "started_at" not in fields:
            return None
        outcome = json.loads(fields["outcome"]) if "outcome" in fields else None
        return Progress(
            token=self.token,
            vin=fields.get("vin", ""),
            pick=fields.get("pick", ""),
            started_at=float(fields["started_at"]),
            stages={key.removeprefix("stage:"): value for key, value in fields.items() if key.startswith("stage:")},
            outcome=outcome,
            finished_at=float(fields["finished_at"]) if "finished_at" in fields else None,
        )

    def _write(self, values: dict[str, str]) -> None:
        pipe = self._client.pipeline()
        pipe.hset(self.key, mapping=values)
        pipe.expire(self.key, TTL_SECONDS)
        pipe.execute()
