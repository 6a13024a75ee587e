"""SVG picture of a game table: ``render(state)``, what ``State._repr_svg_``
shows in Jupyter (the idea of python-chess's ``chess.svg.board``).

``render`` takes a state of any registered game and draws it with that
game's own function, found through threes.registry (the ``svg`` hook of the
game's entry): ``render_shithead`` (described below) or
``render_three_thirteen`` (the hands, the stock and the discard pile, the
round and its wild rank, the totals; see its docstring).

``render(state)`` draws every card face up, the true cards, as ``str(state)``
lists them; ``render(state, observer=p)`` draws only what seat ``p`` can see
(RULES.md section 2): its own hand, every face-up card, the pile, the cards
publicly known to be in each hand; the rest is drawn as card backs. The
picture then depends only on what ``p`` can see: two states ``p`` cannot tell
apart give the same SVG text. ``render(state, observer="public")`` draws what
every player sees (a spectator's view): no hand but its publicly known cards,
no face-down card, no card of the draw pile or stock.

The output is a standalone SVG document (no external resources, no ids) and
deterministic. Its elements carry classes for styling and for tests:

* ``<g class="card" data-card="Ah">``: a card drawn face up; extra class
  tokens ``known`` (a hand card every player knows), ``top`` (the pile's top
  card), ``revealed`` (a face-down card shown because no observer is set);
* ``<g class="card back">``: a card drawn face down (no rank, no suit);
* ``<rect class="slot">``: an empty place (an empty face-down slot, an empty
  pile or draw pile);
* zone groups: ``<g class="seat" data-seat="0">`` (with the token
  ``to-move`` for the seat to move and ``observer`` for the observer's seat)
  holding ``<g class="hand">``, ``<g class="face-up">`` and
  ``<g class="face-down">``; ``<g class="pile" data-count="n">``,
  ``<g class="draw-pile" data-count="n">`` (one back for the whole draw pile)
  and ``<g class="burned" data-count="n">`` (the burned cards as a count only).

**The last move.** Both games mark the move that led to the position: a
caption ``<text class="last-move-caption">`` in the header ("last move:
seat 2 plays 4\u2663 4\u2666; seat 2 draws 1 card"), the extra class token
``last-move`` (and an underline bar, ``<rect class="last-move-mark">``) on
the cards it put on the table (Shithead: the cards just played, while they
lie on top of the pile; Three Thirteen: the card just discarded, on top of
the discard pile, or the card just taken from it, in the taker's hand), and
the token ``last-mover`` on the seat that made it. ``render(state,
events=...)`` takes the events of that move (what ``state.apply`` returned):
the caption is then their narration (threes.shithead.describe,
threes.three_thirteen.describe) as the observer sees them
(``Event.view``), naming the seat. Without events the marker is read off
``state.history()``: its last action's notation ("last move: 4x2"), the
same cards marked, and the seat only where the position tells it (Three
Thirteen within a round; a Shithead swap decision). Either way it uses only
public facts (the actions, the pile, the discard pile), so an observer's
picture still depends only on what the observer can see.
"""
from __future__ import annotations

import functools
import math
import numbers
import textwrap
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from threes import registry
from threes.cards import Card
from threes.ui.text import _place, end_note

if TYPE_CHECKING:  # pragma: no cover
    from threes.shithead.game import State

__all__ = ["render", "render_shithead", "render_three_thirteen"]

# Geometry, in user units of the natural size.
CARD_W = 44
CARD_H = 62
_RADIUS = 5
_MARGIN = 12
_GAP = 18
_LABEL_W = 118          # the seat label column
_HAND_STEP = 26         # overlapping hand cards: rank and suit stay visible
_HAND_PER_LINE = 16
_ZONE_STEP = CARD_W + 6  # face-up and face-down cards side by side
_ZONE_PER_LINE = 6
_PILE_STEP = 20
_PILE_PER_LINE = 24
_LINE_STEP = CARD_H + 6
_ZONE_LABEL_H = 18

# Colours.
_TABLE = "#1f6f43"
_PANEL = "#25804f"
_PANEL_TO_MOVE = "#2f9a5f"
_HIGHLIGHT = "#ffd54f"
_TEXT = "#ffffff"
_MUTED = "#cfe8d8"
_RED = "#c62828"
_BLACK = "#1b1b1b"
_FACE = "#ffffff"
_FACE_REVEALED = "#ebe3cf"
_EDGE = "#555555"
_KNOWN = "#f9a825"
_TOP = "#ff6f00"
_BACK = "#1e3a8a"
_BACK_LINE = "#5b8def"
_SHITHEAD = "#ffab91"
_WILD = "#7b1fa2"
_LAST_MOVE = "#00acc1"

