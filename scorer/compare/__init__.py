"""Comparing systems with a profile: paired bootstrap significance, breakdowns by item
attribute, and how similar two systems' outputs are."""
