"""A local stand-in for NHTSA's vPIC decoder: DecodeVinValues answers in vPIC's JSON shape, with fault knobs."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass

from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request, Response

from app.core.loopback import LoopbackServer
from app.sources import wmi

# What vPIC says of the VINs the sandbox knows in full; other VINs get the make only (as vPIC does for a known WMI).
KNOWN_VEHICLES: dict[str, dict[str, str]] = {
    "1HGCM82633A004352": {
        "Make": "HONDA",
        "Model": "Accord",
        "ModelYear": "2003",
        "Trim": "EX-V6",
        "DisplacementL": "3.0",
        "EngineCylinders": "6",
        "FuelTypePrimary": "Gasoline",
    },
}
NO_DATA = "8 - No detailed data available currently"
INVALID = "11 - Incorrect Model Year, decoded data may not be accurate, 400 - Invalid Characters Present"


@dataclass
class VpicFaults:
    latency_ms: int = 0
    error_rate: float = 0.0  # share of requests answered with a 500
    hang_seconds: float = 0.0  # sleep before answering, longer than the client's timeout to make it time out
    garbage: bool = False  # answer with HTML instead of JSON


class VpicSandbox:
    def __init__(self, seed: int = 7) -> None:
        self.faults = VpicFaults()
        self.requests = 0
        self._random = random.Random(seed)
        self._routes = Map([Rule("/api/vehicles/DecodeVinValues/<vin>", endpoint="decode")])
        self._server = LoopbackServer(self.wsgi, name="vpic-sandbox")
        self.url = f"{self._server.url}/api"

    def settings(self) -> dict[str, str]:
        """The settings that point the vin_api adapter at this sandbox."""
        return {"VPIC_BASE_URL": self.url}

    def start(self) -> VpicSandbox:
        self._server.start()
        return self

    def stop(self) -> None:
        self._server.stop()

    def reset(self) -> None:
        """Clear the faults and the request count, between tests."""
        self.faults = VpicFaults()
        self.requests = 0

    @Request.application
    def wsgi(self, request: Request) -> Response:
        self.requests += 1
        adapter = self._routes.bind_to_environ(request.environ)
        _endpoint, args = adapter.match()
        faulty = self._fault_response()
        if faulty is not None:
            return faulty
        return Response(json.dumps(self.decode(args["vin"])), mimetype="application/json")

    def _fault_response(self) -> Response | None:
        delay = self.faults.hang_seconds or self.faults.latency_ms / 1000
        if delay:
            time.sleep(delay)
        if self.faults.error_rate and self._random.random() < self.faults.error_rate:
            return Response("upstream error", status=500)
        if self.faults.garbage:
            return Response("<html><body>Service Unavailable</body></html>", mimetype="text/html")
        return None

    @staticmethod
    def decode(vin: str) -> dict:
        vin = vin.strip().upper()
        row = {"VIN": vin, "Make": "", "Model": "", "ModelYear": "", "ErrorCode": NO_DATA}
        if len(vin) != 17:
            row["ErrorCode"] = INVALID
        elif vin in KNOWN_VEHICLES:
            row.update(KNOWN_VEHICLES[vin], ErrorCode="0")
        elif (info := wmi.identify(vin)) is not None:
            row["Make"] = info.brand.upper()
        return {
            "Count": 1,
            "Message": "Results returned successfully. NOTE: Any missing decoded values should be interpreted "
            "as NHTSA does not have data on the specific variable.",
            "SearchCriteria": f"VIN(s): {vin}",
            "Results": [row],
        }
