"""The OEM copy log: each time a dealer copies a part's code, and the admin's reads of it.

Rows outlive their user, vehicle and part (the references are set to null), so the code itself is kept on the row.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa

from app.accounts.models import User
from app.catalog.models import OemCopy, Part
from app.catalog.services import part_with_code
from app.core.db import begin_writes, utcnow
from app.core.text import fold_code
from app.extensions import db
from app.vehicles.models import Vehicle


def record_copy(user: User, vehicle: Vehicle, part_id: int) -> str:
    """Log that `user` copied the OEM code of the vehicle's part `part_id`; the code copied."""
    part = part_with_code(vehicle, part_id)
    row = {
        "user_id": user.id,
        "shop_id": user.shop_id,
        "vehicle_id": vehicle.id,
        "part_id": part.id,
        "oem_code": part.oem_code,
    }
    # The write starts its own transaction (see begin_writes), so it never upgrades a read snapshot on SQLite.
    begin_writes(db.session, durable=False)
    db.session.execute(sa.insert(OemCopy).values(**row, created_at=utcnow()))
    return row["oem_code"]


@dataclass(frozen=True)
class CopyFilter:
    """What the admin narrows the log to; every field is optional."""

    user_id: uuid.UUID | None = None
    email: str = ""  # part of the e-mail address, any case
    vehicle_id: int | None = None
    code: str = ""  # part of the code, separators ignored
    since: datetime | None = None  # inclusive
    until: datetime | None = None  # exclusive

    def conditions(self) -> list[sa.ColumnElement[bool]]:
        found: list[sa.ColumnElement[bool]] = []
        if self.user_id is not None:
            found.append(OemCopy.user_id == self.user_id)
        if self.email:
            found.append(User.email.contains(self.email.lower(), autoescape=True))
        if self.vehicle_id is not None:
            found.append(OemCopy.vehicle_id == self.vehicle_id)
        if key := fold_code(self.code):
            found.append(_bare_code(OemCopy.oem_code).contains(key))
        if self.since is not None:
            found.append(OemCopy.created_at >= self.since)
        if self.until is not None:
            found.append(OemCopy.created_at < self.until)
        return found


def copy_log_page(where: CopyFilter, page: int, page_size: int) -> dict[str, Any]:
    """One page of the log, newest first, with who copied what from which vehicle, and the total that matches."""
    conditions = where.conditions()
    total_query = sa.select(sa.func.count()).select_from(OemCopy).where(*conditions)
    if where.email:
        total_query = total_query.join(User, User.id == OemCopy.user_id)
    total = db.session.scalar(total_query) or 0
    rows = db.session.execute(
        sa.select(
            OemCopy,
            User.email,
            User.name,
            Vehicle.vin,
            Vehicle.brand_name,
            Vehicle.model,
            Part.name,
        )
        .outerjoin(User, User.id == OemCopy.user_id)
        .outerjoin(Vehicle, Vehicle.id == OemCopy.vehicle_id)
        .outerjoin(Part, Part.id == OemCopy.part_id)
        .where(*conditions)
        .order_by(OemCopy.created_at.desc(), OemCopy.id.desc())
        .limit(page_size)
        .offset((page - 1) * page_size)
    ).all()
    return {
        "items": [
            {
                "id": copy.id,
                "oemCode": copy.oem_code,
                "createdAt": copy.created_at.isoformat(),
                "user": {"id": str(copy.user_id), "email": email, "name": name} if copy.user_id else None,
                "vehicle": (
                    {"id": copy.vehicle_id, "vin": vin, "brand": brand, "model": model} if copy.vehicle_id else None
                ),
                "part": {"id": copy.part_id, "name": part_name} if copy.part_id else None,
            }
            for copy, email, name, vin, brand, model, part_name in rows
        ],
        "page": page,
        "pageSize": page_size,
        "total": total,
        "hasMore": page * page_size < total,
    }


def top_codes(days: int, limit: int) -> dict[str, Any]:
    """The codes copied most in the last `days` days, with how often, by how many users and when last."""
    since = utcnow() - timedelta(days=days)
    copies = sa.func.count(OemCopy.id).label("copies")
    rows = db.session.execute(
        sa.select(
            OemCopy.oem_code,
            copies,
            sa.func.count(sa.distinct(OemCopy.user_id)),
            sa.func.max(OemCopy.created_at),
            sa.func.max(Part.name),
        )
        .outerjoin(Part, Part.id == OemCopy.part_id)
        .where(OemCopy.created_at >= since)
        .group_by(OemCopy.oem_code)
        .order_by(copies.desc(), OemCopy.oem_code)
        .limit(limit)
    ).all()
    return {
        "days": days,
        "since": since.isoformat(),
        "items": [
            {
                "oemCode": code,
                "copies": count,
                "users": users,
                "lastCopiedAt": last.isoformat(),
                "partName": part_name,
            }
            for code, count, users, last, part_name in rows
        ],
    }


def _bare_code(column: sa.ColumnElement[str]) -> sa.ColumnElement[str]:
    """The stored code lower-cased without the usual separators (space, dash, dot, slash), as fold_code leaves it."""
    bare = sa.func.lower(column)
    for separator in (" ", "-", ".", "/"):
        bare = sa.func.replace(bare, separator, "")
    return bare
