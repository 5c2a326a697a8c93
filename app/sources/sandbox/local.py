"""The source sandboxes `make run` and `flask sources check` start for every upstream source without settings."""

from __future__ import annotations

from collections.abc import Callable

from app.config import TCMB_PUBLIC_URL, VPIC_PUBLIC_URL
from app.core.sandboxes import LocalService, Running, register
from app.sources.sandbox.catapi_server import CatapiSandbox
from app.sources.sandbox.distributor import DistributorSandbox
from app.sources.sandbox.knobs import apply_fault_settings
from app.sources.sandbox.portal_server import PortalSandbox
from app.sources.sandbox.scrape_server import ScrapeSandbox
from app.sources.sandbox.tcmb import TcmbSandbox
from app.sources.sandbox.vpic import VpicSandbox


def _starter(sandbox_class: type, source: str) -> Callable[[str], tuple[Running, dict[str, str]]]:
    """Start the sandbox with the fault knobs of its SANDBOX_<SOURCE>_* settings."""

    def start(_base_url: str) -> tuple[Running, dict[str, str]]:
        sandbox = sandbox_class().start()
        apply_fault_settings(sandbox.faults, source)
        return sandbox, sandbox.settings()

    return start


# (source, the setting that names a real upstream, sandbox class, what it stands in for)
SOURCE_SANDBOXES = [
    ("catapi", "CATAPI_BASE_URLS", CatapiSandbox, "the catalog API"),
    ("scrape", "SCRAPE_BASE_URL", ScrapeSandbox, "the public web catalog"),
    ("portal", "PORTAL_BASE_URL", PortalSandbox, "the dealer portal"),
    ("vpic", "VPIC_BASE_URL", VpicSandbox, "the public VIN decoder"),
]

for _source, _setting, _class, _describes in SOURCE_SANDBOXES:
    register(
        LocalService(
            name=_source,
            setting=_setting,
            describes=_describes,
            start=_starter(_class, _source),
            group="sources",
            # The public decoder is the built-in default, yet a command run here must not reach it unasked.
            unset=("", VPIC_PUBLIC_URL) if _source == "vpic" else ("",),
        )
    )

# The suppliers' stand-ins: the demo distributors (a demo supplier has no real address to set) and the TCMB rates.
register(
    LocalService(
        name="distributor",
        setting="SANDBOX_DISTRIBUTOR_URL",
        describes="the demo distributors",
        start=_starter(DistributorSandbox, "distributor"),
        group="suppliers",
    )
)
register(
    LocalService(
        name="tcmb",
        setting="TCMB_RATES_URL",
        describes="the Central Bank's daily rates",
        start=_starter(TcmbSandbox, "tcmb"),
        group="suppliers",
        # The public address is the built-in default, yet nothing run here may reach it unasked.
        unset=("", TCMB_PUBLIC_URL),
    )
)
