"""What the admins' mail page shows: the outbox's latest messages with their delivery state, and, on the embedded
default, the messages the local catcher received (app.notifications.local_mail), read from MAILBOX_DIR."""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import sqlalchemy as sa
from flask import current_app

from app.extensions import db
from app.notifications.models import OutboxEmail

CAUGHT_LIMIT = 100
OUTBOX_LIMIT = 50
FILE_NAME = re.compile(r"[0-9]{20}-[0-9a-f]{8}\.eml")


@dataclass(frozen=True)
class Caught:
    name: str
    subject: str
    to: str
    sender: str
    date: str
    text: str
    html: str | None


def directory() -> Path | None:
    configured = current_app.config.get("MAILBOX_DIR")
    return Path(configured) if configured else None


def caught(limit: int = CAUGHT_LIMIT) -> list[Caught]:
    """The catcher's messages, newest first."""
    folder = directory()
    if folder is None or not folder.is_dir():
        return []
    names = sorted((path.name for path in folder.iterdir() if FILE_NAME.fullmatch(path.name)), reverse=True)
    return [_read(folder / name) for name in names[:limit]]


def one(name: str) -> Caught | None:
    folder = directory()
    if folder is None or not FILE_NAME.fullmatch(name) or not (folder / name).is_file():
        return None
    return _read(folder / name)


def _read(path: Path) -> Caught:
    message: EmailMessage = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    return Caught(
        name=path.name,
        subject=str(message["Subject"] or ""),
        to=str(message["To"] or ""),
        sender=str(message["From"] or ""),
        date=str(message["Date"] or ""),
        text=text.get_content() if text is not None else "",
        html=html.get_content() if html is not None else None,
    )


def outbox(limit: int = OUTBOX_LIMIT) -> list[OutboxEmail]:
    return list(db.session.scalars(sa.select(OutboxEmail).order_by(OutboxEmail.id.desc()).limit(limit)))


def outbox_counts() -> dict[str, int]:
    rows = db.session.execute(sa.select(OutboxEmail.status, sa.func.count()).group_by(OutboxEmail.status)).all()
    return dict(rows)
