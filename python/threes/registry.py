"""The registry of games: the one place where generic code (bots, tournaments,
the command line, pictures, the adapters) finds a game.

Every game is a package (``threes.shithead``, ``threes.three_thirteen``) that
offers the same contract: ``Game(num_players, ...)`` with
``new_initial_state(seed)``; a ``State`` with the OpenSpiel-style methods
(``current_player``, ``legal_actions``, ``apply_action``, ``clone``,
``returns``, ``is_terminal``, ``is_truncated``, ``is_stalemate`` (how a game
ended: threes.places.end_reason), ``observation_tensor``, ``information_state_string``,
``resample_from_infostate``, ``to_dict``/``from_dict`` ...); ``POLICIES``,
``rollout`` (one game from a state: each seat's return, the call a search
makes) and ``rollouts``, its binding's batch and rollout registered with
threes.batches.register as the package loads (threes.rollouts and
threes.rollout then take its Game and State). Generic code asks the registry,
never which game it holds:

>>> from threes import registry
>>> registry.names()
('shithead', 'three_thirteen')
>>> registry.get("three-thirteen").title
'Three Thirteen'
>>> state = registry.get("shithead").load().Game(4).new_initial_state(seed=1)
>>> registry.game_of(state).name
'shithead'

A new game registers itself with :func:`register` (its package, a title and
the names it answers to); nothing else in the library changes. A game whose
``Game`` takes keyword options declares them once, as its package's
``OPTIONS`` (threes.options.Option: name, kind, default, meaning, the spec's
section); ``GameInfo.options`` hands them to every front end.

Optional hooks a game's entry may name (``"module:function"`` strings,
imported on first use by :meth:`GameInfo.hook`): ``svg`` draws a state
(``render(state, observer=None, size=None) -> str``, used by
``threes.svg.render``). ``first_place`` and ``last_place`` word the
tournament table ("mean place (0 = first out)", "shithead rate"). ``bots``
names the game's bots beyond its C policies, as ``(spec, "module:Class")``
pairs; ``threes.bots.make_bot(spec)`` builds them as ``Class(seed=...)``
(Shithead: ``"net"``, the packaged PPO policy). ``cli`` names the module of
the game's ``threes`` commands (``make_game``, ``rules``, ``simulate``,
``play``: threes.ui.cli.GAME_COMMANDS); a game that declares its options gets
the generic ``make_game`` and ``rules`` over them. ``openspiel`` names the
module of the game's OpenSpiel adapter (``GAME_TYPE``, ``GAME_CLASS`` and its
``__all__``), which ``import threes.openspiel`` registers with pyspiel.
``web`` names the module that reads a web table's rules (``parse_options``,
``build_game``, ``lobby``: threes.shithead.web, presets with house rules); a
game without one is served from the options it declares.

The hooks for people (``threes play``, the web table), each game's
``describe`` module (``threes.shithead.describe``,
``threes.three_thirteen.describe``): ``narrate`` tells one event of
threes.events in a sentence from a seat's point of view
(``describe_event(event, viewer=None, names=None) -> str``: "you" for the
viewer's seat, ``names[seat]`` or "seat N" for the others, a private card
named to its owner only); ``narrate_all`` tells a move's events as
sentences, joining those that read as one
(``describe_events(events, viewer=None, names=None) -> list of str``);
``explain`` says why each move is or is not available to a seat now
(``explain_moves(state, seat) -> list of str``); ``rules_text`` gives the
rules of a table in words (``rules_text(state) -> list of str``). ``aim``
is the game's aim in one sentence ("be rid of all your cards ..."), which
``threes rules`` and ``threes play`` state before anything else.

>>> narrate = registry.get("shithead").hook("narrate")
>>> from threes.events import Event
>>> narrate(Event("again", seat=1), viewer=1)
'you play again'
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Dict, Optional, Tuple

__all__ = ["GameInfo", "register", "get", "names", "game_of", "default", "AnyState"]

#: A state of any registered game, for the annotations of generic code (which names no game:
#: :func:`game_of` tells each state's game).
AnyState = Any


@dataclass(frozen=True)
class GameInfo:
    """One registered game."""

    name: str  #: the registry name, also the package name under threes
    title: str  #: for people: "Shithead", "Three Thirteen"
    module: str  #: the package that implements the contract
    aliases: Tuple[str, ...] = field(default=())  #: other names it answers to (CLI spellings)
    first_place: str = "first"  #: what place 0 means, for tables: "first out", "lowest total"
    last_place: str = "last place"  #: what the last place is called: "shithead", "last place"
    svg: Optional[str] = None  #: "module:function" that draws a state as SVG (threes.svg.render)
    bots: Tuple[Tuple[str, str], ...] = field(default=())  #: (spec, "module:Class") bots beyond the policies
    narrate: Optional[str] = None  #: "module:function" telling one event in words (describe_event)
    narrate_all: Optional[str] = None  #: "module:function" telling a move's events in words (describe_events)
    explain: Optional[str] = None  #: "module:function": why each move is or is not available (explain_moves)
    rules_text: Optional[str] = None  #: "module:function": the rules of a table in words (rules_text)
    cli: Optional[str] = None  #: the module of the game's ``threes`` commands (threes.ui.cli.GAME_COMMANDS)
    openspiel: Optional[str] = None  #: the module of the game's OpenSpiel adapter (GAME_TYPE, GAME_CLASS)
    web: Optional[str] = None  #: the module of the game's web-table rules (parse_options, build_game, lobby)
    aim: str = ""  #: the game's aim in one sentence for people, which ``threes rules`` and ``threes play`` state first

    def bot_factory(self, spec: str) -> Optional[Callable[..., Any]]:
        """The class of the game's bot named `spec` (see ``bots``), or None."""
        for name, target in self.bots:
            if name == spec:
                return _resolve(target)
        return None

    def load(self) -> ModuleType:
        """The game's package (imported on first use)."""
        return importlib.import_module(self.module)

    @property
    def options(self) -> Tuple[Any, ...]:
        """The game's options as its ``Game`` takes them as keywords (its package's ``OPTIONS``,
        threes.options.Option; empty for a game whose rules come as presets, Shithead's Rules)."""
        return tuple(getattr(self.load(), "OPTIONS", ()))

    @property
    def policies(self) -> Tuple[str, ...]:
        """The game's C policy names (its package's ``POLICIES``)."""
        return tuple(self.load().POLICIES)

    def hook(self, name: str) -> Any:
        """The function a hook field names (e.g. ``hook("svg")``), or the module
        it names when it is a module path (``cli``); None when the game does not
        provide it."""
        target = getattr(self, name)
        if target is None:
            return None
        return _resolve(target) if ":" in target else importlib.import_module(target)

    def variant(self, game: Any) -> str:
        """A short label for a game object of this game: its rule set's name
        when it has one (Shithead: "threes", "classic" ...), else the game's name."""
        rules = getattr(game, "rules", None)
        name = getattr(rules, "name", None)
        return name if isinstance(name, str) else self.name


