"""The minimal query of each catalog answer, written by hand: the second baseline of bench/catalog.py.

Each answer's rows in one PostgreSQL statement (the parts of several shapes gathered as JSON by the server), on the
indexes the migrations create, through a bare psycopg2 connection with its rows fetched and decoded. It does none of
the app's per-request work (session, vehicle, plan, rendering): the app's request against it is the whole cost of
the app over the database work the answer needs.

- category detail: the category, its ancestors (root first), a leaf's part rows with their fit for the dealer (his
  own where his answers changed it) and the best row of his shelf list for each code, its picture and hotspots; a
  group's children with their pictures' keys as thumbnails.
- search: the vehicle's parts whose folded name holds every word or whose folded code holds the code (first 201),
  their hit counts per leaf, the categories whose folded name holds every word (first 201), each shown category's
  ancestors.
- where-used: the part rows carrying a folded OEM code (no reference rows), counted per brand, the first 50 in the
  app's order with their leaf, vehicle and fit, and each leaf's ancestors.
"""

# ruff: noqa: S608 - the statements are assembled from this module's own fragments; values go as parameters

from __future__ import annotations

import uuid

from app.catalog.search.services import CATEGORY_LIMIT, MIN_CODE_LENGTH, PART_LIMIT
from app.catalog.where_used.services import DEFAULT_LIMIT
from app.core.text import fold, fold_code
from bench.sql import BareSql

# A chain from the categories in `origins` up to their roots: (origin, id, parent, depth: 0 for the category
# itself, then the columns a category's view shows), each step a lookup by primary key. The columns ride along so
# that nothing joins the category table again: as a join, PostgreSQL hashed all of it (13,900 rows on the fleet).
_CATEGORY = "c.name, c.name_lang, c.name_tr, c.name_tr_complete, c.is_leaf, c.illustration_code, c.unavailable"
_CHAIN = f"""
chain(origin, id, parent_id, depth, name, name_lang, name_tr, name_tr_complete, is_leaf, illustration_code,
      unavailable) AS (
    SELECT c.id, c.id, c.parent_id, 0, {_CATEGORY} FROM category c WHERE c.id = ANY(%(origins)s)
    UNION ALL
    SELECT chain.origin, c.id, c.parent_id, chain.depth + 1, {_CATEGORY}
    FROM chain JOIN category c ON c.id = chain.parent_id
)"""

_NAMES = (
    "'id', {t}.id, 'name', {t}.name, 'nameLang', {t}.name_lang, 'nameTr', {t}.name_tr, "
    "'nameTrComplete', {t}.name_tr_complete"
)

# The trails of every category in the CTE `shown(id)`: {origin: [ancestor, ...]}, roots first.
_TRAILS = f"""
    SELECT json_object_agg(origin, trail) FROM (
        SELECT chain.origin, json_agg(json_build_object({_NAMES.format(t="chain")}) ORDER BY chain.depth DESC) AS trail
        FROM chain
        WHERE chain.depth > 0
        GROUP BY chain.origin
    ) trails"""

# A part row's columns and its fit for the dealer; `p` the part, `f` his shop's part_fit row (outer-joined).
_PART = f"""{_NAMES.format(t="p")}, 'categoryId', p.category_id, 'oemCode', p.oem_code, 'label', p.label,
    'position', p.position, 'unavailable', p.unavailable, 'remark', p.remark, 'modelCodes', p.model_codes,
    'reference', p.reference_code, 'quantity', p.quantity,
    'fitStatus', coalesce(f.fit_status, p.fit_status), 'fit', coalesce(f.fit, p.fit),
    'fitAnswered', f.part_id IS NOT NULL"""

