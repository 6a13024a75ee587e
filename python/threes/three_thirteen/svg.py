"""Three Thirteen's picture (threes.svg.render draws a Three Thirteen state with :func:`render`, this
game's ``svg`` hook): the hands, the stock and the discard pile, the round and its wild rank, the
totals, and the last move's marker. The drawing kit and what the classes of the SVG's elements
mean are threes.ui.svg's."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from threes import registry
from threes.three_thirteen.game import card_to_kind, kind_to_card, min_deadwood
from threes.ui.text import card_face, end_note, rank_face
from threes.ui.svg import (  # the drawing kit every game's picture shares
    _BACK_ITEM, _card_back, _card_face, CARD_H, CARD_W, _centre_panel, _check_observer, _check_size,
    _document, _face_down_pile, _Fan, _GAP, _HAND_PER_LINE, _HAND_STEP, _header, _hidden_from, _HIGHLIGHT,
    _Item, _LABEL_W, _last_move_caption, _MARGIN, _MUTED, _num, _RADIUS, _RANK_LABEL, _seat_panel, _slot,
    _TEXT, _text, _WILD, _wrap, _ZONE_LABEL_H,
)

__all__ = ["render"]

_TT_PHASES = ("draw", "discard", "over")
#: Three Thirteen's ranks, ace low (a run's positions 1..13; 14 is an ace above the King)
_RANKS = "A23456789TJQK"


def _is_wild(card: Any, wild: str) -> bool:
    return bool(card.is_joker or card.rank == wild)


def _stands_for(kind: str, cards: Sequence[Any], wild: str) -> List[Optional[str]]:
    """What each card of a meld stands for: None for a natural card (and for a wild card standing for
    itself), else the rank it takes ("5": a set's rank, or its place in a run, whose suit is the run's).
    A meld of wild cards only stands for no particular card (None throughout)."""
    naturals = [(i, c) for i, c in enumerate(cards) if not _is_wild(c, wild)]
    out: List[Optional[str]] = [None] * len(cards)
    if not naturals:
        return out
    if kind == "set":
        rank = naturals[0][1].rank
        return [rank if _is_wild(c, wild) and c.rank != rank else None for c in cards]
    # a run: its cards are in run order, wild cards where they stand (the meld solver's order)
    for high in (False, True):  # an ace is low, or high in a run ending Q-K-A
        starts = {(14 if high and c.rank == "A" else _RANKS.index(c.rank) + 1) - i for i, c in naturals}
        if len(starts) == 1:
            break
    start = starts.pop()
    suit = naturals[0][1].suit
    for i, c in enumerate(cards):
        pos = start + i
        if _is_wild(c, wild) and 1 <= pos <= 14:
            rank = _RANKS[(pos - 1) % 13]
            out[i] = None if (c.rank, c.suit) == (rank, suit) else rank
    return out


def _hand_melds(state: Any, hand: Sequence[Any], wild: str) -> Tuple[Dict[int, str], List[str]]:
    """A hand's best arrangement (the meld solver's, as the game scores it): (for each index of the hand
    a wild card stands at, what it stands for: "=5"; its words: "run 4\u2663 3\u2665(=5) 6\u2663",
    "set ...", "left over ...")."""
    o = state._options()
    value, arr = min_deadwood(list(hand), wild, ace="either" if o["ace_either"] else "low",
                              all_wild_melds=bool(o["all_wild_melds"]),
                              wild_penalty=20 if o["wild_penalty_20"] else "face")
    free = list(range(len(hand)))
    notes: Dict[int, str] = {}
    words: List[str] = []
    for kind, cards in arr["melds"]:
        faces = []
        for card, rank in zip(cards, _stands_for(kind, cards, wild)):
            i = next(k for k in free if str(hand[k]) == str(card))
            free.remove(i)
            if rank is None:
                faces.append(card_face(card))
            else:
                notes[i] = "=" + rank_face(rank)
                faces.append(f"{card_face(card)}(={rank_face(rank)})")
        words.append(f"{kind} {' '.join(faces)}")
    if arr["deadwood"]:
        words.append(f"left over {' '.join(card_face(c) for c in arr['deadwood'])} (deadwood {value})")
    return notes, ["melds: " + " \u00b7 ".join(words[:len(arr['melds'])]) if arr["melds"] else "no melds"] \
        + words[len(arr["melds"]):]


def _tt_last_move(state: Any, f: Dict[str, Any], observer: Optional[int],
                  events: Optional[Sequence[Any]]) -> Tuple[Optional[str], Optional[int], bool, bool]:
    """(caption, the seat that moved or None, whether the discard's top card is the one just discarded,
    whether the taken card was just taken) of a Three Thirteen state's last move, from its events or else from
    history() and the position (public facts only)."""
    pile = f["discard"]
    n = f["num_players"]
    label: Optional[str] = None
    mover: Optional[int] = None
    discarded: Optional[int] = None
    took = False
    if events is not None:
        events = list(events)
        if not events:
            return None, None, False, False
        mover = events[0].seat
        for e in events:
            if e.kind == "discard" and e.cards:
                discarded = card_to_kind(e.cards[0])
            elif e.kind == "draw" and e.source == "discard":
                took = True
    else:
        history = state.history()
        if not history:
            return None, None, False, False
        a = history[-1]
        label = state.action_to_string(a)
        if a < 2:  # a draw: the seat to move now drew it (it discards next)
            mover = f["current"] if f["current"] >= 0 else None
            took = a == 1
        else:
            discarded = (a - 2) % 54
    # a discard that ended a round is gone with it: a new round's pile is dealt afresh (the events
    # say so; else the turns do: a round has just begun when one seat only has had a turn)
    if events is not None:
        new_round = any(e.kind == "round" for e in events)
    else:
        new_round = f["phase"] != 2 and sum(1 for t in f["turns"] if t > 0) == 1
    on_top = discarded is not None and not new_round and bool(pile) and pile[-1] == discarded
    if events is None and on_top and f["current"] >= 0:
        mover = (f["current"] - 1) % n
    return _last_move_caption(state, observer, events, label), mover, on_top, took and f["taken_kind"] >= 0


def render(state: Any, observer: Optional[int] = None, size: Optional[float] = None,
                          events: Optional[Sequence[Any]] = None) -> str:
    """A Three Thirteen table as a standalone SVG document (a string).

    observer  None: every hand face up (the true cards). A seat ``p``: what
              ``p`` can see: its own hand face up, every other hand as backs
              except the card a player took from the discard pile this turn
              (every player saw it: drawn face up, class ``known``); the
              picture then depends only on what ``p`` can see.
              ``"public"``: every hand as backs but those known cards.
    size      the width in pixels (the height follows); None for the natural size.
    events    the events of the move that led here, for the last-move marker
              (the module docstring); None: read off ``state.history()``.

    Shown: the round (of 11), its wild rank (wild cards carry a star and the
    class ``wild``), under each hand drawn face up its best melds in words
    (``<text class="melds">``, the meld solver's arrangement: "melds: run 4\u2663
    3\u2665(=5) 6\u2663", then what is left over) with what each wild card stands
    for also on the card ("=5"), the phase and who is to move, the stock (one back and its
    size, ``<g class="stock" data-count>``), the discard pile (its top card
    face up with class ``top``, and its size, ``<g class="discard"
    data-count>``), every seat's hand (``<g class="seat" data-seat>`` with
    tokens ``to-move``, ``observer``, ``dealer``, ``out``; its ``<g
    class="hand">``), each seat's total score (``<text class="total">``) and,
    where its cards are shown, its deadwood; at the end, the final totals and
    the winner (the lowest total).
    """
    info = registry.game_of(state)
    if info.hook("svg") is not render:
        raise TypeError(f"this render takes a Three Thirteen state, not a {info.title} one")
    f: Dict[str, Any] = state._fields()
    p_obs = _check_observer(state, observer)
    scale_to = _check_size(size)
    n = f["num_players"]
    rnd, phase = f["round"], _TT_PHASES[f["phase"]]
    terminal = state.is_terminal()
    truncated = state.is_truncated()
    cp = -1 if terminal else f["current"]
    wild = state.wild_rank()
    taken = f["taken_kind"]
    totals = list(f["totals"])
    wilds = f"{_RANK_LABEL.get(wild, wild)}s" + (" and jokers" if state._options()["jokers"] else "")
    caption, mover, discard_marked, taken_marked = _tt_last_move(state, f, p_obs, events)

    def face(kind: int, extra: Tuple[str, ...] = ()) -> _Item:
        card = kind_to_card(kind)
        if card.is_joker or card.rank == wild:
            extra = extra + ("wild",)
        return ("face", card, extra)

    seats = []
    for q in range(n):
        hand = f["hands"][q]
        shown = p_obs is None or q == p_obs
        mark = ("last-move",) if taken_marked and q == cp else ()
        notes: Dict[int, str] = {}
        meld_words: List[str] = []
        if shown:
            items = [face(k) for k in hand]
            if mark and taken in hand:
                i = list(hand).index(taken)
                items[i] = face(taken, mark)
            if hand:
                notes, meld_words = _hand_melds(state, [kind_to_card(k) for k in hand], wild)
        else:
            items = []
            if q == cp and taken >= 0 and taken in hand:
                items.append(face(taken, ("known",) + mark))
            items += [_BACK_ITEM] * (len(hand) - len(items))
        seats.append((items, shown, notes, meld_words))

    # ---- layout --------------------------------------------------------
    fans = [_Fan(len(it), _HAND_STEP, _HAND_PER_LINE) for it, *_ in seats]
    hand_w = max([fn.width for fn in fans] + [_Fan(14, _HAND_STEP, _HAND_PER_LINE).width])
    x_hand = _MARGIN + _LABEL_W
    x_score = x_hand + hand_w + _GAP
    width = max(x_score + 130 + _MARGIN, 560)
    parts: List[str] = []
    y = _MARGIN

    # ---- header ---------------------------------------------------------
    head = (f"Three Thirteen \u00b7 {n} players \u00b7 round {rnd} of 11 \u00b7 {rnd + 2} cards, wild "
            f"{_RANK_LABEL.get(wild, wild)} \u00b7 {phase} phase \u00b7 move {f['move_count']}")
    if terminal:
        low = min(totals)
        winners = [q for q in range(n) if totals[q] == low]
        status = (f"{end_note(state, f['move_count'])}; totals {totals}" if truncated else
                  f"game over: final totals {', '.join(str(t) for t in totals)}; "
                  + " and ".join(f"seat {q}" for q in winners) + (" win" if len(winners) > 1 else " wins"))
    else:
        status = f"seat {cp} to move ({'draw from the stock or take the discard' if phase == 'draw' else 'discard'})"
        if f["out_seat"] >= 0:
            status += f"; seat {f['out_seat']} went out: the others' last turns"
    y = _header(parts, y, width, head, status, p_obs, caption)

    # ---- centre: stock and discard pile -----------------------------------
    top_y = y + 8
    card_y = top_y + 20
    center_h = 20 + CARD_H + 38
    _centre_panel(parts, y, width, center_h)
    x_stock = _MARGIN + 10
    _face_down_pile(parts, "stock", "stock", x_stock, top_y, card_y, len(f["stock"]))
    x_disc = x_stock + 80 + _GAP
    pile = f["discard"]
    parts.append(f'<g class="discard" data-count="{len(pile)}">')
    parts.append(_text(x_disc, top_y + 12, "discard", 12, _MUTED))
    if pile:
        if len(pile) > 1:
            parts.append(f'<rect class="stack" x="{_num(x_disc + 3)}" y="{_num(card_y + 3)}" width="{CARD_W}" '
                         f'height="{CARD_H}" rx="{_RADIUS}" fill="#9e9e9e"/>')
        _, card, extra = face(pile[-1], ("top",) + (("last-move",) if discard_marked else ()))
        parts.append(_card_face(x_disc, card_y, card, extra))
    else:
        parts.append(_slot(x_disc, card_y, "empty"))
    parts.append(_text(x_disc, card_y + CARD_H + 16, f"{len(pile)} card{'s' if len(pile) != 1 else ''}", 12,
                       _TEXT, bold=True))
    parts.append("</g>")
    x_info = x_disc + 80 + _GAP
    parts.append('<g class="round-info">')
    parts.append(_text(x_info, card_y + 14, f"round {rnd} of 11", 14, _TEXT, bold=True, cls="round"))
    parts.append(_text(x_info, card_y + 34, f"wild: {wilds}",
                       13, _TEXT, cls="wild-rank"))
    parts.append(_text(x_info, card_y + 52, f"dealer: seat {f['dealer']}", 12, _MUTED))
    if taken >= 0:
        parts.append(_text(x_info, card_y + 70, f"taken from the discard: {kind_to_card(taken)}", 12, _MUTED,
                           cls="taken"))
    parts.append("</g>")
    y += center_h + 10

    # ---- seats ----------------------------------------------------------
    meld_avail = width - x_hand - _MARGIN - 10
    for q, (items, shown, notes, meld_words) in enumerate(seats):
        fan = fans[q]
        meld_lines = [line for words in meld_words for line in _wrap(words, 11, meld_avail)]
        row_h = _ZONE_LABEL_H + max(fan.height + 15 * len(meld_lines), 58) + 16
        extra = (["dealer"] if q == f["dealer"] else []) + (["out"] if (f["out_mask"] >> q) & 1 else [])
        extra += ["last-mover"] if q == mover else []
        lx, ly = _seat_panel(parts, q, y, width, row_h, cp, p_obs, extra)
        if (f["out_mask"] >> q) & 1:
            parts.append(_text(lx, ly, "went out", 13, _HIGHLIGHT, bold=True, cls="went-out"))
            ly += 18
        parts.append('<g class="hand">')
        parts.append(_text(x_hand, y + 16, f"hand ({len(items)})", 11, _MUTED))
        zy = y + _ZONE_LABEL_H + 6
        if not items:
            parts.append(_text(x_hand, zy + CARD_H / 2, "\u2014", 13, _MUTED))
        for i, (kind, card, extras) in enumerate(items):
            dx, dy = fan.at(i)
            if kind == "face" and card is not None:
                parts.append(_card_face(x_hand + dx, zy + dy, card, extras, notes.get(i)))
            else:
                parts.append(_card_back(x_hand + dx, zy + dy))
        for k, line in enumerate(meld_lines):
            parts.append(_text(x_hand, zy + fan.height + 14 + 15 * k, line, 11, _TEXT, cls="melds"))
        parts.append("</g>")
        parts.append(_text(x_score, y + 30, f"total {totals[q]}", 14, _TEXT, bold=True, cls="total"))
        if shown and f["hands"][q]:
            parts.append(_text(x_score, y + 50, f"deadwood {state.deadwood(q)}", 12, _MUTED, cls="deadwood"))
        if terminal and not truncated and totals[q] == min(totals):
            parts.append(_text(x_score, y + 70, "winner", 13, _HIGHLIGHT, bold=True, cls="place"))
        parts.append("</g>")
        y += row_h + 8

    legend = f"\u2605 a wild card ({wilds}) \u00b7 =5: what a wild card stands for in the hand's best melds" \
             f" \u00b7 orange edge: the discard's top"
    legend += "" if p_obs is None else f" \u00b7 gold edge: a card every player saw taken \u00b7 backs: hidden " \
                                       f"from {_hidden_from(p_obs)}"
    return _document(parts, y, width, scale_to, legend, "threes-table three-thirteen")
