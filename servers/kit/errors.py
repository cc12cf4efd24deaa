"""The one exception a tool raises to say "this request cannot be done"."""


class ToolError(Exception):
    """A state-dependent or input failure, explained for the agent.

    The message is shown verbatim to the agent as the tool result, so it says
    what was wrong and, where it helps, what would be accepted instead. The
    call's changes are rolled back.
    """
