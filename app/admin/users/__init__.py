"""The admins' view of the users and referrals: the reads (services), their JSON (api) and the pages (views)."""
