"""The one OpenSpiel adapter of every game: a pyspiel game class
(:class:`SpielGame`), a state class (:class:`SpielState`) and an observer
(:class:`EngineObserver`), written once over the registry's game contract,
and the interface a game implements to plug in: its chance model
(:class:`ChanceModel`; most games start from :class:`DeckDeal`).
threes.adapters.openspiel registers every game whose registry ``openspiel``
hook names a module with ``GAME_TYPE``, ``GAME_CLASS`` and ``__all__``. Names
no game.

What the generic classes do
---------------------------
* Parameters: ``players``, then the game's own parameters
  (``ChanceModel.params``: Shithead's ``rules`` preset), then every option the
  game declares (``registry.get(name).options``, threes.options.Option: each
  one a parameter with its default, ``to_param``/``from_param``), then
  ``max_moves`` (0 = the engine's default cap). Unknown parameters are a
  ValueError; a bad value a TypeError or ValueError naming the parameter and
  its bounds (int_param, Option.from_param).
* Play: decisions are the engine state's (``SpielState.inner``): its action
  ids, legal actions, strings, observation tensor (written in C), returns.
  Chance nodes, their outcomes and what a seat sees while a deal is under
  way are the chance model's.
* Information states: the string is the engine's ``information_state_string``
  (observation plus public history). The information state tensor is the
  observation tensor followed by one count per seat and action id: how many
  times that seat took that action since the current deal began (a block
  ``actions``, shape players x num_distinct_actions). Every player action of
  these games is seen by the whole table (a card played, a pick-up, a swap,
  a draw from the stock, a discard), the observation tensor holds nothing
  hidden from its seat, and a deal's start is public, so the tensor is a
  function of the seat's information state: two states that differ only in
  cards the seat has not seen (a state and its ``resample_from_infostate``
  for that seat) have the same tensor. During a deal it is zeros, as the
  observation tensor is.
* ``resample_from_infostate(player, sampler)`` returns what OpenSpiel's own
  games return: a state with the same player actions and new chance
  outcomes where the seat did not see them, whose information state for the
  seat is this state's (checked; a candidate that fails is drawn again, up to
  RESAMPLE_ATTEMPTS times); its ``history()`` replays to it.
* A state keeps one attribute, ``_p`` (a :class:`SpielPos`): pyspiel's clone
  (``PyState::Clone``: a new initial state, then ``copy.deepcopy`` of each
  attribute) then makes one deepcopy call, answered by ``SpielPos.__deepcopy__``
  (the engine state's clone; what never changes is shared).

The interface a game implements (its ``openspiel`` module)
----------------------------------------------------------
A chance model: a subclass of :class:`ChanceModel` whose class attributes
name the game (``name``, the registry name; ``short_name``, ``long_name``;
``players``; ``params``) and whose methods make chance explicit: which node
is a chance node (``is_chance``), its outcomes with their probabilities
(``outcomes``), applying one (``apply_outcome``) or a player's action
(``apply_action``), their strings, what a seat sees while a deal is under way
(``dealing``, ``deal_view``, ``deal_text``), and how ``resample`` redeals the
cards hidden from a seat. One model is made per pyspiel game, from the
engine's Game; what a state holds is its position (``Pos``, a SpielPos
subclass with the model's own slots).

:class:`DeckDeal` is the model of a game whose chance is its deals: each deal
is a sequence of chance nodes, one per card, drawn from the deck the game
describes (``deck_kinds``; outcome = the card's kind, probability = copies of
that kind left / cards left). A game then says only how many cards a deal
deals (``deal_size``), how the dealt cards become the engine's position
(``place``), which seat sees each dealt card (``deal_seat``), when a new deal
begins (``deal_number``) and which cards play has shown (``shown``); the
default ``resample`` deals the cards the seat has not seen again and replays
the deal's actions. A whole game module can be::

    class MyDeal(DeckDeal):
        name = "my_game"                              # its threes.registry name
        def deck_kinds(self): return range(52)
        def deal_size(self, st): return 5 * self.game.num_players()
        def place(self, st, dealt): ...               # the engine State dealt `dealt`

    GAME_TYPE, GAME_CLASS = spiel_game(MyDeal)        # what threes.openspiel registers
    __all__ = []

Shithead (threes.shithead.openspiel) is a DeckDeal with its own
resampling (the engine's C resampling and the history's constraints); Three
Thirteen (threes.three_thirteen.openspiel) adds its stock draws to a DeckDeal.
"""
from __future__ import annotations

import abc
import functools
import itertools
import operator
import random
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy as np
import pyspiel

from threes import registry
from threes._engine import GameStateBase
from threes.args import int_arg

#: Candidates a resample_from_infostate tries before it gives up.
RESAMPLE_ATTEMPTS = 1000
#: ``DeckDeal.deal_seat`` of a card every seat sees as it is dealt (a card turned up).
ALL_SEATS = -1
#: Player actions between two cached counts of the information state tensor's ``actions`` block.
_COUNTS_EVERY = 16


