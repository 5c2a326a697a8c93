"""Subscriptions: the reads (queries), what a purchase costs and means (pricing), the state changes (transitions)."""
