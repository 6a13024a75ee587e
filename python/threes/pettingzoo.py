"""``threes.pettingzoo`` is threes.adapters.pettingzoo (the same module object)."""
import sys

from threes.adapters import pettingzoo as _module

sys.modules[__name__] = _module
