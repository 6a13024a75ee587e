"""Shithead's OpenSpiel adapter, registered with pyspiel as ``threes`` by
``import threes.openspiel`` (threes.adapters.openspiel, through the
registry's ``openspiel`` hook).

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
from C). ``resample_from_infostate`` returns a new deal consistent with what
the player has seen followed by the same actions: its history replays to it
and holds no trace of the true hidden cards.

A game that does not finish normally is terminal with the players still in
sharing the open places (``returns()``): at the move cap, or, for a
``threes.State`` whose rules set ``repetition_limit``, as a stalemate by
repetition (RULES.md section 7; the pyspiel ``rules`` parameter names a
preset, and every preset has the rule off). OpenSpiel has no truncation
flag; ``str(state)`` says ``TRUNCATED at the move cap`` or ``STALEMATE``
(threes.ui.text.end_note), and ``state.inner.is_stalemate()`` tells.

``ThreesRolloutEvaluator`` is an evaluator for OpenSpiel's MCTS/ISMCTS bots
that plays the rest of the game with the engine's C rollouts.
"""
from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Set, Tuple

import numpy as np
import pyspiel

from threes.adapters._spiel import RESAMPLE_ATTEMPTS as _RESAMPLE_ATTEMPTS
from threes.adapters._spiel import EngineState, outcomes as _outcomes, resample_rng as _resample_rng
from threes.adapters._spiel import field as _field, game_type as _game_type
from threes.adapters._spiel import int_param as _int_param, new_pos as _new_pos, str_param as _str_param
from threes.args import MAX_GAMES, int_arg
from threes.cards import Card
from threes.shithead import _core
from threes.shithead.game import Game, State
from threes.shithead.rollouts import rollouts

__all__ = ["ThreesGame", "ThreesState", "ThreesObserver", "ThreesRolloutEvaluator"]

_MAX_PLAYERS = _core.MAX_PLAYERS
_DEFAULTS: Dict[str, Any] = {"players": 4, "rules": "threes", "max_moves": 0}
#: Redeals ThreesState.resample_from_infostate tries before it gives up.
_LOC_HAND = 0x00  # state.h: a hand's zone code is this | seat; 0x80 marks a known card

_GAME_TYPE = _game_type("threes", "Threes (the Shithead family), threes-core engine", _core.MIN_PLAYERS,
                        _MAX_PLAYERS, _DEFAULTS)

class ThreesGame(pyspiel.Game):
    """pyspiel game over the threes-core engine."""

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        p = dict(_DEFAULTS)
        p.update(params or {})
        g = Game(_int_param(p, "players", _core.MIN_PLAYERS, _MAX_PLAYERS), _str_param(p, "rules"),
                 _int_param(p, "max_moves", 0, _core.MAX_MAX_MOVES) or None)
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
        self.deck_counts = _deck_counts(g)

    def new_initial_state(self) -> "ThreesState":
        return ThreesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "ThreesObserver":
        """A ThreesObserver (what ``open_spiel.python.observation.make_observation`` asks for);
        ``iig_obs_type`` defaults to ``IIGObservationType(perfect_recall=False)``, and ``params`` must be empty."""
        return ThreesObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


def _deck_counts(game: Game) -> np.ndarray:
    """Cards of each kind in the deck: a read-only array, counted once per
    ThreesGame (ThreesGame.deck_counts), which a state copies before its
    first deal."""
    counts = np.bincount(_deck_kinds(game), minlength=_core.NUM_KINDS)
    counts.setflags(write=False)
    return counts


def _deck_kinds(game: Game) -> List[int]:
    """The kinds of the deck, one entry per card (canonical order)."""
    rules = game.rules
    kinds = [k for k in range(52)] + [52 + j for j in range(rules.jokers)]
    return kinds * rules.decks




