"""A shop's API keys for its integrations: made by the owner with a role (clerk or manager) and an optional expiry,
shown once, kept as a hash with a visible prefix, revocable; a request made with one (`Authorization: Bearer` on /api)
acts in the shop through `app.auth.api_keys`, which this package feeds with its loader."""
