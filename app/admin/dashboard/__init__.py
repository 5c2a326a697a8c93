"""The admin dashboard: its figures for a date range (services), their JSON (api) and the page with charts (views)."""
