"""OpenSpiel adapter: the games registered with pyspiel as ``threes`` (the
Shithead family) and ``three_thirteen``.

    import pyspiel, threes.openspiel
    game = pyspiel.load_game("threes", {"players": 4, "rules": "threes"})
    game = pyspiel.load_game("three_thirteen", {"players": 3})

``three_thirteen`` (ThreeThirteenGame): parameters ``players`` (2..8,
default 3), ``max_moves`` and every option the game declares
(threes.three_thirteen.OPTIONS, ``decks`` 0 = one per two players); every card dealt and every stock draw is an explicit chance
node (see the section at the end of this module); the rest is below for
``threes``. In both games ``resample_from_infostate`` returns a state whose
history is new chance outcomes and the same player actions, as OpenSpiel's
own games do.

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

import operator
import random
from typing import Any, Dict, List, Optional, Set, Tuple

import numpy as np
import pyspiel

from threes.args import MAX_GAMES, int_arg
from threes.shithead import _core
from threes.cards import Card
from threes.shithead.game import Game, State
from threes.shithead.rollouts import rollouts

__all__ = ["ThreesGame", "ThreesState", "ThreesObserver", "ThreesRolloutEvaluator", "ThreeThirteenGame",
           "ThreeThirteenState", "ThreeThirteenRolloutEvaluator", "EngineObserver"]

_MAX_PLAYERS = _core.MAX_PLAYERS
_DEFAULTS: Dict[str, Any] = {"players": 4, "rules": "threes", "max_moves": 0}
#: Redeals ThreesState.resample_from_infostate tries before it gives up.
_RESAMPLE_ATTEMPTS = 1000
_LOC_HAND = 0x00  # state.h: a hand's zone code is this | seat; 0x80 marks a known card

def _int_param(params: Dict[str, Any], name: str, lo: int, hi: int) -> int:
    """A game parameter that is a whole number: an int (not a bool, a float or text) in lo..hi;
    TypeError or ValueError naming the parameter and its bounds."""
    return int_arg(params[name], f"game parameter {name!r}", lo, hi)


def _str_param(params: Dict[str, Any], name: str) -> str:
    v = params[name]
    if not isinstance(v, str):
        raise TypeError(f"game parameter {name!r} must be a string, not {type(v).__name__}")
    return v


def _game_type(short_name: str, long_name: str, min_players: int, max_players: int,
               params: Dict[str, Any]) -> "pyspiel.GameType":
    """The GameType both games share: sequential, explicit chance,
    imperfect information, zero-sum, terminal rewards, strings and an
    observation tensor."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


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


def _field(name: str) -> property:
    """An attribute of a pyspiel state kept in its one attribute ``_p``."""
    get = operator.attrgetter(f"_p.{name}")

    def put(self, value) -> None:
        setattr(self._p, name, value)

    return property(get, put)


_new_pos = object.__new__


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


class ThreesState(pyspiel.State):
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
        total = float(left.sum())
        return [(int(k), float(left[k]) / total) for k in np.flatnonzero(left)]

    def _legal_actions(self, player: int) -> List[int]:
        assert player >= 0
        return self.inner.legal_actions()

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
        n = self._game.num_players()
        if isinstance(player_id, bool) or not isinstance(player_id, (int, np.integer)) or not 0 <= player_id < n:
            raise pyspiel.SpielError(f"player_id must be a seat in 0..{n - 1}, not {player_id!r}")
        player_id = int(player_id)
        seed = random.getrandbits(64) if probability_sampler is None else int(probability_sampler() * 2**53)
        rng = random.Random(seed)
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


pyspiel.register_game(_GAME_TYPE, ThreesGame)


# ------------------------------------------------------------ Three Thirteen --
# Registered with pyspiel as "three_thirteen". Chance is explicit: every card
# that leaves an unseen place is a chance node. Each round's deal is one chance
# node per card (one at a time round the table from the seat after the dealer,
# then the card turned up on the discard pile), drawn from the whole deck;
# every draw from the stock is a chance node drawn from the stock's cards (the
# stock is a multiset: its order is never seen, so a reshuffle of the discard
# pile, rule T-3, needs no chance node of its own). Outcome = card kind 0..53
# (4 * (rank - 1) + suit, ace low; jokers 52, 53), probability = copies left /
# cards left. Between chance nodes play continues on a three_thirteen.State.

