"""What goes over the wire as Stripe's API does it: the SDK's flattened form parameters, object ids and JSON answers."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

from werkzeug.wrappers import Response

_BRACKETS = re.compile(r"\[([^\]]*)\]")


def parse_stripe_form(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Rebuild the nested parameters the SDK flattens into `a[b][0][c]=v` form fields."""
    root: dict[str, Any] = {}
    for key, value in pairs:
        head = key.split("[", 1)[0]
        path = [head, *_BRACKETS.findall(key[len(head) :])]
        node = root
        for part in path[:-1]:
            node = node.setdefault(part or str(len(node)), {})
        last = path[-1] or str(len(node))
        node[last] = value
    return _lists_from_numbered(root)


def _lists_from_numbered(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    converted = {key: _lists_from_numbered(value) for key, value in node.items()}
    if converted and all(key.isdigit() for key in converted):
        return [converted[key] for key in sorted(converted, key=int)]
    return converted


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(12)}"


def json_response(data: Any, status: int = 200) -> Response:
    return Response(json.dumps(data), status=status, mimetype="application/json")


def stripe_error(message: str, status: int, code: str = "resource_missing") -> Response:
    return json_response({"error": {"type": "invalid_request_error", "code": code, "message": message}}, status)


def idempotency_error(key: str) -> Response:
    message = (
        "Keys for idempotent requests can only be used with the same parameters they were first used with. "
        f"Try using a key other than '{key}' if you meant to execute a different request."
    )
    return json_response({"error": {"type": "idempotency_error", "message": message}}, 400)
