"""Does a part fit a vehicle: the vehicle's facts, a part's applicability rules, and the yes / no / maybe evaluator.

Pure code (no database, no request): storage, sandboxes and pages wire it in. Importers name the precise module.
"""
