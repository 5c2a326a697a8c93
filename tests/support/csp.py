"""Reading a response's Content-Security-Policy header in tests."""

from __future__ import annotations


def csp_directives(response) -> dict[str, list[str]]:
    """The policy as {directive: [sources]}."""
    directives = {}
    for part in response.headers["Content-Security-Policy"].split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives
