"""Exceptions raised by threes."""


class IllegalActionError(ValueError):
    """An action id that is out of range or not legal in the state it was
    applied to. The state is left unchanged."""
