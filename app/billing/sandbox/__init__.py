"""A stand-in for the card provider (Stripe) on loopback: the API calls our gateway makes, a hosted payment page
and signed webhook deliveries.

`make run` starts it when no STRIPE_SECRET_KEY is configured, and the tests use it as the fake Stripe, so the
real stripe SDK is exercised end to end without the internet. Any Bearer key is accepted.

server: the routes and the objects (sessions, payment intents, charges, refunds, disputes); wire: Stripe's form
encoding, ids and JSON errors; events: the events, their signature and their delivery; pages: the hosted pay page and
the receipt, from templates/.
"""
