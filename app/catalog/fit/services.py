"""A stored vehicle's fit facts and the fit of each part row, computed when the row is stored: the vehicle's facts
(its sources, VIN and catalog listing), the judge that gives rows their fit columns, and a leaf's fit counts.

The lowest of the fit wiring: the dealers' answers (app.catalog.fit.answers) rewrite fits with this judge, the view
shapes (app.catalog.fit.shapes) read what is stored. The answer is computed when a row is stored and when a question is
answered, never on a read: a read takes the row's stored fit, overlaid by the dealer's own (PartFit, joined in the same
statement).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from app.catalog.fit import codec
from app.catalog.fit.conditions import Condition
from app.catalog.fit.evaluate import MAYBE, NO, YES, evaluate
from app.catalog.fit.facts import VehicleFacts
from app.catalog.fit.vehicle_facts import facts_from
from app.extensions import db
from app.vehicles.models import CatalogVehicle, Vehicle

# --- the vehicle's facts ----------------------------------------------------------------------------------------


def vehicle_facts(vehicle: Vehicle) -> VehicleFacts:
    """What the vehicle's sources and VIN tell of it (a browsed car: what its catalog listing fixes)."""
    parameters = None
    if not vehicle.vin:
        parameters = db.session.scalar(
            sa.select(CatalogVehicle.parameters).where(CatalogVehicle.vehicle_id == vehicle.id)
        )
    return facts_from(vehicle.vin or None, vehicle.source, vehicle.raw_data or {}, parameters)


def facts_of(vehicle_id: int) -> VehicleFacts:
    vehicle = db.session.get(Vehicle, vehicle_id)
    return vehicle_facts(vehicle) if vehicle is not None else VehicleFacts()


# --- fits computed when rows are stored -------------------------------------------------------------------------


class Judge:
    """Part rows' fit columns by one vehicle's facts; a condition shared by many rows is evaluated once."""

    def __init__(self, facts: VehicleFacts) -> None:
        self.facts = facts
        self._by_condition: dict[Condition, dict[str, Any]] = {}
        self._by_document: dict[str, dict[str, Any]] = {}

    def columns(self, applicability: Condition | None) -> dict[str, Any]:
        """`applicability`, `fit_status` and `fit` of a row; no applicability (the source states none) fits."""
        if applicability is None:
            return {"applicability": None, "fit_status": YES, "fit": None}
        found = self._by_condition.get(applicability)
        if found is None:
            fit = evaluate(self.facts, applicability)
            found = self._by_condition[applicability] = {
                "applicability": codec.condition_to_json(applicability),
                "fit_status": fit.status,
                "fit": codec.fit_to_json(fit),
            }
        return found

    def stored(self, document: Any) -> dict[str, Any]:
        """The fit columns of a stored row's applicability document (a copy re-judged for another vehicle)."""
        if not document:
            return {"fit_status": YES, "fit": None}
        key = json.dumps(document)
        found = self._by_document.get(key)
        if found is None:
            fit = evaluate(self.facts, codec.condition_from_json(document))
            found = self._by_document[key] = {"fit_status": fit.status, "fit": codec.fit_to_json(fit)}
        return found


def leaf_counts(statuses: Iterable[str | None]) -> dict[str, int]:
    """A leaf's fit_yes, fit_no and fit_maybe from its rows' statuses (a row stored before fits is a yes)."""
    counted = Counter(status or YES for status in statuses)
    return {"fit_yes": counted[YES], "fit_no": counted[NO], "fit_maybe": counted[MAYBE]}
