"""Exceptions raised by threes. They are defined in the compiled module threes._engine (so that the
compiled extensions, which raise them, import no Python module of ours) and are these same objects."""
from threes._engine import IllegalActionError, error_for

__all__ = ["IllegalActionError", "error_for"]
