"""Business rules, one place each; views and CLI commands call these and only render."""


class DomainError(Exception):
    """A request that breaks a rule; the message is shown to the person as it is."""