# ------------------------------------------------------------------ parameters --
def int_param(params: Dict[str, Any], name: str, lo: int, hi: int) -> int:
    """A game parameter that is a whole number: an int (not a bool, a float or text) in lo..hi;
    TypeError or ValueError naming the parameter and its bounds."""
    return int_arg(params[name], f"game parameter {name!r}", lo, hi)


def str_param(params: Dict[str, Any], name: str) -> str:
    """A game parameter that is text; TypeError naming the parameter otherwise."""
    v = params[name]
    if not isinstance(v, str):
        raise TypeError(f"game parameter {name!r} must be a string, not {type(v).__name__}")
    return v


def bool_param(params: Dict[str, Any], name: str) -> bool:
    """A game parameter that is a bool; TypeError naming the parameter otherwise."""
    v = params[name]
    if not isinstance(v, (bool, np.bool_)):
        raise TypeError(f"game parameter {name!r} must be a bool, not {type(v).__name__}")
    return bool(v)


def game_type(short_name: str, long_name: str, min_players: int, max_players: int,
              params: Dict[str, Any]) -> "pyspiel.GameType":
    """The GameType every game shares: sequential, explicit chance,
    imperfect information, zero-sum, terminal rewards, strings, an
    observation tensor and an information state tensor."""
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
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


# ------------------------------------------------------------------- helpers --
def field(name: str, doc: str = "") -> property:
    """An attribute of a pyspiel state kept in its one attribute ``_p``."""
    get = operator.attrgetter(f"_p.{name}")

    def put(self, value) -> None:
        setattr(self._p, name, value)

    return property(get, put, doc=doc or f"the state's {name} (kept in its one attribute _p)")


#: a state's position object made without __init__ (pyspiel's clone then makes one deepcopy call)
new_pos = object.__new__


def outcomes(left: np.ndarray) -> List[Tuple[int, float]]:
    """A chance node's outcomes from the copies of each card kind left: ``(kind, copies / cards left)`` for
    each kind with a copy left."""
    total = float(left.sum())
    return [(int(k), float(left[k]) / total) for k in np.flatnonzero(left)]


def resample_rng(state: "pyspiel.State", player_id: Any, probability_sampler) -> Tuple[int, int, random.Random]:
    """resample_from_infostate's arguments checked: the seat (SpielError for anything but an int seat of
    the game), the redeal's seed, from ``probability_sampler()`` (53 bits of it) or, without one, from
    Python's ``random``, and a random generator seeded with it."""
    n = state.get_game().num_players()
    if isinstance(player_id, bool) or not isinstance(player_id, (int, np.integer)) or not 0 <= player_id < n:
        raise pyspiel.SpielError(f"player_id must be a seat in 0..{n - 1}, not {player_id!r}")
    seed = random.getrandbits(64) if probability_sampler is None else int(probability_sampler() * 2**53)
    return int(player_id), seed, random.Random(seed)


class ActionLog:
    """The player actions since the current deal began, newest first, as a
    persistent list shared by clones (a node never changes, but for its
    cache): ``seat`` took ``action``; ``depth`` counts the actions up to it.
    Every ``_COUNTS_EVERY``-th node caches the counts up to it (``counts``, an
    array players x actions), so the counts of any node take at most that
    many steps from the last cache."""

    __slots__ = ("prev", "seat", "action", "depth", "counts")

    def __init__(self, prev: Optional["ActionLog"], seat: int, action: int):
        self.prev, self.seat, self.action = prev, seat, action
        self.depth = 1 if prev is None else prev.depth + 1
        self.counts: Optional[np.ndarray] = None

    def __reduce__(self):
        """Pickled flat (pyspiel's serialize() pickles a state's ``_p``): the actions oldest first."""
        pairs = []
        node: Optional[ActionLog] = self
        while node is not None:
            pairs.append((node.seat, node.action))
            node = node.prev
        return _log_of, (pairs[::-1],)

    @staticmethod
    def counts_of(log: Optional["ActionLog"], shape: Tuple[int, int]) -> np.ndarray:
        """How many times each seat took each action up to ``log`` (None: none), a new float32 array."""
        pending = []
        node = log
        while node is not None and node.counts is None:
            pending.append(node)
            node = node.prev
        out = np.zeros(shape, np.float32) if node is None else node.counts.copy()
        for nd in reversed(pending):
            out[nd.seat, nd.action] += 1
            if nd.depth % _COUNTS_EVERY == 0:
                nd.counts = out.copy()
        return out


def _log_of(pairs: Sequence[Tuple[int, int]]) -> Optional[ActionLog]:
    """The ActionLog of (seat, action) pairs, oldest first."""
    log = None
    for seat, action in pairs:
        log = ActionLog(log, seat, action)
    return log