# The best row of the dealer's list in use carrying the part's code (its OEM number first, then his own code, an
# aftermarket number, a successor): stock, price, own code.
_SHELF = """
    LEFT JOIN LATERAL (
        SELECT json_build_object('kind', n.kind, 'line', i.line, 'ownCode', i.own_code, 'price', i.price,
                                 'currency', i.currency, 'stock', i.stock, 'replacedBy', i.replaced_by) AS shelf
        FROM shelf_active act
        JOIN shelf_number n ON n.import_id = act.import_id AND n.key = p.search_code
        JOIN shelf_item i ON i.id = n.item_id
        WHERE act.user_id = %(user_id)s AND p.reference_code IS NULL
        ORDER BY array_position(ARRAY['oem', 'own', 'aftermarket', 'successor']::text[], n.kind::text), i.line
        LIMIT 1
    ) s ON true"""

DETAIL = f"""
WITH RECURSIVE {_CHAIN}
SELECT
    (SELECT row_to_json(c) FROM category c WHERE c.id = %(category_id)s AND c.vehicle_id = %(vehicle_id)s),
    ({_TRAILS}),
    (SELECT json_agg(json_build_object({_PART}, 'shelf', s.shelf) ORDER BY p.sort_order, p.id)
     FROM part p LEFT JOIN part_fit f ON f.part_id = p.id AND f.shop_id = %(shop_id)s {_SHELF}
     WHERE p.category_id = %(category_id)s),
    (SELECT json_build_object('storageKey', sp.storage_key, 'width', sp.width, 'height', sp.height, 'hotspots',
            (SELECT json_agg(json_build_object('position', h.position, 'x1', h.x1, 'y1', h.y1, 'x2', h.x2, 'y2', h.y2)
                             ORDER BY h.id)
             FROM hotspot h WHERE h.schema_picture_id = sp.id))
     FROM schema_picture sp WHERE sp.category_id = %(category_id)s),
    (SELECT json_agg(json_build_object('category', row_to_json(ch), 'thumbnail', sp.storage_key)
                     ORDER BY ch.sort_order, ch.id)
     FROM category ch LEFT JOIN schema_picture sp ON sp.category_id = ch.id AND ch.is_leaf
     WHERE ch.parent_id = %(category_id)s)
"""

SEARCH = f"""
WITH RECURSIVE matched AS MATERIALIZED (
    SELECT p.id, p.category_id, p.sort_order FROM part p
    WHERE p.vehicle_id = %(vehicle_id)s AND ({{name_match}} OR {{code_match}})
),
hits AS (SELECT category_id, count(*) AS n FROM matched GROUP BY category_id),
shown_parts AS (SELECT id, category_id FROM matched ORDER BY category_id, sort_order, id LIMIT {PART_LIMIT + 1}),
named AS (
    SELECT c.id FROM category c WHERE c.vehicle_id = %(vehicle_id)s AND {{category_match}}
    ORDER BY c.id LIMIT {CATEGORY_LIMIT + 1}
),
busiest AS (SELECT category_id AS id FROM hits ORDER BY n DESC, category_id LIMIT {CATEGORY_LIMIT + 1}),
shown(id) AS (SELECT id FROM named UNION SELECT id FROM busiest UNION SELECT category_id FROM shown_parts),
{_CHAIN.replace("ANY(%(origins)s)", "ANY(ARRAY(SELECT id FROM shown))")}
SELECT
    (SELECT json_agg(json_build_object({_NAMES.format(t="c")}, 'parentId', c.parent_id, 'leaf', c.is_leaf,
            'illustrationCode', c.illustration_code, 'unavailable', c.unavailable,
            'nameMatch', c.id IN (SELECT id FROM named), 'hits', coalesce(hits.n, 0)))
     FROM chain c LEFT JOIN hits ON hits.category_id = c.id WHERE c.depth = 0),
    (SELECT json_agg(json_build_object({_PART}, 'shelf', s.shelf) ORDER BY p.category_id, p.sort_order, p.id)
     FROM shown_parts sh JOIN part p ON p.id = sh.id
     LEFT JOIN part_fit f ON f.part_id = p.id AND f.shop_id = %(shop_id)s {_SHELF}),
    (SELECT sum(n) FROM hits),
    ({_TRAILS})
"""

