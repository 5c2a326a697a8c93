"""The words the dictionary does not know, as the admin's translation page lists them.

Counted from the stored names the dictionary could not translate whole: each unknown word with the number of stored
rows (categories and parts) whose name holds it and a few of those names.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import sqlalchemy as sa

from app.catalog.models import Category, Part
from app.extensions import db
from app.translation import services as names

SAMPLE_NAMES = 5


def untranslated(limit: int = 100) -> dict[str, Any]:
    """The unknown words by how many stored rows hold them, each with some of those names."""
    translator = names.current_translator()
    rows: Counter[str] = Counter()
    samples: dict[str, list[str]] = {}
    for name, count in _incomplete_names():
        for token in translator.translate(name).unknown:
            rows[token] += count
            found = samples.setdefault(token, [])
            if len(found) < SAMPLE_NAMES:
                found.append(name)
    ranked = sorted(rows, key=lambda token: (-rows[token], token))
    return {
        "version": translator.version,
        "tokenCount": len(ranked),
        "tokens": [{"token": token, "rows": rows[token], "names": samples[token]} for token in ranked[:limit]],
    }


def _incomplete_names() -> list[tuple[str, int]]:
    """The distinct English names stored without a whole translation, with how many rows carry each."""
    counts: Counter[str] = Counter()
    for model in (Category, Part):
        query = (
            sa.select(model.name, sa.func.count())
            .where(model.name_lang == "en", sa.not_(model.name_tr_complete))
            .group_by(model.name)
        )
        counts.update(dict(db.session.execute(query).all()))
    return counts.most_common()
