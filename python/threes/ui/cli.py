"""The ``threes`` command line.

    threes simulate [--game G] [--games N] [--players N] [--rules PRESET] [--set NAME=VALUE ...]
                    [--policy P[,P...]] [--threads N | --ray [ADDRESS]] [--seed S] [--json FILE|-]
                    [--plot FILE.png]
    threes play [--game G] [--players N] [--rules PRESET] [--bots SPEC[,SPEC...]] [--seat N] [--seed S]
    threes tournament [--game G] --bots SPEC,SPEC,... [--games N] [--rules PRESET] [--seed S]
                      [--workers N | --ray [ADDRESS]] [--json FILE|-]
    threes rules [PRESET | GAME] [--game G] [--players N] [--set NAME=VALUE ...]

``--game`` takes any name or alias of threes.registry (``threes`` or
``shithead``, the default; ``three-thirteen``, ``three_thirteen`` or
``3-13``); rules, simulate and play then run that game's command, from the
module its registry entry names as ``cli`` (threes.shithead.cli,
threes.three_thirteen.cli), or the generic one: this module names no game.
``threes rules`` also takes a game's name as its positional argument
(``threes rules three-thirteen``); it states the game's aim (the registry's
``aim``), then every rule with its value and what that value means.

``--json`` means one thing in every command: ``--json FILE`` writes the
JSON to FILE (checked before the work; the table is printed as well),
``--json -`` (or a bare ``--json``) writes it to standard output, alone.

Bot specs: a policy of the game (Shithead: random, greedy, heuristic; Three
Thirteen: random, greedy), a game's own bot (Shithead, 4 players: net, the
packaged PPO policy), ismcts, ismcts:ITERATIONS.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from contextlib import nullcontext
from typing import Any, Dict, List, Optional, Sequence, Tuple

from rich.console import Console
from rich.table import Table
from rich.text import Text

from threes._version import __version__
from threes import registry
from threes._engine import MAX_THREADS
from threes.args import parse_count
from threes.bots import available_bots, bot_unavailable, make_bot
from threes.errors import needs_extra
from threes.ui.text import card_face, end_note, rank_face

_RED = {"d", "h", "r"}


class CliError(Exception):
    """A bad argument or value: printed as ``threes: error: ...``, exit code 2."""


# ---------------------------------------------------- checks before the work --
def _check_output(path: str, option: str) -> str:
    """Checks, before any work, that a file can be written at `path`: not a
    directory, its directory exists and is writable, and an existing file is
    writable. Returns the path."""
    if not path or not path.strip():
        raise CliError(f"{option} needs a file name")
    if os.path.isdir(path) or path.endswith(("/", os.sep)):
        raise CliError(f"{option} {path}: is a directory, give a file name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CliError(f"{option} {path}: the directory {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CliError(f"{option} {path}: the directory {folder} is not writable")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise CliError(f"{option} {path}: the file exists and is not writable")
    return path


def _check_games(games: int, players: int, bytes_per_game: int) -> None:
    """--games at least 1, and its per-game results fit in half the memory of
    this machine (checked before the work, not found out after it)."""
    if games < 1:
        raise CliError(f"--games must be at least 1, not {games}")
    need = games * bytes_per_game
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        memory = 2**34
    if need > memory // 2:
        raise CliError(f"--games {games:,} needs {need / 2**30:,.1f} GiB for the per-game results, more than "
                       f"half of this machine's {memory / 2**30:,.1f} GiB: use at most "
                       f"{memory // 2 // bytes_per_game:,} games")


def _pyplot():
    """matplotlib's pyplot on the Agg backend; a CliError if it is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise CliError(needs_extra("--plot", "plot") + " (matplotlib)") from None
    return plt


def _check_plot(path: str) -> None:
    """Everything --plot needs, checked before the simulation: matplotlib, a
    writable file, and a file type matplotlib writes."""
    plt = _pyplot()
    _check_output(path, "--plot")
    from matplotlib.figure import Figure

    ext = os.path.splitext(path)[1].lstrip(".").lower()
    types = Figure().canvas.get_supported_filetypes()
    if ext and ext not in types:
        raise CliError(f"--plot {path}: matplotlib cannot write .{ext} files; use one of "
                       + ", ".join("." + t for t in sorted(types)))
    del plt


