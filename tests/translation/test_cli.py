"""`flask catalog translate-names` and `flask catalog retranslate --inline` through Flask's CLI runner."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import sqlalchemy as sa

from app.catalog import store
from app.catalog.models import Part
from app.catalog.providers import Node, PartLine
from app.extensions import db
from app.translation.glossary import save_term
from app.vehicles.models import Vehicle


def test_translate_names_prints_the_turkish_of_each_line(runner):
    result = runner.invoke(args=["catalog", "translate-names"], input="Oil filter\nWiper blade, LH\n")

    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-2:] == ["Yağ filtresi", "Sol silecek süpürgesi"]


def test_translate_names_as_json_names_the_unknown_words(runner):
    result = runner.invoke(args=["catalog", "translate-names", "--json"], input="Quux bracket\n")

    record = json.loads(result.output.splitlines()[-1])
    assert record == {"source": "Quux bracket", "tr": "Quux braketi", "unknown": ["quux"]}


def test_retranslate_inline_brings_stored_names_up_to_a_new_term(runner):
    vehicle = Vehicle(vin="WVWZZZCLITR000001", brand_name="Volkswagen", model="Golf", source="catapi")
    db.session.add(vehicle)
    db.session.flush()
    store.save_nodes(vehicle.id, "catapi", None, [Node("1", "Engine", is_leaf=True)])
    leaf = store.roots(vehicle.id)[0]
    store.save_parts(vehicle.id, leaf.id, "catapi", [PartLine("1", "Quux bracket", position="1")])
    save_term("quux", "kuks", "noun", None)

    result = runner.invoke(args=["catalog", "retranslate", "--inline"])
    again = runner.invoke(args=["catalog", "retranslate", "--inline"])

    assert result.exit_code == 0, result.output
    part = db.session.scalar(sa.select(Part).where(Part.vehicle_id == vehicle.id))
    assert (part.name_tr, part.name_tr_complete) == ("Kuks braketi", True)
    assert "up to date" in again.output


def test_translate_names_works_on_a_database_not_migrated_yet(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.db'}", "FLASK_APP": "wsgi"}
    result = subprocess.run(
        [sys.executable, "-m", "flask", "catalog", "translate-names"],
        input="Oil filter\n", capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "Yağ filtresi"
    assert "builtin dictionary" in result.stderr
