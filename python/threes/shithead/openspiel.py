"""Shithead's OpenSpiel adapter, registered with pyspiel as ``threes`` by
``import threes.openspiel`` (threes.adapters.openspiel, through the
registry's ``openspiel`` hook). The game, state and observer classes are the
generic ones of threes.adapters._spiel; what is Shithead's own is here: its
chance model (``ShitheadDeal``), its names, its ``rules`` parameter and its
rollout evaluator.

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
from C; the information state tensor is the observation tensor followed by
each seat's count of each action, threes.adapters._spiel).
``resample_from_infostate`` returns a new deal consistent with what the
player has seen followed by the same actions: its history replays to it and
holds no trace of the true hidden cards.

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
from typing import Dict, Iterator, List, Optional, Set, Tuple

import numpy as np
import pyspiel

from threes.adapters._spiel import ALL_SEATS, DeckDeal, EngineObserver, SpielGame, SpielState
from threes.args import MAX_GAMES, int_arg
from threes.cards import Card
from threes.shithead import _core
from threes.shithead.game import Game, State
from threes.shithead.rollouts import rollouts

__all__ = ["ThreesGame", "ThreesState", "ThreesObserver", "ThreesRolloutEvaluator"]

_LOC_HAND = 0x00  # state.h: a hand's zone code is this | seat; 0x80 marks a known card


class ShitheadDeal(DeckDeal):
    """Shithead's chance model: one deal, the whole deck, one chance node per
    card from the top of the deck, placed as RULES.md 4.1 deals
    (``_state_from_deal``); no engine state until it is placed. Its resampling
    deals the cards hidden from a seat again with the engine's C resampling,
    put back at their places in the deal away from what the history rules out
    (``_trace``, ``_redeal``)."""

    name = "shithead"
    short_name = "threes"
    long_name = "Threes (the Shithead family), threes-core engine"
    players = (_core.MIN_PLAYERS, _core.MAX_PLAYERS, 4)
    max_moves_high = _core.MAX_MAX_MOVES
    params = {"rules": "threes"}
    max_chance_outcomes = _core.NUM_KINDS

    def first_inner(self) -> None:
        """No engine state until the deal is placed."""
        return None

    def deck_kinds(self) -> List[int]:
        """The kinds of the deck, one entry per card (canonical order)."""
        return _deck_kinds(self.game)

    def max_chance_nodes(self) -> int:
        """One per card of the deck."""
        return self.deck_size

    def place(self, st: SpielState, dealt: bytes) -> State:
        """The engine's position of the deal (RULES.md 4.1)."""
        return _state_from_deal(self.game, dealt)

    def deal_seat(self, st: SpielState, i: int) -> Optional[int]:
        """Face-down cards and the draw pile no one, face-up cards every seat, a hand card its seat."""
        n, K = self.game.num_players(), self.game.rules.cards_per_zone
        zone, j = divmod(i, K * n)
        if zone == 0 or zone >= 3:
            return None
        return ALL_SEATS if zone == 1 else (self.game.dealer + 1 + j % n) % n

    def card(self, kind: int) -> str:
        """The card's text (``Ah``)."""
        return str(Card(kind))

    def deal_view(self, st: SpielState, player: int) -> str:
        """The player's own hand cards and the face-up cards dealt so far."""
        return _deal_string(st, player)

    def deal_text(self, st: SpielState) -> str:
        """``dealing: k of N cards dealt``."""
        return f"dealing: {len(st._p.dealt)} of {self.deck_size} cards dealt"

    def observation_layout(self) -> Dict[str, Tuple[int, int]]:
        """threes.shithead.observation's blocks (the observer's ``dict``, as before the adapters shared one)."""
        from threes.shithead.observation import observation_tensor_layout

        return observation_tensor_layout(self.game.num_players())

    def resample(self, st: SpielState, player: int, seed: int, rng: random.Random) -> Iterator[Optional[SpielState]]:
        """A new deal consistent with everything ``player`` has seen,
        followed by the same player actions. The cards hidden from the player
        are dealt again by the engine's C resampling and put at their places
        in the deal, away from the places the history rules them out of
        (``_trace``, ``_redeal``: a pick-up with a playable card in hand,
        another suit played by a hand); a redeal the replay of the history
        still rejects (an action illegal on it, or another information state
        for the player, as the start rule may give) is drawn again."""
        dealt = st._p.dealt
        actions = list(st.history())[self.deck_size:]
        want = st.inner.information_state_string(player)
        places, forbidden = _trace(self.game, dealt, actions, player)
        for attempt in range(2**62):
            sampled = st.inner.resample_from_infostate(player, _core.batch_seed(seed, attempt))
            new = _redeal(self.game, dealt, places, forbidden, sampled, rng)
            eng = _replay(self.game, new, actions)
            if eng is None or eng.information_state_string(player) != want:
                yield None
                continue
            out = ThreesState(st.get_game())
            for a in new + actions:
                out.apply_action(a)
            yield out


class ThreesState(SpielState):
    """The deal as chance nodes, then a threes.State (``inner``). Also made
    from an engine state (``ThreesState(game, inner=state)``: a position
    with no deal to show) or a deal under way (``dealt``, kinds from the top
    of the deck)."""

    def __init__(self, game: "ThreesGame", inner: Optional[State] = None, dealt: Optional[List[int]] = None):
        SpielState.__init__(self, game)
        if inner is None and not dealt:  # a new initial state, as pyspiel's clone makes before replacing _p
            return
        p = self._p
        p.dealt = bytes(dealt or b"")
        p.left = None
        if inner is None:
            p.left = game.deck_counts
            if p.dealt:
                p.left = p.left.copy()
                for k in p.dealt:
                    p.left[k] -= 1
        p.inner = inner

    @property
    def _game(self) -> Game:
        return self._p.model.game

    @property
    def _deck_size(self) -> int:
        return self._p.model.deck_size

    @property
    def _dealt(self) -> bytes:
        return self._p.dealt

    @property
    def _left(self) -> Optional[np.ndarray]:
        return self._p.left


class ThreesObserver(EngineObserver):
    """pyspiel observer of Shithead: the engine's observation tensor (its
    blocks, threes.shithead.observation.observation_tensor_layout) and
    strings; with perfect_recall the information state tensor and string
    (observation plus public history); during the deal zeros and what the
    player has been dealt."""


class ThreesGame(SpielGame):
    """pyspiel game over the threes-core engine (parameters ``players``,
    ``rules``, ``max_moves``); ``deck_size`` and ``deck_counts`` describe
    its deck."""

    model_class = ShitheadDeal
    state_class = ThreesState
    observer_class = ThreesObserver

    @property
    def deck_size(self) -> int:
        """The cards of the deck (the deal's chance nodes)."""
        return self.model.deck_size

    @property
    def deck_counts(self) -> np.ndarray:
        """Cards of each kind in the deck: a read-only array, counted once per game, which a state
        copies before its first deal."""
        return self.model.deck_counts


def _deck_kinds(game: Game) -> List[int]:
    """The kinds of the deck, one entry per card (canonical order)."""
    rules = game.rules
    kinds = [k for k in range(52)] + [52 + j for j in range(rules.jokers)]
    return kinds * rules.decks


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
GAME_TYPE, GAME_CLASS = ShitheadDeal.game_type(), ThreesGame
