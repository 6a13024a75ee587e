"""OpenSpiel adapter: the game registered with pyspiel as ``threes``.

    import pyspiel, threes.openspiel
    game = pyspiel.load_game("threes", {"players": 4, "rules": "threes"})

Parameters: ``players`` (2..12, default 4), ``rules`` (a preset name,
default ``"threes"``), ``max_moves`` (0 = the engine's default cap).

Chance is explicit, as OpenSpiel expects: the game starts with one chance
node per card of the deck, each dealing the next card from the top of the
shuffled deck (outcome = card kind 0..53, probability = copies of that kind
left / cards left). The deal then follows RULES.md section 4.1 exactly as
the engine's own deal does (face-down slots, face up, hand, one card at a
time from the seat after the dealer; the rest is the draw pile), and play
continues on a ``threes.State``: actions are the engine's action ids,
observations and information states are the engine's (``observation_tensor``
from C), and ``resample_from_infostate`` is the engine's C resampling.

``ThreesRolloutEvaluator`` is an evaluator for OpenSpiel's MCTS/ISMCTS bots
that plays the rest of the game with the engine's C rollouts.
"""
from __future__ import annotations

import random
from typing import Any, Dict, List, Optional

import numpy as np
import pyspiel

from threes.shithead import _core
from threes.cards import Card
from threes.shithead.game import Game, State
from threes.shithead.rollouts import rollouts

_MAX_PLAYERS = _core.MAX_PLAYERS
_DEFAULTS: Dict[str, Any] = {"players": 4, "rules": "threes", "max_moves": 0}

_GAME_TYPE = pyspiel.GameType(
    short_name="threes",
    long_name="Threes (the Shithead family), threes-core engine",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=_core.MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class ThreesGame(pyspiel.Game):
    """pyspiel game over the threes-core engine."""

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        p = dict(_DEFAULTS)
        p.update(params or {})
        g = Game(int(p["players"]), str(p["rules"]), int(p["max_moves"]) or None)
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(),
            max_chance_outcomes=_core.NUM_KINDS,
            num_players=g.num_players(),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=g.rules.deck_size() + g.max_game_length(),
        )
        super().__init__(_GAME_TYPE, info, p)
        # Attributes after the base constructor, and states copy what they
        # need (the Python side of a pyspiel game may be rebuilt by C++).
        self.threes_game = g
        self.deck_size = g.rules.deck_size()

    def new_initial_state(self) -> "ThreesState":
        return ThreesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "ThreesObserver":
        return ThreesObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


def _deck_kinds(game: Game) -> List[int]:
    """The kinds of the deck, one entry per card (canonical order)."""
    rules = game.rules
    kinds = [k for k in range(52)] + [52 + j for j in range(rules.jokers)]
    return kinds * rules.decks


class ThreesState(pyspiel.State):
    """The deal as chance nodes, then a threes.State."""

    def __init__(self, game: ThreesGame, inner: Optional[State] = None, dealt: Optional[List[int]] = None,
                 like: Optional["ThreesState"] = None):
        super().__init__(game)
        self._game = game.threes_game if like is None else like._game
        self._deck_size = game.deck_size if like is None else like._deck_size
        self._dealt: List[int] = list(dealt or [])
        self._left: Optional[np.ndarray] = None
        if inner is None:
            self._left = np.bincount(_deck_kinds(self._game), minlength=_core.NUM_KINDS)
            for k in self._dealt:
                self._left[k] -= 1
        self.inner = inner

    # -- chance: the deal --------------------------------------------------
    def current_player(self) -> int:
        if self.inner is None:
            return pyspiel.PlayerId.CHANCE
        cp = self.inner.current_player()
        return pyspiel.PlayerId.TERMINAL if cp < 0 else cp

    def chance_outcomes(self):
        assert self.inner is None
        left = self._left
        total = float(left.sum())
        return [(int(k), float(left[k]) / total) for k in np.flatnonzero(left)]

    def _legal_actions(self, player: int) -> List[int]:
        assert player >= 0
        return self.inner.legal_actions()

    def _apply_action(self, action: int) -> None:
        if self.inner is None:
            if not (0 <= action < _core.NUM_KINDS and self._left[action] > 0):
                raise pyspiel.SpielError(f"no card of kind {action} is left to deal")
            self._left[action] -= 1
            self._dealt.append(int(action))
            if len(self._dealt) == self._deck_size:
                self.inner = _state_from_deal(self._game, self._dealt)
                self._left = None
        else:
            self.inner.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card(action)}"
        if self.inner is not None:
            return self.inner.action_to_string(action)
        return str(self._game.decode_action(action))

    def is_terminal(self) -> bool:
        return self.inner is not None and self.inner.is_terminal()

    def returns(self) -> List[float]:
        if self.inner is None:
            return [0.0] * self._game.num_players()
        return self.inner.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> "ThreesState":
        """The engine's C resampling (the sampler is not needed: it draws
        its own uniform deal of the hidden cards)."""
        if self.inner is None:
            raise pyspiel.SpielError("resample_from_infostate during the deal is not supported")
        seed = random.getrandbits(64) if probability_sampler is None else int(probability_sampler() * 2**53)
        return self._copy(self.inner.resample_from_infostate(player_id, seed))

    def _copy(self, inner: Optional[State]) -> "ThreesState":
        c = ThreesState(self.get_game(), inner, self._dealt, like=self)
        if inner is None:
            c._left = self._left.copy()
        return c

    def __deepcopy__(self, memo) -> "ThreesState":
        return self._copy(None if self.inner is None else self.inner.clone())

    def __str__(self) -> str:
        if self.inner is None:
            return f"dealing: {len(self._dealt)} of {self._deck_size} cards dealt"
        return str(self.inner)


