"""Shithead's picture (threes.svg.render draws a Shithead state with :func:`render`, this game's
``svg`` hook): the seats with their hands, face-up and face-down cards, the pile, the draw pile
and the burned cards, and the last move's marker. The drawing kit (cards, panels, captions) and
what the classes of the SVG's elements mean are threes.ui.svg's."""
from __future__ import annotations

import functools
from typing import Any, List, Optional, Sequence, Tuple

from threes.shithead.game import State
from threes.ui.text import _place, end_note
from threes.ui.svg import (  # the drawing kit every game's picture shares
    _BACK_ITEM, _card_back, _card_face, CARD_H, CARD_W, _centre_panel, _check_observer, _check_size,
    _document, _face_down_pile, _Fan, _GAP, _HAND_PER_LINE, _HAND_STEP, _header, _hidden_from, _HIGHLIGHT,
    _Item, _LABEL_W, _last_move_caption, _MARGIN, _MUTED, _PILE_PER_LINE, _PILE_STEP, _RANK_LABEL,
    _seat_panel, _SHITHEAD, _slot, _SLOT_ITEM, _text, _TEXT, _ZONE_LABEL_H, _ZONE_PER_LINE, _ZONE_STEP,
)

__all__ = ["render"]


def _status(state: "State") -> str:
    cp = state.current_player()
    if cp >= 0:
        return f"seat {cp} to move"
    out = state.finish_order()
    order = ", ".join(f"{_place(k)} seat {q}" for k, q in enumerate(out))
    if state.is_truncated():
        return f"{end_note(state, state.move_number())}; out: {order or 'nobody'}"
    return f"game over: {order} (seat {out[-1]} is the shithead)" if out else "game over"


def _rank_label(rank: str) -> str:
    return "JK" if rank == "X" else _RANK_LABEL.get(rank, rank)


def _sh_last_move(state: "State", observer: Optional[int],
                  events: Optional[Sequence[Any]]) -> Tuple[Optional[str], Optional[int], set]:
    """(caption, the seat that moved or None, indexes of the pile's cards the move put there) of a
    Shithead state's last move, from its events or else from history() and the position (public facts only)."""
    pile = state.pile()
    rank: Optional[str] = None
    count = 0
    mover: Optional[int] = None
    label: Optional[str] = None
    if events is not None:
        events = list(events)
        if not events:
            return None, None, set()
        mover = events[0].seat
        for e in events:
            if e.kind == "play" and e.cards:
                rank, count = e.cards[-1].rank, len(e.cards)
                break
            if e.kind == "blind" and e.detail == "played" and e.cards:
                rank, count = e.cards[0].rank, 1
                break
    else:
        history = state.history()
        if not history:
            return None, None, set()
        move = state.decode_action(history[-1])
        if move.kind == "swap":
            label = "keep face up: " + " ".join(_rank_label(r) for r in move.face_up)
            cp = state.current_player()
            mover = (cp - 1) % state.num_players() if state.phase.value == "swap" else state.dealer
        elif move.kind == "play":
            label = f"{_rank_label(move.rank)}x{move.count}"
            rank, count = move.rank, move.count
        else:
            label = str(move)
            if move.kind == "blind" and pile:  # played (a failed blind card is picked up with the pile)
                rank, count = pile[-1].rank, 1
    marked: set = set()
    if rank is not None and 0 < count <= len(pile) and all(c.rank == rank for c in pile[len(pile) - count:]):
        marked = set(range(len(pile) - count, len(pile)))  # still on top: not burned, not picked up
    return _last_move_caption(state, observer, events, label), mover, marked


