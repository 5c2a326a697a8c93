"""The admins' view of the shops: the reads (services), their JSON (api) and the pages (views)."""
