"""JSON API (token in ``Authorization: Bearer ...``)."""
