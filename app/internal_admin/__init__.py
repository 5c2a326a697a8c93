"""The internal admin API under /api/internal/admin: the founder panel's calls, authenticated by X-Internal-Token."""
