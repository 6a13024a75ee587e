"""Toy Tricks: the test-only third game (tests/games/toy_tricks), a small trick-taking game for 2 to 4
players whose rules are in c/toy_tricks.h. It exists to prove that a game plugs in through the
registry alone (docs/adding_a_game.md): its C over the game interface (th_game), its binding over
threes._engine.GameStateBase, this package, and one registration (``register.py``).

>>> import toy_tricks
>>> s = toy_tricks.Game(2).new_initial_state(seed=1)
>>> s.current_player(), len(s.hand(0))
(0, 13)
"""
from toy_tricks.game import *  # noqa: F401,F403
from toy_tricks.game import __all__  # noqa: F401
