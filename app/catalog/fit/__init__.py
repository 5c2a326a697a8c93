"""Does a part fit a vehicle: yes, no or maybe, with the reasons and one question to settle a maybe.

The pure core (no database, no request): the vehicle's facts (`facts`), a part's applicability (`conditions`, read
from its sources' texts by `rules` and `remarks`), the evaluator (`evaluate`) and their JSON (`codec`). The wiring
sits beside it with the sub-package file set: `services.py` (facts of a stored vehicle, fits stored with the parts,
dealers' answers and questions), `texts.py` (what the reasons and questions say, through Babel), `api.py`, `views.py`.
Importers name the precise module.
"""
