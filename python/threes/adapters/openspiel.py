"""OpenSpiel adapter: ``import threes.openspiel`` registers every game of
threes.registry that has an OpenSpiel adapter (its ``openspiel`` hook, a
module of the game's own package) with pyspiel, under the adapter's short
name:

    import pyspiel, threes.openspiel
    game = pyspiel.load_game("threes", {"players": 4, "rules": "threes"})
    game = pyspiel.load_game("three_thirteen", {"players": 3})

There is one adapter, written once in ``threes.adapters._spiel``: its game,
state and observer classes read the game through the registry (parameters:
``players``, the game's own, every option it declares, ``max_moves``) and
play on the engine's State. A game's module (``threes.shithead.openspiel``,
``threes.three_thirteen.openspiel``) gives only its chance model: how its
chance is explicit chance nodes, as OpenSpiel expects (every card dealt, and
Three Thirteen's stock draws), and how ``resample_from_infostate`` returns
what OpenSpiel's own games return, a state whose history is new chance
outcomes and the same player actions; with its names, its own parameters
and its rollout evaluator. Every game provides the information state tensor
(the observation tensor, then each seat's count of each action since the
deal began). The adapters' public names (``ThreesGame``,
``ThreesRolloutEvaluator``, ``ThreeThirteenGame``, ...) are re-exported
here.
"""
from __future__ import annotations

from typing import List

import pyspiel

from threes import registry

__all__: List[str] = []

for _name in registry.names():
    _module = registry.get(_name).hook("openspiel")
    if _module is None:
        continue
    pyspiel.register_game(_module.GAME_TYPE, _module.GAME_CLASS)
    for _public in _module.__all__:
        if _public not in __all__:
            globals()[_public] = getattr(_module, _public)
            __all__.append(_public)
