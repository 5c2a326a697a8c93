"""Writing and reading the stored tree. Inserts do nothing on conflict, so a re-fetch or a retried job never
duplicates a category or a part row."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from app.catalog.models import Category, Part
from app.catalog.providers import Node, PartLine
from app.core.db import insert_for, utcnow
from app.extensions import db


def save_nodes(vehicle_id: int, source: str, parent: Category | None, nodes: Sequence[Node]) -> None:
    rows = [
        {
            "vehicle_id": vehicle_id,
            "parent_id": parent.id if parent else None,
            "source": source,
            "external_id": node.external_id,
            "name": node.name,
            "link_path": node.link_path,
            "unavailable": node.unavailable,
            "remark": node.remark,
            "model_codes": list(node.model_codes),
            "presel": node.presel,
            "is_leaf": node.is_leaf,
            "illustration_code": node.illustration_code,
            "sort_order": order,
        }
        for order, node in enumerate(nodes)
    ]
    if rows:
        db.session.execute(insert_for(db.session, Category).values(rows).on_conflict_do_nothing())
    if parent is not None:
        parent.children_fetched_at = utcnow()


def save_parts(category: Category, lines: Sequence[PartLine]) -> None:
    rows = [
        {
            "vehicle_id": category.vehicle_id,
            "category_id": category.id,
            "oem_code": line.oem_code,
            "name": line.name,
            "position": line.position,
            "unavailable": line.unavailable,
            "remark": line.remark,
            "model_codes": list(line.model_codes),
            "reference_code": line.reference_code,
            "label": line.label or line.name,
            "sort_order": order,
        }
        for order, line in enumerate(lines)
    ]
    if rows:
        db.session.execute(insert_for(db.session, Part).values(rows).on_conflict_do_nothing())
    category.parts_fetched_at = utcnow()


def roots(vehicle_id: int) -> list[Category]:
    return _categories(Category.vehicle_id == vehicle_id, Category.parent_id.is_(None))


def children(category: Category) -> list[Category]:
    return _categories(Category.parent_id == category.id)


def parts(category: Category) -> list[Part]:
    return list(
        db.session.scalars(sa.select(Part).where(Part.category_id == category.id).order_by(Part.sort_order, Part.id))
    )


def ancestors(category: Category) -> list[Category]:
    """Root to parent, from one recursive query (complete on refresh and deep links)."""
    chain = sa.select(Category.id, Category.parent_id, sa.literal(0).label("depth")).where(
        Category.id == category.parent_id
    )
    chain = chain.cte("chain", recursive=True)
    step = sa.select(Category.id, Category.parent_id, (chain.c.depth + 1).label("depth")).join(
        chain, Category.id == chain.c.parent_id
    )
    chain = chain.union_all(step)
    rows = db.session.execute(
        sa.select(Category).join(chain, Category.id == chain.c.id).order_by(chain.c.depth.desc())
    ).scalars()
    return list(rows)


def illustration_index(vehicle_id: int, codes: set[str]) -> dict[str, int]:
    """Category ids of the vehicle's pictures whose {NNN-NNN} code is among `codes`."""
    if not codes:
        return {}
    rows = db.session.execute(
        sa.select(Category.illustration_code, Category.id).where(
            Category.vehicle_id == vehicle_id, Category.illustration_code.in_(codes)
        )
    )
    return {code: category_id for code, category_id in rows}


def _categories(*conditions: sa.ColumnElement[bool]) -> list[Category]:
    return list(db.session.scalars(sa.select(Category).where(*conditions).order_by(Category.sort_order, Category.id)))