def render(state: "State", observer: Optional[int] = None, size: Optional[float] = None,
                    events: Optional[Sequence[Any]] = None) -> str:
    """A Shithead table as a standalone SVG document (a string).

    observer  None: every card face up, the true cards (face-down zones and
              every hand included), as ``str(state)`` shows them. A seat
              ``p``: only what ``p`` can see; other hands are backs except
              their publicly known cards, every face-down slot is a back.
              ``"public"``: what every player sees (a spectator): every hand
              as backs but its publicly known cards.
    size      the width in pixels (the height follows); None for the natural
              size. The viewBox is the same either way.
    events    the events of the move that led here (``state.apply``'s
              list) for the last-move marker (see the module docstring);
              None: the marker is read off ``state.history()``.

    Raises TypeError for a non-int observer (bool included) and ValueError
    for a seat out of range.
    """
    if not isinstance(state, State):
        raise TypeError(f"render takes a threes.State, not {type(state).__name__}")
    state._snapshot()  # a clear ValueError for a State that was never set up
    p_obs = _check_observer(state, observer)
    scale_to = _check_size(size)

    n = state.num_players()
    cp = state.current_player()
    terminal = state.is_terminal()
    truncated = state.is_truncated()
    out = state.finish_order()
    caption, mover, marked = _sh_last_move(state, p_obs, events)

    # ---- what each seat shows: lists of ("face", card, extra) / ("back",) --
    seats = []
    min_zone = 1  # the most face-down slots of any seat
    for q in range(n):
        known = [str(c) for c in state.known_cards(q)]
        hand_items: List[_Item] = []
        if p_obs is None or q == p_obs:
            for c in state.hand(q):
                s = str(c)
                if s in known:
                    known.remove(s)
                    hand_items.append(("face", c, ("known",)))
                else:
                    hand_items.append(("face", c, ()))
        else:
            shown = state.known_cards(q)
            hand_items = [("face", c, ("known",)) for c in shown]
            hand_items += [_BACK_ITEM] * (state.hand_size(q) - len(shown))
        up_items: List[_Item] = [("face", c, ()) for c in state.face_up(q)]
        down_items: List[_Item] = []
        downs = state.face_down(q)
        min_zone = max(min_zone, len(downs))
        for d in downs:
            if d is None:
                down_items.append(_SLOT_ITEM)
            elif p_obs is None:
                down_items.append(("face", d, ("revealed",)))
            else:
                down_items.append(_BACK_ITEM)
        status = ""
        if q in out:
            k = out.index(q)
            status = "shithead" if terminal and not truncated and k == n - 1 else _place(k)
        seats.append((hand_items, up_items, down_items, status))

    # ---- layout --------------------------------------------------------
    hand_fans = [_Fan(len(s[0]), _HAND_STEP, _HAND_PER_LINE) for s in seats]
    up_fans = [_Fan(len(s[1]), _ZONE_STEP, _ZONE_PER_LINE) for s in seats]
    down_fans = [_Fan(len(s[2]), _ZONE_STEP, _ZONE_PER_LINE) for s in seats]
    hand_w = max([f.width for f in hand_fans] + [_Fan(6, _HAND_STEP, _HAND_PER_LINE).width, 90])
    up_w = max([f.width for f in up_fans] + [_Fan(min_zone, _ZONE_STEP, _ZONE_PER_LINE).width, 70])
    down_w = max([f.width for f in down_fans] + [_Fan(min_zone, _ZONE_STEP, _ZONE_PER_LINE).width, 80])
    x_hand = _MARGIN + _LABEL_W
    x_up = x_hand + hand_w + _GAP
    x_down = x_up + up_w + _GAP
    seats_w = x_down + down_w + _MARGIN + 10

    pile = state.pile()
    pile_fan = _Fan(len(pile), _PILE_STEP, _PILE_PER_LINE)
    x_draw = _MARGIN + 10
    x_pile = x_draw + max(CARD_W, 80) + _GAP
    center_w = x_pile + max(pile_fan.width, 220) + _MARGIN + 10
    width = max(seats_w, center_w, 560)

    parts: List[str] = []
    y = _MARGIN

    # ---- header ---------------------------------------------------------
    head = (f"{state.rules.name} rules \u00b7 {n} players \u00b7 {state.phase.value} phase"
            f" \u00b7 move {state.move_number()}")
    y = _header(parts, y, width, head, _status(state), p_obs, caption)

    # ---- centre: draw pile, burned, pile ----------------------------------
    top_y = y + 8
    card_y = top_y + 20
    center_h = max(20 + CARD_H + 38, 20 + pile_fan.height + 30) + 16
    _centre_panel(parts, y, width, center_h)
    _face_down_pile(parts, "draw-pile", "draw pile", x_draw, top_y, card_y, state.draw_pile_size())
    n_burned = len(state.burned())
    parts.append(f'<g class="burned" data-count="{n_burned}">')
    parts.append(_text(x_draw, card_y + CARD_H + 32, f"burned: {n_burned}", 12, _MUTED))
    parts.append("</g>")

    parts.append(f'<g class="pile" data-count="{len(pile)}">')
    parts.append(_text(x_pile, top_y + 12, f"pile ({len(pile)}, bottom \u2192 top)", 12, _MUTED))
    if pile:
        for i, c in enumerate(pile):
            dx, dy = pile_fan.at(i)
            extra = (("top",) if i == len(pile) - 1 else ()) + (("last-move",) if i in marked else ())
            parts.append(_card_face(x_pile + dx, card_y + dy, c, extra))
    else:
        parts.append(_slot(x_pile, card_y, "empty"))
    eff = state.effective_top()
    run_rank, run_len = state.top_run()
    info = f"effective top: {_RANK_LABEL.get(eff, eff) if eff else 'open'}"
    if run_rank:
        info += f" \u00b7 top run: {run_len} \u00d7 {_RANK_LABEL.get(run_rank, run_rank)}"
    parts.append(_text(x_pile, card_y + pile_fan.height + 18, info, 13, _TEXT, bold=True, cls="pile-info"))
    parts.append("</g>")
    y += center_h + 10

    # ---- seats ----------------------------------------------------------
    for q, (hand_items, up_items, down_items, status) in enumerate(seats):
        row, row_h = _seat_row(q, y, width, q == cp, q == p_obs, q == mover, status, x_hand, x_up, x_down,
                               tuple(hand_items), tuple(up_items), tuple(down_items))
        parts.append(row)
        y += row_h + 8

    legend = "gold edge: a hand card known to all \u00b7 orange edge: the pile's top \u00b7 "
    legend += "tinted: a face-down card, shown" if p_obs is None else f"backs: hidden from {_hidden_from(p_obs)}"
    return _document(parts, y, width, scale_to, legend)