class _ThreesPos:
    """Everything a ThreesState holds, as its one attribute. pyspiel's C++
    clone (``PyState::Clone``) builds a new initial state and deep-copies
    each attribute of the old one into it, one ``copy.deepcopy`` call per
    attribute: with one attribute that is one call, answered by
    ``__deepcopy__`` (the engine state's clone, the deal shared: bytes)."""

    __slots__ = ("game", "deck_size", "dealt", "left", "inner")

    def __deepcopy__(self, memo) -> "_ThreesPos":
        c = _ThreesPos.__new__(_ThreesPos)
        c.game, c.deck_size, c.dealt = self.game, self.deck_size, self.dealt
        left = self.left
        c.left = left if left is None or not left.flags.writeable else left.copy()
        c.inner = None if self.inner is None else self.inner.clone()
        return c


class ThreesState(EngineState):
    """The deal as chance nodes, then a threes.State."""

    _game = _field("game")
    _deck_size = _field("deck_size")
    _dealt = _field("dealt")  # the cards dealt, as bytes (kinds 0..53)
    _left = _field("left")  # cards left to deal per kind (the game's shared read-only copy until one is dealt)
    inner = _field("inner")  # the engine's state once the deal is done, else None

    def __init__(self, game: ThreesGame, inner: Optional[State] = None, dealt: Optional[List[int]] = None):
        pyspiel.State.__init__(self, game)  # (not super(): this runs on every pyspiel clone too)
        p = self._p = _new_pos(_ThreesPos)
        p.game = game.threes_game
        p.deck_size = game.deck_size
        if inner is None and not dealt:  # a new initial state, as pyspiel's clone makes before replacing _p
            p.dealt, p.left, p.inner = b"", game.deck_counts, None
            return
        p.dealt = bytes(dealt or b"")
        p.left = None
        if inner is None:
            p.left = game.deck_counts
            if p.dealt:
                p.left = p.left.copy()
                for k in p.dealt:
                    p.left[k] -= 1
        p.inner = inner

    # -- chance: the deal --------------------------------------------------
    def current_player(self) -> int:
        if self.inner is None:
            return pyspiel.PlayerId.CHANCE
        cp = self.inner.current_player()
        return pyspiel.PlayerId.TERMINAL if cp < 0 else cp

    def chance_outcomes(self):
        if self.inner is not None:
            raise pyspiel.SpielError("chance_outcomes is for chance nodes; this is a decision or terminal node")
        left = self._left
        return _outcomes(left)

    def _apply_action(self, action: int) -> None:
        if self.inner is None:
            if not (0 <= action < _core.NUM_KINDS and self._left[action] > 0):
                raise pyspiel.SpielError(f"no card of kind {action} is left to deal")
            if not self._left.flags.writeable:  # still the game's shared counts
                self._left = self._left.copy()
            self._left[action] -= 1
            self._dealt += bytes((int(action),))
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
        """A state ``player_id`` cannot tell from this one, made as
        OpenSpiel's own games make it: a new deal (the chance outcomes)
        consistent with everything the player has seen, then the same player
        actions. Its ``history()`` is that deal and those actions, replaying
        it from ``new_initial_state()`` gives exactly this state, and the true
        hidden cards are nowhere in it (attributes, ``serialize()``, pickle,
        history). The cards hidden from the player are dealt again by the
        engine's C resampling and put at their places in the deal, away from
        the places the history rules them out of (``_trace``, ``_redeal``:
        a pick-up with a playable card in hand, another suit played by a
        hand); a redeal the replay of the history still rejects (an action
        illegal on it, or another information state for the player, as the
        start rule may give) is drawn again, up to ``_RESAMPLE_ATTEMPTS``
        times."""
        if self.inner is None:
            raise pyspiel.SpielError("resample_from_infostate during the deal is not supported")
        player_id, seed, rng = _resample_rng(self, player_id, probability_sampler)
        actions = list(self.history())[self._deck_size:]
        want = self.inner.information_state_string(player_id)
        places, forbidden = _trace(self._game, self._dealt, actions, player_id)
        for attempt in range(_RESAMPLE_ATTEMPTS):
            sampled = self.inner.resample_from_infostate(player_id, _core.batch_seed(seed, attempt))
            dealt = _redeal(self._game, self._dealt, places, forbidden, sampled, rng)
            st = _replay(self._game, dealt, actions)
            if st is not None and st.information_state_string(player_id) == want:
                out = ThreesState(self.get_game())
                for a in dealt + actions:
                    out.apply_action(a)
                return out
        raise pyspiel.SpielError(f"resample_from_infostate: no redeal consistent with the history in "
                                 f"{_RESAMPLE_ATTEMPTS} attempts")

    def __deepcopy__(self, memo) -> "ThreesState":
        """pyspiel's clone (the history kept), which deep-copies ``_p``."""
        return self.clone()

    def observation_tensor(self, player: Optional[int] = None) -> List[float]:
        """pyspiel's observation_tensor (a list of floats, the default
        observer's tensor), answered here: pyspiel's own path builds a new
        initial state on every call to learn the tensor's shape. During the
        deal, zeros (as the observer writes)."""
        if player is None:
            player = self.current_player()
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not \
                0 <= player < self._game.num_players():
            raise pyspiel.SpielError(f"observation_tensor needs a seat in 0..{self._game.num_players() - 1}, "
                                     f"not {player!r}")
        if self.inner is None:
            return [0.0] * _core.observation_size(self._game.num_players())
        return self.inner._observation_list(int(player))

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


