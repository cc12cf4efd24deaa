"""The one exception a tool raises to say "this request cannot be done"."""


class ToolError(Exception):
    """A state-dependent or input failure, explained for the agent.

    The message is shown verbatim to the agent as the tool result, so it says
    what was wrong and, where it helps, what would be accepted instead. The
    call's changes are rolled back.
    """


class ToolCrash(ToolError):
    """A tool raised something it did not mean to: a bug in the domain, not the agent's fault.

    The agent sees it as an ordinary tool error (and the call is rolled back),
    but tests and fuzzers look for this class to find the bug.
    """