# -------------------------------------------------------------------- bots --
def _simulated(args: argparse.Namespace, con: Console, game, policies, min_chunk: int) -> Tuple[Any, float]:
    """``threes simulate``'s batch: ``--games`` games of `game` (checked against memory) with `policies`,
    ``--seed`` and ``--threads`` or ``--ray``, under a progress bar unless ``--json -`` (locally in chunks
    of a fiftieth of the games, at least min_chunk). Returns (the game's rollout result, seconds)."""
    _check_games(args.games, game.num_players(), 16 * game.num_players() + 8)
    backend = _backend(args, "--threads")
    t0 = time.perf_counter()
    try:
        if args.json == "-":
            r = _rollouts(game, args.games, policies, args.seed, args.threads, backend)
        else:
            bar, update = _progress_bar(con, "simulating", args.games, "games")
            with bar:
                r = _rollouts(game, args.games, policies, args.seed, args.threads, backend, progress=update,
                              chunk=None if backend else max(min_chunk, args.games // 50))
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None
    return r, time.perf_counter() - t0


def _new_table(args: argparse.Namespace, con: Console, game) -> Tuple[Any, "_Table", List[Any], Any]:
    """``threes play``'s table: (the first state, dealt with ``--seed``; the _Table; the seats, None for
    ``--seat`` (checked against the game) and a bot for every other seat from ``--bots``, one spec for all
    or one per other seat, bot k seeded ``--seed`` + k; the random generator of the bots' views)."""
    import random

    n = game.num_players()
    if not 0 <= args.seat < n:
        raise CliError(f"--seat must be a seat in 0..{n - 1}, not {args.seat}")
    specs = [b.strip() for b in args.bots.split(",") if b.strip()]
    specs = specs * (n - 1) if len(specs) == 1 else specs
    if len(specs) != n - 1:
        raise CliError(f"--bots takes one bot or one per other seat ({n - 1}), not {len(specs)}")
    others = iter(_make_bots(specs, registry.game_of(game), n, [args.seed + i for i in range(len(specs))]))
    bots = [None if q == args.seat else next(others) for q in range(n)]
    state = game.new_initial_state(args.seed)
    return state, _Table(con, state, args.seat, bots, game), bots, random.Random(args.seed)


def _make_bots(specs: Sequence[str], info: registry.GameInfo, num_players: int,
               seeds: Optional[Sequence[Optional[int]]] = None) -> List[Any]:
    """The bots of ``--bots``, each checked against the bots available here for this table
    (threes.bots.available_bots): a bot of the game that cannot play here (the net bot with its
    weights missing or damaged, or at a table of another size) or a bad spec is a CliError saying
    why and naming the bots available, before any game starts."""
    offered = available_bots(info, num_players)
    known = set(info.policies) | {spec for spec, _ in info.bots} | {"ismcts"}
    listing = f"the bots available here are {', '.join(offered)} (and ismcts:N, N iterations)"
    bots = []
    for i, spec in enumerate(specs):
        name = spec.strip().lower().partition(":")[0]
        if name in known and name not in offered:
            raise CliError(f"{bot_unavailable(name, info, num_players)}; {listing}")
        try:
            bots.append(make_bot(spec, seed=None if seeds is None else seeds[i], game=info))
        except (TypeError, ValueError) as exc:
            raise CliError(f"{exc}; {listing}") from None
    return bots


def _bot_label(info: registry.GameInfo, spec: str) -> str:
    """A game's own bot as the help lists it: with the table size it plays when it plays one only
    (its ``num_players`` attribute: "net (4-player Shithead)")."""
    factory = info.bot_factory(spec)
    plays = getattr(factory(seed=0), "num_players", None) if factory is not None else None
    return f"{spec} ({plays}-player {info.title})" if isinstance(plays, int) else spec


def _bots_text() -> str:
    """The bots available here, per game (the help's epilog: computed when help is shown)."""
    parts = []
    for name in registry.names():
        info = registry.get(name)
        own = [spec for spec, _ in info.bots]
        offered = [b for b in available_bots(info) if b != "ismcts"]
        labels = [_bot_label(info, b) if b in own else b for b in offered]
        missing = [bot_unavailable(b, info) for b in own if b not in offered]
        parts.append(f"{info.title}: {', '.join(labels)}" + "".join(f" [{m}]" for m in missing))
    return "Bots: " + "; ".join(parts) + "; every game: ismcts, ismcts:ITERATIONS."


# ---------------------------------------------------------------- simulate --
def _policies(spec: str, n: int, policies: Sequence[str]) -> List[str]:
    names = [p.strip().lower() for p in spec.split(",") if p.strip()]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise CliError(f"--policy takes one policy or one per seat ({n}), not {len(names)}")
    for p in names:
        if p not in policies:
            raise CliError(f"unknown policy {p!r}: one of {', '.join(policies)}")
    return names


def _info(args: argparse.Namespace) -> registry.GameInfo:
    """The registered game ``--game`` names."""
    try:
        return registry.get(getattr(args, "game", None) or registry.default().name)
    except ValueError as exc:
        raise CliError(str(exc)) from None


#: The commands a game's ``cli`` module (registry hook) may define, each ``fn(args, con)`` but
#: ``make_game(args)`` (the Game of the arguments) and ``play(args, con, read)``. A game without its
#: own ``make_game`` or ``rules`` gets the generic ones over its declared options (threes.options).
GAME_COMMANDS = ("make_game", "rules", "simulate", "play")


def _command(args: argparse.Namespace, command: str):
    """The function that runs `command` for the game of ``--game`` (its ``cli`` module's)."""
    if command not in GAME_COMMANDS:
        raise ValueError(f"no game command {command!r}: one of {', '.join(GAME_COMMANDS)}")
    info = _info(args)
    module = info.hook("cli")
    fn = getattr(module, command, None) if module is not None else None
    if fn is None:
        fn = {"make_game": _options_game, "rules": _rules, "simulate": _options_simulate,
              "play": _options_play}.get(command)
    if fn is None:
        raise CliError(f"threes {command} does not support {info.title} yet")
    return fn


def _end_counts(r) -> Dict[str, int]:
    """Games of a batch (a RolloutResult of any game) that did not finish
    normally, by reason: ``truncated`` (cut at the move cap) and
    ``stalemates`` (ended by repetition); the two never overlap."""
    stalemate = r.stalemate.astype(bool)
    return {"truncated": int((r.truncated.astype(bool) & ~stalemate).sum()), "stalemates": int(stalemate.sum())}


def _move_cap(game: Any) -> Optional[int]:
    """The move cap of a game object when it tells it (``max_game_length()``), else None."""
    cap = getattr(game, "max_game_length", None)
    try:
        return int(cap()) if callable(cap) else None
    except (TypeError, ValueError):  # pragma: no cover - a game whose length is not a number
        return None


def _end_lines(counts: Dict[str, int], games: int, game: Any, cap: Optional[int] = None) -> List[str]:
    """A batch's unfinished games for people, one line per kind that occurred: truncated games (cut at
    the move cap) and stalemates (the repetition rule: the same position occurred ``repetition_limit``
    times), each counted with its share and said in words; a line saying every game finished when none
    did otherwise. ``cap``: the move cap when the game object does not tell it (``--max-moves``)."""
    lines = []
    cut, stale = counts["truncated"], counts["stalemates"]
    if cut:
        cap = _move_cap(game) or cap
        at = f"the move cap of {cap:,} moves" if cap else "the game's move cap"
        lines.append(f"truncated games: {cut:,} of {games:,} ({cut / games:.1%}): cut at {at} (--max-moves) "
                     "before they ended, and scored as the rules score a game cut short")
    if stale:
        k = getattr(getattr(game, "rules", None), "repetition_limit", 0)
        times = f"{k} times (repetition_limit = {k})" if k else "too often"
        lines.append(f"stalemates: {stale:,} of {games:,} ({stale / games:.1%}): ended by the repetition rule, the "
                     f"same position having occurred {times}")
    return lines or ["every game ended normally: none was cut at the move cap, none ended by repetition"]


def _place_column() -> str:
    """The mean place column's header: places counted from 1 for people (the table shows
    RolloutResult.mean_place + 1; the JSON keeps the API's 0-based mean_place)."""
    return "mean place (1st = best)"


def _json_target(args: argparse.Namespace) -> Optional[str]:
    """``--json``'s target: None (no JSON), ``-`` (standard output) or a file, checked writable before
    the work."""
    target = getattr(args, "json", None)
    if target is None or target == "-":
        return target
    return _check_output(target, "--json")


def _write_json(con: Console, data: Any, target: str, what: str) -> None:
    """Writes ``data`` as indented JSON to ``target`` (``-``: standard output, alone; a file: said on the
    console as "WHAT written to FILE"); a CliError when the disk refuses the file."""
    text = json.dumps(data, indent=2)
    if target == "-":
        print(text)
        return
    try:
        with open(target, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    except OSError as exc:  # checked before, but the disk may still refuse: what was printed stays
        raise CliError(f"--json {target}: cannot write the {what}: {exc.strerror or exc}") from None
    con.print(f"{what} written to {target}", markup=False, highlight=False)


def _backend(args: argparse.Namespace, local_option: str) -> Dict[str, Any]:
    """The backend arguments of ``--ray [ADDRESS]``: {} for the local
    backend, else backend="ray" and the address (None: the cluster
    ``ray.init()`` finds or starts). ``local_option`` (--threads, --workers)
    is refused with --ray: the cluster's CPUs do the work."""
    if getattr(args, "ray", None) is None:
        return {}
    if getattr(args, local_option.lstrip("-").replace("-", "_"), None) is not None:
        raise CliError(f"{local_option} is for the local backend: with --ray the cluster's CPUs play")
    from threes import cluster

    address = args.ray or None
    try:
        cluster.connect(address)
    except (ConnectionError, ImportError, ValueError) as exc:
        raise CliError(str(exc)) from None
    return {"backend": "ray", "address": address}


def _rollouts(game: Any, n: int, policies: Sequence[str], seed: Optional[int], threads: Optional[int],
              backend: Dict[str, Any], **kw: Any) -> Any:
    """A batch of any game's rollouts (threes.batches.rollouts) on the backend of :func:`_backend`:
    here on ``threads`` native threads, or on a Ray cluster (threes.cluster) with the same result."""
    from threes.batches import rollouts

    if backend:
        return rollouts(game, n, policies, seed, backend="ray", address=backend["address"], **kw)
    return rollouts(game, n, policies, seed, threads=threads, **kw)


def _progress_bar(con: Console, what: str, total: int, unit: str):
    """A transient rich progress bar and its callback ``update(done)``."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn(what), BarColumn(), TextColumn("{task.completed:,}/{task.total:,} " + unit),
                   TimeElapsedColumn(), console=con, transient=True)
    task = bar.add_task(unit, total=total)
    return bar, lambda done: bar.update(task, completed=done)


def cmd_simulate(args: argparse.Namespace, con: Console) -> int:
    args.json = _json_target(args)
    return _command(args, "simulate")(args, con)


def _presets(info: registry.GameInfo) -> Tuple[str, ...]:
    """The names of a game's presets (its package's ``PRESETS``; none for a game set by its options)."""
    return tuple(getattr(info.load(), "PRESETS", ()))


def _game_named(word: str) -> Optional[registry.GameInfo]:
    """The registered game ``word`` names (a name or alias, ``-`` and ``_`` alike), or None."""
    for cand in dict.fromkeys((word, word.replace("-", "_"), word.replace("_", "-"))):
        try:
            return registry.get(cand)
        except (TypeError, ValueError):
            continue
    return None


def _rules_subject(args: argparse.Namespace) -> None:
    """``threes rules WORD``: WORD is a preset of the game of ``--game`` (default the first registered),
    else a game's name (``threes rules three-thirteen`` is ``threes rules --game three_thirteen``);
    a CliError naming both lists when it is neither, or when it names a game other than ``--game``."""
    word = args.preset
    if word is None:
        return
    info = _info(args)
    presets = _presets(info)
    if word.strip().lower() in (p.lower() for p in presets):
        return
    named = _game_named(word.strip())
    games = ", ".join(registry.names())
    if named is not None:
        if args.game is not None and named.name != info.name:
            raise CliError(f"{word!r} is the game {named.name} but --game names {info.name}: name one game")
        args.game, args.preset = named.name, None
        return
    if presets:
        raise CliError(f"unknown preset or game {word!r}: the presets of {info.title} are {', '.join(presets)}; "
                       f"the games are {games}")
    raise CliError(f"{info.title} has no presets ({word}): set its options with --set NAME=VALUE; "
                   f"the games are {games}")


def cmd_rules(args: argparse.Namespace, con: Console) -> int:
    _rules_subject(args)
    return _command(args, "rules")(args, con)


# ---------------------------------------------------------------- tournament --
def cmd_tournament(args: argparse.Namespace, con: Console) -> int:
    from threes.tournament import tournament

    specs = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(specs) < 2:
        raise CliError("--bots needs at least two bots, one per seat, e.g. --bots ismcts:500,greedy,random")
    info = _info(args)
    args.players = len(specs)
    make_game = _command(args, "make_game")
    if args.workers is not None and not 1 <= args.workers <= MAX_THREADS:
        raise CliError(f"--workers must be between 1 and {MAX_THREADS}, not {args.workers}")
    _check_games(args.games, len(specs), 8 * len(specs) ** 2 + 8)
    target = _json_target(args)
    bots = _make_bots(specs, info, len(specs))
    try:
        game = make_game(args)
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None
    backend = _backend(args, "--workers")
    try:
        # the bar on a terminal only: piped, the output is the table alone (or the JSON of --json -)
        bar, update = _progress_bar(con, "playing", args.games, "deals") if con.is_terminal and target != "-" \
            else (nullcontext(), None)
        with bar:
            result = tournament(bots, args.games, args.seed, workers=args.workers, verbose=False, game=game,
                                progress=update, **backend)
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None
    if target != "-":
        con.print(result.table(), markup=False, highlight=False)
    if target is not None:
        _write_json(con, result.to_json(), target, "result")
    return 0


# ---------------------------------------------------------------------- play --
def card_text(card) -> Text:
    """A card as the screen shows it (threes.ui.text.card_face), red for hearts, diamonds and the red joker."""
    s = str(card)
    return Text(card_face(card), style="bold red" if s[1] in _RED else "bold")


def _cards_text(cards, empty: str = "-") -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out if cards else Text(empty, style="dim")


def _split_unit(unit: Text, room: int) -> List[Text]:
    """A unit too wide for a line, cut into pieces at its spaces (a word
    wider than the line stays whole: it is never cut)."""
    words = unit.split(" ", allow_blank=False)
    pieces: List[Text] = []
    for w in words:
        if pieces and pieces[-1].cell_len + 1 + w.cell_len <= room:
            pieces[-1].append(" ")
            pieces[-1].append_text(w)
        else:
            pieces.append(w.copy())
    return pieces


def wrap_units(units: Sequence[Any], width: int, sep: str = "  ", indent: int = 2, first: int = 0) -> List[Text]:
    """Lines of at most `width` cells holding the units (Text or str) in
    order, `sep` between two units on a line; a unit is never cut unless it
    is wider than a line, and then only at its spaces; every line after the
    first starts with `indent` spaces (the first with `first`). So no card,
    move or word is ever broken, whatever the width."""
    width = max(20, width)
    lines: List[Text] = []
    line = Text(" " * first)
    empty = True
    for u in units:
        unit = u if isinstance(u, Text) else Text(str(u))
        pieces = [unit] if unit.cell_len <= width - indent else _split_unit(unit, width - indent)
        for k, piece in enumerate(pieces):
            gap = (" " if k else sep)
            if not empty and line.cell_len + len(gap) + piece.cell_len > width:
                lines.append(line)
                line, empty = Text(" " * indent), True
            if not empty:
                line.append(gap)
            line.append_text(piece)
            empty = False
    if not empty or not lines:
        lines.append(line)
    return lines


def _say(con: Console, text: Any, indent: int = 2, first: int = 0, style: Optional[str] = None) -> None:
    """Prints a sentence (str or Text) wrapped between its words at the console's width."""
    t = text if isinstance(text, Text) else Text(str(text), style=style or "")
    for line in wrap_units([t], con.width, indent=indent, first=first):
        con.print(line, no_wrap=True, overflow="ignore", crop=False)


def _print_units(con: Console, units: Sequence[Any], sep: str = "  ", indent: int = 2) -> None:
    for line in wrap_units(units, con.width, sep=sep, indent=indent):
        con.print(line, no_wrap=True, overflow="ignore", crop=False)


def _norm(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").split())


def _move_label(state, action: int) -> str:
    """A move as the list shows it, which is also what may be typed: its
    notation with ranks as the screen shows them (``10x2``, ``up JKx1``),
    and a swap decision as "keep face up: 4 8 J" (the ranks kept face up)."""
    move = state.decode_action(action)
    kind = getattr(move, "kind", None)
    if kind == "swap":
        return "keep face up: " + " ".join(rank_face(r) for r in move.face_up)
    text = state.action_to_string(action)
    if kind == "play" and move.rank in ("T", "X"):
        return text.replace(f"{move.rank}x", f"{rank_face(move.rank)}x")
    card = getattr(move, "card", None)
    if kind in ("discard", "out") and card is not None and card.rank == "T":
        return f"{kind} 10{card.suit}"
    return text


def parse_move_number(text: str, count: int) -> Optional[int]:
    """The move number typed at the ``your move>`` prompt, 1..``count``: an int when ``text`` is one
    (spaces around it allowed); None when it is no number at all (then it is read as a move's
    notation or label); a ValueError whose message is what to show, and ask again, when it looks like
    a number but is not one of the list's: out of range (``no move number 9: choose 1 to 5``), with
    a sign, or written with other digits than ASCII 0-9 (``'²'``, ``'٣'``, which ``str.isdigit``
    takes), or thousands of digits (threes.args.parse_count reads it)."""
    if not isinstance(text, str):
        raise TypeError(f"the typed text is a str, not {type(text).__name__}")
    t = text.strip()
    body = t[1:] if t[:1] in ("+", "-") else t
    if not body or not all(c.isnumeric() for c in body):
        return None
    plain = t.isascii() and t.isdigit()
    digits = (t.lstrip("0") or "0") if plain else t  # leading zeros are fine (007 is 7), however many
    try:
        return parse_count(digits, "move number", 1, count)
    except ValueError:
        pass
    if plain and len(digits) <= 9:
        raise ValueError(f"no move number {int(digits)}: choose 1 to {count}")
    shown = repr(t) if len(t) <= 24 else f"'{t[:12]}...{t[-4:]}' ({len(t)} characters)"
    raise ValueError(f"{shown} is not a move number: choose 1 to {count}, typed with the digits 0-9")


class _Table:
    """What both games' play loops share: the game's hooks (narration,
    explanation, rules in words), the seats' names and the console."""

    def __init__(self, con: Console, state, seat: int, bots: Sequence[Any], game: Any = None):
        info = registry.game_of(state)
        self.con, self.seat = con, seat
        # a game without its own words: each event in plain words, no explanations, its options as rules
        self.narrate_all = info.hook("narrate_all") or _plain_narration
        self.explain = info.hook("explain") or (lambda state, seat: [])
        self.rules_text = lambda state: _rules_lines(info, state, game)
        self.names = ["you" if q == seat else f"seat {q} ({bots[q].name})" for q in range(len(bots))]

    def play(self, state, action: int, label: str) -> List[Any]:
        """Plays an action, prints who played it (its notation) and narrates its events from the human's seat."""
        who = self.names[state.current_player()]
        events = state.apply(action, undo=False)  # no takebacks at this table: nothing kept
        self.con.print(f"{who}: {label}", highlight=False, markup=False)
        for sentence in self.narrate_all(events, self.seat, self.names):
            _say(self.con, sentence, indent=4, first=2)
        return events

    def bots_move(self, state, bots: Sequence[Any], rng: Any, each: Optional[Any] = None) -> None:
        """The bots play (each from its own view, threes.bots.bot_view) until the person's seat is to
        move or the game is over; ``each(events)`` after every move."""
        from threes.bots import bot_view

        while not state.is_terminal() and state.current_player() != self.seat:
            p = state.current_player()
            a = bots[p].step(bot_view(bots[p], state, p, rng.getrandbits(64)))
            events = self.play(state, a, _move_label(state, a))
            if each is not None:
                each(events)

    def explain_now(self, state) -> None:
        for line in self.explain(state, self.seat):
            _say(self.con, "* " + line, indent=4, first=2, style="dim")

    def show_rules(self, state) -> None:
        for line in self.rules_text(state):
            _say(self.con, line, indent=4)

    def human_move(self, read, state, help_text: str) -> Optional[Tuple[int, str]]:
        """Lists the legal moves with numbers, asks until a legal one is typed
        (its number, its notation or the label listed); returns (action,
        label), or None when the player quits (quit, or end of input).
        ``rules`` prints the table's rules, ``why`` the explanation again,
        ``help`` the notation."""
        legal = state.legal_actions()
        labels = [_move_label(state, a) for a in legal]
        units = []
        for i, label in enumerate(labels):
            unit = Text("your moves: " if not i else "")
            unit.append(f"[{i + 1}]", style="cyan")
            unit.append(" " + label)
            units.append(unit)
        _print_units(self.con, units)
        by_label = {_norm(label): a for a, label in zip(legal, labels)}
        while True:
            try:
                text = read("your move> ").strip()
            except EOFError:
                self.con.print("\nbye")
                return None
            if not text:
                continue
            low = text.lower()
            if low in ("q", "quit", "exit"):
                self.con.print("bye")
                return None
            if low in ("h", "help", "?"):
                _say(self.con, help_text + " Also: 'rules' (the rules of this table), 'why' (why these moves), "
                               "'quit'.")
                continue
            if low == "rules":
                self.show_rules(state)
                continue
            if low == "why":
                self.explain_now(state)
                continue
            try:
                k = parse_move_number(text, len(legal))
            except ValueError as exc:
                self.con.print(Text(str(exc), style="red"))
                continue
            if k is not None:
                action = legal[k - 1]
            elif _norm(text) in by_label:
                action = by_label[_norm(text)]
            else:
                try:
                    action = state.string_to_action(text)
                except (TypeError, ValueError) as exc:
                    self.con.print(Text(f"cannot read {text!r}: {exc}", style="red"))
                    continue
            if action not in legal:
                try:
                    said = _move_label(state, action)  # read against the position it is played in
                except (TypeError, ValueError):
                    said = text
                self.con.print(Text(f"{said} is not legal now: choose one of the moves listed", style="red"))
                continue
            return action, labels[legal.index(action)]


def cmd_play(args: argparse.Namespace, con: Console, read=input) -> int:
    if args.seed is None:
        import secrets

        args.seed = secrets.randbelow(10**9)  # short enough to type back in
    return _command(args, "play")(args, con, read)


# ------------------------------------------------ games declared by their options --
def _option_values(args: argparse.Namespace, info: registry.GameInfo) -> Dict[str, Any]:
    """The options of ``--set NAME=VALUE`` (each), read against the game's declared options."""
    from threes.options import parse_options

    items: Dict[str, str] = {}
    for item in args.set or ():
        name, sep, value = item.partition("=")
        if not sep:
            raise CliError(f"--set takes NAME=VALUE, not {item!r}")
        items[name.strip()] = value.strip()
    try:
        return parse_options(info.options, items, info.title)
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None


def _options_game(args: argparse.Namespace):
    """The Game of a game that declares its options (threes.options): ``--set NAME=VALUE`` each."""
    info = _info(args)
    if getattr(args, "rules", None) is not None:
        raise CliError(f"{info.title} has no presets (--rules {args.rules}): set its options with "
                       "--set NAME=VALUE")
    kw = _option_values(args, info)
    try:
        return info.load().Game(args.players, max_moves=getattr(args, "max_moves", None), **kw)
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None


def _plain_narration(events, viewer: Optional[int], names: Sequence[str]) -> List[str]:
    """A game's events in plain words, each as ``viewer`` may see it (a game without a ``narrate_all``
    hook): "seat 1 (greedy): trick Ah Kd (value 3)"."""
    out = []
    for e in events:
        e = e.view(viewer)
        who = "" if e.seat is None or not 0 <= e.seat < len(names) else names[e.seat] + ": "
        cards = " ".join(str(c) for c in e.cards)
        value = "" if e.value is None else f" ({e.value})"
        out.append(f"{who}{e.kind.replace('_', ' ')}{' ' + cards if cards else ''}{value}")
    return out


def _rules_lines(info: registry.GameInfo, state, game: Any = None) -> List[str]:
    """The rules of a table in words (``threes rules``, and ``rules`` at the ``threes play`` prompt): the
    game's ``rules_text`` hook's lines, then each declared option (threes.options) the hook does not
    word itself as a ``NAME = VALUE: ...`` line, as :meth:`threes.options.Option.explain` says it, with
    the value of ``game`` (its ``options()``; else the default)."""
    hook = info.hook("rules_text")
    lines = [str(line) for line in hook(state)] if hook is not None else []
    worded = {line.partition(" = ")[0] for line in lines if " = " in line}
    options = getattr(game, "options", None)
    values = options() if callable(options) else {}
    for opt in info.options:
        if opt.name not in worded:
            lines.append(opt.explain(values.get(opt.name, opt.default)))
    return lines or [f"{info.title} has no rules to set"]


def _options_simulate(args: argparse.Namespace, con: Console) -> int:
    """``threes simulate`` for a game without its own: batched C rollouts, each seat's win rate, its mean
    total for a game scored by totals, and its mean place counted from 1 (threes.results.RolloutResult,
    the same for every game); the games that did not end normally, each kind in a line (:func:`_end_lines`);
    ``--json FILE`` or ``-``."""
    info = _info(args)
    if args.games < 1:
        raise CliError(f"--games must be at least 1, not {args.games}")
    if args.plot:
        raise CliError(f"--plot draws the Shithead figures; for {info.title} use --json")
    game = _options_game(args)
    n = game.num_players()
    names = _policies(args.policy, n, info.policies)
    r, seconds = _simulated(args, con, game, names, 20)
    scored = r.totals is not None
    summary = {"game": info.name, "players": n, "games": r.num_games, "seed": r.seed, "policies": list(r.policies),
               "options": game.options(), "win_rate": r.win_rate.tolist(), "mean_place": r.mean_place.tolist(),
               **({"mean_score": r.mean_score.tolist()} if scored else {}), "mean_moves": r.mean_moves,
               **_end_counts(r), "seconds": seconds, "games_per_second": r.num_games / seconds}
    if args.json != "-":
        t = Table(title=f"{r.num_games:,} games of {info.title}, {n} players, seed {r.seed}")
        for col in ("seat", "policy", f"win ({info.first_place})") + (("mean total",) if scored else ()) + \
                (_place_column(),):
            t.add_column(col, justify="left" if col == "policy" else "right")
        for q in range(n):
            t.add_row(str(q), r.policies[q], f"{r.win_rate[q]:.1%}",
                      *([f"{r.mean_score[q]:,.1f}"] if scored else []), f"{r.mean_place[q] + 1:.2f}")
        con.print(t)
        con.print(f"moves per game: {r.mean_moves:,.1f}   {r.num_games / seconds:,.0f} games/s")
        for line in _end_lines(_end_counts(r), r.num_games, game, getattr(args, "max_moves", None)):
            _say(con, line)
    if args.json is not None:
        _write_json(con, summary, args.json, "summary")
    return 0


def play_loop(args: argparse.Namespace, con: Console, read, game, title: str, show, help_text: str,
              opening=None, after=None):
    """``threes play``'s loop for any game: the table (_new_table) and a line saying who plays
    (``title``: the game and its rules), ``opening(state, table)`` if given, then until the game ends
    the bots move (narrated), ``show(state, table)`` prints what your seat sees and your move is read
    (``help_text`` answers 'help'); ``after(state, table, events)`` follows every move if given.
    Returns (the final state, the table), or None when you quit (or the input ends)."""
    state, table, bots, rng = _new_table(args, con, game)
    names = ", ".join(table.names[q] for q in range(game.num_players()) if q != args.seat)
    _say(con, f"threes play: {title}, {game.num_players()} players, you are seat {args.seat}; bots: {names}; "
              f"seed {args.seed} (replay it with --seed {args.seed}). Type a move's number or notation, 'help', "
              f"'rules' or 'quit'.")
    aim = registry.game_of(game).aim
    if aim:
        _say(con, f"The aim: {aim}.")
    if opening is not None:
        opening(state, table)
    each = None if after is None else (lambda events: after(state, table, events))
    while True:
        table.bots_move(state, bots, rng, each)
        if state.is_terminal():
            return state, table
        con.print()
        show(state, table)
        table.explain_now(state)
        chosen = table.human_move(read, state, help_text)
        if chosen is None:
            return None  # quit (or end of input)
        events = table.play(state, *chosen)
        if each is not None:
            each(events)


def _options_play(args: argparse.Namespace, con: Console, read=input) -> int:
    """``threes play`` for a game without its own loop: what your seat sees (the game's observation
    string), the numbered legal moves, the bots' moves narrated; at the end every seat's return."""
    info = _info(args)
    game = _options_game(args)
    n = game.num_players()
    ended = play_loop(args, con, read, game, info.title, lambda st, _: _say(con, st.observation_string(args.seat)),
                      "Type the number in brackets, or the move as listed.")
    if ended is None:
        return 0  # quit: a normal exit
    state, table = ended
    note = end_note(state, len(state.history()))
    if note:
        con.print(note)
    returns = state.returns()
    order = sorted(range(n), key=lambda q: (-returns[q], q))
    _say(con, "game over: " + ", ".join(f"{k + 1}. {table.names[q]} ({returns[q]:+.2f})"
                                        for k, q in enumerate(order)))
    return 0


def _rules_table(args: argparse.Namespace) -> Tuple[Any, Any]:
    """(the Game, its first state) of the table ``threes rules`` describes: the game's ``make_game`` over
    the preset (``args.preset``), ``--set`` and ``--players`` (when not given: 4, the other commands'
    default, or else 2, for house rules that deal too many cards for 4)."""
    args.rules = args.preset
    make_game = _command(args, "make_game")
    given = getattr(args, "players", None)
    tries = [given] if given is not None else [4, 2]
    for k, n in enumerate(tries):
        args.players = n
        try:
            game = make_game(args)
            return game, game.new_initial_state(0)
        except (CliError, TypeError, ValueError) as exc:
            if k == len(tries) - 1:
                raise exc if isinstance(exc, CliError) else CliError(str(exc)) from None
    raise AssertionError("unreachable")  # pragma: no cover


def _rules(args: argparse.Namespace, con: Console) -> int:
    """``threes rules [PRESET] [--game G] [--players N] [--set NAME=VALUE ...]`` for any game: the game's
    aim first (the registry's ``aim``), then its rules in words, each with its value and what that value
    means (:func:`_rules_lines`: the ``rules_text`` hook, then the declared options it does not word)."""
    info = _info(args)
    game, state = _rules_table(args)
    variant = info.variant(game)
    _say(con, Text(info.title + (f", {variant} rules" if variant != info.name else ""), style="bold"))
    if info.aim:
        _say(con, f"The aim: {info.aim}.")
    for line in _rules_lines(info, state, game):
        _say(con, line, indent=4)
    return 0


# -------------------------------------------------------------------- main --
def _game_choices() -> Tuple[str, ...]:
    """Every name and alias of the registered games (what --game accepts)."""
    out: List[str] = []
    for name in registry.names():
        info = registry.get(name)
        out += [name] + [a for a in info.aliases if a not in out]
    return tuple(out)


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose epilog, when it is a function, is computed when the help is shown:
    the bots available here (loading the net bot's weights) only for ``--help``, never at start."""

    def format_help(self) -> str:
        if callable(self.epilog):
            self.epilog = self.epilog()
        return super().format_help()


def _parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="threes", description="The threes-core engine for the Shithead family.",
                 epilog=_bots_text)  # type: ignore[arg-type]
    ap.add_argument("--no-color", action="store_true", help="plain text output (also: NO_COLOR=1)")
    ap.add_argument("--version", action="version", version=f"threes-core {__version__}",
                    help="print the version and exit")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    games = [registry.get(name) for name in registry.names()]
    default = registry.default()
    game_help = ("the game: " + "; ".join(f"{' or '.join(info.aliases + (info.name,))} ({info.title})" for info in games)
                 + f" (default {default.name})")
    presets = [(info, tuple(getattr(info.load(), "PRESETS", ()))) for info in games]
    presets_text = "; ".join(f"{info.title}: {', '.join(names)}" for info, names in presets if names)
    with_options = [info.title for info in games if info.options]
    set_help = ("a rule or option, e.g. --set pickup_then_play=false (repeatable; `threes rules --game G` lists "
                "them" + (f"; {', '.join(with_options)} takes its options this way" if with_options else "") + ")")
    policies_text = "; ".join(f"{info.title}: {', '.join(info.policies)}" for info in games)

    def game_option(p: argparse.ArgumentParser, value: Optional[str] = default.name) -> None:
        p.add_argument("--game", default=value, choices=_game_choices(), metavar="GAME", help=game_help)

    json_help = ("write the result as JSON to FILE, or to standard output with - (alone: no table); "
                 "a bare --json is -")

    def common(p: argparse.ArgumentParser, players: bool = True, random_seed: bool = False) -> None:
        p.add_argument("--no-color", action="store_true", default=argparse.SUPPRESS, help="plain text output")
        game_option(p)
        if players:
            p.add_argument("--players", type=int, default=4, help="number of players (default 4)")
        p.add_argument("--rules", default=None, metavar="PRESET",
                       help=f"a preset of a game that has them ({presets_text}; default: the game's first)")
        p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help=set_help)
        if random_seed:  # a new game each time, its seed printed so that it can be replayed
            p.add_argument("--seed", type=int, default=None, help="seed (default: a random one, printed)")
        else:
            p.add_argument("--seed", type=int, default=1, help="seed (default 1)")

    p = sub.add_parser("simulate", help="batched C rollouts with a summary table")
    common(p)
    p.add_argument("--games", type=int, default=100_000, help="games to play (default 100,000)")
    p.add_argument("--policy", default="random", help="one policy or one per seat, comma separated "
                   f"({policies_text}; default random)")
    p.add_argument("--threads", type=int, default=None, help="native threads (default: every core)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="play on a Ray cluster (the [ray] extra): ADDRESS such as 127.0.0.1:6379, or none for "
                   "the one ray.init() finds or starts")
    p.add_argument("--max-moves", type=int, default=None, help="move cap per game")
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE", help=json_help)
    p.add_argument("--plot", metavar="FILE.png", default=None, help="draw the per-seat figures (matplotlib)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("play", help="play a game in the terminal against bots",
                       epilog=_bots_text)  # type: ignore[arg-type]
    common(p, random_seed=True)
    p.add_argument("--bots", default="greedy", help="one bot for every other seat, or one per other seat")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("tournament", help="duplicate-deal tournament among bots",
                       epilog=_bots_text)  # type: ignore[arg-type]
    common(p, players=False)
    p.add_argument("--bots", required=True, help="one bot per seat, comma separated, e.g. ismcts:500,greedy,random")
    p.add_argument("--games", type=int, default=100, help="duplicate deals (default 100)")
    p.add_argument("--workers", type=int, default=None, help="threads (default: every core)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="play on a Ray cluster (the [ray] extra): ADDRESS such as 127.0.0.1:6379, or none for "
                   "the one ray.init() finds or starts")
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE", help=json_help)
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("rules", help="a game's aim, then each rule in words with its value")
    p.add_argument("preset", nargs="?", default=None, metavar="PRESET|GAME",
                   help=f"a preset of a game that has them ({presets_text}; default: the game's first), or a "
                   f"game's name ({', '.join(info.name for info in games)}; - or _ alike)")
    game_option(p, None)
    p.add_argument("--players", type=int, default=None,
                   help="the rules at a table of this many players (default 4)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help=set_help)
    p.add_argument("--no-color", action="store_true", default=argparse.SUPPRESS, help="plain text output")
    p.set_defaults(func=cmd_rules)

    # the multiplayer web table (threes.web; the [web] extra is imported only when it starts)
    from threes.web.cli import add_arguments as _serve_arguments, cmd_serve

    p = sub.add_parser("serve", help="a multiplayer web table: people and bots in the browser (the [web] extra)")
    _serve_arguments(p)
    p.set_defaults(func=cmd_serve)
    return ap


def main(argv: Optional[List[str]] = None) -> int:
    ap = _parser()
    args = ap.parse_args(argv)
    no_color = args.no_color or bool(os.environ.get("NO_COLOR"))
    con = Console(color_system=None if no_color else "auto", no_color=no_color, highlight=False, soft_wrap=True)
    try:
        return int(args.func(args, con) or 0)
    except CliError as exc:
        print(f"threes: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
        return 0
    except OSError as exc:  # a file the checks before the work could not foresee
        print(f"threes: error: {exc}", file=sys.stderr)
        return 2
    except MemoryError:
        print("threes: error: out of memory: ask for fewer games", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
