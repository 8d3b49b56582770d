"""Helpers shared by the test suites: real services and the shared data folder."""
