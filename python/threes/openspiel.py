"""``threes.openspiel`` is threes.adapters.openspiel (the same module object)."""
import sys

from threes.adapters import openspiel as _module

sys.modules[__name__] = _module
