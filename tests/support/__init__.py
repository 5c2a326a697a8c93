"""Test doubles for the services the app talks to over the network."""