def _state_from_deal(game: Game, dealt: List[int]) -> State:
    """The position the engine's deal gives when the deck, from the top, is
    `dealt` (RULES.md 4.1; th_state_deal)."""
    n, K = game.num_players(), game.rules.cards_per_zone
    first = (game.dealer + 1) % n
    hands: List[List[str]] = [[] for _ in range(n)]
    up: List[List[str]] = [[] for _ in range(n)]
    down: List[List[str]] = [[] for _ in range(n)]
    it = iter(dealt)
    for zone in (down, up, hands):
        for _ in range(K):
            for j in range(n):
                zone[(first + j) % n].append(str(Card(next(it))))
    draw = [str(Card(k)) for k in reversed(dealt[3 * K * n:])]  # bottom first: the next card drawn is last
    d = {"format": "threes.State/1", "rules": game.rules.to_dict(), "num_players": n, "dealer": game.dealer,
         "max_moves": game.max_game_length(), "phase": "swap", "current_player": first, "move_count": 0,
         "truncated": False, "finish_order": [], "hands": hands, "known": [[] for _ in range(n)],
         "face_up": up, "face_down": down, "pile": [], "draw_pile": draw, "burned": [], "history": []}
    return State.from_dict(d)


class ThreesObserver:
    """pyspiel observer: the engine's observation tensor and strings. With
    perfect_recall the string is information_state_string (observation plus
    public history); during the deal, what the player has been dealt."""

    def __init__(self, game: ThreesGame, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        n = game.threes_game.num_players()
        self.tensor = np.zeros(_core.observation_size(n), np.float32)
        from threes.shithead.observation import observation_tensor_layout

        self.dict = {name: self.tensor[o:o + size] for name, (o, size) in observation_tensor_layout(n).items()}

    def set_from(self, state: ThreesState, player: int) -> None:
        if state.inner is None:
            self.tensor.fill(0)
            return
        _core.observation_tensor_into(state.inner, player, self.tensor)

    def string_from(self, state: ThreesState, player: int) -> str:
        if state.inner is None:
            return _deal_string(state, player)
        if self._perfect_recall:
            return state.inner.information_state_string(player)
        return state.inner.observation_string(player)


def _deal_string(state: ThreesState, player: int) -> str:
    """During the deal a seat knows its own hand cards and the face-up cards dealt so far."""
    g = state._game
    n, K = g.num_players(), g.rules.cards_per_zone
    first = (g.dealer + 1) % n
    mine, ups = [], []
    for i, k in enumerate(state._dealt):
        zone, j = divmod(i, K * n)
        if zone >= 3:
            break
        seat = (first + j % n) % n
        if zone == 1:
            ups.append(f"{seat}:{Card(k)}")
        elif zone == 2 and seat == player:
            mine.append(str(Card(k)))
    return f"dealing {len(state._dealt)}/{state._deck_size}; hand {' '.join(mine) or '-'}; up {' '.join(ups) or '-'}"


class ThreesRolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots
    (``open_spiel.python.algorithms.mcts.Evaluator`` interface): the value of a
    state is the mean return of ``n_rollouts`` C rollouts of the engine with
    ``policy`` for every seat; priors are uniform."""

    def __init__(self, n_rollouts: int = 1, policy: str = "random", seed: Optional[int] = None):
        self.n_rollouts = int(n_rollouts)
        self.policy = policy
        self._rng = random.Random(seed)

    def evaluate(self, state: ThreesState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        if state.inner is None:
            raise pyspiel.SpielError("evaluate during the deal is not supported")
        r = rollouts(state.inner, self.n_rollouts, self.policy, self._rng.getrandbits(64), threads=1)
        return r.returns.mean(axis=0)

    def prior(self, state: ThreesState):
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


pyspiel.register_game(_GAME_TYPE, ThreesGame)