# -------------------------------------------------------- the position of a state --
class SpielPos:
    """Everything a SpielState holds, as its one attribute ``_p``: the game's
    chance ``model``, the engine's state ``inner`` (None while a model has none
    yet), ``log`` (an ActionLog: the player actions since the deal began),
    ``cache`` (the outcomes of the chance node it is at, once asked) and
    ``text`` (``str(state)``, once asked: pyspiel's checks ask it often). A
    model's own position class adds its slots and copies them in ``_copy_into``.
    ``__deepcopy__`` is pyspiel's clone: the engine state's clone, the rest
    shared (the model's first engine state too, which nothing changes)."""

    __slots__ = ("model", "inner", "log", "cache", "text")
    #: slots computed from the others: not pickled, None after unpickling and when ``inner`` is set
    _derived: Tuple[str, ...] = ("cache", "text")

    def __deepcopy__(self, memo) -> "SpielPos":
        c = new_pos(type(self))
        c.model = m = self.model
        inner = self.inner
        c.inner = inner if inner is None or inner is m.first else inner.clone()
        c.log, c.cache, c.text = self.log, self.cache, self.text
        self._copy_into(c)
        return c

    def _copy_into(self, c: "SpielPos") -> None:
        """Copies the slots a subclass adds into the copy ``c``."""

    def __getstate__(self):
        """What pickle keeps (pyspiel's serialize() pickles a state's ``_p``): every slot but ``cache``
        and ``text``, which the state computes again, so that equal states serialize alike."""
        return None, {name: getattr(self, name) for name in _slots(type(self)) if name not in self._derived}

    def __setstate__(self, state) -> None:
        for name, value in state[1].items():
            setattr(self, name, value)
        self.forget()

    def forget(self) -> None:
        """Drops what was computed from the position (the ``_derived`` slots)."""
        for name in self._derived:
            setattr(self, name, None)


@functools.lru_cache(maxsize=None)
def _slots(cls: type) -> Tuple[str, ...]:
    """Every slot of a SpielPos class, its bases' first."""
    return tuple(name for c in reversed(cls.__mro__) for name in getattr(c, "__slots__", ()))


