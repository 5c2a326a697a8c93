"""The background queues for admins: lengths and failed jobs to retry or delete (services), JSON (api), page (views)."""
