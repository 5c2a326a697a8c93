"""`flask catalog translate-names` through Flask's CLI runner and a fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def test_translate_names_prints_the_turkish_of_each_line(runner):
    result = runner.invoke(args=["catalog", "translate-names"], input="Oil filter\nWiper blade, LH\n")

    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-2:] == ["Yağ filtresi", "Sol silecek süpürgesi"]


def test_translate_names_as_json_names_the_unknown_words(runner):
    result = runner.invoke(args=["catalog", "translate-names", "--json"], input="Quux bracket\n")

    record = json.loads(result.output.splitlines()[-1])
    assert record == {"source": "Quux bracket", "tr": "Quux braketi", "unknown": ["quux"]}


def test_translate_names_works_on_a_database_not_migrated_yet(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.db'}", "FLASK_APP": "wsgi"}
    result = subprocess.run(
        [sys.executable, "-m", "flask", "catalog", "translate-names"],
        input="Oil filter\n", capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "Yağ filtresi"
    assert "builtin dictionary" in result.stderr
