"""What roles and activity kinds are called on pages, in mails and in the CSV (lazy: rendered in the reader's
language)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

ROLE_LABELS = {"clerk": _l("Clerk"), "manager": _l("Manager"), "owner": _l("Owner")}

KIND_LABELS = {
    "member_joined": _l("Member joined"),
    "member_role": _l("Role changed"),
    "member_removed": _l("Member removed"),
    "invitation_sent": _l("Invitation sent"),
    "invitation_resent": _l("Invitation sent again"),
    "invitation_revoked": _l("Invitation revoked"),
    "branch_added": _l("Branch added"),
    "branch_changed": _l("Branch changed"),
    "branch_deleted": _l("Branch deleted"),
    "decode": _l("VIN decoded"),
    "quote_sent": _l("Quote sent"),
    "list_import": _l("Stock list imported"),
}


def role_label(role: str) -> str:
    return str(ROLE_LABELS.get(role, role))


def kind_label(kind: str) -> str:
    return str(KIND_LABELS.get(kind, kind))
