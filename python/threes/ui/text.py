"""Text rendering of a state: the table as str(state) shows it; and
``end_note``, the one wording of an unfinished end (the move cap, a
stalemate) that the text, the SVG pictures and the command line share.

The faces of cards for people, shared by the terminal (``threes play``), the
narration of events (``threes.shithead.describe``,
``threes.three_thirteen.describe``) and any other text: ``card_face``
(``10\u2663``, ``A\u2665``, ``JK\u2605`` for a joker), ``cards_face`` (faces
joined by spaces), ``rank_face`` (``10``, ``K``, ``JK``) and ``rank_name``
(``10``, ``King``, ``joker``; ``plural=True``: ``10s``, ``Kings``,
``jokers``); ``a_rank`` puts the article before a rank's name (``a 10``,
``an 8``, ``an Ace``)."""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, TYPE_CHECKING

from threes.places import MOVE_CAP, STALEMATE, end_reason

if TYPE_CHECKING:  # pragma: no cover
    from threes.shithead.game import State

_PLACES = ("1st", "2nd", "3rd")

SUIT_SYMBOL = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
_RANK_FACE = {"T": "10", "X": "JK"}
_RANK_NAME = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace", "X": "joker"}


def card_face(card: Any) -> str:
    """A card as the screen shows it: rank (``10`` for a ten) then suit
    symbol; a joker is ``JK\u2605``. Takes a Card or its text."""
    s = str(card)
    if s[0] == "X":
        return "JK\u2605"
    return _RANK_FACE.get(s[0], s[0]) + SUIT_SYMBOL.get(s[1], "\u2605")


def cards_face(cards: Any, empty: str = "-") -> str:
    """Cards as the screen shows them, joined by spaces (``empty`` for none)."""
    faces = [card_face(c) for c in cards]
    return " ".join(faces) if faces else empty


def rank_face(rank: str) -> str:
    """A rank character as the screen shows it: ``10`` for T, ``JK`` for X."""
    return _RANK_FACE.get(rank, rank)


def rank_name(rank: str, plural: bool = False) -> str:
    """A rank in words: ``7``, ``10``, ``King``, ``Ace``, ``joker``; with
    ``plural``, ``7s``, ``10s``, ``Kings``, ``jokers``."""
    name = _RANK_NAME.get(rank, rank)
    return name + "s" if plural else name


def a_rank(rank: str) -> str:
    """A rank's name after its article: ``a 7``, ``an 8``, ``an Ace``, ``a King``."""
    name = rank_name(rank)
    return ("an " if name[0] in "8A" else "a ") + name


_IRREGULAR = {"are": "is", "have": "has"}


def _verb(you: bool, base: str) -> str:
    """The verb for "you" (the base form) or for a seat (third person): the narration's one conjugation."""
    if you:
        return base
    if base in _IRREGULAR:
        return _IRREGULAR[base]
    return base + ("es" if base.endswith(("s", "sh", "ch", "x", "o")) else "s")


def _who(seat: Optional[int], viewer: Optional[int], names: Optional[Sequence[str]]):
    """(name, is_you) of a seat for the viewer: "you", names[seat], or "seat N"; "nobody" for None."""
    if seat is None:
        return "nobody", False
    if viewer is not None and seat == viewer:
        return "you", True
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return str(names[seat]), False
    return f"seat {seat}", False


def _cards_count(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def _place(k: int) -> str:
    return _PLACES[k] if k < 3 else f"{k + 1}th"


def end_note(state: Any, moves: Optional[int] = None) -> Optional[str]:
    """How a game of any registered game ended when it did not finish
    normally, for people: ``"TRUNCATED at the move cap"`` or ``"STALEMATE:
    the same position occurred k times"`` (k: the rules' repetition_limit),
    with ``after N moves`` when ``moves`` is given; None while the game is on
    or after a normal finish (threes.places.end_reason)."""
    reason = end_reason(state)
    after = "" if moves is None else f" after {moves} moves"
    if reason == STALEMATE:
        k = getattr(getattr(state, "rules", None), "repetition_limit", 0)
        return f"STALEMATE{after}: the same position occurred {k} times" if k else f"STALEMATE{after}"
    if reason == MOVE_CAP:
        return f"TRUNCATED at the move cap{after}"
    return None


def render_text(state: "State") -> str:
    """A readable table with every card (the true cards, face-down included).

    Hand cards every player knows are marked ``*``; face-down cards are shown
    in parentheses by slot, ``--`` for an empty slot.
    """
    n = state.num_players()
    cp = state.current_player()
    head = f"{state.rules.name} rules, {n} players, {state.phase.value} phase, move {state.move_number()}"
    if cp >= 0:
        head += f", seat {cp} to move"
    elif state.is_truncated():
        head += f", {end_note(state)}"
    else:
        head += ", game over"
    pile = state.pile()
    top = state.effective_top()
    run_rank, run_len = state.top_run()
    lines: List[str] = [head]
    pile_text = " ".join(str(c) for c in pile) if pile else "(empty)"
    lines.append(f"pile ({len(pile)}, top last): {pile_text}")
    lines.append(f"  effective top: {top if top else 'open'}"
                 + (f", top run: {run_len} x {run_rank}" if run_rank else "")
                 + f"   draw pile: {state.draw_pile_size()}   burned: {len(state.burned())}")
    rows = []
    out = state.finish_order()
    for p in range(n):
        known = [str(c) for c in state.known_cards(p)]
        hand = []
        for c in state.hand(p):
            s = str(c)
            if s in known:
                known.remove(s)
                s += "*"
            hand.append(s)
        up = " ".join(str(c) for c in state.face_up(p)) or "-"
        down = " ".join("--" if c is None else f"({c})" for c in state.face_down(p))
        status = ""
        if p in out:
            k = out.index(p)
            status = "shithead" if state.is_terminal() and not state.is_truncated() and k == n - 1 else _place(k)
        mark = ">" if p == cp else " "
        rows.append((f"{mark}{p}", " ".join(hand) or "-", up, down, status))
    widths = [max(len(r[i]) for r in rows + [("seat", "hand", "face-up", "face-down", "")]) for i in range(5)]
    header = ("seat", "hand", "face-up", "face-down", "")
    for r in [header] + rows:
        lines.append("  ".join(f"{x:<{w}}" for x, w in zip(r, widths)).rstrip())
    if state.is_terminal():
        order = ", ".join(f"{_place(k)} seat {q}" for k, q in enumerate(out))
        if state.is_truncated():
            lines.append(f"{end_note(state, state.move_number())}; out: {order or 'nobody'}")
        else:
            lines.append(f"finishing order: {order} (seat {out[-1]} is the shithead)")
    return "\n".join(lines)


def render_mode_output(render_mode: str, state: "State") -> Optional[str]:
    """What an environment's render() gives: the text for "ansi", or the text
    printed for "human" (PettingZoo and Gymnasium adapters)."""
    text = str(state)
    if render_mode == "ansi":
        return text
    print(text)
    return None
