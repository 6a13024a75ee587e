"""Exceptions raised by threes. They are defined in the compiled module threes._engine (so that the
compiled extensions, which raise them, import no Python module of ours) and are these same objects."""
from threes._engine import IllegalActionError, error_for

__all__ = ["IllegalActionError", "error_for", "needs_extra"]


def needs_extra(what: str, extra: str) -> str:
    """The message for a feature whose optional dependencies are missing: how to install the extra
    from where a user of threes-core is (it is not on the package index yet: from the checkout or
    the sdist it was installed from, or a wheel built from them)."""
    return (f"{what} needs the {extra} extra: pip install \".[{extra}]\" in your threes-core checkout, or "
            f"pip install \"threes_core-*.whl[{extra}]\" for a built wheel")
