"""Exceptions raised by threes."""

__all__ = ["IllegalActionError", "error_for"]


class IllegalActionError(ValueError):
    """An action id that is out of range or not legal in the state it was
    applied to. The state is left unchanged."""


# The C core's error codes (src/threes_core/common/error.h), in order from 1.
_CODE_NAMES = ("rules", "players", "action", "illegal", "setup", "arg", "stopped", "memory")


def error_for(code: int, message: str) -> Exception:
    """The exception for a C error report: an action out of range or not legal
    raises IllegalActionError, work stopped by a stop hook KeyboardInterrupt
    (threes._stop), memory that ran out MemoryError, every other bad value
    ValueError."""
    name = _CODE_NAMES[code - 1] if 1 <= code <= len(_CODE_NAMES) else "arg"
    if name == "stopped":
        return KeyboardInterrupt(message)
    if name == "memory":
        return MemoryError(message)
    if name in ("action", "illegal"):
        return IllegalActionError(message)
    return ValueError(message)
