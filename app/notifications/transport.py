"""SMTP: one message out through the server MAIL_URL names, and what a failure means (try again later, or never).

MAIL_URL: smtp://[user:password@]host[:port] speaks STARTTLS when the server offers it (`?starttls=required` refuses
to go on without it, `?starttls=off` never asks), smtps:// is TLS from the start (port 465 by default).
"""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import formatdate, parseaddr
from urllib.parse import parse_qs, unquote, urlsplit

DEFAULT_PORTS = {"smtp": 25, "smtps": 465}


class MailConfigError(ValueError):
    """MAIL_URL cannot be used (an unknown scheme, no host)."""


class TemporaryMailError(RuntimeError):
    """The server could not take the message now (unreachable, timed out, a 4xx answer): try again later."""


class PermanentMailError(RuntimeError):
    """The server refused the message for good (a 5xx answer): trying again would be refused again."""


@dataclass(frozen=True)
class SmtpServer:
    scheme: str
    host: str
    port: int
    username: str
    password: str
    starttls: str  # "auto", "required" or "off"

    @classmethod
    def from_url(cls, url: str) -> SmtpServer:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in DEFAULT_PORTS or not parts.hostname:
            raise MailConfigError("MAIL_URL must be smtp://host[:port] or smtps://host[:port]")
        starttls = (parse_qs(parts.query).get("starttls") or ["auto"])[0].lower()
        if starttls not in {"auto", "required", "off"}:
            raise MailConfigError("MAIL_URL's starttls must be auto, required or off")
        return cls(
            scheme=scheme,
            host=parts.hostname,
            port=parts.port or DEFAULT_PORTS[scheme],
            username=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
            starttls=starttls,
        )


@dataclass(frozen=True)
class Attachment:
    filename: str
    content_type: str  # "maintype/subtype"
    data: bytes


@dataclass(frozen=True)
class Outgoing:
    message_id: str  # the same on every attempt of one outbox row, so a receiver can drop a repeat
    sender: str
    to: str
    subject: str
    text: str
    html: str | None = None
    reply_to: str | None = None
    attachments: tuple[Attachment, ...] = ()


def message_id(outbox_id: int, created_at: datetime, sender: str) -> str:
    """Stable for one outbox row (its id and creation time), unique across databases that reuse ids."""
    domain = parseaddr(sender)[1].rpartition("@")[2] or "localhost"
    return f"<outbox-{outbox_id}-{int(created_at.timestamp() * 1000)}@{domain}>"


def build(mail: Outgoing) -> EmailMessage:
    message = EmailMessage()
    message["From"] = mail.sender
    message["To"] = mail.to
    message["Subject"] = mail.subject
    message["Date"] = formatdate(localtime=False, usegmt=True)
    message["Message-ID"] = mail.message_id
    if mail.reply_to:
        message["Reply-To"] = mail.reply_to
    message.set_content(mail.text)
    if mail.html:
        message.add_alternative(mail.html, subtype="html")
    for attachment in mail.attachments:  # the message becomes multipart/mixed around its text and HTML
        maintype, _, subtype = attachment.content_type.partition("/")
        message.add_attachment(attachment.data, maintype=maintype, subtype=subtype, filename=attachment.filename)
    return message


def send(server: SmtpServer, mail: Outgoing, timeout: float) -> None:
    """Hand the message to the server; TemporaryMailError or PermanentMailError when it does not take it."""
    try:
        with _connected(server, timeout) as smtp:
            if server.username:
                smtp.login(server.username, server.password)
            smtp.send_message(build(mail))
    except smtplib.SMTPRecipientsRefused as error:
        codes = [code for code, _text in error.recipients.values()]
        raise _by_code(min(codes), f"recipient refused: {codes}") from error
    except smtplib.SMTPResponseException as error:
        raise _by_code(error.smtp_code, f"{error.smtp_code} {_text(error.smtp_error)}") from error
    except (smtplib.SMTPException, OSError) as error:  # refused connection, timeout, TLS, a dropped line
        raise TemporaryMailError(f"{type(error).__name__}: {error}"[:300]) from error


def _connected(server: SmtpServer, timeout: float) -> smtplib.SMTP:
    context = ssl.create_default_context()
    if server.scheme == "smtps":
        return smtplib.SMTP_SSL(server.host, server.port, timeout=timeout, context=context)
    smtp = smtplib.SMTP(server.host, server.port, timeout=timeout)
    try:
        smtp.ehlo()
        offered = smtp.has_extn("starttls")
        if server.starttls == "required" and not offered:
            raise TemporaryMailError("the server does not offer STARTTLS, and MAIL_URL requires it")
        if offered and server.starttls != "off":
            smtp.starttls(context=context)
            smtp.ehlo()
    except BaseException:
        smtp.close()
        raise
    return smtp


def _by_code(code: int, detail: str) -> RuntimeError:
    # 4xx: try later. 5xx: refused for good, except 535 (bad credentials: a setting an operator can still fix).
    if 400 <= code < 500 or code == 535:
        return TemporaryMailError(detail[:300])
    return PermanentMailError(detail[:300])


def _text(raw: bytes | str) -> str:
    return raw.decode(errors="replace") if isinstance(raw, bytes) else str(raw)
