"""What the API and the page show of a group: each equivalent with what it is to the number that reached it and
where each link came from, labelled in the reader's language (Turkish first)."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from app.equivalents.groups import Edge, Group, Member

RELATION_LABELS = {
    "same": _l("Same part"),
    "replaces": _l("Newer number (replaces it)"),
    "replaced_by": _l("Older number (replaced by it)"),
    "part_of": _l("Part of it"),
    "contains": _l("Contains it"),
}
SOURCE_LABELS = {
    "catalog": _l("Catalog supersession"),
    "supplier": _l("A supplier's OE field"),
    "shelf": _l("Your stock list"),
    "member": _l("Confirmed by your shop"),
}
# What a member may confirm, as the API's `type` names it.
CONFIRMABLE = ("same", "replaces", "part_of")


def edge_view(edge: Edge) -> dict[str, Any]:
    return {
        "id": edge.link_id,
        "from": edge.here.upper(),
        "relation": edge.relation,
        "relationLabel": str(RELATION_LABELS[edge.relation]),
        "source": edge.source,
        "sourceLabel": str(SOURCE_LABELS[edge.source]),
        "own": edge.own,
    }


def _entry(number: str, key: str, brand: str | None, depth: int, edges: list[Edge], rejected: bool) -> dict:
    first = edges[0]
    return {
        "number": number,
        "key": key,
        "brand": brand,
        "depth": depth,
        "relation": first.relation,
        "relationLabel": str(RELATION_LABELS[first.relation]),
        "source": first.source,
        "sourceLabel": str(SOURCE_LABELS[first.source]),
        "rejected": rejected,
        "links": [edge_view(edge) for edge in edges],
    }


def _member_entry(member: Member) -> dict[str, Any]:
    return _entry(member.code, member.key, member.brand, member.depth, member.via, False)


def _edge_entry(edge: Edge, rejected: bool) -> dict[str, Any]:
    return _entry(edge.code, edge.there, edge.brand, 1, [edge], rejected)


def group_view(group: Group) -> dict[str, Any]:
    """The group as the API answers it (camelCase keys) and the page shows it."""
    return {
        "number": group.key.upper(),
        "equivalents": [_member_entry(member) for member in group.members]
        + [_edge_entry(edge, True) for edge in group.rejected if edge.relation in RELATION_LABELS],
        "parts": [_edge_entry(edge, False) for edge in group.parts],
        "truncated": group.truncated,
    }
