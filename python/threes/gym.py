"""``threes.gym`` is threes.adapters.gym (the same module object)."""
import sys

from threes.adapters import gym as _module

sys.modules[__name__] = _module
