"""SVG picture of a game table: ``render(state)``, what ``State._repr_svg_``
shows in Jupyter (the idea of python-chess's ``chess.svg.board``).

``render`` takes a state of any registered game and draws it with that
game's own function, found through threes.registry (the ``svg`` hook of the
game's entry), which lives in the game's package: ``threes.shithead.svg.render``
(described below) or ``threes.three_thirteen.svg.render`` (the hands, the
stock and the discard pile, the round and its wild rank, the totals; see its
docstring). This module is the drawing kit they share (cards, backs, slots,
seat panels, captions, the observer and size checks) and names no game.

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
* ``<text class="wild-mark">`` (a star) on a wild card (class ``wild``) and, where the card
  stands for another in its hand's best melds, ``<text class="stands-for">`` ("=5"): both in the
  card's left strip, which the next card of a hand leaves visible;
* ``<text class="title">``, ``<text class="status">`` and ``<text class="legend">`` lines:
  wrapped to the picture's width by a conservative estimate of their width (never cut at its edge);
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
from typing import Any, List, Optional, Sequence, Tuple

from threes import registry
from threes.cards import CARDS, Card

#: a state of any registered game
State = Any

__all__ = ["render"]

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


@functools.lru_cache(maxsize=8192)  # a picture draws the same labels at the same places move after move
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


#: Conservative widths of text, in ems of the font size: no font of the stack (DejaVu Sans, the widest,
#: Arial, Helvetica) draws a character wider (DejaVu Sans: ASCII letters and digits at most 0.70 em in
#: bold but m, w, M, W, @ and %; the card suits, the star and the arrows at most 1 em). Titles, status
#: lines and legends are wrapped by these, so that no text runs off the picture.
_EM_ASCII, _EM_ASCII_BOLD = 0.64, 0.70
_EM_WIDE, _EM_WIDE_BOLD = 1.0, 1.1
_WIDE_ASCII = frozenset("mwMW@%")
_EM_NARROW = {"\u00b7": 0.4, "\u2009": 0.3}
_EM_OTHER, _EM_OTHER_BOLD = 1.0, 1.05


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """A conservative estimate of the width of ``text`` drawn at ``size`` (user units)."""
    em = 0.0
    for ch in text:
        if ch < "\x80":
            em += (_EM_WIDE_BOLD if bold else _EM_WIDE) if ch in _WIDE_ASCII else \
                (_EM_ASCII_BOLD if bold else _EM_ASCII)
        else:
            em += _EM_NARROW.get(ch, _EM_OTHER_BOLD if bold else _EM_OTHER)
    return em * size


def _wrap(text: str, size: float, avail: float, bold: bool = False, sep: str = " \u00b7 ") -> List[str]:
    """``text`` in lines no wider than ``avail`` (by :func:`_text_width`): broken between the parts
    ``sep`` joins where it can, else between words (a word longer than a line is cut into pieces)."""
    def fits(line: str) -> bool:
        return _text_width(line, size, bold) <= avail

    def by_words(piece: str) -> List[str]:
        out: List[str] = []
        line = ""
        for word in piece.split(" "):
            while not fits(word):  # a word longer than a line (no such word is drawn, but be safe)
                k = len(word) - 1
                while k > 1 and not fits(word[:k]):
                    k -= 1
                if line:
                    out.append(line)
                    line = ""
                out.append(word[:k])
                word = word[k:]
            candidate = f"{line} {word}" if line else word
            if fits(candidate):
                line = candidate
            else:
                out.append(line)
                line = word
        if line:
            out.append(line)
        return out

    if fits(text):
        return [text]
    lines: List[str] = []
    line = ""
    for part in text.split(sep) if sep else [text]:
        candidate = f"{line}{sep}{part}" if line else part
        if fits(candidate):
            line = candidate
            continue
        if line:
            lines.append(line)
        if fits(part):
            line = part
        else:
            *full, line = by_words(part)
            lines += full
    if line:
        lines.append(line)
    return lines


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


def _card_face(x: float, y: float, card: Card, extra: Sequence[str] = (), note: Optional[str] = None) -> str:
    """A card drawn face up: rounded rectangle, rank and suit symbol. A wild card (class ``wild``)
    carries its star (``<text class="wild-mark">``) and ``note`` (``<text class="stands-for">``, what
    it stands for, "=5") in its left strip, which stays visible when the next card of a hand
    overlaps it."""
    head, tail = _card_face_parts(card.kind, extra if type(extra) is tuple else tuple(extra), note)
    return f"{head}{_num(x)},{_num(y)}{tail}"


#: where a card's marks go: inside the strip an overlapping hand leaves visible (x < _HAND_STEP)
_STRIP_X = 3


@functools.lru_cache(maxsize=4096)
def _card_face_parts(kind: int, extra: Tuple[str, ...], note: Optional[str] = None) -> Tuple[str, str]:
    """A face-up card's drawing around its position: the text before and after ``X,Y`` of its
    translate (the same for every card of that kind and those classes: a picture draws hundreds)."""
    card = CARDS[kind]
    name, suit, rank, joker = str(card), card.suit, card.rank, card.is_joker
    cls = " ".join(("card",) + extra)
    colour = _RED if suit in "dhr" else _BLACK
    fill = _FACE_REVEALED if "revealed" in extra else _FACE
    stroke, width = _EDGE, 1.0
    if "top" in extra:
        stroke, width = _TOP, 3.0
    elif "known" in extra:
        stroke, width = _KNOWN, 2.5
    wild = "wild" in extra
    parts = [
        ')">',
        f"<title>{_esc(name)}{' (wild)' if wild else ''}</title>",
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="{_RADIUS}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{_num(width)}"/>',
    ]
    if joker:
        # the joker's own corner star is its wild mark (in the strip a hand leaves visible)
        parts.append(_text(4, 15, _STAR, 13, _WILD if wild else colour, bold=True, cls="wild-mark" if wild else None))
        parts.append(_text(CARD_W / 2, CARD_H / 2 + 6, _STAR, 22, colour, "middle"))
        parts.append(_text(CARD_W / 2, CARD_H - 7, "JOKER", 8, colour, "middle", bold=True))
    else:
        symbol = _SUIT_SYMBOL[suit]
        parts.append(_text(4, 15, _RANK_LABEL.get(rank, rank), 13, colour, bold=True))
        parts.append(_text(4, 28, symbol, 12, colour))
        parts.append(_text(CARD_W / 2 + 4, CARD_H / 2 + 14, symbol, 24, colour, "middle"))
        if wild:
            parts.append(_text(_STRIP_X, 42, _STAR, 12, _WILD, bold=True, cls="wild-mark"))
    if wild and note:
        parts.append(_text(_STRIP_X, 53 if not joker else 46, note, 9, _WILD, bold=True, cls="stands-for"))
    if "last-move" in extra:
        parts.append(f'<rect class="last-move-mark" x="4" y="{CARD_H - 5}" width="{CARD_W - 8}" height="3" '
                     f'rx="1.5" fill="{_LAST_MOVE}"/>')
    parts.append("</g>")
    return f'<g class="{cls}" data-card="{_esc(name)}" transform="translate(', "".join(parts)


def _caption(parts: List[str], caption: Optional[str], y: float, width: float) -> float:
    """The last move's caption, wrapped to the picture's width, from baseline y; returns the height it takes."""
    if not caption:
        return 0
    lines = _wrap(caption, 12, width - 2 * _MARGIN, sep="; ")
    for i, line in enumerate(lines):
        parts.append(_text(_MARGIN, y + 16 * i, line, 12, _HIGHLIGHT, cls="last-move-caption"))
    return 16 * len(lines)


def _header(parts: List[str], y: float, width: float, head: str, status: str, p_obs: Optional[int],
            caption: Optional[str]) -> float:
    """A picture's header: the title (wrapped between its `` · `` parts), the status and whose view it
    is (wrapped), the last move's caption; returns the y below it. Nothing runs off the picture."""
    parts.append('<g class="header">')
    avail = width - 2 * _MARGIN
    titles = _wrap(head, 16, avail, bold=True)
    for i, line in enumerate(titles):
        parts.append(_text(_MARGIN, y + 16 + 20 * i, line, 16, _TEXT, bold=True, cls="title"))
    y += 20 * (len(titles) - 1)
    lines = _wrap(f"{status} \u2014 {_seen_by(p_obs)}", 12, avail, sep="; ")
    for i, line in enumerate(lines):
        parts.append(_text(_MARGIN, y + 36 + 16 * i, line, 12, _MUTED, cls="status"))
    y += _caption(parts, caption, y + 36 + 16 * len(lines), width)
    parts.append("</g>")
    return y + 48 + 16 * (len(lines) - 1)