_FONT = 'font-family="DejaVu Sans, Arial, Helvetica, sans-serif"'
_SUIT_SYMBOL = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
_RANK_LABEL = {"T": "10"}
_STAR = "\u2605"
_TO_MOVE_MARK = "\u25b6"


def _esc(text: object) -> str:
    """Text escaped for XML character data and double-quoted attributes."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def _num(v: float) -> str:
    """A number as SVG text: an int when whole, else up to 3 decimals."""
    if type(v) is int:
        return str(v)
    if float(v).is_integer():
        return str(int(v))
    return f"{v:.3f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, text: str, size: int = 13, fill: str = _TEXT, anchor: str = "start",
          bold: bool = False, cls: Optional[str] = None) -> str:
    attrs = f'x="{_num(x)}" y="{_num(y)}" font-size="{size}" fill="{fill}"'
    if anchor != "start":
        attrs += f' text-anchor="{anchor}"'
    if bold:
        attrs += ' font-weight="bold"'
    if cls:
        attrs += f' class="{_esc(cls)}"'
    return f"<text {attrs}>{_esc(text)}</text>"


def _seat_panel(parts: List[str], q: int, y: float, width: float, row_h: float, cp: int, p_obs: Optional[int],
                extra_classes: Sequence[str] = ()) -> Tuple[float, float]:
    """Opens seat q's group (classes seat, to-move, observer and any
    extra_classes), draws its panel, its name and the "(you)" and "to move"
    marks, and returns where the next line of the seat's label column goes."""
    tokens = ["seat"] + (["to-move"] if q == cp else []) + (["observer"] if q == p_obs else []) + list(extra_classes)
    parts.append(f'<g class="{" ".join(tokens)}" data-seat="{q}">')
    stroke = f' stroke="{_HIGHLIGHT}" stroke-width="3"' if q == cp else ""
    parts.append(f'<rect x="{_MARGIN}" y="{_num(y)}" width="{_num(width - 2 * _MARGIN)}" '
                 f'height="{_num(row_h)}" rx="8" fill="{_PANEL_TO_MOVE if q == cp else _PANEL}"{stroke}/>')
    lx = _MARGIN + 10
    parts.append(_text(lx, y + 24, f"seat {q}", 15, _TEXT, bold=True))
    ly = y + 44
    if q == p_obs:
        parts.append(_text(lx, ly, "(you)", 13, _TEXT))
        ly += 18
    if q == cp:
        parts.append(_text(lx, ly, f"{_TO_MOVE_MARK} to move", 13, _HIGHLIGHT, bold=True, cls="to-move"))
        ly += 18
    return lx, ly


def _face_down_pile(parts: List[str], cls: str, label: str, x: float, top_y: float, card_y: float, n: int) -> None:
    """A face-down pile of n cards (the draw pile, the stock): its label, a
    card back (on a second one when n > 1) or an empty slot, and its count."""
    parts.append(f'<g class="{cls}" data-count="{n}">')
    parts.append(_text(x, top_y + 12, label, 12, _MUTED))
    if n:
        if n > 1:
            parts.append(f'<rect class="stack" x="{_num(x + 3)}" y="{_num(card_y + 3)}" width="{CARD_W}" '
                         f'height="{CARD_H}" rx="{_RADIUS}" fill="#0d1f4d"/>')
        parts.append(_card_back(x, card_y))
    else:
        parts.append(_slot(x, card_y, "empty"))
    parts.append(_text(x, card_y + CARD_H + 16, f"{n} card{'s' if n != 1 else ''}", 12, _TEXT, bold=True))
    parts.append("</g>")

def _back_lattice() -> str:
    """The diamond lattice of a card back, clipped by hand to its inner frame."""
    x0, y0, x1, y1 = 5, 5, CARD_W - 5, CARD_H - 5
    step = 8
    segs = []
    for sign in (1, -1):
        # Lines y = sign * x + k through the inner frame.
        ks = range(-(CARD_W + CARD_H), CARD_W + 2 * CARD_H, step)
        for k in ks:
            pts = []
            for x in (x0, x1):
                y = sign * x + k
                if y0 <= y <= y1:
                    pts.append((x, y))
            for y in (y0, y1):
                x = (y - k) * sign
                if x0 <= x <= x1:
                    pts.append((x, y))
            pts = sorted(set(pts))
            if len(pts) >= 2 and pts[0] != pts[-1]:
                (ax, ay), (bx, by) = pts[0], pts[-1]
                segs.append(f"M{_num(ax)} {_num(ay)}L{_num(bx)} {_num(by)}")
    return "".join(segs)


