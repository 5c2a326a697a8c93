"""The scrape source's local source dump: a group's parts as JSON files, `<SCRAPE_DUMP_DIR>/<CATALOG CODE>/<group
id>.json`, read only for catalog codes listed in SCRAPE_DUMP_ALLOWED_CATALOGS (default empty: none)."""

from __future__ import annotations

import json
from pathlib import Path

from app.sources.quantity import parse_quantity
from app.sources.scrape_types import PartRow, ScrapeError, ScrapeNotFoundError, ScrapeUnavailableError


class DumpRefusedError(ScrapeError):
    """The local source dump is not to be read for this catalog code."""


def read_dump_parts(dump_dir: str, allowed_catalogs: frozenset[str], catalog_code: str, group_id: str) -> list[PartRow]:
    """Parts of a group from the local source dump; refused for every catalog code not allow-listed."""
    code = catalog_code.strip().upper()
    if code not in allowed_catalogs:
        raise DumpRefusedError(f"dump not allowed for catalog {catalog_code!r}")
    if not dump_dir:
        raise DumpRefusedError("no SCRAPE_DUMP_DIR configured")
    folder = (Path(dump_dir) / code).resolve()
    path = (folder / f"{group_id}.json").resolve()
    if path.parent != folder:
        raise DumpRefusedError(f"group id {group_id!r} leaves the catalog's dump folder")
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
        return [_dump_part(row) for row in rows]
    except FileNotFoundError as error:
        raise ScrapeNotFoundError(f"no dump for {code}/{group_id}") from error
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ScrapeUnavailableError(f"unreadable dump {code}/{group_id}: {type(error).__name__}") from error


def _dump_part(row: dict) -> PartRow:
    position, remark = row.get("position"), row.get("remark")
    return PartRow(
        str(row["oem"]),
        str(row["name"]),
        str(position) if position is not None else None,
        str(remark) if remark else None,
        bool(row.get("unavailable")),
        parse_quantity(row.get("quantity")),
    )
