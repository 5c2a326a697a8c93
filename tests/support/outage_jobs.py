"""A job the Redis outage tests queue: it notes each run in a file, so a test can count how often each job ran."""

from __future__ import annotations

import time
from pathlib import Path


def note(path: str, label: str) -> str:
    with Path(path).open("a") as runs:
        runs.write(label + "\n")
    return label


def slow_note(path: str, label: str, seconds: float) -> str:
    """Note the start (as `label-started`), work for `seconds`, then note the run."""
    note(path, f"{label}-started")
    time.sleep(seconds)
    return note(path, label)