def _tt_options() -> Tuple[Any, ...]:
    from threes import registry

    return registry.get("three_thirteen").options  # the game's own declaration (threes.options)


# every option the game declares is a parameter (an int option's "the engine decides" is 0)
_TT_DEFAULTS: Dict[str, Any] = {"players": 3, **{o.name: o.to_param(o.default) for o in _tt_options()},
                                "max_moves": 0}

_TT_GAME_TYPE = _game_type("three_thirteen", "Three Thirteen (rummy), threes-core engine", 2, 8, _TT_DEFAULTS)

class ThreeThirteenGame(pyspiel.Game):
    """pyspiel game over the engine's Three Thirteen. Parameters: players
    (2..8, default 3), max_moves (0 = the engine's default cap) and every option
    the game declares (threes.three_thirteen.OPTIONS: decks (0 = one per two
    players), jokers, ace, all_wild_melds, wild_penalty ("face" or "20"),
    rediscard_taken, go_out_first_turn)."""

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        from threes.three_thirteen import game as tt

        p = dict(_TT_DEFAULTS)
        p.update(params or {})
        unknown = set(p) - set(_TT_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown three_thirteen parameters {sorted(unknown)}: the parameters are "
                             f"{', '.join(_TT_DEFAULTS)}")
        opts = {o.name: o.from_param(p[o.name], f"game parameter {o.name!r}") for o in _tt_options()}
        g = tt.Game(_int_param(p, "players", 2, 8), max_moves=_int_param(p, "max_moves", 0, 2**32 - 1) or None,
                    **opts)
        first = g.new_initial_state(0)
        opts = first._options()
        deck = [k for _ in range(opts["decks"]) for k in list(range(52)) + [52 + j for j in range(opts["jokers"])]]
        max_moves = first._fields()["max_moves"]
        n = g.num_players()
        deals = sum(n * (r + 2) + 1 for r in range(1, 12))
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(),
            max_chance_outcomes=54,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=2 * max_moves + deals,
        )
        super().__init__(_TT_GAME_TYPE, info, p)
        self.threes_game = g
        self.deck = deck
        self.first_state = first  # every state starts as a clone of it (the engine's deal, replaced by chance)

    def new_initial_state(self) -> "ThreeThirteenState":
        return ThreeThirteenState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "EngineObserver":
        """An EngineObserver (what ``open_spiel.python.observation.make_observation`` asks for);
        ``iig_obs_type`` defaults to ``IIGObservationType(perfect_recall=False)``, and ``params`` must be empty."""
        return EngineObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class _ThreeThirteenPos:
    """Everything a ThreeThirteenState holds, as its one attribute (see
    _ThreesPos: pyspiel's clone then makes one ``copy.deepcopy`` call)."""

    __slots__ = ("game", "deck", "inner", "dealing", "drawing", "round_start")

    def __deepcopy__(self, memo) -> "_ThreeThirteenPos":
        c = _ThreeThirteenPos.__new__(_ThreeThirteenPos)
        c.game, c.deck, c.drawing, c.round_start = self.game, self.deck, self.drawing, self.round_start
        c.inner = self.inner.clone()
        c.dealing = None if self.dealing is None else list(self.dealing)
        return c


