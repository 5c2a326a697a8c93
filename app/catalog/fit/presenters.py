"""What the pages show of the fit answer (issue 30): a leaf's rows split into what fits and what does not, the maybes'
conditions, the positions on the picture whose every row does not fit, the leaf's question and the dealer's answers.

Read from the view shapes of app.catalog.fit.shapes (the API shows the same): a part's `fit` and the category
detail's `fit`. Each is optional: a part stored before fit answers existed, the demo's reads, a detail without a dealer
all read as "fits, nothing to ask". Everything per dealer (their answers, their switch) comes in through the detail,
so it is in the context of the cached main area (app.core.fragments), never read from the session inside it.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

YES, NO, MAYBE = "yes", "no", "maybe"
STATUSES = frozenset({YES, NO, MAYBE})
UNKNOWN_CODES = ("unknown", "not_understood")  # the reasons a maybe hangs on
NO_FIT_DETAIL: dict[str, Any] = {"question": None, "answers": [], "fittingOnly": False, "hidden": 0}


def status_of(part: dict[str, Any]) -> str:
    """The part's fit status; a part without one fits (nothing is known against it)."""
    fit = part.get("fit")
    status = fit.get("status") if isinstance(fit, dict) else None
    return status if status in STATUSES else YES


def condition_text(part: dict[str, Any], status: str | None = None) -> str:
    """What the answer hangs on, in the request's language: for a maybe the unknown facts, for a no what contradicts
    (the reasons' texts as app.catalog.fit.texts wrote them). `status`: the part's, when known already."""
    status = status or status_of(part)
    if status == YES:
        return ""
    fit = part.get("fit") or {}
    reasons = [reason for reason in fit.get("reasons") or () if reason.get("text")]
    if status == MAYBE:
        reasons = [reason for reason in reasons if reason.get("code") in UNKNOWN_CODES] or reasons
    else:
        reasons = [reason for reason in reasons if reason.get("code") == "differs"] or reasons
    return "; ".join(dict.fromkeys(reason["text"] for reason in reasons))


def fit_label(part: dict[str, Any]) -> str:
    """One cell of the CSV and the printed list: "Uyar", "Uymaz: …" or "Belki: …" (of a part view, or of a table's
    row: with_fit's)."""
    status = part.get("fitStatus") or status_of(part)
    condition = part["fitText"] if "fitText" in part else condition_text(part, status)
    if status == YES:
        return _("Fits")
    if status == NO:
        return _("Does not fit: %(condition)s", condition=condition) if condition else _("Does not fit")
    return _("Maybe: %(condition)s", condition=condition) if condition else _("Maybe")


# What the tables never show of a row: its whole fit (they show fitStatus and fitText) and its Turkish name apart (they
# show `name`). Left out of their rows, since a kept fragment's key serialises every row it is rendered from.
NOT_IN_TABLES = ("fit", "nameTr")


def with_fit(part: dict[str, Any]) -> dict[str, Any]:
    """The row as a parts table shows it, with its fit's `fitStatus` and `fitText` (NOT_IN_TABLES left out)."""
    status = status_of(part)
    row = {**part, "fitStatus": status, "fitText": condition_text(part, status)}
    for key in NOT_IN_TABLES:
        row.pop(key, None)
    return row


def split_rows(
    parts: list[dict[str, Any]], fitting_only: bool, selected_part: int | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """The rows that fit or may fit, the rows that do not (shown collapsed), and how many of those the "only what fits"
    switch hides. A row asked for by id (a search hit followed) is shown even then: the dealer asked for it."""
    rows = [with_fit(part) for part in parts]
    fitting = [row for row in rows if row["fitStatus"] != NO]
    not_fitting = [row for row in rows if row["fitStatus"] == NO]
    if fitting_only and not any(row["id"] == selected_part for row in not_fitting):
        return fitting, [], len(not_fitting)
    return fitting, not_fitting, 0


def dimmed_positions(parts: list[dict[str, Any]]) -> list[str]:
    """The picture's positions whose every row does not fit (their hotspots are dimmed)."""
    statuses: dict[str, set[str]] = {}
    for part in parts:
        if part.get("position"):
            statuses.setdefault(part["position"], set()).add(status_of(part))
    return sorted(position for position, found in statuses.items() if found == {NO})


def leaf_fit(detail: dict[str, Any], hidden_by_switch: int) -> dict[str, Any]:
    """The leaf's question and the dealer's answers (with the colleague's offer in the question), the switch, and
    how many rows it hides (counted by the services when they leave the rows out themselves)."""
    fit = {**NO_FIT_DETAIL, **(detail.get("fit") or {})}
    answers = [answer for answer in fit["answers"] or () if answer.get("by", "me") == "me"]
    hidden = hidden_by_switch or (fit["hidden"] or 0 if fit["fittingOnly"] else 0)
    return {"question": fit["question"], "answers": answers, "fittingOnly": bool(fit["fittingOnly"]), "hidden": hidden}


def tree_fit(view: dict[str, Any]) -> dict[str, Any] | None:
    """A leaf's counts as the tree and the cards show them (None for a group or a leaf not fetched yet): greyed when
    nothing in it fits."""
    fit = view.get("fit")
    if not isinstance(fit, dict) or fit.get("status") not in (YES, NO, MAYBE):
        return None
    return {"status": fit["status"], "yes": fit.get("yes") or 0, "maybe": fit.get("maybe") or 0}