# ------------------------------------------------------------ the chance model --
class ChanceModel:
    """A game's chance made explicit, as OpenSpiel expects: the one thing a
    game's OpenSpiel adapter writes (see the module docstring). One instance
    per pyspiel game (``SpielGame.model``), made from the engine's Game
    (``game``); a state's data is its position (``Pos``, made by
    ``initial()``), which the methods reach as ``st._p`` of the SpielState
    ``st`` they are given.

    Class attributes, what the game is called and takes: ``name`` (its
    threes.registry name: its package's Game and its declared options come
    from there), ``short_name`` (pyspiel's name; default the registry name),
    ``long_name``, ``players`` ((min, max, default); default the package's
    MIN_PLAYERS and MAX_PLAYERS, the default the minimum), ``max_moves_high``
    (the ``max_moves`` parameter's bound), ``params`` (the game's own
    parameters beyond players, options and max_moves, with their defaults:
    Shithead's ``{"rules": "threes"}``), ``max_chance_outcomes`` and
    ``chance_nodes`` (the chance nodes in words, for error messages).

    This base has no chance: a subclass says which nodes are chance nodes
    (``is_chance``), their ``outcomes``, how ``apply_outcome`` applies one and
    ``outcome_string`` names it, and how ``resample`` redeals."""

    name: str = ""
    short_name: Optional[str] = None
    long_name: Optional[str] = None
    players: Optional[Tuple[int, int, int]] = None
    max_moves_high: int = 2**32 - 1
    params: Dict[str, Any] = {}
    max_chance_outcomes: int = 54
    chance_nodes: str = ""
    Pos: type = SpielPos
    #: an engine state every new initial state shares until chance replaces it (never changed), or None
    first: Any = None

    # -- the game's parameters (class level) --------------------------------------
    @classmethod
    def info(cls) -> registry.GameInfo:
        """The game's registry entry."""
        return registry.get(cls.name)

    @classmethod
    def player_bounds(cls) -> Tuple[int, int, int]:
        """(min, max, default) seats: ``players``, or the package's MIN_PLAYERS and MAX_PLAYERS."""
        if cls.players is not None:
            return cls.players
        pkg = cls.info().load()
        return pkg.MIN_PLAYERS, pkg.MAX_PLAYERS, pkg.MIN_PLAYERS

    @classmethod
    def defaults(cls) -> Dict[str, Any]:
        """Every parameter with its default, in order: players, the game's own, its options, max_moves."""
        return {"players": cls.player_bounds()[2], **cls.params,
                **{o.name: o.to_param(o.default) for o in cls.info().options}, "max_moves": 0}

    @classmethod
    def game_type(cls) -> "pyspiel.GameType":
        """The pyspiel GameType of the game (made once per model class)."""
        return _game_type_of(cls)

    @classmethod
    def make_game(cls, params: Dict[str, Any]) -> Any:
        """The engine's Game of the parameters (every one given, defaults filled in): each checked
        (ValueError for an unknown one), then the package's ``Game(players, max_moves=..., **own,
        **options)``."""
        defaults = cls.defaults()
        unknown = set(params) - set(defaults)
        if unknown:
            raise ValueError(f"unknown {cls.short_name or cls.name} parameters {sorted(unknown)}: the parameters "
                             f"are {', '.join(defaults)}")
        lo, hi, _ = cls.player_bounds()
        players = int_param(params, "players", lo, hi)
        own = cls.check_params(params)
        opts = {o.name: o.from_param(params[o.name], f"game parameter {o.name!r}") for o in cls.info().options}
        max_moves = int_param(params, "max_moves", 0, cls.max_moves_high) or None
        return cls.info().load().Game(players, max_moves=max_moves, **own, **opts)

    @classmethod
    def check_params(cls, params: Dict[str, Any]) -> Dict[str, Any]:
        """The game's own parameters (``params``' names) checked, as its Game takes them: each of its
        default's type (text, a bool or an int)."""
        out = {}
        for name, default in cls.params.items():
            if isinstance(default, str):
                out[name] = str_param(params, name)
            elif isinstance(default, bool):
                out[name] = bool_param(params, name)
            else:
                out[name] = int_param(params, name, -2**63, 2**63 - 1)
        return out

    # -- the game ------------------------------------------------------------------
    def __init__(self, game: Any):
        self.game = game
        self._obs_size = int(np.prod(game.observation_tensor_shape()))

    def __reduce__(self):
        """Pickled as its class and engine Game (pyspiel's serialize() pickles a state's ``_p``)."""
        return type(self), (self.game,)

    def max_moves(self) -> int:
        """The engine's move cap (the most player actions a game has)."""
        cap = getattr(self.game, "max_game_length", None)
        return int(cap()) if cap is not None else int(self.game.new_initial_state(0).max_game_length())

    def max_chance_nodes(self) -> int:
        """The most chance nodes a game has."""
        return 0

    def max_game_length(self) -> int:
        """pyspiel's max_game_length: the move cap and the chance nodes."""
        return self.max_moves() + self.max_chance_nodes()

    def observation_size(self) -> int:
        """The length of the engine's observation tensor."""
        return self._obs_size

    def observation_layout(self) -> Optional[Dict[str, Tuple[int, int]]]:
        """The observation tensor's named blocks for the observer's ``dict``, name -> (offset, size), or
        None (the default): one block, ``observation`` (pyspiel copies each block on its own, so one is the
        fastest)."""
        return None

    # -- a state ---------------------------------------------------------------------
    def initial(self) -> SpielPos:
        """The position of a new initial state (pyspiel makes one on every clone too: keep it cheap)."""
        p = new_pos(self.Pos)
        p.model, p.inner, p.log, p.cache, p.text = self, self.game.new_initial_state(0), None, None, None
        return p

    def is_chance(self, st: "SpielState") -> bool:
        """Whether ``st`` is a chance node."""
        return False

    def dealing(self, st: "SpielState") -> bool:
        """Whether a deal is under way: the engine state is not the game's position yet, so the strings
        come from ``deal_view`` and ``deal_text`` and the tensors are zeros."""
        return False

    def note(self, st: "SpielState") -> str:
        """A line the strings of a chance node that is not a deal end with ("" for none)."""
        return ""

    def outcomes(self, st: "SpielState") -> List[Tuple[int, float]]:
        """The chance node's outcomes, ``(outcome, probability)`` in increasing outcome order."""
        raise pyspiel.SpielError("this game has no chance nodes")

    def apply_outcome(self, st: "SpielState", outcome: int) -> None:
        """Applies a chance outcome (SpielError, nothing changed, for one that is not possible)."""
        raise pyspiel.SpielError("this game has no chance nodes")

    def outcome_string(self, st: "SpielState", outcome: int) -> str:
        """A chance outcome in words."""
        return str(outcome)

    def apply_action(self, st: "SpielState", action: int) -> None:
        """Applies the player to move's action (the engine's; an illegal one raises, nothing changed)."""
        st._p.inner.apply_action(action)

    def deal_view(self, st: "SpielState", player: int) -> str:
        """What ``player`` sees while a deal is under way (its observation and information state string)."""
        return "dealing"

    def deal_text(self, st: "SpielState") -> str:
        """``str(state)`` while a deal is under way."""
        return "dealing"

    def resample(self, st: "SpielState", player: int, seed: int, rng: random.Random
                 ) -> Iterator[Optional["SpielState"]]:
        """Candidates for ``st.resample_from_infostate(player)``: states with the same player actions and
        new chance outcomes where ``player`` did not see them, which replay from their history (None for a
        candidate that failed: an action illegal on it). SpielState takes the first whose information
        state for ``player`` is ``st``'s. ``seed`` and ``rng`` are the draw's randomness."""
        raise pyspiel.SpielError(f"resample_from_infostate is not supported by {type(self).name!r}")
        yield  # pragma: no cover  (a generator)


@functools.lru_cache(maxsize=None)
def _game_type_of(model: type) -> "pyspiel.GameType":
    info = model.info()
    lo, hi, _ = model.player_bounds()
    return game_type(model.short_name or info.name, model.long_name or f"{info.title}, threes-core engine", lo, hi,
                     model.defaults())


