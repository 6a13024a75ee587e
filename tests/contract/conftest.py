"""The game contract suite: every test runs once per game in threes.registry.

A game registered later is tested with no change here, except for the one
game-specific hook below (``visible``: what a seat sees, by the game's rules),
which a new game must add; without it its resampling test fails and says so.

Parameters and fixtures (tests in this folder only):

* ``game_name`` -- each registered name in turn; ``num_players`` -- PLAYERS;
  ``seed`` -- SEEDS (unless a test parametrises them itself); ``pkg`` -- the
  game's package; ``ct`` -- this module, for the helpers below.
* ``random_walk``, ``play_out``, ``sample_states`` -- random legal play.
* ``Knowledge`` and ``visible`` -- what a seat sees by the game's rules
  (Three Thirteen: also the cards taken from the discard pile and the hand
  of the player who went out), for the resampling tests.
* the adapter entry points, parametrised by registry name (``openspiel_game``,
  ``pettingzoo_env``, ``gym_env``): the one place that says how a game's
  adapter is reached.
"""
from __future__ import annotations

import random
import sys
from collections import Counter
from typing import Any, Callable, Dict, Iterator, List, Optional

import pytest

import contract_hooks
from threes import registry

#: Player counts and seeds tried for every game (a few, to stay fast).
PLAYERS = (2, 3, 4)
SEEDS = (1, 2)
#: OpenSpiel's TERMINAL player id, which current_player() gives at the end.
TERMINAL = -4


def _own_params(metafunc) -> set:
    names = set()
    for m in metafunc.definition.iter_markers("parametrize"):
        argnames = m.args[0]
        names.update(a.strip() for a in (argnames.split(",") if isinstance(argnames, str) else argnames))
    return names


def pytest_generate_tests(metafunc):
    """game_name: every registered game; num_players: PLAYERS; seed: SEEDS
    (unless the test parametrises them itself)."""
    own = _own_params(metafunc)
    for arg, values in (("game_name", registry.names()), ("num_players", PLAYERS), ("seed", SEEDS)):
        if arg in metafunc.fixturenames and arg not in own:
            metafunc.parametrize(arg, values)


@pytest.fixture
def pkg(game_name):
    """The game's package (registry.get(name).load())."""
    return registry.get(game_name).load()


@pytest.fixture
def ct():
    """These helpers (tests cannot import a conftest by name)."""
    return _THIS


def random_walk(state, rng: random.Random, steps: int) -> Iterator[Any]:
    """Plays up to `steps` random legal moves on `state` (changed in place),
    yielding (action, state) after each."""
    for _ in range(steps):
        if state.is_terminal():
            return
        a = rng.choice(state.legal_actions())
        state.apply_action(a)
        yield a, state


def play_out(state, rng: random.Random, steps: int):
    """`state` after up to `steps` random moves (changed in place)."""
    for _ in random_walk(state, rng, steps):
        pass
    return state


def sample_states(pkg, num_players: int, seed: int, steps: int, every: int) -> List[Any]:
    """Clones of the states of one random game (bounded to `steps` moves),
    every `every`-th move, the initial state included."""
    s = pkg.Game(num_players).new_initial_state(seed)
    rng = random.Random(seed)
    out = [s.clone()]
    for i, _ in enumerate(random_walk(s, rng, steps)):
        if i % every == every - 1:
            out.append(s.clone())
    return out


def cards(xs) -> Counter:
    """A multiset of cards, whatever the game's card type (text or Card)."""
    return Counter(str(c) for c in xs)


# ------------------------------------------------------------------ visible --
class Knowledge:
    """What every seat knows beyond its own cards, updated move by move, for
    games where that depends on the play. Three Thirteen (docs/three_thirteen/RULES.md
    "What each player knows"): the card a player took from the discard pile
    stays known in their hand until they discard it (T-9), and the hand of a
    player who went out is public (melds laid down) until the next deal.
    Shithead's known cards are the engine's own (State.known_cards), so there
    is nothing to follow. Call ``before(state)`` and ``after(state, action,
    mover)`` around each apply_action."""

    def __init__(self, game_name: str, state):
        self.game = game_name
        self.n = state.num_players()
        self.taken: List[Counter] = [Counter() for _ in range(self.n)]
        self.out: Optional[int] = None
        self._round = state.round() if game_name == "three_thirteen" else None
        self._top: Optional[str] = None

    def before(self, state) -> None:
        if self.game == "three_thirteen":
            pile = state.discard_pile()
            self._top = str(pile[-1]) if pile else None

    def after(self, state, action: int, mover: int) -> None:
        if self.game != "three_thirteen":
            return
        if state.round() != self._round:  # a new deal: nothing carries over
            self._round = state.round()
            self.taken = [Counter() for _ in range(self.n)]
            self.out = None
            return
        if action == 1 and self._top is not None:  # took the top discard (id 1)
            self.taken[mover][self._top] += 1
        elif action >= 2:  # discarded (ids 2..55) or went out discarding (56..109): the card is on top now
            top = str(state.discard_pile()[-1])
            if self.taken[mover][top]:
                self.taken[mover][top] -= 1
            if action >= 56:
                self.out = mover