def _centre_panel(parts: List[str], y: float, width: float, height: float) -> None:
    """The panel behind the table's centre (piles, stock), from y, ``height`` high."""
    parts.append(f'<rect class="center" x="{_MARGIN}" y="{_num(y)}" width="{_num(width - 2 * _MARGIN)}" '
                 f'height="{_num(height)}" rx="8" fill="{_PANEL}"/>')


def _document(parts: List[str], y: float, width: float, scale_to: Optional[float], legend: str,
              cls: str = "threes-table") -> str:
    """The standalone SVG document: ``parts`` drawn down to y, the legend below them (wrapped between
    its `` · `` parts: never cut), on the table's background; ``scale_to`` the width in pixels (None:
    the natural size)."""
    lines = _wrap(legend, 11, width - 2 * _MARGIN)
    for i, line in enumerate(lines):
        parts.append(_text(_MARGIN, y + 6 + 14 * i, line, 11, _MUTED, cls="legend"))
    height = y + 14 * len(lines) - 8 + _MARGIN
    if scale_to is None:
        w_attr, h_attr = _num(width), _num(height)
    else:
        w_attr, h_attr = _num(scale_to), _num(round(scale_to * height / width, 3))
    head_tag = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="{cls}" '
                f'width="{w_attr}" height="{h_attr}" viewBox="0 0 {_num(width)} {_num(height)}" {_FONT}>')
    background = f'<rect class="table" width="{_num(width)}" height="{_num(height)}" fill="{_TABLE}"/>'
    return head_tag + background + "".join(parts) + "</svg>"


def _card_back(x: float, y: float) -> str:
    """A card drawn face down: a patterned back, no rank, no suit."""
    return f'<g class="card back" transform="translate({_num(x)},{_num(y)})">{_BACK_BODY}'


_BACK_BODY = (f'<rect width="{CARD_W}" height="{CARD_H}" rx="{_RADIUS}" fill="{_BACK}" stroke="#ffffff" '
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


def render(state: Any, observer: Optional[int] = None, size: Optional[float] = None,
           events: Optional[Sequence[Any]] = None) -> str:
    """The table of ``state``, a state of any registered game, as a
    standalone SVG document (a string). The drawing is the game's own (the
    ``svg`` hook of its threes.registry entry: threes.shithead.svg.render,
    threes.three_thirteen.svg.render). observer, size and events (the last
    move's events, for its marker): as threes.shithead.svg.render.

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


def __getattr__(name: str) -> Any:
    """``render_shithead`` and ``render_three_thirteen``, the names the games' drawings had here
    (each is now ``render`` in its game's package: threes.shithead.svg, threes.three_thirteen.svg)."""
    if name in ("render_shithead", "render_three_thirteen"):
        return registry.get(name[len("render_"):]).hook("svg")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
