"""The local mail catcher `make run` starts when no MAIL_URL is set: a real SMTP server (aiosmtpd) on loopback that
keeps every message it receives as a .eml file in MAILBOX_DIR, where the admins' mailbox page (/admin/mail) reads
them. So sign-up verification and password reset work on a fresh machine, and no mail leaves it."""

from __future__ import annotations

import logging
import os
import socket
import uuid
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

from app.config import INSTANCE_DIR
from app.core.db import utcnow
from app.core.sandboxes import LocalService, register

DEFAULT_MAILBOX = INSTANCE_DIR / "mailbox"


class MailboxHandler:
    """aiosmtpd's handler: each message's bytes to a file of its own, written whole before it is visible."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        name = f"{utcnow():%Y%m%d%H%M%S%f}-{uuid.uuid4().hex[:8]}.eml"
        partial = self.directory / f".{name}.part"
        partial.write_bytes(envelope.original_content or envelope.content)
        os.replace(partial, self.directory / name)
        return "250 Message accepted for delivery"


class MailCatcher:
    """An SMTP server on a free loopback port, keeping what it receives in `directory`."""

    def __init__(self, directory: Path, handler: Any = None) -> None:
        self.directory = directory
        self.port = _free_port()
        self.controller = Controller(handler or MailboxHandler(directory), hostname="127.0.0.1", port=self.port)

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> MailCatcher:
        self.controller.start()
        self.running = True
        return self

    def stop(self) -> None:
        if getattr(self, "running", False):
            self.running = False
            self.controller.stop()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(_base_url: str) -> tuple[MailCatcher, dict[str, str]]:
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every connection, its own check too
    directory = Path(os.environ.get("MAILBOX_DIR") or DEFAULT_MAILBOX)
    catcher = MailCatcher(directory).start()
    return catcher, {"MAIL_URL": catcher.url, "MAILBOX_DIR": str(directory)}


register(
    LocalService(
        name="mail",
        setting="MAIL_URL",
        describes="e-mail (kept on this machine, shown to admins at /admin/mail)",
        start=start,
        group="notifications",
    )
)
