"""Three Thirteen's commands for the ``threes`` command line (threes.ui.cli finds them through the
registry's ``cli`` hook; the Game of a command's ``--set NAME=VALUE`` options is the generic one,
read from threes.three_thirteen.OPTIONS): ``threes play`` (your hand with its melds, the discard,
the other seats); ``threes simulate`` is the generic one (win rates and mean totals, from the
RolloutResult)."""
from __future__ import annotations

import argparse
from typing import List

from rich.console import Console
from rich.text import Text

from threes.three_thirteen.describe import hand_melds
from threes.ui.cli import _cards_text, _options_game, _print_units, _say, _Table, card_text, play_loop
from threes.ui.text import end_note


HELP = ("Type the number in brackets, or: stock (draw from the stock), take (the top discard), discard 7h "
            "(10h or Th for a ten), out 7h (go out, discarding 7h).")


def _seats_line(state, table: _Table) -> List[Text]:
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


def play(args: argparse.Namespace, con: Console, read=input) -> int:
    """``threes play --game three-thirteen``: a game in the terminal against bots."""
    game = _options_game(args)
    n = game.num_players()

    def opening(state, table: _Table) -> None:
        con.print(f"\n[bold]round 1[/bold]: 3 cards, wild {state.wild_rank()}")

    def after(state, table: _Table, events) -> None:
        if any(e.kind == "round_end" for e in events):
            totals = state.scores()
            _say(con, "totals: " + ", ".join(f"{table.names[q]} {totals[q]}" for q in range(n)))

    def show(state, table: _Table) -> None:
        hand = Text("your hand: ")
        hand.append_text(_cards_text(state.hand(args.seat)))
        _say(con, hand)
        _say(con, hand_melds(state, args.seat), indent=4, first=2)
        pile = state.discard_pile()
        top = Text("discard top: ")
        top.append_text(card_text(pile[-1]) if pile else Text("-"))
        _print_units(con, [top, Text(f"stock: {state.stock_size()}")] + _seats_line(state, table), sep="   ")

    ended = play_loop(args, con, read, game, "Three Thirteen", show, HELP, opening, after)
    if ended is None:
        return 0  # quit: a normal exit
    state, table = ended
    names = table.names
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
