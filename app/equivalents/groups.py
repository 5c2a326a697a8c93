"""A number's group: the numbers reachable from it through `same` links and the supersession chain (`replaces`,
read backwards as replaced by), as one shop sees them (everyone's links and its own, less the ones it rejected).

The walk is breadth first, one query per depth level for the links touching the level's numbers (each with whether
the shop rejected it), bounded in depth, in numbers and in links read per level, so a huge or cyclic graph
answers in a few queries and says it was cut (`truncated`). `part_of` links are listed beside the group, the
group's own numbers' only (read with each level's links; a cut walk reads them once more): a part's parts are not
followed.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from app.equivalents.models import EquivalentLink, EquivalentRejection
from app.equivalents.services import link_key, visible_to
from app.extensions import db

MAX_DEPTH = 6
MAX_NODES = 200
MAX_LINKS_PER_LEVEL = 2000
MAX_PART_LINKS = 200
FOLLOWED = ("same", "replaces")


@dataclass(frozen=True)
class Edge:
    """A link as read from one of its numbers (`here`) to the other (`there`): what `there` is to `here`
    (`relation`: same, replaces, replaced_by, part_of, contains) and where the link came from."""

    link_id: int
    here: str
    there: str
    code: str
    brand: str | None
    relation: str
    source: str
    detail: str
    own: bool  # the shop's own link (its list, its suppliers, its members), not everyone's


@dataclass
class Member:
    """A number of the group: found at `depth` links from the asked number, through `via` (the links from the
    previous level's numbers that reached it)."""

    key: str
    code: str
    brand: str | None
    depth: int
    via: list[Edge] = field(default_factory=list)


@dataclass
class Group:
    key: str
    members: list[Member] = field(default_factory=list)
    parts: list[Edge] = field(default_factory=list)  # part of / contains, from the group's numbers
    rejected: list[Edge] = field(default_factory=list)  # links from the group's numbers the shop rejected
    truncated: bool = False

    def keys(self) -> set[str]:
        return {self.key, *(member.key for member in self.members)}


def _relation(link: EquivalentLink, there: str) -> str:
    if link.kind == "same":
        return "same"
    forward = link.a_key == there  # `there` is the link's `a`: it replaces (is part of) `here`
    if link.kind == "replaces":
        return "replaces" if forward else "replaced_by"
    return "part_of" if forward else "contains"


def _edges(link: EquivalentLink, keys: set[str], shop_id: uuid.UUID | None) -> list[Edge]:
    """The link read from each of its numbers among `keys`."""
    sides = ((link.a_key, link.b_key, link.b_code, link.b_brand), (link.b_key, link.a_key, link.a_code, link.a_brand))
    own = shop_id is not None and link.shop_id == shop_id
    return [
        Edge(link.id, here, there, code, brand, _relation(link, there), link.source, link.detail, own)
        for here, there, code, brand in sides
        if here in keys
    ]


# What a walk reads of a link: its columns as a row, not an ORM object (a page's numbers may touch thousands).
_LINK_FIELDS = ("id", "shop_id", "a_key", "a_code", "a_brand", "b_key", "b_code", "b_brand", "kind", "source", "detail")
_LINK_COLUMNS = tuple(getattr(EquivalentLink, name) for name in _LINK_FIELDS)


def _links_touching(keys: set[str], shop_id: uuid.UUID | None, kinds: tuple[str, ...], limit: int) -> list:
    """The links of `kinds` touching `keys` as the shop sees them, each with whether the shop rejected it."""
    statement = _LINKS_OF_SHOP if shop_id is not None else _GLOBAL_LINKS
    parameters = {"keys": sorted(keys), "kinds": list(kinds), "limit": limit, "shop_id": shop_id}
    return list(db.session.execute(statement, parameters))


def _links_statement(shop_id: sa.BindParameter[Any] | None) -> sa.Select:
    """The links statement, built once: the keys, kinds and limit bound (and the shop, when one asks)."""
    keys = sa.bindparam("keys", expanding=True)
    return (
        sa.select(*_LINK_COLUMNS, _rejected_by(shop_id))
        .where(
            visible_to(shop_id),
            EquivalentLink.kind.in_(sa.bindparam("kinds", expanding=True)),
            sa.or_(EquivalentLink.a_key.in_(keys), EquivalentLink.b_key.in_(keys)),
        )
        .order_by(EquivalentLink.id)
        .limit(sa.bindparam("limit", type_=sa.Integer))
    )


def _rejected_by(shop_id: sa.BindParameter[Any] | None) -> sa.Label[Any]:
    """Whether the shop rejected the link (its pair: app.equivalents.services.pair_key), read beside it on the
    rejection's primary key."""
    if shop_id is None:
        return sa.literal(False).label("rejected")
    rejection = EquivalentRejection
    link = EquivalentLink
    same_pair = sa.and_(rejection.a_key == link.a_key, rejection.b_key == link.b_key)
    turned = sa.and_(link.kind == "same", rejection.a_key == link.b_key, rejection.b_key == link.a_key)
    return (
        sa.exists()
        .where(rejection.shop_id == shop_id, rejection.kind == link.kind, sa.or_(same_pair, turned))
        .label("rejected")
    )


_LINKS_OF_SHOP = _links_statement(sa.bindparam("shop_id", type_=sa.Uuid))
_GLOBAL_LINKS = _links_statement(None)


class _Walk:
    """The breadth-first walk's state: the numbers found, the current level, what was cut."""

    def __init__(self, group: Group, shop_id: uuid.UUID | None, max_nodes: int) -> None:
        self.group, self.shop_id, self.max_nodes = group, shop_id, max_nodes
        self.found: dict[str, Member | None] = {group.key: None}
        self.rejected_ids: set[int] = set()
        # The part of / contains links of every level's numbers, read with the level's links: once the walk has read
        # every member's links, they are the group's without a statement of their own.
        self.part_links: dict[int, sa.Row] = {}
        self.parts_complete = True

    def level(self, frontier: set[str], depth: int) -> set[str]:
        """Read the links of one level; the numbers found at this depth are the next level."""
        links = _links_touching(frontier, self.shop_id, (*FOLLOWED, "part_of"), MAX_LINKS_PER_LEVEL)
        if len(links) >= MAX_LINKS_PER_LEVEL:
            self.group.truncated = True
            self.parts_complete = False
        found_now: set[str] = set()
        for link in links:
            if link.kind == "part_of":
                self.part_links.setdefault(link.id, link)
                continue
            for edge in _edges(link, frontier, self.shop_id):
                if link.rejected:
                    self._reject(edge)
                else:
                    self._reach(edge, depth, found_now)
        return found_now

    def _reject(self, edge: Edge) -> None:
        if edge.link_id not in self.rejected_ids:
            self.rejected_ids.add(edge.link_id)
            self.group.rejected.append(edge)

    def _reach(self, edge: Edge, depth: int, found_now: set[str]) -> None:
        if edge.there in found_now:
            self.found[edge.there].via.append(edge)
            return
        if edge.there in self.found:
            return  # reached at a lower depth (or the asked number)
        if len(self.found) > self.max_nodes:
            self.group.truncated = True
            return
        member = Member(edge.there, edge.code, edge.brand, depth, [edge])
        self.found[edge.there] = member
        self.group.members.append(member)
        found_now.add(edge.there)


def group_of(
    number: str, shop_id: uuid.UUID | None, *, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES
) -> Group:
    """The number's group as the shop sees it (`number` as typed or already folded; `shop_id` None: everyone's
    links only): each member with the links that reached it, the part of / contains links of the group's numbers,
    the links the shop rejected; `truncated` when a bound cut the walk."""
    group = Group(link_key(number))
    if not group.key:
        return group
    walk = _Walk(group, shop_id, max_nodes)
    frontier = {group.key}
    for depth in range(1, max_depth + 1):
        frontier = walk.level(frontier, depth)
        if not frontier:
            break
    else:
        group.truncated = True  # the deepest level's numbers were not read further
        walk.parts_complete = False
    _add_parts(group, shop_id, walk.part_links if walk.parts_complete else None)
    return group


def _add_parts(group: Group, shop_id: uuid.UUID | None, read: dict[int, sa.Row] | None) -> None:
    """The part of / contains links of the group's numbers: those the walk `read`, or read now (a cut walk)."""
    keys = group.keys()
    if read is not None:
        links = [read[link_id] for link_id in sorted(read)[:MAX_PART_LINKS]]
    else:
        links = _links_touching(keys, shop_id, ("part_of",), MAX_PART_LINKS)
    for link in links:
        edges = _edges(link, keys, shop_id)
        target = group.rejected if link.rejected else group.parts
        target.extend(edges[:1])


def neighbours(keys: set[str], shop_id: uuid.UUID | None, limit: int = MAX_LINKS_PER_LEVEL) -> dict[str, list[Edge]]:
    """Each of `keys` (folded) with its direct `same` / supersession links as the shop sees them, in one query for
    a whole page of numbers (a row's offers reach one link away; the number's page walks the whole group)."""
    if not keys:
        return {}
    links = _links_touching(keys, shop_id, FOLLOWED, limit)
    found: dict[str, list[Edge]] = {}
    for link in links:
        if link.rejected:
            continue
        for edge in _edges(link, keys, shop_id):
            if edge.there != edge.here:
                found.setdefault(edge.here, []).append(edge)
    return found
