"""Does a part fit a vehicle: yes, no or maybe, with the reasons and one question to settle a maybe.

The pure core (no database, no request): the vehicle's facts (`facts`), a part's applicability (`conditions`, read
from its sources' texts by `rules` and `remarks`), the evaluator (`evaluate`) and their JSON (`codec`). The wiring
sits beside it, lowest first: `services.py` (a stored vehicle's facts, the fits computed when parts are stored, a
leaf's counts), `answers.py` (what a dealer may answer and its checks, the answers kept, cleared and read, the "only
what fits" switch), `shapes.py` (the fit views the pages and the API share: a part's, a leaf's, the drawing's question,
a vehicle's fit state), `texts.py` (what the reasons and questions say, through Babel), `presenters.py` (what the pages
show of those views), `api.py`, `views.py`. Importers name the precise module; this package re-exports nothing.
"""