# the rows of the seats a move did not touch, and a row that is the same in every view: drawn once
# (1024 rows of a few KB: some 6 MB at most)
@functools.lru_cache(maxsize=1024)
def _seat_row(q: int, y: float, width: float, to_move: bool, observer: bool, moved: bool, status: str,
              x_hand: float, x_up: float, x_down: float, hand_items: Tuple[_Item, ...],
              up_items: Tuple[_Item, ...], down_items: Tuple[_Item, ...]) -> Tuple[str, float]:
    """Seat q's row (its panel, hand, face-up and face-down cards) from y, and its height."""
    parts: List[str] = []
    hf, uf, df = (_Fan(len(hand_items), _HAND_STEP, _HAND_PER_LINE), _Fan(len(up_items), _ZONE_STEP, _ZONE_PER_LINE),
                  _Fan(len(down_items), _ZONE_STEP, _ZONE_PER_LINE))
    row_h = _ZONE_LABEL_H + max(hf.height, uf.height, df.height) + 16
    lx, ly = _seat_panel(parts, q, y, width, row_h, q if to_move else -2, q if observer else -2,
                         ["last-mover"] if moved else [])
    if status:
        colour = _SHITHEAD if status == "shithead" else _HIGHLIGHT
        parts.append(_text(lx, ly, status, 13, colour, bold=True, cls="place"))
        ly += 18
    parts.append(_text(lx, ly, f"hand: {len(hand_items)}", 11, _MUTED))

    zy = y + _ZONE_LABEL_H + 6
    for cls, label, x0, fan, items in (
            ("hand", f"hand ({len(hand_items)})", x_hand, hf, hand_items),
            ("face-up", "face-up", x_up, uf, up_items),
            ("face-down", "face-down", x_down, df, down_items)):
        parts.append(f'<g class="{cls}">')
        parts.append(_text(x0, y + 16, label, 11, _MUTED))
        if not items:
            parts.append(_text(x0, zy + CARD_H / 2, "\u2014", 13, _MUTED))
        for i, item in enumerate(items):
            dx, dy = fan.at(i)
            kind, card, extras = item
            if kind == "face" and card is not None:
                parts.append(_card_face(x0 + dx, zy + dy, card, extras))
            elif kind == "back":
                parts.append(_card_back(x0 + dx, zy + dy))
            else:
                parts.append(_slot(x0 + dx, zy + dy))
        parts.append("</g>")
    parts.append("</g>")
    return "".join(parts), row_h
