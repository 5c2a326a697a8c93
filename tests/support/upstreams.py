"""Every upstream source as its sandbox on loopback, started once per test session and reset before each test."""

from __future__ import annotations

from dataclasses import dataclass

from app.sources.sandbox.catapi_server import CatapiSandbox
from app.sources.sandbox.distributor import DistributorSandbox
from app.sources.sandbox.portal_server import PortalSandbox
from app.sources.sandbox.scrape_server import ScrapeSandbox
from app.sources.sandbox.tcmb import TcmbSandbox
from app.sources.sandbox.vpic import VpicSandbox


@dataclass
class Upstreams:
    catapi: CatapiSandbox
    scrape: ScrapeSandbox
    portal: PortalSandbox
    vpic: VpicSandbox
    tcmb: TcmbSandbox
    distributor: DistributorSandbox

    @classmethod
    def start(cls) -> Upstreams:
        return cls(
            CatapiSandbox().start(),
            ScrapeSandbox().start(),
            PortalSandbox().start(),
            VpicSandbox().start(),
            TcmbSandbox().start(),
            DistributorSandbox().start(),
        )

    @property
    def all(self) -> tuple:
        return (self.catapi, self.scrape, self.portal, self.vpic, self.tcmb, self.distributor)

    @property
    def settings(self) -> dict[str, str]:
        """The app settings that point every adapter at its sandbox."""
        merged: dict[str, str] = {}
        for sandbox in self.all:
            merged.update(sandbox.settings())
        return merged

    def reset(self) -> None:
        for sandbox in self.all:
            sandbox.reset()

    def stop(self) -> None:
        for sandbox in self.all:
            sandbox.stop()

    def vin_calls(self) -> dict[str, int]:
        """How many VIN lookups each source's sandbox has answered since the last reset."""
        # A call bounced for an expired token (catapi 401) or login (portal redirect) is retried: count the retry only.
        return {
            "catapi": len([call for call in self.catapi.calls(path_prefix="/car/info") if call.status != 401]),
            "scrape": len(self.scrape.calls("/search")),
            "portal": len([call for call in self.portal.calls() if call.path.endswith("/vin") and call.status != 302]),
            "vpic": self.vpic.requests,
        }
