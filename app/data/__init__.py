"""The data layer: what the web layer and the worker share (import-linter keeps it below both)."""