def _trace(game: Game, dealt: List[int], actions: List[int], observer: int
           ) -> Tuple[Dict[int, List[int]], Dict[int, Set[int]]]:
    """Where the cards hidden from `observer` after `actions` sit in the deal
    `dealt` (the deck from the top), and what the history says of them.

    Returns (places, forbidden): places[q], for every seat q but the observer,
    the deal positions of the hand cards q holds unknown to the table (each
    card followed by its id through the engine's moves: it was dealt to that
    hand or drawn from the draw pile; a card from a public place is known
    until played); forbidden[pos] the kinds no card at hand position pos may
    have, as the moves it was in the hand for tell: a pick-up says no card in
    the hand was playable (D-3), and a hand card that leaves for the pile or
    the face-up zone says no unknown card of its rank and a lower suit was in
    the hand (the lowest suits leave first, RULES.md 2 and 4.2)."""
    n, K = game.num_players(), game.rules.cards_per_zone
    first = (game.dealer + 1) % n
    st = _state_from_deal(game, dealt)
    loc, _, draw = st._card_ids()
    size = len(dealt)
    pos_of: Dict[int, int] = {id_: size - 1 - i for i, id_ in enumerate(draw)}
    for j in range(n):
        q = (first + j) % n
        ids = [id_ for id_, l in enumerate(loc) if l == _LOC_HAND | q]
        for k in range(K):
            pos = 2 * K * n + k * n + j
            pos_of[next(i for i in ids if i % 64 == dealt[pos] and i not in pos_of)] = pos
    forbidden: Dict[int, Set[int]] = {}
    for a in actions:
        q = st.current_player()
        unknown = [id_ for id_, l in enumerate(loc) if l == _LOC_HAND | q]
        bad: Set[int] = set()
        if st.decode_action(a).kind == "pickup":
            bad = {k for k in range(_core.NUM_KINDS) if st._playable(k >> 2)}
        st.apply_action(a)
        loc = st._card_ids()[0]
        left: Dict[int, int] = {}  # rank -> the highest kind of the unknown cards of that rank that left
        for id_ in unknown:
            if loc[id_] & 0x70 != _LOC_HAND:
                left[(id_ % 64) >> 2] = max(left.get((id_ % 64) >> 2, -1), id_ % 64)
        bad |= {k for r, top in left.items() for k in range(4 * r, top)}
        if bad:
            for id_ in unknown:
                if loc[id_] == _LOC_HAND | q:
                    forbidden.setdefault(pos_of[id_], set()).update(bad)
    places = {q: [pos_of[id_] for id_, l in enumerate(loc) if l == _LOC_HAND | q] for q in range(n) if q != observer}
    return places, forbidden