_LATTICE = _back_lattice()


def _card_face(x: float, y: float, card: Card, extra: Sequence[str] = ()) -> str:
    """A card drawn face up: rounded rectangle, rank and suit symbol."""
    head, tail = _card_face_parts(str(card), card.suit, card.rank, card.is_joker, tuple(extra))
    return f"{head}{_num(x)},{_num(y)}{tail}"


@functools.lru_cache(maxsize=4096)
def _card_face_parts(name: str, suit: str, rank: str, joker: bool, extra: Tuple[str, ...]) -> Tuple[str, str]:
    """A face-up card's drawing around its position: the text before and after ``X,Y`` of its
    translate (the same for every card of that name and those classes: a picture draws hundreds)."""
    cls = " ".join(("card",) + extra)
    colour = _RED if suit in "dhr" else _BLACK
    fill = _FACE_REVEALED if "revealed" in extra else _FACE
    stroke, width = _EDGE, 1.0
    if "top" in extra:
        stroke, width = _TOP, 3.0
    elif "known" in extra:
        stroke, width = _KNOWN, 2.5
    parts = [
        ')">',
        f"<title>{_esc(name)}</title>",
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="{_RADIUS}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{_num(width)}"/>',
    ]
    if joker:
        parts.append(_text(4, 15, _STAR, 13, colour, bold=True))
        parts.append(_text(CARD_W / 2, CARD_H / 2 + 6, _STAR, 22, colour, "middle"))
        parts.append(_text(CARD_W / 2, CARD_H - 7, "JOKER", 8, colour, "middle", bold=True))
    else:
        symbol = _SUIT_SYMBOL[suit]
        parts.append(_text(4, 15, _RANK_LABEL.get(rank, rank), 13, colour, bold=True))
        parts.append(_text(4, 28, symbol, 12, colour))
        parts.append(_text(CARD_W / 2 + 4, CARD_H / 2 + 14, symbol, 24, colour, "middle"))
    if "wild" in extra:
        parts.append(_text(CARD_W - 4, 13, _STAR, 11, _WILD, "end", cls="wild-mark"))
    if "last-move" in extra:
        parts.append(f'<rect class="last-move-mark" x="4" y="{CARD_H - 5}" width="{CARD_W - 8}" height="3" '
                     f'rx="1.5" fill="{_LAST_MOVE}"/>')
    parts.append("</g>")
    return f'<g class="{cls}" data-card="{_esc(name)}" transform="translate(', "".join(parts)


def _caption(parts: List[str], caption: Optional[str], y: float, chars: int) -> float:
    """The last move's caption, wrapped, from baseline y; returns the height it takes."""
    if not caption:
        return 0
    lines = textwrap.wrap(caption, chars)
    for i, line in enumerate(lines):
        parts.append(_text(_MARGIN, y + 16 * i, line, 12, _HIGHLIGHT, cls="last-move-caption"))
    return 16 * len(lines)


def _card_back(x: float, y: float) -> str:
    """A card drawn face down: a patterned back, no rank, no suit."""
    return (f'<g class="card back" transform="translate({_num(x)},{_num(y)})">'
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="{_RADIUS}" fill="{_BACK}" stroke="#ffffff" '
            f'stroke-width="1.5"/>'
            f'<rect x="5" y="5" width="{CARD_W - 10}" height="{CARD_H - 10}" rx="3" fill="none" '
            f'stroke="{_BACK_LINE}"/>'
            f'<path d="{_LATTICE}" stroke="{_BACK_LINE}" stroke-width="1" fill="none"/>'
            "</g>")


def _slot(x: float, y: float, label: str = "") -> str:
    """An empty place: a dashed outline."""
    out = (f'<rect class="slot" x="{_num(x)}" y="{_num(y)}" width="{CARD_W}" height="{CARD_H}" '
           f'rx="{_RADIUS}" fill="none" stroke="{_MUTED}" stroke-dasharray="4 3"/>')
    if label:
        out += _text(x + CARD_W / 2, y + CARD_H / 2 + 4, label, 10, _MUTED, "middle")
    return out


