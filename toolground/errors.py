"""Errors the command line reports as one line and exit status 2."""


class UsageError(Exception):
    """A problem with what the user asked for; printed without a traceback."""
