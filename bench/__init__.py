"""Benchmarks: each prints a current value beside its baseline from the same run (see README.md)."""