# -------------------------------------------------------------- deals of cards --
class DealPos(SpielPos):
    """The position of a DeckDeal's state: SpielPos and this deal's cards
    ``dealt`` (kinds, as bytes, in deal order; kept through play), ``left``
    (copies of each kind left to deal while the deal is under way, else None:
    the model's shared read-only counts until a card is dealt, then the
    state's own copy) and ``start`` (the state as this deal began, a clone
    shared by clones, never changed; None for the game's first deal)."""

    __slots__ = ("dealt", "left", "start")

    def _copy_into(self, c: "DealPos") -> None:
        c.dealt, c.start = self.dealt, self.start
        left = self.left
        c.left = left if left is None or not left.flags.writeable else left.copy()


class DeckDeal(ChanceModel, abc.ABC):
    """The chance model of a game whose chance is its deals: each deal is a
    sequence of chance nodes, one per card dealt, drawn from the deck
    (``deck_kinds``; outcome = the card's kind, probability = copies of that
    kind left / cards left), and once ``deal_size`` cards are dealt the
    engine's position is ``place(st, dealt)``. A deal begins with a new game
    and whenever a player's action changes ``deal_number`` (a new round).

    A game says: ``deck_kinds`` (one kind per card of the deck), ``deal_size``
    (default: the whole deck), ``place``, and as it needs ``first_inner`` (the
    engine state before the first deal is placed: by default the engine's own
    deal of seed 0, hidden while it is replaced), ``deal_number``,
    ``deal_seat`` (who sees each dealt card), ``card`` (a kind's name),
    ``shown`` (what play has shown since), ``deal_view`` and ``deal_text``.

    The default ``resample`` (a game whose only chance is its deals, each card
    of one copy): the cards of this deal the seat has not seen (not its own,
    not dealt face up, not ``shown`` since) are dealt again from the cards it
    has not seen (the rest of the deck, undealt cards included), uniformly,
    and the deal's actions replayed from its start."""

    Pos = DealPos

    def __init__(self, game: Any):
        super().__init__(game)
        self.first = self.first_inner()
        kinds = np.asarray(list(self.deck_kinds()), dtype=np.int64)
        counts = np.bincount(kinds, minlength=self.max_chance_outcomes)
        counts.setflags(write=False)
        #: copies of each kind in the deck (read-only; a state copies it once it deals a card)
        self.deck_counts = counts
        #: the cards of the deck
        self.deck_size = int(counts.sum())
        #: each kind's name (``card``), looked up once
        self.card_names = [self.card(k) for k in range(self.max_chance_outcomes)]

    # -- what the game describes ------------------------------------------------------
    @abc.abstractmethod
    def deck_kinds(self) -> Iterable[int]:
        """The deck, one kind (an outcome, 0 .. max_chance_outcomes-1) per card (every game says it)."""

    def deal_size(self, st: "SpielState") -> int:
        """How many cards the deal under way deals (chance nodes): by default the whole deck."""
        return self.deck_size

    def place(self, st: "SpielState", dealt: bytes) -> Any:
        """The engine's state once the deal's cards are ``dealt`` (kinds, in deal order), from the engine
        state of ``st`` (``first_inner()`` for the first deal, the engine's own next deal for a later one;
        every game says it)."""

    def first_inner(self) -> Any:
        """The engine state a new game holds while its first deal is under way (shared, never changed):
        by default the engine's deal of seed 0, which ``place`` replaces."""
        return self.game.new_initial_state(0)

    def deal_number(self, inner: Any) -> Any:
        """Which deal the engine state is in (a new value after an action begins a deal); None (the
        default): one deal, at the start."""
        return None

    def deal_seat(self, st: "SpielState", i: int) -> Optional[int]:
        """Who sees the deal's card ``i`` as it is dealt: a seat, ALL_SEATS (a card turned up) or None
        (no one). By default round the table from seat 0."""
        return i % self.game.num_players()

    def card(self, kind: int) -> str:
        """A card kind's name in strings."""
        return str(kind)

    def shown(self, st: "SpielState", kind: int) -> bool:
        """Whether play has since shown the dealt card of ``kind`` to every seat (default resample)."""
        return False

    # -- the chance nodes -----------------------------------------------------------------
    def initial(self) -> DealPos:
        """A new game: its first deal under way."""
        p = new_pos(self.Pos)
        p.model, p.inner, p.log, p.cache, p.text = self, self.first, None, None, None
        p.dealt, p.left, p.start = b"", self.deck_counts, None
        return p

    def is_chance(self, st: "SpielState") -> bool:
        """A chance node while a deal is under way."""
        return st._p.left is not None

    def dealing(self, st: "SpielState") -> bool:
        """While a deal is under way."""
        return st._p.left is not None

    def outcomes(self, st: "SpielState") -> List[Tuple[int, float]]:
        """The kinds left to deal, each with copies left / cards left."""
        return outcomes(st._p.left)

    def apply_outcome(self, st: "SpielState", kind: int) -> None:
        """Deals a card of ``kind``; the deal's last card places it (``place``)."""
        p = st._p
        left = p.left
        if not (0 <= kind < len(left) and left[kind] > 0):
            raise pyspiel.SpielError(f"no card of kind {kind} is left to deal")
        if not p.dealt and len(st.history()):
            # a later deal's first card: keep the state as the deal begins (its history complete: pyspiel
            # adds the card to it after _apply_action), without the previous deal's start
            p.start = None
            p.start = st.clone()
        if not left.flags.writeable:  # still the model's shared counts
            left = p.left = left.copy()
        left[kind] -= 1
        p.dealt += bytes((kind,))
        if len(p.dealt) == self.deal_size(st):
            p.inner = self.place(st, p.dealt)
            p.left = None

    def outcome_string(self, st: "SpielState", kind: int) -> str:
        """``deal <card>``."""
        return f"deal {self.card_names[kind]}"

    def apply_action(self, st: "SpielState", action: int) -> None:
        """The engine's action; when it begins a new deal (``deal_number`` changes and the game goes on),
        the deal is under way by chance."""
        p = st._p
        inner = p.inner
        before = self.deal_number(inner)
        inner.apply_action(action)
        if before is not None and not inner.is_terminal() and self.deal_number(inner) != before:
            p.dealt, p.left = b"", self.deck_counts

    def deal_view(self, st: "SpielState", player: int) -> str:
        """``dealing k/N; dealt to you: ...; turned up: ...``."""
        dealt = st._p.dealt
        mine = [self.card(k) for i, k in enumerate(dealt) if self.deal_seat(st, i) == player]
        up = [self.card(k) for i, k in enumerate(dealt) if self.deal_seat(st, i) == ALL_SEATS]
        return (f"dealing {len(dealt)}/{self.deal_size(st)}; dealt to you: {' '.join(mine) or '-'}; "
                f"turned up: {' '.join(up) or '-'}")

    def deal_text(self, st: "SpielState") -> str:
        """``dealing: k of N cards dealt``."""
        return f"dealing: {len(st._p.dealt)} of {self.deal_size(st)} cards dealt"

    def resample(self, st: "SpielState", player: int, seed: int, rng: random.Random
                 ) -> Iterator[Optional["SpielState"]]:
        """The default redeal (see the class): this deal's cards hidden from ``player`` dealt again from
        the cards it has not seen, the deal's actions replayed from its start."""
        p = st._p
        start, dealt = p.start, p.dealt
        history = st.history()
        first = len(start.history()) if start is not None else 0
        after = history[first + len(dealt):]
        keep = [i for i in range(len(dealt))
                if self.deal_seat(st, i) in (player, ALL_SEATS) or self.shown(st, dealt[i])]
        hidden = sorted(set(range(len(dealt))) - set(keep))
        pool = self.deck_counts.copy()
        for i in keep:
            pool[dealt[i]] -= 1
        cards = [k for k in range(len(pool)) for _ in range(int(pool[k]))]
        while True:
            new = list(dealt)
            for i, kind in zip(hidden, rng.sample(cards, len(hidden))):
                new[i] = kind
            out = start.clone() if start is not None else st.get_game().new_initial_state()
            try:
                for a in new + after:
                    out.apply_action(a)
            except (pyspiel.SpielError, ValueError):  # an action the new cards make illegal
                yield None
                continue
            out._p.start = start
            yield out


