"""axe-core (npm's, a devDependency in package.json that `make test-setup` installs) run in a Playwright page; its
findings put readably."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

# WCAG 2.0 and 2.1, levels A and AA. axe leaves its experimental rules out of a run by tag, and one of them is
# label-content-name-mismatch (WCAG 2.5.3): the run names every rule carrying one of these tags instead.
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
BLOCKING = ("serious", "critical")
TARGETS_SHOWN = 3

RUN = """async (tags) => {
  const rules = axe.getRules(tags).map((rule) => rule.ruleId);
  const results = await axe.run(document, {runOnly: {type: "rule", values: rules}, resultTypes: ["violations"]});
  return results.violations;
}"""


@dataclass(frozen=True)
class Finding:
    where: str
    rule: str
    impact: str
    help: str
    targets: tuple[str, ...]

    def __str__(self) -> str:
        shown = "; ".join(self.targets[:TARGETS_SHOWN])
        more = f" (+{len(self.targets) - TARGETS_SHOWN} more)" if len(self.targets) > TARGETS_SHOWN else ""
        return (
            f"{self.rule} ({self.impact}) on {self.where}: {self.help}; {len(self.targets)} element(s): {shown}{more}"
        )


def audit(page: Any, where: str) -> list[Finding]:  # a Playwright page
    """The serious and critical WCAG 2.1 A/AA violations on the page as it is now."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_script())
    violations = page.evaluate(RUN, list(WCAG_TAGS))
    return [
        Finding(where, item["id"], item["impact"], item["help"], tuple(_target(node) for node in item["nodes"]))
        for item in violations
        if item["impact"] in BLOCKING
    ]


@cache
def axe_script() -> str:
    assert AXE.is_file(), f"no {AXE}: run `make test-setup` (it installs package.json's packages)"
    return AXE.read_text(encoding="utf-8")


def _target(node: dict[str, Any]) -> str:
    return " > ".join(str(part) for part in node["target"])


def report(findings: list[Finding]) -> str:
    return "\n".join(str(finding) for finding in findings)
