"""Checks of what an output says against its input (E2E slot errors)."""
