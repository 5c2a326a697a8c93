"""A stored vehicle's fit facts and the fit of each part row, computed when the row is stored: the vehicle's facts
(its sources, VIN and catalog listing), the judge that gives rows their fit columns, and a leaf's fit counts.

The lowest of the fit wiring: the dealers' answers (app.catalog.fit.answers) rewrite fits with this judge, the view
shapes (app.catalog.fit.shapes) read what is stored. The answer is computed when a row is stored and when a question is
answered, never on a read: a read takes the row's stored fit, overlaid by the dealer's own (PartFit, joined in the same
statement). A row stored before the rules in force (its status null) is recomputed by app.catalog.fit.recompute's job
and reads as a maybe until then.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from app.catalog.fit import codec
from app.catalog.fit.conditions import Condition
from app.catalog.fit.evaluate import MAYBE, NO, NOT_KNOWN, YES, judge
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
        self._not_known = {"fit_status": MAYBE, "fit": codec.fit_to_json(NOT_KNOWN)}

    def columns(self, applicability: Condition | None) -> dict[str, Any]:
        """`applicability`, `fit_status` and `fit` of a row; a row whose source states no applicability is a maybe,
        "not known" (evaluate.judge)."""
        if applicability is None:
            return {"applicability": None, **self._not_known}
        found = self._by_condition.get(applicability)
        if found is None:
            found = self._by_condition[applicability] = {
                "applicability": codec.condition_to_json(applicability),
                **self._answer(applicability),
            }
        return found

    def stored(self, document: Any) -> dict[str, Any]:
        """The fit columns of a stored row's applicability document (a copy re-judged for another vehicle, a row
        recomputed by app.catalog.fit.recompute)."""
        if not document:
            return dict(self._not_known)
        key = json.dumps(document, sort_keys=True)
        found = self._by_document.get(key)
        if found is None:
            found = self._by_document[key] = self._answer(codec.condition_from_json(document))
        return found

    def _answer(self, applicability: Condition) -> dict[str, Any]:
        fit = judge(self.facts, applicability)
        return {"fit_status": fit.status, "fit": codec.fit_to_json(fit)}


def leaf_counts(statuses: Iterable[str | None]) -> dict[str, int]:
    """A leaf's fit_yes, fit_no and fit_maybe from its rows' statuses (a row whose answer is not computed yet, null,
    is a maybe: app.catalog.fit.recompute)."""
    counted = Counter(status or MAYBE for status in statuses)
    return {"fit_yes": counted[YES], "fit_no": counted[NO], "fit_maybe": counted[MAYBE]}