def _resolve(target: str) -> Any:
    """The object a "module:attribute" string names (imported now)."""
    mod, _, attr = target.partition(":")
    return getattr(importlib.import_module(mod), attr)


_GAMES: Dict[str, GameInfo] = {}
_NAMES: Dict[str, str] = {}


def register(info: GameInfo) -> GameInfo:
    """Adds a game; its name and aliases must be new."""
    for n in (info.name,) + tuple(info.aliases):
        key = n.lower()
        if key in _NAMES and _NAMES[key] != info.name:
            raise ValueError(f"the game name {n!r} is already taken by {_NAMES[key]!r}")
    _GAMES[info.name] = info
    for n in (info.name,) + tuple(info.aliases):
        _NAMES[n.lower()] = info.name
    return info


def names() -> Tuple[str, ...]:
    """The registered games' names, in registration order."""
    return tuple(_GAMES)


def get(name: str) -> GameInfo:
    """The game registered under `name` or one of its aliases (case-insensitive)."""
    if not isinstance(name, str):
        raise TypeError(f"a game name is a string, not {type(name).__name__}")
    key = _NAMES.get(name.strip().lower())
    if key is None:
        raise ValueError(f"unknown game {name!r}: the games are {', '.join(names())}")
    return _GAMES[key]


def default() -> GameInfo:
    """The game a front end plays when none is named: the first registered (Shithead, whose
    ``Game(num_players, rules, max_moves)`` takes a rule set)."""
    return _GAMES[next(iter(_GAMES))]


def game_of(obj: Any) -> GameInfo:
    """The game a Game, State (or any object of a game's package) belongs to;
    a GameInfo is its own game, a game's package (module) is that game."""
    if isinstance(obj, GameInfo):
        return obj
    mod = obj.__name__ if isinstance(obj, ModuleType) else type(obj).__module__
    for info in _GAMES.values():
        if mod == info.module or mod.startswith(info.module + "."):
            return info
    raise TypeError(f"{type(obj).__name__} does not belong to a registered game")


register(GameInfo("shithead", "Shithead", "threes.shithead", aliases=("threes",), first_place="first out",
                  aim="be rid of all your cards (your hand, then your face-up cards, then your face-down ones); "
                      "the last player left holding cards is the shithead",
                  last_place="shithead", svg="threes.shithead.svg:render",
                  bots=(("net", "threes.shithead.net:NetBot"),),
                  narrate="threes.shithead.describe:describe_event",
                  narrate_all="threes.shithead.describe:describe_events",
                  explain="threes.shithead.describe:explain_moves",
                  rules_text="threes.shithead.describe:rules_text", cli="threes.shithead.cli",
                  openspiel="threes.shithead.openspiel", web="threes.shithead.web"))
register(GameInfo("three_thirteen", "Three Thirteen", "threes.three_thirteen", aliases=("three-thirteen", "3-13"),
                  aim="the lowest total after 11 rounds; each round, meld your hand into sets (3 or more of one "
                      "rank) and runs (3 or more in a row of one suit) and go out, since the cards left out of "
                      "melds score against you",
                  first_place="lowest total", last_place="last place", svg="threes.three_thirteen.svg:render",
                  narrate="threes.three_thirteen.describe:describe_event",
                  narrate_all="threes.three_thirteen.describe:describe_events",
                  explain="threes.three_thirteen.describe:explain_moves",
                  rules_text="threes.three_thirteen.describe:rules_text", cli="threes.three_thirteen.cli",
                  openspiel="threes.three_thirteen.openspiel"))