# ----------------------------------------------------------- the pyspiel classes --
class SpielGame(pyspiel.Game):
    """The pyspiel game of any registered game: its parameters are the chance
    model's (``model_class``: players, the game's own, its declared options,
    max_moves; see the module docstring), its engine Game is ``threes_game``,
    its chance model ``model``; states are ``state_class``, observers
    ``observer_class``."""

    model_class: type = ChanceModel
    state_class: type = None  # type: ignore[assignment]  # SpielState, set below
    observer_class: type = None  # type: ignore[assignment]  # EngineObserver, set below

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        m = self.model_class
        p = m.defaults()
        p.update(params or {})
        g = m.make_game(p)
        model = m(g)
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(),
            max_chance_outcomes=m.max_chance_outcomes,
            num_players=g.num_players(),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=model.max_game_length(),
        )
        super().__init__(m.game_type(), info, p)
        # Attributes after the base constructor; states keep the model they need.
        self.threes_game = g
        self.model = model

    def new_initial_state(self) -> "SpielState":
        """A new game, its first deal under way (chance nodes)."""
        return self.state_class(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "EngineObserver":
        """An observer (``observer_class``; what ``open_spiel.python.observation.make_observation`` asks
        for): with ``iig_obs_type.perfect_recall`` the information state, else the observation;
        ``iig_obs_type`` defaults to ``IIGObservationType(perfect_recall=False)``, and ``params`` must be
        empty."""
        return self.observer_class(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class SpielState(pyspiel.State):
    """The pyspiel state of any registered game: chance nodes as its chance
    model says, decisions on the engine's state ``inner`` (see the module
    docstring). Its one attribute is ``_p`` (a SpielPos)."""

    @property
    def inner(self) -> Any:
        """The engine's state: the position once a deal is placed (the model's first state, or None,
        during the first deal). Setting it puts another position in its place."""
        return self._p.inner

    @inner.setter
    def inner(self, value: Any) -> None:
        self._p.inner = value
        self._p.forget()

    def __init__(self, game: SpielGame):
        pyspiel.State.__init__(self, game)  # (not super(): this runs on every pyspiel clone too)
        self._p = game.model.initial()

    @property
    def model(self) -> ChanceModel:
        """The game's chance model."""
        return self._p.model

    # -- the pyspiel API ---------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move; CHANCE at a chance node, TERMINAL at the end."""
        p = self._p
        if p.model.is_chance(self):
            return pyspiel.PlayerId.CHANCE
        cp = p.inner.current_player()
        return pyspiel.PlayerId.TERMINAL if cp < 0 else cp

    def _legal_actions(self, player: int) -> List[int]:
        assert player >= 0
        return self._p.inner.legal_actions()

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """The chance node's outcomes, ``(outcome, probability)``; SpielError elsewhere."""
        p = self._p
        m = p.model
        if not m.is_chance(self):
            words = f" ({m.chance_nodes})" if m.chance_nodes else ""
            raise pyspiel.SpielError(f"chance_outcomes is for chance nodes{words}; this is a decision or terminal "
                                     "node")
        if p.cache is None:
            p.cache = m.outcomes(self)
        return list(p.cache)

    def _apply_action(self, action: int) -> None:
        p = self._p
        m = p.model
        a = int(action)
        if m.is_chance(self):
            m.apply_outcome(self, a)
        else:
            log = ActionLog(p.log, p.inner.current_player(), a)
            m.apply_action(self, a)
            p.log = None if m.dealing(self) else log
        p.cache = p.text = None

    def _action_to_string(self, player: int, action: int) -> str:
        p = self._p
        if player == pyspiel.PlayerId.CHANCE:
            return p.model.outcome_string(self, int(action))
        if p.inner is None:
            return str(p.model.game.decode_action(action))
        return p.inner.action_to_string(action)

    def is_terminal(self) -> bool:
        """Whether the game is over (never at a chance node)."""
        p = self._p
        return p.inner is not None and not p.model.is_chance(self) and p.inner.is_terminal()

    def returns(self) -> List[float]:
        """The engine's returns at the end, zeros before."""
        p = self._p
        if not self.is_terminal():
            return [0.0] * p.model.game.num_players()
        return list(p.inner.returns())

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> "SpielState":
        """A state ``player_id`` cannot tell from this one, made as
        OpenSpiel's own games make it: new chance outcomes where the player
        did not see them (the chance model's ``resample``), the same player
        actions; its information state for the player is this state's, its
        ``history()`` replays to it from ``new_initial_state()`` and the true
        hidden cards are nowhere in it. SpielError at a chance node, for a
        seat that is not an int of the game, or when no candidate fits in
        RESAMPLE_ATTEMPTS."""
        m = self._p.model
        if m.is_chance(self):
            raise pyspiel.SpielError("resample_from_infostate at a chance node is not supported")
        player, seed, rng = resample_rng(self, player_id, probability_sampler)
        want = self.information_state_string(player)
        for out in itertools.islice(m.resample(self, player, seed, rng), RESAMPLE_ATTEMPTS):
            if out is not None and out.information_state_string(player) == want:
                return out
        raise pyspiel.SpielError(f"resample_from_infostate: no redeal consistent with the history in "
                                 f"{RESAMPLE_ATTEMPTS} attempts")

    def __deepcopy__(self, memo) -> "SpielState":
        """pyspiel's clone (the history kept), which deep-copies ``_p``."""
        return self.clone()

    def observation_tensor(self, player: Optional[int] = None) -> List[float]:
        """pyspiel's observation_tensor (a list of floats, the default
        observer's tensor), answered here: pyspiel's own path builds a new
        initial state on every call to learn the tensor's shape. During a
        deal, zeros (as the observer writes). SpielError for a seat that is
        not an int of the game."""
        player = self._seat(player, "observation_tensor")
        p = self._p
        if p.model.dealing(self):
            return [0.0] * p.model.observation_size()
        as_list = getattr(p.inner, "_observation_list", None)
        return as_list(player) if as_list is not None else p.inner.observation_tensor(player).tolist()

    def information_state_tensor(self, player: Optional[int] = None) -> List[float]:
        """pyspiel's information_state_tensor (a list of floats, the
        information state observer's tensor: the observation tensor, then the
        ``actions`` counts, see the module docstring), answered here as
        ``observation_tensor`` is. SpielError for a seat that is not an int of
        the game."""
        player = self._seat(player, "information_state_tensor")
        m = self._p.model
        out = np.empty(m.observation_size() + m.game.num_players() * m.game.num_distinct_actions(), np.float32)
        self._information_state_tensor(player, out)
        return out.tolist()

    def __str__(self) -> str:
        p = self._p
        if p.text is None:
            m = p.model
            if m.dealing(self):
                p.text = m.deal_text(self)
            else:
                note = m.note(self)
                p.text = str(p.inner) + (f"\n{note}" if note else "")
        return p.text

    # -- what a seat sees, for the observer ---------------------------------------------------
    def _seat(self, player: Any, what: str) -> int:
        n = self._p.model.game.num_players()
        if player is None:
            player = self.current_player()
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < n:
            raise pyspiel.SpielError(f"{what} needs a seat in 0..{n - 1}, not {player!r}")
        return int(player)

    def _observation_string(self, player: int, perfect_recall: bool) -> str:
        p = self._p
        m = p.model
        if m.dealing(self):
            return m.deal_view(self, player)
        inner = p.inner
        if perfect_recall:
            text = inner.information_state_string(player)
        elif isinstance(inner, GameStateBase):  # the text of State.observation_string, written in C
            text = _observation_text(inner, player)
        else:
            text = inner.observation_string(player)
        note = m.note(self)
        return text + (f"\n{note}" if note else "")

    def _observation_tensor(self, player: int, out: np.ndarray) -> None:
        p = self._p
        if player < 0 or p.model.dealing(self):
            out.fill(0)
        elif out.dtype == np.float32 and out.flags.c_contiguous and out.flags.writeable:
            p.inner.observation_tensor(player, out=out)
        else:
            out[:] = p.inner.observation_tensor(player)

    def _information_state_tensor(self, player: int, out: np.ndarray) -> None:
        p = self._p
        m = p.model
        if player < 0 or m.dealing(self):
            out.fill(0)
        else:
            k = m.observation_size()
            self._observation_tensor(player, out[:k])
            g = m.game
            out[k:] = ActionLog.counts_of(p.log, (g.num_players(), g.num_distinct_actions())).ravel()


#: the observation text as every game's C writes it (th_game.observation_text): the text of each game's
#: State.observation_string, without the Python objects it may build
_observation_text = GameStateBase.observation_string


class EngineObserver:
    """pyspiel observer of every game. Without perfect_recall: the
    observation tensor (``dict``: the engine's blocks, or ``observation``)
    and the observation string. With perfect_recall: the information state
    tensor (the observation's blocks and ``actions``, players x actions) and
    the information state string (observation plus public history). During a
    deal the tensors are zeros and the strings are what the seat has been
    dealt; at a stock draw the string ends with ``drawing from the stock``."""

    def __init__(self, game: SpielGame, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        m = game.model
        size = m.observation_size()
        n, actions = m.game.num_players(), m.game.num_distinct_actions()
        self.tensor = np.zeros(size + (n * actions if self._perfect_recall else 0), np.float32)
        self.dict: Dict[str, np.ndarray] = _blocks(self.tensor[:size], m.observation_layout())
        if self._perfect_recall:
            self.dict["actions"] = self.tensor[size:].reshape(n, actions)

    def set_from(self, state: SpielState, player: int) -> None:
        """Writes ``player``'s tensor of ``state`` into ``tensor`` (zeros during a deal)."""
        if self._perfect_recall:
            state._information_state_tensor(player, self.tensor)
        else:
            state._observation_tensor(player, self.tensor)

    def string_from(self, state: SpielState, player: int) -> str:
        """``player``'s observation string of ``state`` (with perfect_recall its information state string);
        during a deal, what the player has been dealt and seen dealt."""
        return state._observation_string(player, self._perfect_recall)


def _blocks(tensor: np.ndarray, layout: Optional[Dict[str, Tuple[int, int]]]) -> Dict[str, np.ndarray]:
    """The tensor's named views, in order (pyspiel writes them one after another: they must tile it), or the
    whole as ``observation`` when there is no layout or it does not tile the tensor."""
    if layout:
        at, out = 0, {}
        for name, (offset, size) in sorted(layout.items(), key=lambda kv: kv[1][0]):
            if offset != at:
                break
            out[name] = tensor[offset:offset + size]
            at += size
        else:
            if at == tensor.size:
                return out
    return {"observation": tensor}


SpielGame.state_class = SpielState
SpielGame.observer_class = EngineObserver


def spiel_game(model: type, game_name: Optional[str] = None, state_name: Optional[str] = None
               ) -> Tuple["pyspiel.GameType", type]:
    """``GAME_TYPE, GAME_CLASS`` of a game's adapter made from its chance model alone: a SpielGame and a
    SpielState subclass named after the game (``TitleGame``, ``TitleState``) in the model's module."""
    title = registry.get(model.name).title.replace(" ", "")
    mod = model.__module__
    state_cls = type(state_name or f"{title}State", (SpielState,),
                     {"__module__": mod, "__doc__": f"The pyspiel state of {model.name} (a SpielState)."})
    game_cls = type(game_name or f"{title}Game", (SpielGame,),
                    {"__module__": mod, "model_class": model, "state_class": state_cls,
                     "__doc__": f"The pyspiel game of {model.name} (a SpielGame over {model.__name__})."})
    return model.game_type(), game_cls