class ThreeThirteenState(pyspiel.State):
    """Chance nodes for the deals and the stock draws, play on a
    three_thirteen.State (``inner``, the true position: with the engine's own
    deal until the first deal's chance nodes are done)."""

    _game = _field("game")
    _deck = _field("deck")
    inner = _field("inner")
    _dealing = _field("dealing")  # the cards dealt so far this round, while dealing; None in play
    _drawing = _field("drawing")  # the player to move drew from the stock: chance picks the card
    # the state as this round's deal began (never changed: shared by clones; None before the first card of
    # the game is dealt): resampling and its trace start there, so their time does not grow with the history
    _round_start = _field("round_start")

    def __init__(self, game: ThreeThirteenGame):
        pyspiel.State.__init__(self, game)  # (not super(): this runs on every pyspiel clone too)
        p = self._p = _new_pos(_ThreeThirteenPos)
        p.game = game.threes_game
        p.deck = game.deck
        p.inner = game.first_state.clone()
        p.dealing = []
        p.drawing = False
        p.round_start = None

    # -- helpers --------------------------------------------------------------
    def _fields(self) -> Dict[str, Any]:
        return self.inner._fields()

    def _deal_size(self) -> int:
        f = self._fields()
        return f["num_players"] * (f["round"] + 2) + 1

    def _unseen(self) -> np.ndarray:
        """Copies of each kind the next chance node draws from."""
        if self._dealing is not None:
            left = np.bincount(self._deck, minlength=54)
            for k in self._dealing:
                left[k] -= 1
            return left
        f = self._fields()
        stock = f["stock"] if f["stock"] else f["discard"][:-1]
        return np.bincount(np.asarray(stock, dtype=np.int64), minlength=54)

    def _rebuild(self, hands=None, stock=None, discard=None) -> None:
        from threes.three_thirteen import game as tt

        d = self.inner.to_dict()
        if hands is not None:
            d["hands"] = [sorted((str(tt.kind_to_card(k)) for k in h), key=tt.card_to_kind) for h in hands]
        if stock is not None:
            d["stock"] = [str(tt.kind_to_card(k)) for k in stock]
        if discard is not None:
            d["discard"] = [str(tt.kind_to_card(k)) for k in discard]
        self.inner = tt.State.from_dict(d)

    def _finish_deal(self) -> None:
        f = self._fields()
        n, per = f["num_players"], f["round"] + 2
        hands: List[List[int]] = [[] for _ in range(n)]
        for i, k in enumerate(self._dealing[:n * per]):
            hands[(f["dealer"] + 1 + i % n) % n].append(k)
        left = self._unseen()  # the deck less every card dealt (the turned-up card included)
        stock = [k for k in range(54) for _ in range(int(left[k]))]
        self._rebuild(hands, stock, [self._dealing[-1]])
        self._dealing = None

    # -- pyspiel API --------------------------------------------------------------
    def current_player(self) -> int:
        if self._dealing is not None or self._drawing:
            return pyspiel.PlayerId.CHANCE
        cp = self.inner.current_player()
        return pyspiel.PlayerId.TERMINAL if cp < 0 else cp

    def chance_outcomes(self):
        if not (self._dealing is not None or self._drawing):
            raise pyspiel.SpielError("chance_outcomes is for chance nodes (a deal or a stock draw); "
                                     "this is a decision or terminal node")
        left = self._unseen()
        total = float(left.sum())
        return [(int(k), float(left[k]) / total) for k in np.flatnonzero(left)]

    def _legal_actions(self, player: int) -> List[int]:
        assert player >= 0
        return self.inner.legal_actions()

    def _apply_action(self, action: int) -> None:
        a = int(action)
        if self._dealing is not None:
            if not (0 <= a < 54 and self._unseen()[a] > 0):
                raise pyspiel.SpielError(f"no card of kind {a} is left to deal")
            if not self._dealing:  # the round's first card: keep the state as the deal begins (its history
                self._round_start = None  # complete: pyspiel adds an action to it after _apply_action)
                self._round_start = self.clone()
            self._dealing.append(a)
            if len(self._dealing) == self._deal_size():
                self._finish_deal()
            return
        if self._drawing:
            # in C: the card chosen put on top of the stock and drawn (after T-3's reshuffle of the discard
            # pile when the stock is empty, which makes the pool of T-9); a card not there changes nothing
            try:
                self.inner._apply_stock_draw(a)
            except ValueError:
                raise pyspiel.SpielError(f"no card of kind {a} is in the stock") from None
            self._drawing = False
            return
        f = self._fields()
        if a == 0 and self.inner.is_legal(0) and (f["stock"] or len(f["discard"]) > 1):
            self._drawing = True  # the card comes from chance
            return
        round_before = f["round"]
        self.inner.apply_action(a)
        if not self.inner.is_terminal() and self.inner.round() != round_before:
            self._dealing = []  # a new round: deal it by chance

    def _action_to_string(self, player: int, action: int) -> str:
        from threes.three_thirteen import game as tt

        if player == pyspiel.PlayerId.CHANCE:
            return f"{'deal' if self._dealing is not None else 'draw'} {str(tt.kind_to_card(int(action)))}"
        return self.inner.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._dealing is None and not self._drawing and self.inner.is_terminal()

    def returns(self) -> List[float]:
        if not self.is_terminal():
            return [0.0] * self._game.num_players()
        return list(self.inner.returns())

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> "ThreeThirteenState":
        """A state ``player_id`` cannot tell from this one, made as
        OpenSpiel's own games make it: the same history with new chance
        outcomes where this round's cards hidden from the player now were
        dealt or drawn. Each stock of the round (the deck at the deal, then
        each reshuffled discard pile, T-3) keeps its cards: the outcomes
        drawn from it that the player never saw get its cards the player
        has not seen either, in a uniformly random order (``_tt_stocks``).
        Its ``history()`` replays to it from ``new_initial_state()`` and the
        true hidden cards are nowhere in it. Earlier rounds keep their
        outcomes: every card of a scored round was shown."""
        if self._dealing is not None or self._drawing:
            raise pyspiel.SpielError("resample_from_infostate at a chance node is not supported")
        n = self._game.num_players()
        if isinstance(player_id, bool) or not isinstance(player_id, (int, np.integer)) or not 0 <= player_id < n:
            raise pyspiel.SpielError(f"player_id must be a seat in 0..{n - 1}, not {player_id!r}")
        player_id = int(player_id)
        seed = random.getrandbits(64) if probability_sampler is None else int(probability_sampler() * 2**53)
        rng = random.Random(seed)
        history = list(self.history())
        start = self._round_start
        first = len(start.history()) if start is not None else 0  # this round's deal starts at history[first]
        stocks = _tt_stocks(self._start_of_round(), history, first, int(player_id))
        want = self.information_state_string(player_id)
        for _ in range(_RESAMPLE_ATTEMPTS):
            h = history[first:]
            for where, cards in stocks:
                cards = list(cards)
                rng.shuffle(cards)
                for i, kind in zip(where, cards):
                    h[i - first] = kind
            out = self._start_of_round()  # the history before this round is kept: its cards were all shown
            try:
                for a in h:
                    out.apply_action(a)
            except (pyspiel.SpielError, ValueError):  # an outcome or an action the new cards make illegal
                continue
            if out.information_state_string(player_id) == want:
                out._round_start = start
                return out
        raise pyspiel.SpielError(f"resample_from_infostate: no redeal consistent with the history in "
                                 f"{_RESAMPLE_ATTEMPTS} attempts")

    def _start_of_round(self) -> "ThreeThirteenState":
        """A new state as this round's deal began (its history, that of this state up to there)."""
        start = self._round_start
        return self.get_game().new_initial_state() if start is None else start.clone()

    def __deepcopy__(self, memo) -> "ThreeThirteenState":
        """pyspiel's clone (the history kept), which deep-copies ``_p``."""
        return self.clone()

    def __str__(self) -> str:
        if self._dealing is not None:
            return f"dealing round {self._fields()['round']}: {len(self._dealing)} of {self._deal_size()} cards dealt"
        return str(self.inner) + ("\ndrawing from the stock" if self._drawing else "")

    # -- what a seat knows, for the observer --------------------------------------
    def _deal_string(self, player: int) -> str:
        from threes.three_thirteen import game as tt

        f = self._fields()
        n = f["num_players"]
        mine = [str(tt.kind_to_card(k)) for i, k in enumerate(self._dealing[:n * (f["round"] + 2)])
                if (f["dealer"] + 1 + i % n) % n == player]
        return (f"round {f['round']}, dealing {len(self._dealing)}/{self._deal_size()}; totals {f['totals']}; "
                f"dealt to you: {' '.join(mine) or '-'}")

    def _observation_string(self, player: int, perfect_recall: bool) -> str:
        if self._dealing is not None:
            return self._deal_string(player)
        text = self.inner.information_state_string(player) if perfect_recall else self.inner.observation_string(player)
        return text + ("\ndrawing from the stock" if self._drawing else "")

    def _observation_tensor(self, player: int, out: np.ndarray) -> None:
        if self._dealing is not None:
            out.fill(0)
            return
        if out.dtype == np.float32 and out.flags.c_contiguous and out.flags.writeable:
            self.inner.observation_tensor(player, out=out)
        else:
            out[:] = self.inner.observation_tensor(player)


class ThreeThirteenRolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots on ``three_thirteen``
    (``open_spiel.python.algorithms.mcts.Evaluator`` interface) that values a
    state as ``threes.bots.ISMCTSBot`` values a Three Thirteen iteration: the
    mean, over ``n_rollouts`` C rollouts with ``policy`` for every seat
    (default greedy), of the score margins of the state's round played to its
    end (``rollout(..., round_only=True)``, each seat's margin in [-1, 1]).
    Whole-game returns hide the worth of going out in the noise of the rounds
    still to come; ``values="game"`` plays to the end and uses them anyway.

    A state dealing a new round is valued by the margins of the round just
    scored (``"round"``; zeros during the first deal); a stock draw at a chance
    node first draws one card as chance would (``seed``'s stream); a terminal
    state by its returns. Priors are uniform."""

    def __init__(self, n_rollouts: int = 1, policy: str = "greedy", seed: Optional[int] = None,
                 values: str = "round"):
        from threes.three_thirteen import POLICIES

        self.n_rollouts = int_arg(n_rollouts, "n_rollouts", 1, MAX_GAMES)
        if not isinstance(policy, str) or policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        if values not in ("round", "game"):
            raise ValueError(f"values must be 'round' or 'game', not {values!r}")
        self.policy, self.values = policy, values
        self._rng = random.Random(seed)

    def evaluate(self, state: "ThreeThirteenState") -> np.ndarray:
        """The value of ``state`` for every seat (an array of floats), as the class says."""
        from threes.three_thirteen import rollout as tt_rollout

        if state.is_terminal():
            return np.array(state.returns())
        if state._drawing:
            outcomes, probs = zip(*state.chance_outcomes())
            state = state.child(self._rng.choices(outcomes, probs)[0])
        inner, n = state.inner, state.num_players()
        if state._dealing is not None and self.values == "round":
            scored = inner.round() - 1
            return np.array(inner.round_margins(scored) if scored >= 1 else [0.0] * n)
        total = np.zeros(n)
        for _ in range(self.n_rollouts):
            total += tt_rollout(inner, self.policy, self._rng.getrandbits(64), round_only=self.values == "round")
        return total / self.n_rollouts

    def prior(self, state: "ThreeThirteenState"):
        """Uniform priors: ``(action, 1 / number of legal actions)`` for each legal action of the player to move."""
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _tt_stocks(first: "ThreeThirteenState", history: List[int], start: int,
               observer: int) -> List[Tuple[List[int], List[int]]]:
    """This round's stocks as `observer` may know them: for the deal with
    the stock it leaves (the deck) and for each reshuffled stock (T-3), the
    indexes into `history` of the chance outcomes drawn from it that gave
    another seat a card it holds hidden now, and the cards they and what is
    left of that stock share: the stock's cards less every outcome drawn from
    it that is not hidden now (an own card, a card since discarded or
    shown). The history is replayed and each hand followed card by card
    (copies of a kind are interchangeable): a card leaving a hand is a known
    one when the known cards lose that kind, one drawn from a reshuffled
    stock when the engine's pool cards do (T-9); a card the table comes to
    know (a player going out shows the melds) is hidden no more, nor is
    the other copy of a card just taken and discarded at once (without
    rediscard_taken that copy had to be in the hand). `first` is a new state
    as this round's deal began, at history[start]: the trace starts there."""
    from collections import Counter

    game = first.get_game()
    st = first
    n = game.num_players()
    # hand entries [kind, history index or None (known), from a pool, its kind told by the history]
    hands: List[List[list]] = [[] for _ in range(n)]
    rediscard = bool(st.inner._options()["rediscard_taken"])
    stocks: List[Tuple[Counter, List[int]]] = []  # per stock: its cards, the outcomes drawn from it
    after = st._fields()
    for i in range(start, len(history)):
        a, before = history[i], after
        dealing, drawing = st._dealing is not None, st._drawing
        if dealing and not st._dealing:  # a round's deal starts: the hands are dealt afresh
            hands, stocks = [[] for _ in range(n)], [(Counter(game.deck), [])]
        if drawing and not before["stock"]:
            stocks.append((Counter(before["discard"][:-1]), []))  # T-3: the discard pile less its top
        if dealing or drawing:
            stocks[-1][1].append(i)
        j = len(st._dealing) if dealing else 0  # the j-th card of the deal: round the table, then turned up
        st.apply_action(a)
        after = st._fields()
        if dealing:
            if j < n * (before["round"] + 2):
                hands[(before["dealer"] + 1 + j % n) % n].append([a, i, False, False])
            continue
        if st._dealing is not None or after["round"] != before["round"]:
            continue  # the round is over: its hands were shown
        for q in range(n):
            if (before["hands"][q] == after["hands"][q] and before["known"][q] == after["known"][q]
                    and before["pool_hand"][q] == after["pool_hand"][q]):
                continue  # a seat the action left alone (most actions change the mover's hand only)
            gone = Counter(before["hands"][q]) - Counter(after["hands"][q])
            came = Counter(after["hands"][q]) - Counter(before["hands"][q])
            known_gone = Counter(before["known"][q]) - Counter(after["known"][q])
            pool_gone = Counter(before["pool_hand"][q]) - Counter(after["pool_hand"][q])
            for kind, c in gone.items():
                for _ in range(c):
                    if known_gone[kind]:
                        known_gone[kind] -= 1
                        e = next(e for e in hands[q] if e[0] == kind and e[1] is None)
                    else:
                        pool = pool_gone[kind] > 0
                        pool_gone[kind] -= pool
                        e = next(e for e in hands[q] if e[0] == kind and e[1] is not None and e[2] == pool)
                    hands[q].remove(e)
                if kind == before["taken_kind"] and q == before["current"] and not rediscard:
                    # the card just taken may not be discarded again: another copy was in the hand, and is
                    for e in [e for e in hands[q] if e[0] == kind and e[1] is not None][:1]:
                        e[3] = True
            pool_came = Counter(after["pool_hand"][q]) - Counter(before["pool_hand"][q])
            for kind, c in came.items():
                for _ in range(c):
                    hands[q].append([kind, i if drawing else None, pool_came[kind] > 0, False])
                    pool_came[kind] -= 1
            for kind, c in (Counter(after["known"][q]) - Counter(e[0] for e in hands[q] if e[1] is None)).items():
                for e in [e for e in hands[q] if e[0] == kind and e[1] is not None][:c]:
                    e[1] = None  # shown (the melds of a player who goes out)
            for kind, c in (Counter(e[0] for e in hands[q] if e[2]) - Counter(after["pool_hand"][q])).items():
                for e in [e for e in hands[q] if e[0] == kind and e[2]][:c]:
                    e[2] = False  # the pool dissolved
    hidden = {e[1] for q in range(n) if q != observer for e in hands[q] if e[1] is not None and not e[3]}
    out = []
    for cards, drawn in stocks:
        seen = Counter(history[i] for i in drawn if i not in hidden)
        out.append(([i for i in drawn if i in hidden], sorted((cards - seen).elements())))
    return out


class EngineObserver:
    """pyspiel observer over a state's ``observation_tensor`` and strings
    (``_observation_tensor``, ``_observation_string``); with perfect_recall
    the string is the information state string (observation plus public
    history)."""

    def __init__(self, game, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor: Optional[np.ndarray] = None
        self.dict: Dict[str, np.ndarray] = {}
        if self._perfect_recall:
            return  # information states are strings only: no information state tensor is provided
        shape = game.threes_game.observation_tensor_shape()
        self.tensor = np.zeros(shape, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player: int) -> None:
        """Writes ``player``'s observation tensor of ``state`` into ``tensor`` (zeros during a deal);
        does nothing with perfect_recall, which has no tensor."""
        if self.tensor is not None:
            state._observation_tensor(player, self.tensor)

    def string_from(self, state, player: int) -> str:
        """``player``'s observation string of ``state`` (with perfect_recall its information state string), with a
        last line ``drawing from the stock`` while a stock draw waits for chance; during a deal, the round, the
        totals and the cards dealt to the player so far."""
        return state._observation_string(player, self._perfect_recall)


pyspiel.register_game(_TT_GAME_TYPE, ThreeThirteenGame)
