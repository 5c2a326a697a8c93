"""A huge or cyclic graph answers within its bounds: a few queries per depth level, never one per number, every number
once, and the answer says when it was cut."""

from __future__ import annotations

import sqlalchemy as sa

from app.equivalents.groups import MAX_DEPTH, MAX_NODES, group_of
from app.equivalents.services import NumberLink
from app.extensions import db
from tests.equivalents.conftest import catalog_links, group, keys_of


class Statements:
    """Counts the statements the engine runs while in a `with` block."""

    def __enter__(self):
        self.count = 0
        sa.event.listen(db.engine, "before_cursor_execute", self._seen)
        return self

    def _seen(self, *_args) -> None:
        self.count += 1

    def __exit__(self, *_exc) -> None:
        sa.event.remove(db.engine, "before_cursor_execute", self._seen)


def test_a_cycle_gives_each_number_once(shop_a):
    catalog_links(
        NumberLink("CYC-A", "CYC-B"),
        NumberLink("CYC-B", "CYC-C"),
        NumberLink("CYC-C", "CYC-A"),
        NumberLink("CYC-D", "CYC-C", "replaces"),
        NumberLink("CYC-C", "CYC-D", "replaces"),
    )

    shown = group(shop_a["clerk"], "cyc-a")

    assert sorted(item["key"] for item in shown["equivalents"]) == ["cycb", "cycc", "cycd"]
    assert shown["truncated"] is False


def test_a_large_graph_is_cut_at_its_bounds_in_a_few_queries(app, shop_a):
    star = [NumberLink("HUB-0", f"SPOKE-{n}") for n in range(3000)]
    chain = [NumberLink(f"CHAIN-{n + 1}", f"CHAIN-{n}", "replaces") for n in range(2000)]
    catalog_links(*star, *chain)

    with Statements() as statements:
        wide = group_of("HUB-0", None)
    assert len(wide.members) <= MAX_NODES and wide.truncated
    assert statements.count <= 2 * MAX_DEPTH + 2

    deep = group(shop_a["clerk"], "CHAIN-0")
    assert deep["truncated"] is True
    assert max(item["depth"] for item in deep["equivalents"]) == MAX_DEPTH
    assert keys_of(deep) == {f"chain{n}" for n in range(1, MAX_DEPTH + 1)}


def test_part_of_links_are_listed_beside_the_group_not_followed(shop_a):
    catalog_links(
        NumberLink("KIT-1", "KIT-1-ALT"),
        NumberLink("PAD-9", "KIT-1", "part_of"),
        NumberLink("PAD-9-SCREW", "PAD-9", "part_of"),
    )

    shown = group(shop_a["clerk"], "KIT-1")

    assert keys_of(shown) == {"kit1alt"}
    # what each listed number is to the asked one: the pad is part of the kit; the kit contains the pad
    assert [(item["key"], item["relation"]) for item in shown["parts"]] == [("pad9", "part_of")]
    from_pad = group(shop_a["clerk"], "PAD-9")["parts"]
    assert [(item["key"], item["relation"]) for item in from_pad] == [("kit1", "contains"), ("pad9screw", "part_of")]