def _redeal(game: Game, dealt: List[int], places: Dict[int, List[int]], forbidden: Dict[int, Set[int]],
            sampled: State, rng: random.Random) -> List[int]:
    """The deal `dealt` with the cards hidden in `sampled` (a resampling of
    the position dealt + actions) at their places: the draw pile and the
    face-down slots where they lie (those cards never moved), each hand's
    unknown cards at that hand's `places` in a random order. Every other
    card was seen by the observer and stays. A card at a hand position that
    `forbidden` rules out is swapped with one at a random hidden place where
    both fit (when there is none, it stays: the replay rejects the deal)."""
    n = game.num_players()
    first = (game.dealer + 1) % n
    hands, known, _, down, _, draw, _ = sampled._snapshot()
    out = list(dealt)
    size = len(dealt)
    hidden_at: List[int] = []
    for i, kind in enumerate(draw):
        out[size - 1 - i] = kind
        hidden_at.append(size - 1 - i)
    for q in range(n):
        for k, kind in enumerate(down[q]):
            if kind is not None:
                out[k * n + (q - first) % n] = kind
                hidden_at.append(k * n + (q - first) % n)
    for q, pos in places.items():
        cards = list(hands[q])
        for kind in known[q]:
            cards.remove(kind)
        rng.shuffle(cards)
        for p, kind in zip(pos, cards):
            out[p] = kind
        hidden_at += pos
    none: Set[int] = set()
    for p in sorted(forbidden, key=lambda p: -len(forbidden[p])):
        if out[p] in forbidden[p]:
            fits = [o for o in hidden_at if out[o] not in forbidden[p] and out[p] not in forbidden.get(o, none)]
            if fits:
                o = rng.choice(fits)
                out[p], out[o] = out[o], out[p]
    return out


def _replay(game: Game, dealt: List[int], actions: List[int]) -> Optional[State]:
    """The position the deal and the actions give, or None when an action is illegal on it."""
    st = _state_from_deal(game, dealt)
    for a in actions:
        if not st.is_legal(a):
            return None
        st.apply_action(a)
    return st


class ThreesObserver:
    """pyspiel observer: the engine's observation tensor and strings. With
    perfect_recall the string is information_state_string (observation plus
    public history) and there is no tensor (the game type provides no
    information state tensor); during the deal, what the player has been dealt."""

    def __init__(self, game: ThreesGame, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        n = game.threes_game.num_players()
        self.tensor: Optional[np.ndarray] = None
        self.dict: Dict[str, np.ndarray] = {}
        if self._perfect_recall:
            return  # information states are strings only: no information state tensor is provided
        self.tensor = np.zeros(_core.observation_size(n), np.float32)
        from threes.shithead.observation import observation_tensor_layout

        self.dict = {name: self.tensor[o:o + size] for name, (o, size) in observation_tensor_layout(n).items()}

    def set_from(self, state: ThreesState, player: int) -> None:
        """Writes ``player``'s observation tensor of ``state`` into ``tensor`` (zeros during the deal);
        does nothing with perfect_recall, which has no tensor."""
        if self.tensor is None:
            return
        if state.inner is None:
            self.tensor.fill(0)
            return
        state.inner.observation_tensor(player, out=self.tensor)

    def string_from(self, state: ThreesState, player: int) -> str:
        """``player``'s observation string of ``state`` (with perfect_recall its information state string);
        during the deal, the player's own hand cards and the face-up cards dealt so far."""
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
        self.n_rollouts = int_arg(n_rollouts, "n_rollouts", 1, MAX_GAMES)
        self.policy = policy
        self._rng = random.Random(seed)

    def evaluate(self, state: ThreesState) -> np.ndarray:
        """The value of ``state`` for every seat (an array of floats): its returns when it is terminal, else
        the mean return of ``n_rollouts`` C rollouts with ``policy``. Raises SpielError during the deal."""
        if state.is_terminal():
            return np.array(state.returns())
        if state.inner is None:
            raise pyspiel.SpielError("evaluate during the deal is not supported")
        r = rollouts(state.inner, self.n_rollouts, self.policy, self._rng.getrandbits(64), threads=1)
        return r.returns.mean(axis=0)

    def prior(self, state: ThreesState):
        """Uniform priors: ``(action, 1 / number of legal actions)`` for each legal action of the player to move."""
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


#: what threes.adapters.openspiel registers with pyspiel
GAME_TYPE, GAME_CLASS = _GAME_TYPE, ThreesGame