#: What a place shows: ("face", card, extra classes), ("back", None, ()) or ("slot", None, ()).
_Item = Tuple[str, Optional[Card], Tuple[str, ...]]
_BACK_ITEM: _Item = ("back", None, ())
_SLOT_ITEM: _Item = ("slot", None, ())


class _Fan:
    """Positions of n cards laid in lines of at most per_line, step apart."""

    def __init__(self, n: int, step: int, per_line: int):
        self.n, self.step, self.per_line = n, step, per_line

    @property
    def lines(self) -> int:
        return max(1, math.ceil(self.n / self.per_line))

    @property
    def width(self) -> int:
        return (max(1, min(self.n, self.per_line)) - 1) * self.step + CARD_W

    @property
    def height(self) -> int:
        return (self.lines - 1) * _LINE_STEP + CARD_H

    def at(self, i: int) -> Tuple[int, int]:
        return (i % self.per_line) * self.step, (i // self.per_line) * _LINE_STEP


#: the observer "public" as the drawing functions hold it: a seat that matches no seat
_PUBLIC = -1


def _check_observer(state: "State", observer: object) -> Optional[int]:
    if observer is None:
        return None
    if isinstance(observer, str) and observer == "public":
        return _PUBLIC
    if isinstance(observer, bool) or not isinstance(observer, numbers.Integral):
        raise TypeError(f"observer must be an int seat, 'public' or None, not {type(observer).__name__}")
    n = state.num_players()
    seat = int(observer)
    if not 0 <= seat < n:
        raise ValueError(f"observer must be a seat in 0..{n - 1}, 'public' or None, not {seat}")
    return seat


def _seen_by(p_obs: Optional[int]) -> str:
    if p_obs is None:
        return "all cards shown"
    return "public view" if p_obs == _PUBLIC else f"as seen by seat {p_obs}"


def _hidden_from(p_obs: int) -> str:
    return "every player" if p_obs == _PUBLIC else f"seat {p_obs}"


def _check_size(size: object) -> Optional[float]:
    if size is None:
        return None
    if isinstance(size, bool) or not isinstance(size, numbers.Real):
        raise TypeError(f"size must be a number of pixels or None, not {type(size).__name__}")
    value = float(size)
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"size must be a positive number of pixels, not {value}")
    return value


def _status(state: "State") -> str:
    cp = state.current_player()
    if cp >= 0:
        return f"seat {cp} to move"
    out = state.finish_order()
    order = ", ".join(f"{_place(k)} seat {q}" for k, q in enumerate(out))
    if state.is_truncated():
        return f"{end_note(state, state.move_number())}; out: {order or 'nobody'}"
    return f"game over: {order} (seat {out[-1]} is the shithead)" if out else "game over"


def render(state: Any, observer: Optional[int] = None, size: Optional[float] = None,
           events: Optional[Sequence[Any]] = None) -> str:
    """The table of ``state``, a state of any registered game, as a
    standalone SVG document (a string). The drawing is the game's own (the
    ``svg`` hook of its threes.registry entry): render_shithead,
    render_three_thirteen. observer, size and events (the last move's
    events, for its marker): as render_shithead.

    Raises TypeError for an object that is not a state of a registered game."""
    try:
        info = registry.game_of(state)
    except TypeError:
        raise TypeError(f"render takes a state of a registered game ({', '.join(registry.names())}), "
                        f"not {type(state).__name__}") from None
    draw = info.hook("svg")
    if draw is None:
        raise TypeError(f"{info.title} has no SVG drawing (no svg hook in its registry entry)")
    if events is None:
        return draw(state, observer=observer, size=size)
    return draw(state, observer=observer, size=size, events=events)


def _last_move_caption(state: Any, observer: Optional[int], events: Optional[Sequence[Any]],
                       label: Optional[str]) -> Optional[str]:
    """The last move's caption: the events' narration as the observer sees them (the game's narrate_all hook),
    else the notation of the last action."""
    if events is not None:
        narrate = registry.game_of(state).hook("narrate_all")
        said = narrate(list(events), observer) if narrate is not None else []
        return "last move: " + "; ".join(said) if said else None
    return None if label is None else f"last move: {label}"


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
        move = state.get_game().decode_action(history[-1])
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


