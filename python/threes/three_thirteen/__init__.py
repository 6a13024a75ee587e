"""Three Thirteen, the rummy game (docs/three_thirteen/RULES.md).

>>> from threes import three_thirteen as tt
>>> state = tt.Game(num_players=3).new_initial_state(seed=1)
>>> state.round(), state.wild_rank()
(1, '3')
"""
from threes.three_thirteen.game import *  # noqa: F401,F403
from threes.three_thirteen.game import __all__  # noqa: F401
from threes.three_thirteen.options import OPTIONS  # noqa: F401 (the options, declared once: threes.options)
