"""Tokenisers the official metric scripts use, looked up lazily (importing them is cheap)."""
