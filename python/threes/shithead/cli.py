"""Shithead's commands for the ``threes`` command line (threes.ui.cli finds them through the
registry's ``cli`` hook): the Game of the command's arguments (``--rules PRESET``, ``--set
NAME=VALUE``), ``threes simulate`` (win and shithead rates, ``--plot``) and ``threes play`` (the
table as a seat sees it). ``threes rules`` is the generic one, over threes.shithead.describe's
``rules_text``."""
from __future__ import annotations

import argparse
from typing import Any, Dict, List, Optional, Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from threes._engine import MAX_THREADS
from threes.args import parse_count
from threes.shithead.game import Game, State
from threes.shithead.rollouts import POLICIES
from threes.shithead.rules import FIELDS, INT_FIELDS, Rules
from threes.ui.cli import (CliError, _cards_text, _check_plot, _end_counts, _end_lines, _place_column, _policies,
                           _print_units, _pyplot, _say, _simulated, _write_json, card_text, play_loop)
from threes.ui.text import end_note

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


def rules_of(preset: Optional[str], overrides: Sequence[str]) -> Rules:
    try:
        return Rules.preset(preset or "threes", **_parse_overrides(overrides))
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None


def make_game(args: argparse.Namespace) -> Game:
    """The Game of ``--players``, ``--rules PRESET``, ``--set NAME=VALUE`` and ``--max-moves``."""
    try:
        return Game(args.players, rules_of(args.rules, args.set), getattr(args, "max_moves", None))
    except (TypeError, ValueError) as exc:
        raise CliError(str(exc)) from None


def simulate(args: argparse.Namespace, con: Console) -> int:
    """``threes simulate``: batched C rollouts, a table of win and shithead rates per seat."""
    if args.games < 1:
        raise CliError(f"--games must be at least 1, not {args.games}")
    if args.threads is not None and not 1 <= args.threads <= MAX_THREADS:
        raise CliError(f"--threads must be between 1 and {MAX_THREADS}, not {args.threads}")
    game = make_game(args)
    pols = _policies(args.policy, game.num_players(), POLICIES)
    if args.plot:
        _check_plot(args.plot)
    r, _ = _simulated(args, con, game, pols, 1000)
    summary = {
        "rules": game.rules.name if game.rules.name != "custom" else game.rules.to_dict(),
        "players": game.num_players(), "games": r.num_games, "seed": r.seed, "threads": r.threads,
        "policies": list(r.policies), "win_rate": r.win_rate.tolist(), "shithead_rate": r.shithead_rate.tolist(),
        "mean_place": r.mean_place.tolist(), "mean_moves": r.mean_moves, **_end_counts(r),
        "seconds": r.seconds, "games_per_second": r.games_per_second, "ns_per_move": r.ns_per_move,
    }
    n = game.num_players()
    if args.json != "-":
        t = Table(title=f"{r.num_games:,} games, {game.rules.name} rules, {n} players, seed {r.seed}")
        for col in ("seat", "policy", "win", "shithead", _place_column()):
            t.add_column(col, justify="right" if col != "policy" else "left")
        for q in range(n):
            t.add_row(str(q), r.policies[q], f"{r.win_rate[q]:.1%}", f"{r.shithead_rate[q]:.1%}",
                      f"{r.mean_place[q] + 1:.2f}")
        con.print(t)
        con.print(f"moves per game: {r.mean_moves:,.1f}   {r.games_per_second:,.0f} games/s ({r.threads:,} threads, "
                  f"{r.ns_per_move:,.1f} ns/move)")
        for line in _end_lines(_end_counts(r), r.num_games, game):
            _say(con, line)
    if args.json is not None:
        _write_json(con, summary, args.json, "summary")
    if args.plot:
        _plot(r, game, args.plot)
        if args.json != "-":
            con.print(f"plot written to {args.plot}", markup=False, highlight=False)
    return 0


def _plot(r, game: Game, path: str) -> None:
    plt = _pyplot()
    seats = list(range(game.num_players()))
    labels = [f"{q}\n{r.policies[q]}" for q in seats]
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    for ax, values, title in ((axes[0], r.win_rate, "win rate"), (axes[1], r.shithead_rate, "shithead rate"),
                              (axes[2], r.mean_place + 1, "mean place (1st = first out)")):
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


HELP = ("Type the number in brackets, or the notation: 7x2 (two 7s; 10x2 or Tx2 for tens, JKx1 or Xx1 for a "
            "joker), up 7x1 (from face up), blind 0 (turn over slot 0), pickup, and in the swap phase the move as "
            "listed, keep face up: 7 10 A (or swap 7TA: keep 7, 10 and A face up, the rest in your hand).")


def play(args: argparse.Namespace, con: Console, read=input) -> int:
    """``threes play``: a game in the terminal against bots."""
    game = make_game(args)

    def show(state: State, table) -> None:
        con.print(render_table(state, args.seat))
        _print_units(con, _pile_units(state), sep="   ")

    ended = play_loop(args, con, read, game, f"{game.rules.name} rules", show, HELP)
    if ended is None:
        return 0  # quit: a normal exit
    state, table = ended
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
