"""TGen-style E2E baseline."""