def _visible_shithead(s, p: int, know: Optional[Knowledge]) -> Dict[str, Any]:
    """RULES.md 2: p sees its hand, every face-up card, the known cards of
    every hand, which face-down slots are filled, the pile, the burned cards
    and every zone's size."""
    n = s.num_players()
    return {
        "own hand": cards(s.hand(p)),
        "known": [cards(s.known_cards(q)) for q in range(n)],
        "face up": [list(map(str, s.face_up(q))) for q in range(n)],
        "face-down slots": [[c is None for c in s.face_down(q)] for q in range(n)],
        "hand sizes": [s.hand_size(q) for q in range(n)],
        "pile": list(map(str, s.pile())),
        "burned": list(map(str, s.burned())),
        "draw pile size": len(s.draw_pile()),
        "finish order": s.finish_order(),
    }


def _visible_three_thirteen(s, p: int, know: Optional[Knowledge]) -> Dict[str, Any]:
    """docs/three_thirteen/RULES.md "What each player knows": p sees its hand, the
    discard pile in order, the card each other player took from it (until
    discarded, T-9), the hand of a player who went out (melds laid down),
    every hand's size, the stock's size, scores and the round."""
    n = s.num_players()
    out: Dict[str, Any] = {
        "own hand": cards(s.hand(p)),
        "hand sizes": [len(s.hand(q)) for q in range(n)],
        "discard": list(map(str, s.discard_pile())),
        "stock size": s.stock_size(),
        "round": s.round(),
        "scores": s.scores(),
        "round scores": s.round_scores(),
    }
    if know is not None:
        # the known cards are still in their holders' hands (multiset intersection)
        out["taken cards still held"] = [cards(s.hand(q)) & know.taken[q] for q in range(n)]
        out["hand of the player out"] = None if know.out is None else cards(s.hand(know.out))
    return out


#: Per game (registry name): what seat p sees of a state, by the game's rules (tests/contract_hooks.py;
#: a game registered later registers its own there).
contract_hooks.register("shithead", _visible_shithead, steps=700)
contract_hooks.register("three_thirteen", _visible_three_thirteen, steps=900)
VISIBLE = contract_hooks.VISIBLE


def visible(game_name: str, state, p: int, know: Optional[Knowledge] = None) -> Dict[str, Any]:
    assert game_name in VISIBLE, (f"game {game_name!r}: register what a seat sees with "
                                  "tests/contract_hooks.py's register()")
    common = {
        "num_players": state.num_players(),
        "current player": state.current_player(),
        "terminal": state.is_terminal(),
        "history": state.history(),
        "returns": state.returns(),
        "legal actions of p": state.legal_actions() if state.current_player() == p else None,
    }
    common.update(VISIBLE[game_name](state, p, know))
    return common


# ----------------------------------------------------------------- adapters --
# How each adapter reaches a game, by registry name. Shithead's entry points
# are on main (tests/adapters/); a registry-dispatched adapter takes the
# game's registry name the same way for every game.

def openspiel_short_name(game_name: str) -> str:
    """The pyspiel short name of a game: its registry name or one of its
    aliases ("threes" for Shithead), registered by ``import threes.openspiel``."""
    import pyspiel

    import threes.openspiel  # noqa: F401  (registers the games)

    info = registry.get(game_name)
    registered = set(pyspiel.registered_names())
    for n in (info.name,) + tuple(info.aliases):
        if n in registered:
            return n
    raise AssertionError(f"import threes.openspiel registers no pyspiel game for {game_name!r} "
                         f"(tried {(info.name,) + tuple(info.aliases)})")


def openspiel_game(game_name: str, players: int, max_moves: int):
    import pyspiel

    return pyspiel.load_game(openspiel_short_name(game_name), {"players": players, "max_moves": max_moves})


def pettingzoo_env(game_name: str, num_players: int, max_moves: Optional[int] = None):
    """threes.pettingzoo.env for the game (keyword ``game``, a registry name)."""
    import threes.pettingzoo

    return threes.pettingzoo.env(game=game_name, num_players=num_players, max_moves=max_moves)


def gym_env(game_name: str, num_players: int, max_moves: Optional[int] = None, **kwargs):
    """threes.gym.GameEnv for the game (a registry name; the game's options in ``game_options``)."""
    import threes.gym

    options = None if max_moves is None else {"max_moves": max_moves}
    return threes.gym.GameEnv(game_name, num_players=num_players, game_options=options, **kwargs)


_THIS = sys.modules[__name__]