WHERE_USED = f"""
WITH RECURSIVE carrying AS (
    SELECT p.id, p.vehicle_id, p.category_id, p.sort_order FROM part p
    WHERE p.search_code = %(code)s AND p.reference_code IS NULL
),
counts AS (
    SELECT coalesce(v.brand_id, 0) AS brand, count(DISTINCT c.vehicle_id) AS vehicles, count(*) AS parts
    FROM carrying c JOIN vehicle v ON v.id = c.vehicle_id GROUP BY 1
),
page AS (
    SELECT c.id, c.category_id, v.id AS vehicle_id, v.vin, v.brand_id, v.brand_name, v.model, v.year, v.engine,
           row_number() OVER (ORDER BY v.brand_name, v.model, v.id, c.category_id, c.sort_order, c.id) AS place
    FROM carrying c JOIN vehicle v ON v.id = c.vehicle_id
    ORDER BY place LIMIT %(limit)s
),
shown(id) AS (SELECT DISTINCT category_id FROM page),
{_CHAIN.replace("ANY(%(origins)s)", "ANY(ARRAY(SELECT id FROM shown))")}
SELECT
    (SELECT json_agg(counts) FROM counts),
    (SELECT json_agg(json_build_object({_PART}, 'leaf', json_build_object({_NAMES.format(t="l")}),
            'vehicle', json_build_object('id', page.vehicle_id, 'vin', page.vin, 'brandId', page.brand_id,
                                         'brandName', page.brand_name, 'model', page.model, 'year', page.year,
                                         'engine', page.engine),
            'shelf', s.shelf) ORDER BY page.place)
     FROM page JOIN part p ON p.id = page.id JOIN category l ON l.id = page.category_id
     LEFT JOIN part_fit f ON f.part_id = p.id AND f.shop_id = %(shop_id)s {_SHELF}),
    ({_TRAILS})
"""


def _contains_all(column: str, words: list[str], prefix: str) -> tuple[str, dict[str, str]]:
    """`column LIKE '%word%'` for every word (its own % and _ taken literally), and the patterns as parameters."""
    if not words:
        return "false", {}
    patterns = {f"{prefix}{index}": _like(word) for index, word in enumerate(words)}
    return " AND ".join(f"{column} LIKE %({name})s ESCAPE '/'" for name in patterns), patterns


def _like(key: str) -> str:
    return "%" + key.replace("/", "//").replace("%", "/%").replace("_", "/_") + "%"


class MinimalQueries:
    """The minimal queries on a bare connection, each one statement, its row fetched (psycopg2 decodes the JSON)."""

    def __init__(self, bare: BareSql, user_id: uuid.UUID, shop_id: uuid.UUID) -> None:
        self.bare = bare
        self.user_id = str(user_id)
        self.shop_id = str(shop_id)

    def _one(self, statement: str, parameters: dict[str, object]) -> tuple:
        cursor = self.bare.connection.cursor()
        try:
            cursor.execute(statement, {"user_id": self.user_id, "shop_id": self.shop_id, **parameters})
            row = cursor.fetchone()
        finally:
            cursor.close()
        self.bare.connection.commit()
        return row

    def detail(self, vehicle_id: int, category_id: int) -> tuple:
        parameters = {"vehicle_id": vehicle_id, "category_id": category_id, "origins": [category_id]}
        return self._one(DETAIL, parameters)

    def search(self, vehicle_id: int, query: str) -> tuple:
        words = list(dict.fromkeys(key for key in (fold(word) for word in query.split()) if key))
        code = fold_code(query)
        name_match, parameters = _contains_all("p.search_name", words, "w")
        category_match, named = _contains_all("c.search_name", words, "w")
        code_match = "false"
        if len(code) >= MIN_CODE_LENGTH and any(char.isdigit() for char in code):
            code_match, parameters["code"] = "p.search_code LIKE %(code)s ESCAPE '/'", _like(code)
        statement = (
            SEARCH.replace("{name_match}", name_match)
            .replace("{code_match}", code_match)
            .replace("{category_match}", category_match)
        )
        return self._one(statement, {"vehicle_id": vehicle_id, **parameters, **named})

    def where_used(self, code: str, limit: int = DEFAULT_LIMIT) -> tuple:
        return self._one(WHERE_USED, {"code": fold_code(code), "limit": limit})
