"""``threes.svg`` is threes.ui.svg (the same module object)."""
import sys

from threes.ui import svg as _module

sys.modules[__name__] = _module
