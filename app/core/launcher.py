"""`make run`: the whole product in one command on the embedded default.

Starts the embedded Redis-compatible store when REDIS_URL is unset, migrates, seeds, then runs the web server,
the RQ worker and the scheduler as child processes sharing that store, and stops them all together.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time

from dotenv import load_dotenv

from app.billing.sandbox import StripeSandbox
from app.config import PROJECT_ROOT
from app.core import embedded_redis
from app.sources.sandbox.catapi_server import CatapiSandbox
from app.sources.sandbox.knobs import apply_fault_settings
from app.sources.sandbox.portal_server import PortalSandbox
from app.sources.sandbox.scrape_server import ScrapeSandbox
from app.sources.sandbox.vpic import VpicSandbox

WEBHOOK_PATH = "/api/payments/card/webhook"
SANDBOX_SECRET_KEY = "sk_test_sandbox"  # noqa: S105 - not a secret: the sandbox accepts any key


def prepare_database() -> None:
    from flask_migrate import upgrade

    from app import create_app
    from app.core.seed import run_seed

    app = create_app()
    with app.app_context():
        upgrade()
        for dotted, summary in run_seed(app.config["SEED_STEPS"]):
            print(f"seed {dotted}: {summary}", flush=True)


def start_payment_sandbox(host: str, port: str) -> StripeSandbox | None:
    """With no STRIPE_SECRET_KEY, serve the card-payment sandbox here and point the children at it."""
    if os.environ.get("STRIPE_SECRET_KEY"):
        return None
    base_url = (os.environ.get("BASE_URL") or f"http://{host}:{port}").rstrip("/")
    webhook_secret = f"whsec_{secrets.token_hex(24)}"
    sandbox = StripeSandbox(webhook_url=base_url + WEBHOOK_PATH, webhook_secret=webhook_secret).start()
    os.environ.update(
        STRIPE_SECRET_KEY=SANDBOX_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET=webhook_secret,
        STRIPE_API_BASE=sandbox.url,
        CHECKOUT_ORIGIN=sandbox.url,
    )
    print(f"card payments go to the sandbox on {sandbox.url} (no real money)", flush=True)
    return sandbox


# (source, the setting that names a real upstream, sandbox class, what it stands in for)
SOURCE_SANDBOXES = [
    ("catapi", "CATAPI_BASE_URLS", CatapiSandbox, "the catalog API"),
    ("scrape", "SCRAPE_BASE_URL", ScrapeSandbox, "the public web catalog"),
    ("portal", "PORTAL_BASE_URL", PortalSandbox, "the dealer portal"),
    ("vpic", "VPIC_BASE_URL", VpicSandbox, "the public VIN decoder"),
]


def start_source_sandboxes() -> list:
    """Answer every upstream source that has no settings from its sandbox, so `make run` never reaches the internet."""
    started = []
    for source, upstream_setting, sandbox_class, stands_for in SOURCE_SANDBOXES:
        if os.environ.get(upstream_setting):
            continue
        sandbox = sandbox_class().start()
        apply_fault_settings(sandbox.faults, source)
        os.environ.update(sandbox.settings())
        print(f"{stands_for} is the {source} sandbox on loopback", flush=True)
        started.append(sandbox)
    return started


def child_commands(host: str, port: str) -> dict[str, list[str]]:
    python = sys.executable
    return {
        "web": [python, "-m", "gunicorn", "wsgi:app", "--bind", f"{host}:{port}", "--workers", "2", "--threads", "4"],
        "worker": [python, "worker.py"],
        "scheduler": [python, "worker.py", "scheduler"],
    }


def supervise(children: dict[str, subprocess.Popen]) -> int:
    """Wait until a signal arrives or a child dies, then stop the rest."""
    stopping = False

    def request_stop(_signum, _frame):  # noqa: ANN001, ANN202
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    exit_code = 0
    while not stopping:
        for name, child in children.items():
            if child.poll() is not None:
                print(f"{name} exited with {child.returncode}; stopping the others", file=sys.stderr, flush=True)
                exit_code, stopping = child.returncode or 1, True
        time.sleep(0.5)
    for child in children.values():
        if child.poll() is None:
            child.terminate()
    for child in children.values():
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
    return exit_code


def main() -> int:
    load_dotenv()
    if not os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = embedded_redis.shared_url()
    host, port = os.environ.get("HOST", "127.0.0.1"), os.environ.get("PORT", "5000")
    sandboxes = start_source_sandboxes()
    payments = start_payment_sandbox(host, port)
    if payments is not None:
        sandboxes.append(payments)
    prepare_database()
    children = {}
    for name, command in child_commands(host, port).items():
        children[name] = subprocess.Popen(command, cwd=PROJECT_ROOT)  # noqa: S603 - argv built here, no input
    print(f"Parça Bul is running on http://{host}:{port} (Ctrl-C stops it)", flush=True)
    exit_code = supervise(children)
    for sandbox in sandboxes:
        sandbox.stop()
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