def render_shithead(state: "State", observer: Optional[int] = None, size: Optional[float] = None,
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
    from threes.shithead.game import State

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
        for d in state.face_down(q):
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
    min_zone = max([1] + [len(state.face_down(q)) for q in range(n)])
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
    parts.append('<g class="header">')
    parts.append(_text(_MARGIN, y + 16, head, 16, _TEXT, bold=True))
    view = _seen_by(p_obs)
    chars = max(20, int((width - 2 * _MARGIN) / (0.62 * 12)))
    lines = textwrap.wrap(f"{_status(state)} \u2014 {view}", chars)
    for i, line in enumerate(lines):
        parts.append(_text(_MARGIN, y + 36 + 16 * i, line, 12, _MUTED))
    y += _caption(parts, caption, y + 36 + 16 * len(lines), chars)
    parts.append("</g>")
    y += 48 + 16 * (len(lines) - 1)

    # ---- centre: draw pile, burned, pile ----------------------------------
    top_y = y + 8
    card_y = top_y + 20
    center_h = max(20 + CARD_H + 38, 20 + pile_fan.height + 30) + 16
    parts.append(f'<rect class="center" x="{_MARGIN}" y="{_num(y)}" width="{_num(width - 2 * _MARGIN)}" '
                 f'height="{_num(center_h)}" rx="8" fill="{_PANEL}"/>')
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
        hf, uf, df = hand_fans[q], up_fans[q], down_fans[q]
        row_h = _ZONE_LABEL_H + max(hf.height, uf.height, df.height) + 16
        lx, ly = _seat_panel(parts, q, y, width, row_h, cp, p_obs, ["last-mover"] if q == mover else [])
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
        y += row_h + 8

    legend = "gold edge: a hand card known to all \u00b7 orange edge: the pile's top \u00b7 "
    legend += "tinted: a face-down card, shown" if p_obs is None else f"backs: hidden from {_hidden_from(p_obs)}"
    parts.append(_text(_MARGIN, y + 6, legend, 11, _MUTED, cls="legend"))
    y += 14
    height = y - 8 + _MARGIN
    if scale_to is None:
        w_attr, h_attr = _num(width), _num(height)
    else:
        w_attr, h_attr = _num(scale_to), _num(round(scale_to * height / width, 3))
    head_tag = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="threes-table" '
                f'width="{w_attr}" height="{h_attr}" viewBox="0 0 {_num(width)} {_num(height)}" {_FONT}>')
    background = f'<rect class="table" width="{_num(width)}" height="{_num(height)}" fill="{_TABLE}"/>'
    return head_tag + background + "".join(parts) + "</svg>"


# ------------------------------------------------------------ Three Thirteen --
_TT_RANKS = "A23456789TJQK"
_TT_SUITS = "cdhs"
_TT_PHASES = ("draw", "discard", "over")


