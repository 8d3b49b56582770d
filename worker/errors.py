"""The worker's errors, in one module."""

from __future__ import annotations


class JobInterrupted(BaseException):
    """Raised in a running job by a stop signal, after its submission was handed back: RQ
    records the job as failed, and the worker re-enqueues the submission before it exits.
    A ``BaseException``: no ``except Exception`` in the job may swallow the stop."""
