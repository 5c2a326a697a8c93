"""Supplier list imports left "importing" with no job that will run them are queued again by the minute sweep, or
failed when stranded for longer than runs could take: the stock list's sweep (app.shelf.recovery) over the supplier's
imports. The supplier's list in use stays meanwhile."""

from __future__ import annotations

from app.shelf.recovery import ImportJobs, sweep_imports
from app.suppliers.imports import IMPORT_JOB, import_job_id
from app.suppliers.tasks import SUPPLIER_LISTS

SUPPLIER_JOBS = ImportJobs(SUPPLIER_LISTS, IMPORT_JOB, import_job_id)


def sweep() -> int:
    """Queue again the supplier imports whose job is gone; how many were queued."""
    return sweep_imports(SUPPLIER_JOBS)