def _tt_card(kind: int) -> Card:
    """A Three Thirteen card kind (4 * (rank - 1) + suit, ace low; jokers 52,
    53) as a Card for drawing."""
    if kind >= 52:
        return Card("Xr" if kind == 52 else "Xb")
    return Card(_TT_RANKS[kind // 4] + _TT_SUITS[kind % 4])


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
                from threes.three_thirteen.game import card_to_kind

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


def render_three_thirteen(state: Any, observer: Optional[int] = None, size: Optional[float] = None,
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
    class ``wild``), the phase and who is to move, the stock (one back and its
    size, ``<g class="stock" data-count>``), the discard pile (its top card
    face up with class ``top``, and its size, ``<g class="discard"
    data-count>``), every seat's hand (``<g class="seat" data-seat>`` with
    tokens ``to-move``, ``observer``, ``dealer``, ``out``; its ``<g
    class="hand">``), each seat's total score (``<text class="total">``) and,
    where its cards are shown, its deadwood; at the end, the final totals and
    the winner (the lowest total).
    """
    info = registry.game_of(state)
    if info.hook("svg") is not render_three_thirteen:
        raise TypeError(f"render_three_thirteen takes a Three Thirteen state, not a {info.title} one")
    f: Dict[str, Any] = state._fields()
    p_obs = _check_observer(state, observer)
    scale_to = _check_size(size)
    n = f["num_players"]
    rnd, phase = f["round"], _TT_PHASES[f["phase"]]
    terminal = state.is_terminal()
    truncated = state.is_truncated()
    cp = -1 if terminal else f["current"]
    wild = _TT_RANKS[rnd + 1]
    taken = f["taken_kind"]
    totals = list(f["totals"])
    wilds = f"{_RANK_LABEL.get(wild, wild)}s" + (" and jokers" if state._options()["jokers"] else "")
    caption, mover, discard_marked, taken_marked = _tt_last_move(state, f, p_obs, events)

    def face(kind: int, extra: Tuple[str, ...] = ()) -> _Item:
        card = _tt_card(kind)
        if card.is_joker or card.rank == wild:
            extra = extra + ("wild",)
        return ("face", card, extra)

    seats = []
    for q in range(n):
        hand = f["hands"][q]
        shown = p_obs is None or q == p_obs
        mark = ("last-move",) if taken_marked and q == cp else ()
        if shown:
            items = [face(k) for k in hand]
            if mark and taken in hand:
                i = list(hand).index(taken)
                items[i] = face(taken, mark)
        else:
            items = []
            if q == cp and taken >= 0 and taken in hand:
                items.append(face(taken, ("known",) + mark))
            items += [_BACK_ITEM] * (len(hand) - len(items))
        seats.append((items, shown))

    # ---- layout --------------------------------------------------------
    fans = [_Fan(len(it), _HAND_STEP, _HAND_PER_LINE) for it, _ in seats]
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
    view = _seen_by(p_obs)
    parts.append('<g class="header">')
    parts.append(_text(_MARGIN, y + 16, head, 16, _TEXT, bold=True))
    chars = max(20, int((width - 2 * _MARGIN) / (0.62 * 12)))
    lines = textwrap.wrap(f"{status} \u2014 {view}", chars)
    for i, line in enumerate(lines):
        parts.append(_text(_MARGIN, y + 36 + 16 * i, line, 12, _MUTED))
    y += _caption(parts, caption, y + 36 + 16 * len(lines), chars)
    parts.append("</g>")
    y += 48 + 16 * (len(lines) - 1)

    # ---- centre: stock and discard pile -----------------------------------
    top_y = y + 8
    card_y = top_y + 20
    center_h = 20 + CARD_H + 38
    parts.append(f'<rect class="center" x="{_MARGIN}" y="{_num(y)}" width="{_num(width - 2 * _MARGIN)}" '
                 f'height="{_num(center_h)}" rx="8" fill="{_PANEL}"/>')
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
        parts.append(_text(x_info, card_y + 70, f"taken from the discard: {_tt_card(taken)}", 12, _MUTED,
                           cls="taken"))
    parts.append("</g>")
    y += center_h + 10

    # ---- seats ----------------------------------------------------------
    for q, (items, shown) in enumerate(seats):
        fan = fans[q]
        row_h = _ZONE_LABEL_H + max(fan.height, 58) + 16
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
                parts.append(_card_face(x_hand + dx, zy + dy, card, extras))
            else:
                parts.append(_card_back(x_hand + dx, zy + dy))
        parts.append("</g>")
        parts.append(_text(x_score, y + 30, f"total {totals[q]}", 14, _TEXT, bold=True, cls="total"))
        if shown and f["hands"][q]:
            parts.append(_text(x_score, y + 50, f"deadwood {state.deadwood(q)}", 12, _MUTED, cls="deadwood"))
        if terminal and not truncated and totals[q] == min(totals):
            parts.append(_text(x_score, y + 70, "winner", 13, _HIGHLIGHT, bold=True, cls="place"))
        parts.append("</g>")
        y += row_h + 8

    legend = f"\u2605 a wild card ({wilds}) \u00b7 orange edge: the discard's top"
    legend += "" if p_obs is None else f" \u00b7 gold edge: a card every player saw taken \u00b7 backs: hidden " \
                                       f"from {_hidden_from(p_obs)}"
    parts.append(_text(_MARGIN, y + 6, legend, 11, _MUTED, cls="legend"))
    y += 14
    height = y - 8 + _MARGIN
    if scale_to is None:
        w_attr, h_attr = _num(width), _num(height)
    else:
        w_attr, h_attr = _num(scale_to), _num(round(scale_to * height / width, 3))
    head_tag = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="threes-table three-thirteen" '
                f'width="{w_attr}" height="{h_attr}" viewBox="0 0 {_num(width)} {_num(height)}" {_FONT}>')
    background = f'<rect class="table" width="{_num(width)}" height="{_num(height)}" fill="{_TABLE}"/>'
    return head_tag + background + "".join(parts) + "</svg>"
