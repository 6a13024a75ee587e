"""The ``threes`` command line.

    threes simulate [--game G] [--games N] [--players N] [--rules PRESET] [--set NAME=VALUE ...]
                    [--policy P[,P...]] [--threads N | --ray [ADDRESS]] [--seed S] [--json] [--plot FILE.png]
    threes play [--game G] [--players N] [--rules PRESET] [--bots SPEC[,SPEC...]] [--seat N] [--seed S]
    threes tournament [--game G] --bots SPEC,SPEC,... [--games N] [--rules PRESET] [--seed S]
                      [--workers N | --ray [ADDRESS]] [--json FILE]
    threes rules [PRESET] [--set NAME=VALUE ...]

``--game`` takes any name or alias of threes.registry (``threes`` or
``shithead``, the default; ``three-thirteen``, ``three_thirteen`` or
``3-13``); simulate, play and tournament then run that game's command.

Bot specs: a policy of the game (Shithead: random, greedy, heuristic; Three
Thirteen: random, greedy), a game's own bot (Shithead, 4 players: net, the
packaged PPO policy), ismcts, ismcts:ITERATIONS.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import nullcontext
from typing import Any, Dict, List, Optional, Sequence, Tuple

from rich.console import Console
from rich.table import Table
from rich.text import Text

from threes._version import __version__
from threes import registry
from threes.shithead import _core
from threes.args import parse_count
from threes.bots import available_bots, bot_unavailable, bot_view, make_bot
from threes.shithead.game import Game, State
from threes.shithead.rollouts import POLICIES, rollouts
from threes.shithead.rules import FIELDS, INT_FIELDS, PRESETS, Rules
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
        raise CliError("--plot needs matplotlib: pip install 'threes-core[plot]'") from None
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


# ------------------------------------------------------------------- rules --
def _parse_overrides(items: Sequence[str]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise CliError(f"--set takes NAME=VALUE, not {item!r}")
        if name not in FIELDS:
            raise CliError(f"unknown rule {name!r}: the rules are {', '.join(FIELDS)}")
        v: Any = value.strip()
        if name in INT_FIELDS:
            try:
                v = parse_count(v, f"rule {name}", 0, 255)  # ASCII digits: not '²', '٣' or '+3'
            except ValueError:
                raise CliError(f"rule {name} takes a whole number in 0..255, not {value!r}") from None
        out[name] = v
    return out


def _rules(preset: str, overrides: Sequence[str]) -> Rules:
    try:
        return Rules.preset(preset, **_parse_overrides(overrides))
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None


def _game(args: argparse.Namespace) -> Game:
    try:
        return Game(args.players, _rules(args.rules, args.set), getattr(args, "max_moves", None))
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None


def cmd_rules(args: argparse.Namespace, con: Console) -> int:
    rules = _rules(args.preset, args.set)
    t = Table(title=f"rules: {rules.name}")
    t.add_column("rule")
    t.add_column("value")
    for line in rules.table().splitlines():
        name, _, value = line.partition("  ")
        t.add_row(name.strip(), value.strip())
    con.print(t)
    con.print(f"deck: {rules.deck_size()} cards; at most {rules.max_players()} players")
    return 0


# -------------------------------------------------------------------- bots --
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


def _bots_text() -> str:
    """The bots available here, per game (the help's epilog: computed when help is shown)."""
    parts = []
    for name in registry.names():
        info = registry.get(name)
        own = [spec for spec, _ in info.bots]
        offered = [b for b in available_bots(info) if b != "ismcts"]
        labels = [f"{b} (4-player Shithead)" if b == "net" else b for b in offered]
        missing = [bot_unavailable(b, info) for b in own if b not in offered]
        parts.append(f"{info.title}: {', '.join(labels)}" + "".join(f" [{m}]" for m in missing))
    return "Bots: " + "; ".join(parts) + "; every game: ismcts, ismcts:ITERATIONS."


# ---------------------------------------------------------------- simulate --
def _policies(spec: str, n: int, policies: Sequence[str] = POLICIES) -> List[str]:
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
        return registry.get(getattr(args, "game", "shithead"))
    except ValueError as exc:
        raise CliError(str(exc)) from None


def _command(args: argparse.Namespace, command: str):
    """The function that runs `command` for the game of ``--game``."""
    info = _info(args)
    fn = _COMMANDS.get(info.name, {}).get(command)
    if fn is None:
        raise CliError(f"threes {command} does not support {info.title} yet")
    return fn


def _end_counts(r) -> Dict[str, int]:
    """Games of a batch (a RolloutResult of any game) that did not finish
    normally, by reason: ``truncated`` (cut at the move cap) and
    ``stalemates`` (ended by repetition); the two never overlap."""
    stalemate = r.stalemate.astype(bool)
    return {"truncated": int((r.truncated.astype(bool) & ~stalemate).sum()), "stalemates": int(stalemate.sum())}


def _end_counts_text(counts: Dict[str, int]) -> str:
    return f"truncated games: {counts['truncated']}  stalemates: {counts['stalemates']}"


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


def _progress_bar(con: Console, what: str, total: int, unit: str):
    """A transient rich progress bar and its callback ``update(done)``."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn(what), BarColumn(), TextColumn("{task.completed:,}/{task.total:,} " + unit),
                   TimeElapsedColumn(), console=con, transient=True)
    task = bar.add_task(unit, total=total)
    return bar, lambda done: bar.update(task, completed=done)


def cmd_simulate(args: argparse.Namespace, con: Console) -> int:
    return _command(args, "simulate")(args, con)


def sh_simulate(args: argparse.Namespace, con: Console) -> int:
    if args.games < 1:
        raise CliError(f"--games must be at least 1, not {args.games}")
    if args.threads is not None and not 1 <= args.threads <= _core.MAX_THREADS:
        raise CliError(f"--threads must be between 1 and {_core.MAX_THREADS}, not {args.threads}")
    game = _game(args)
    pols = _policies(args.policy, game.num_players())
    _check_games(args.games, game.num_players(), 16 * game.num_players() + 8)
    if args.plot:
        _check_plot(args.plot)
    backend = _backend(args, "--threads")
    local_chunk = None if backend else max(1000, args.games // 50)
    if args.json:
        r = rollouts(game, args.games, pols, args.seed, args.threads, **backend)
    else:
        bar, update = _progress_bar(con, "simulating", args.games, "games")
        with bar:
            r = rollouts(game, args.games, pols, args.seed, args.threads, progress=update, chunk=local_chunk,
                         **backend)
    summary = {
        "rules": game.rules.name if game.rules.name != "custom" else game.rules.to_dict(),
        "players": game.num_players(), "games": r.num_games, "seed": r.seed, "threads": r.threads,
        "policies": list(r.policies), "win_rate": r.win_rate.tolist(), "shithead_rate": r.shithead_rate.tolist(),
        "mean_place": r.mean_place.tolist(), "mean_moves": r.mean_moves, **_end_counts(r),
        "seconds": r.seconds, "games_per_second": r.games_per_second, "ns_per_move": r.ns_per_move,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        t = Table(title=f"{r.num_games:,} games, {game.rules.name} rules, {game.num_players()} players, seed {r.seed}")
        for col in ("seat", "policy", "win", "shithead", "mean place"):
            t.add_column(col, justify="right" if col != "policy" else "left")
        for q in range(game.num_players()):
            t.add_row(str(q), r.policies[q], f"{r.win_rate[q]:.1%}", f"{r.shithead_rate[q]:.1%}",
                      f"{r.mean_place[q]:.3f}")
        con.print(t)
        con.print(f"moves per game: {r.mean_moves:,.1f}   {_end_counts_text(_end_counts(r))}   "
                  f"{r.games_per_second:,.0f} games/s ({r.threads} threads, {r.ns_per_move:.1f} ns/move)")
    if args.plot:
        _plot(r, game, args.plot)
        if not args.json:
            con.print(f"plot written to {args.plot}")
    return 0


def _plot(r, game: Game, path: str) -> None:
    plt = _pyplot()
    seats = list(range(game.num_players()))
    labels = [f"{q}\n{r.policies[q]}" for q in seats]
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    for ax, values, title in ((axes[0], r.win_rate, "win rate"), (axes[1], r.shithead_rate, "shithead rate"),
                              (axes[2], r.mean_place, "mean place (0 = first out)")):
        ax.bar(seats, values, color="#3b6ea5")
        ax.set_xticks(seats)
        ax.set_xticklabels(labels)
        ax.set_title(title)
        ax.set_xlabel("seat")
    fig.suptitle(f"{r.num_games:,} games, {game.rules.name} rules, {game.num_players()} players, seed {r.seed}")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=100)
    except (OSError, ValueError) as exc:  # checked before, but the disk may still refuse
        raise CliError(f"--plot {path}: cannot write the figure: {exc}") from None
    finally:
        plt.close(fig)


# ---------------------------------------------------------------- tournament --
def cmd_tournament(args: argparse.Namespace, con: Console) -> int:
    from threes.tournament import tournament

    specs = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(specs) < 2:
        raise CliError("--bots needs at least two bots, one per seat, e.g. --bots ismcts:500,greedy,random")
    info = _info(args)
    args.players = len(specs)
    make_game = _command(args, "game")
    if args.workers is not None and not 1 <= args.workers <= _core.MAX_THREADS:
        raise CliError(f"--workers must be between 1 and {_core.MAX_THREADS}, not {args.workers}")
    _check_games(args.games, len(specs), 8 * len(specs) ** 2 + 8)
    if args.json:
        _check_output(args.json, "--json")
    bots = _make_bots(specs, info, len(specs))
    try:
        game = make_game(args)
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None
    backend = _backend(args, "--workers")
    try:
        # the bar on a terminal only: piped, the output is the table alone, as before
        bar, update = _progress_bar(con, "playing", args.games, "deals") if con.is_terminal else (nullcontext(),
                                                                                                   None)
        with bar:
            result = tournament(bots, args.games, args.seed, workers=args.workers, verbose=False, game=game,
                                progress=update, **backend)
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None
    con.print(result.table(), markup=False, highlight=False)
    if args.json:
        try:
            result.save(args.json)
        except OSError as exc:  # checked before, but the disk may still refuse: the table is printed
            raise CliError(f"--json {args.json}: cannot write the result: {exc.strerror or exc}") from None
        con.print(f"result written to {args.json}")
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


def render_table(state: State, seat: int, reveal: bool = False) -> Table:
    """The table as seat `seat` sees it: hidden cards face down; with
    `reveal` (the end of the game) every hand and face-down card shown."""
    obs = state.observation(seat)
    n = state.num_players()
    t = Table(title=f"{state.rules.name} rules - {state.phase.value} phase - move {state.move_number()}",
              show_lines=False)
    for col in ("seat", "hand", "face up", "face down", "status"):
        t.add_column(col)
    for j in range(n):
        q = (seat + j) % n
        name = "you" if j == 0 else f"seat {q}"
        if j == 0 and not reveal:
            hand = _cards_text(obs.hand)
        elif reveal:
            hand = _cards_text(state.hand(q))
            if j:
                hand.append(f"  ({state.hand_size(q)})", style="dim")
        else:
            known = list(obs.known_in_hand[j])
            hand = _cards_text(known, empty="")
            hidden = obs.hand_sizes[j] - len(known)
            if hidden:
                hand.append((" " if known else "") + "\u2588" * min(hidden, 12), style="blue")
                if hidden > 12:
                    hand.append(f" +{hidden - 12}", style="blue")
            hand.append(f"  ({obs.hand_sizes[j]})", style="dim")
        if reveal:
            down = Text()
            for k, c in enumerate(state.face_down(q)):
                if k:
                    down.append(" ")
                down.append_text(card_text(c) if c is not None else Text("\u00b7", style="blue"))
        else:
            down = Text(" ".join("\u2588" if k in obs.face_down_slots[j] else "\u00b7" for k in
                                 range(state.rules.cards_per_zone)), style="blue")
        status = ""
        if j in obs.finish_order:
            k = obs.finish_order.index(j)
            status = "shithead" if state.is_terminal() and k == n - 1 and not state.is_truncated() else f"out #{k + 1}"
        elif obs.to_move == j:
            status = "to move"
        t.add_row(Text(name, style="bold" if j == 0 else ""), hand, _cards_text(obs.face_up[j]), down, status)
    return t


def _pile_units(state: State) -> List[Text]:
    """The pile line's parts, each kept whole when the line wraps."""
    pile = state.pile()
    first = Text("pile: ")
    first.append_text(_cards_text(pile[-8:], empty="(empty)"))
    if len(pile) > 8:
        first.append(f"  ({len(pile)} cards)", style="dim")
    units = [first]
    top = state.effective_top()
    run_rank, run_len = state.top_run()
    units.append(Text(f"top: {top or 'open'}"))
    if run_rank and run_len > 1:
        units.append(Text(f"run: {run_len} x {run_rank}"))
    units.append(Text(f"draw pile: {state.draw_pile_size()}"))
    units.append(Text(f"burned: {len(state.burned())}"))
    return units


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

    def __init__(self, con: Console, state, seat: int, bots: Sequence[Any]):
        info = registry.game_of(state)
        self.con, self.seat = con, seat
        self.narrate_all = info.hook("narrate_all")
        self.explain = info.hook("explain")
        self.rules_text = info.hook("rules_text")
        self.names = ["you" if q == seat else f"seat {q} ({bots[q].name})" for q in range(len(bots))]

    def play(self, state, action: int, label: str) -> List[Any]:
        """Plays an action, prints who played it (its notation) and narrates its events from the human's seat."""
        who = self.names[state.current_player()]
        events = state.apply(action, undo=False)  # no takebacks at this table: nothing kept
        self.con.print(f"{who}: {label}", highlight=False, markup=False)
        for sentence in self.narrate_all(events, self.seat, self.names):
            _say(self.con, sentence, indent=4, first=2)
        return events

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


_SH_HELP = ("Type the number in brackets, or the notation: 7x2 (two 7s; 10x2 or Tx2 for tens, JKx1 or Xx1 for a "
            "joker), up 7x1 (from face up), blind 0 (turn over slot 0), pickup, and in the swap phase the move as "
            "listed, keep face up: 7 10 A (or swap 7TA: keep 7, 10 and A face up, the rest in your hand).")


def sh_play(args: argparse.Namespace, con: Console, read=input) -> int:
    game = _game(args)
    n = game.num_players()
    if not 0 <= args.seat < n:
        raise CliError(f"--seat must be a seat in 0..{n - 1}, not {args.seat}")
    specs = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(specs) == 1:
        specs = specs * (n - 1)
    if len(specs) != n - 1:
        raise CliError(f"--bots takes one bot or one per other seat ({n - 1}), not {len(specs)}")
    others = _make_bots(specs, registry.game_of(game), n, [args.seed + i for i in range(len(specs))])
    import random

    rng = random.Random(args.seed)
    bots: List[Any] = []
    it = iter(others)
    for q in range(n):
        bots.append(None if q == args.seat else next(it))
    state = game.new_initial_state(args.seed)
    table = _Table(con, state, args.seat, bots)
    _say(con, f"threes play: {game.rules.name} rules, {n} players, you are seat {args.seat}; "
              f"bots: {', '.join(getattr(b, 'name', '?') for b in others)}; seed {args.seed} (replay it with "
              f"--seed {args.seed}). Type a move's number or notation, 'help', 'rules' or 'quit'.")
    while not state.is_terminal():
        p = state.current_player()
        if p != args.seat:
            a = bots[p].step(bot_view(bots[p], state, p, rng.getrandbits(64)))
            table.play(state, a, _move_label(state, a))
            continue
        con.print()
        con.print(render_table(state, args.seat))
        _print_units(con, _pile_units(state), sep="   ")
        table.explain_now(state)
        chosen = table.human_move(read, state, _SH_HELP)
        if chosen is None:
            return 0  # quit (or end of input): a normal exit
        table.play(state, *chosen)
    con.print()
    con.print("every card, face down and in every hand:")
    con.print(render_table(state, args.seat, reveal=True))
    order = state.finish_order()
    names = table.names
    if state.is_truncated():
        con.print(end_note(state, state.move_number()))
    _say(con, "finishing order: " + ", ".join(f"{k + 1}. {names[q]}" for k, q in enumerate(order)))
    if not state.is_truncated() and order and order[-1] == args.seat:
        con.print("you are the shithead!")
    return 0


# ---------------------------------------------------------- Three Thirteen --
def _options_game(args: argparse.Namespace):
    """The Game of a game that declares its options (threes.options): ``--set NAME=VALUE`` each."""
    from threes.options import parse_options

    info = _info(args)
    items: Dict[str, str] = {}
    for item in args.set or ():
        name, sep, value = item.partition("=")
        if not sep:
            raise CliError(f"--set takes NAME=VALUE, not {item!r}")
        items[name.strip()] = value.strip()
    if args.rules != "threes":
        raise CliError(f"--rules names a Shithead preset; {info.title} takes --set NAME=VALUE options")
    try:
        kw = parse_options(info.options, items, info.title)
        return info.load().Game(args.players, max_moves=getattr(args, "max_moves", None), **kw)
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None


def tt_simulate(args: argparse.Namespace, con: Console) -> int:
    from threes.three_thirteen import game as tt

    if args.games < 1:
        raise CliError(f"--games must be at least 1, not {args.games}")
    if args.plot:
        raise CliError("--plot draws the Shithead figures; for Three Thirteen use --json")
    game = _options_game(args)
    names = _policies(args.policy, game.num_players(), tt.POLICIES)
    _check_games(args.games, game.num_players(), 16 * game.num_players() + 8)
    try:
        import time

        backend = _backend(args, "--threads")
        t0 = time.perf_counter()
        if args.json:
            r = rollouts(game, args.games, names, args.seed, args.threads, **backend)
        else:
            bar, update = _progress_bar(con, "simulating", args.games, "games")
            with bar:
                r = rollouts(game, args.games, names, args.seed, args.threads, progress=update,
                             chunk=None if backend else max(20, args.games // 50), **backend)
        seconds = time.perf_counter() - t0
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None
    n = game.num_players()
    summary = {"game": registry.game_of(game).name, "players": n, "games": r.num_games, "seed": r.seed,
               "policies": list(r.policies), "options": game.options(), "win_rate": r.win_rate.tolist(),
               "mean_score": r.mean_score.tolist(), "mean_moves": r.mean_moves,
               **_end_counts(r), "seconds": seconds, "games_per_second": r.num_games / seconds}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        t = Table(title=f"{r.num_games:,} games of Three Thirteen, {n} players, seed {r.seed}")
        for col in ("seat", "policy", "win (lowest total)", "mean total"):
            t.add_column(col, justify="left" if col == "policy" else "right")
        for q in range(n):
            t.add_row(str(q), r.policies[q], f"{r.win_rate[q]:.1%}", f"{r.mean_score[q]:.1f}")
        con.print(t)
        con.print(f"moves per game: {r.mean_moves:,.1f}   {_end_counts_text(_end_counts(r))}   "
                  f"{r.num_games / seconds:,.0f} games/s")
    return 0


_TT_HELP = ("Type the number in brackets, or: stock (draw from the stock), take (the top discard), discard 7h "
            "(10h or Th for a ten), out 7h (go out, discarding 7h).")


def _tt_seats_line(state, table: "_Table") -> List[Text]:
    """One unit per other seat: its name, hand size, the cards known to be in it, its total."""
    obs = state.observation(table.seat)
    units = []
    for q in range(state.num_players()):
        if q == table.seat:
            continue
        u = Text(f"{table.names[q]}: {obs.hand_sizes[q]} cards")
        if obs.known[q]:
            u.append(" (known: ")
            u.append_text(_cards_text(obs.known[q]))
            u.append(")")
        u.append(f", total {obs.scores[q]}")
        units.append(u)
    return units


def tt_play(args: argparse.Namespace, con: Console, read=input) -> int:
    import random

    from threes.three_thirteen.describe import hand_melds

    game = _options_game(args)
    n = game.num_players()
    if not 0 <= args.seat < n:
        raise CliError(f"--seat must be a seat in 0..{n - 1}, not {args.seat}")
    specs = [b.strip() for b in args.bots.split(",") if b.strip()]
    specs = specs * (n - 1) if len(specs) == 1 else specs
    if len(specs) != n - 1:
        raise CliError(f"--bots takes one bot or one per other seat ({n - 1}), not {len(specs)}")
    others = iter(_make_bots(specs, registry.game_of(game), n, [args.seed + i for i in range(len(specs))]))
    bots = [None if q == args.seat else next(others) for q in range(n)]
    rng = random.Random(args.seed)
    state = game.new_initial_state(args.seed)
    table = _Table(con, state, args.seat, bots)
    names = table.names
    _say(con, f"threes play: Three Thirteen, {n} players, you are seat {args.seat}; bots: "
              f"{', '.join(names[q] for q in range(n) if q != args.seat)}; seed {args.seed} (replay it with "
              f"--seed {args.seed}). Type a move's number or notation (stock, take, discard 7h, out 7h), 'help', "
              "'rules' or 'quit'.")
    con.print(f"\n[bold]round 1[/bold]: 3 cards, wild {state.wild_rank()}")

    def after(events) -> None:
        if any(e.kind == "round_end" for e in events):
            totals = state.scores()
            _say(con, "totals: " + ", ".join(f"{names[q]} {totals[q]}" for q in range(n)))

    while not state.is_terminal():
        p = state.current_player()
        if p != args.seat:
            a = bots[p].step(bot_view(bots[p], state, p, rng.getrandbits(64)))
            after(table.play(state, a, _move_label(state, a)))
            continue
        con.print()
        hand = Text("your hand: ")
        hand.append_text(_cards_text(state.hand(args.seat)))
        _say(con, hand)
        _say(con, hand_melds(state, args.seat), indent=4, first=2)
        pile = state.discard_pile()
        top = Text("discard top: ")
        top.append_text(card_text(pile[-1]) if pile else Text("-"))
        _print_units(con, [top, Text(f"stock: {state.stock_size()}")] + _tt_seats_line(state, table), sep="   ")
        table.explain_now(state)
        chosen = table.human_move(read, state, _TT_HELP)
        if chosen is None:
            return 0  # quit (or end of input): a normal exit
        after(table.play(state, *chosen))
    if state.is_truncated():
        con.print(end_note(state, len(state.history())))
    con.print("\nevery hand, with its melds:")
    for q in range(n):
        line = Text(f"{names[q]}: ")
        line.append_text(_cards_text(state.hand(q)))
        _say(con, line, indent=4, first=2)
        _say(con, hand_melds(state, q), indent=6, first=4)
    totals = state.scores()
    order = sorted(range(n), key=lambda q: totals[q])
    _say(con, "final totals: " + ", ".join(f"{names[q]} {totals[q]}" for q in order))
    _say(con, "finishing order: " + ", ".join(f"{k + 1}. {names[q]}" for k, q in enumerate(order)))
    return 0


# -------------------------------------------------------------------- main --
#: Each registered game's commands, by registry name: how --game dispatches.
_COMMANDS: Dict[str, Dict[str, Any]] = {
    "shithead": {"simulate": sh_simulate, "play": sh_play, "game": _game},
    "three_thirteen": {"simulate": tt_simulate, "play": tt_play, "game": _options_game},
}


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

    def common(p: argparse.ArgumentParser, players: bool = True, random_seed: bool = False) -> None:
        p.add_argument("--no-color", action="store_true", default=argparse.SUPPRESS, help="plain text output")
        p.add_argument("--game", default="threes", choices=_game_choices(), metavar="GAME",
                       help="the game: " + "; ".join(
                           f"{' or '.join(info.aliases + (info.name,))} ({info.title})"
                           for info in map(registry.get, registry.names()))
                       + " (default threes); for Three Thirteen, --set takes its options (decks, jokers, ace, ...)")
        if players:
            p.add_argument("--players", type=int, default=4, help="number of players (default 4)")
        p.add_argument("--rules", default="threes", help=f"preset: {', '.join(PRESETS)} (default threes)")
        p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                       help="override a rule, e.g. --set pickup_then_play=false (repeatable)")
        if random_seed:  # a new game each time, its seed printed so that it can be replayed
            p.add_argument("--seed", type=int, default=None, help="seed (default: a random one, printed)")
        else:
            p.add_argument("--seed", type=int, default=1, help="seed (default 1)")

    p = sub.add_parser("simulate", help="batched C rollouts with a summary table")
    common(p)
    p.add_argument("--games", type=int, default=100_000, help="games to play (default 100,000)")
    p.add_argument("--policy", default="random", help="one policy or one per seat, comma separated: "
                   f"{', '.join(POLICIES)} (default random)")
    p.add_argument("--threads", type=int, default=None, help="native threads (default: every core)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="play on a Ray cluster (the [ray] extra): ADDRESS such as 127.0.0.1:6379, or none for "
                   "the one ray.init() finds or starts")
    p.add_argument("--max-moves", type=int, default=None, help="move cap per game")
    p.add_argument("--json", action="store_true", help="print the summary as JSON instead of a table")
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
    p.add_argument("--json", metavar="FILE", default=None, help="write the result as JSON")
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("rules", help="show a rule set as a table")
    p.add_argument("preset", nargs="?", default="threes", help=f"{', '.join(PRESETS)} (default threes)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="override a rule")
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
