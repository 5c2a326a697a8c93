"""JSON answers encoded by orjson: the catalog's answers are long lists of small dicts, and the standard library's
encoder cost as much Python as reading them (issue 15's speed). The text is what Flask's own provider writes (keys
sorted, dates as HTTP dates, Decimal as a string), and whatever orjson refuses (an integer wider than 64 bits,
nesting deeper than 254 levels) is encoded by Flask's provider instead, so nothing that encoded before fails now.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider

OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME


class FastJSONProvider(DefaultJSONProvider):
    ensure_ascii = False  # Turkish text reads as itself in JSON, not as \u escapes

    def response(self, *args: Any, **kwargs: Any) -> Response:
        if self.compact is False or (self.compact is None and self._app.debug):
            return super().response(*args, **kwargs)  # indented for reading: not the hot path
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj, default=self.default, option=OPTIONS | orjson.OPT_APPEND_NEWLINE)
        except orjson.JSONEncodeError:
            return super().response(obj)
        return self._app.response_class(body, mimetype=self.mimetype)
