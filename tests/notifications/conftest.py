"""An SMTP server in the test process (aiosmtpd, the same catcher `make run` starts), pointed at by MAIL_URL."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest

from app.notifications.local_mail import MailboxHandler, MailCatcher


class ScriptedHandler(MailboxHandler):
    """Answers each message with the next of `answers` (an SMTP reply such as "451 4.3.0 Try again later"), and keeps
    it in the mailbox once they are used up; `delay` seconds pass before each answer."""

    def __init__(self, directory: Path, answers: tuple[str, ...] = (), delay: float = 0.0) -> None:
        super().__init__(directory)
        self.answers = list(answers)
        self.delay = delay
        self.tries = 0

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802
        self.tries += 1
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.answers:
            return self.answers.pop(0)
        return await super().handle_DATA(server, session, envelope)


class Smtp:
    def __init__(self, catcher: MailCatcher, handler: ScriptedHandler) -> None:
        self.catcher, self.handler = catcher, handler

    def received(self) -> list[EmailMessage]:
        names = sorted(path.name for path in self.catcher.directory.glob("*.eml"))
        parser = BytesParser(policy=policy.default)
        return [parser.parsebytes((self.catcher.directory / name).read_bytes()) for name in names]


@pytest.fixture
def smtp(app, monkeypatch, tmp_path) -> Iterator[Callable[..., Smtp]]:
    """`smtp(answers=(...), delay=...)`: start the server and point the app at it (retries at once, 3 attempts)."""
    started: list[MailCatcher] = []

    def start(answers: tuple[str, ...] = (), delay: float = 0.0) -> Smtp:
        directory = tmp_path / f"mailbox{len(started)}"
        handler = ScriptedHandler(directory, answers, delay)
        catcher = MailCatcher(directory, handler).start()
        started.append(catcher)
        monkeypatch.setitem(app.config, "MAIL_URL", catcher.url)
        monkeypatch.setitem(app.config, "MAILBOX_DIR", str(directory))
        monkeypatch.setitem(app.config, "MAIL_RETRY_SECONDS", (0,))
        monkeypatch.setitem(app.config, "MAIL_MAX_ATTEMPTS", 3)
        return Smtp(catcher, handler)

    yield start
    for catcher in started:
        catcher.stop()
