"""The card-payment sandbox `make run` starts when no STRIPE_SECRET_KEY is set (see app.billing.sandbox)."""

from __future__ import annotations

import secrets

from app.billing.sandbox.server import StripeSandbox
from app.core.sandboxes import LocalService, register

WEBHOOK_PATH = "/api/payments/card/webhook"
SANDBOX_SECRET_KEY = "sk_test_sandbox"  # noqa: S105 - not a secret: the sandbox accepts any key


def start(base_url: str) -> tuple[StripeSandbox, dict[str, str]]:
    """Serve the sandbox, sending its signed webhooks to this site; the real stripe SDK is pointed at it."""
    webhook_secret = f"whsec_{secrets.token_hex(24)}"
    sandbox = StripeSandbox(webhook_url=base_url.rstrip("/") + WEBHOOK_PATH, webhook_secret=webhook_secret).start()
    settings = {
        "STRIPE_SECRET_KEY": SANDBOX_SECRET_KEY,
        "STRIPE_WEBHOOK_SECRET": webhook_secret,
        "STRIPE_API_BASE": sandbox.url,
        "CHECKOUT_ORIGIN": sandbox.url,
    }
    return sandbox, settings


register(
    LocalService(
        name="stripe",
        setting="STRIPE_SECRET_KEY",
        describes="card payments (no real money)",
        start=start,
        group="billing",
    )
)
