"""The spectators' picture of a table: public cards only.

``threes.svg.render(state)`` without an observer draws every card face up, and
with an observer it draws that seat's hand; a spectator is neither, so the web
table draws the public view here, from the public parts of the state only
(nothing else is read):

* Shithead (RULES.md section 2): every face-up card, the pile, the burned
  count, the draw pile's size, each hand's size and its cards known to every
  player (``state.known_cards(q)``, drawn with the class ``known``); every
  other hand card and every face-down card is a back.
* Three Thirteen ("What each player knows"): the discard pile's top and size,
  the stock's size, each hand's size and the cards every player knows are in
  it (the card taken from the discard pile, a shown hand), the round, wild
  rank, dealer and totals.

The classes follow threes.ui.svg (``seat``/``to-move``, ``hand``,
``face-up``, ``face-down``, ``pile``, ``draw-pile``, ``burned``, ``stock``,
``discard``, ``card``, ``card back``, ``known``, ``top``), with the root
class ``threes-table public``.
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

from threes import registry
from threes.cards import Card

__all__ = ["render_public"]

_W, _H = 44, 62
_STEP = 26
_TABLE, _PANEL, _PANEL_MOVE, _HIGH = "#1f6f43", "#25804f", "#2f9a5f", "#ffd54f"
_TEXT, _MUTED, _RED, _BLACK, _BACK = "#ffffff", "#cfe8d8", "#c62828", "#1b1b1b", "#1e3a8a"
_SUIT = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
_FONT = 'font-family="DejaVu Sans, Arial, Helvetica, sans-serif"'


def _esc(text: object) -> str:
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def _text(x: float, y: float, s: str, size: int = 12, fill: str = _TEXT, bold: bool = False,
          cls: Optional[str] = None) -> str:
    extra = (' font-weight="bold"' if bold else "") + (f' class="{cls}"' if cls else "")
    return f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}"{extra}>{_esc(s)}</text>'


def _face(x: float, y: float, card: Card, extra: Sequence[str] = ()) -> str:
    cls = " ".join(("card",) + tuple(extra))
    colour = _RED if card.suit in "dhr" else _BLACK
    stroke = "#ff6f00" if "top" in extra else ("#f9a825" if "known" in extra else "#555555")
    label = "JK" if card.is_joker else ("10" if card.rank == "T" else card.rank)
    symbol = "\u2605" if card.is_joker else _SUIT[card.suit]
    name = str(card)
    return (f'<g class="{cls}" data-card="{_esc(name)}" transform="translate({x},{y})"><title>{_esc(name)}</title>'
            f'<rect width="{_W}" height="{_H}" rx="5" fill="#ffffff" stroke="{stroke}" stroke-width="2"/>'
            f'<text x="4" y="15" font-size="13" fill="{colour}" font-weight="bold">{label}</text>'
            f'<text x="4" y="28" font-size="12" fill="{colour}">{symbol}</text>'
            f'<text x="{_W // 2}" y="{_H // 2 + 14}" font-size="22" fill="{colour}" text-anchor="middle">{symbol}'
            f"</text></g>")


def _back(x: float, y: float) -> str:
    return (f'<g class="card back" transform="translate({x},{y})"><rect width="{_W}" height="{_H}" rx="5" '
            f'fill="{_BACK}" stroke="#ffffff" stroke-width="1.5"/><rect x="5" y="5" width="{_W - 10}" '
            f'height="{_H - 10}" rx="3" fill="none" stroke="#5b8def"/></g>')


def _slot(x: float, y: float) -> str:
    return (f'<rect class="slot" x="{x}" y="{y}" width="{_W}" height="{_H}" rx="5" fill="none" '
            f'stroke="{_MUTED}" stroke-dasharray="4 3"/>')


def _row(parts: List[str], x: float, y: float, items: Sequence[Any], step: int = _STEP, per_line: int = 16) -> float:
    """Items ("face", card, extra) / ("back",) / ("slot",) from x; returns the height used."""
    for i, item in enumerate(items):
        cx, cy = x + (i % per_line) * step, y + (i // per_line) * (_H + 6)
        if item[0] == "face":
            parts.append(_face(cx, cy, item[1], item[2]))
        elif item[0] == "back":
            parts.append(_back(cx, cy))
        else:
            parts.append(_slot(cx, cy))
    lines = max(1, -(-len(items) // per_line))
    return lines * (_H + 6)


def _document(parts: List[str], width: int, height: float, extra_class: str = "") -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="threes-table public{extra_class}" '
            f'width="{width}" height="{int(height)}" viewBox="0 0 {width} {int(height)}" {_FONT}>'
            f'<rect class="table" width="{width}" height="{int(height)}" fill="{_TABLE}"/>' + "".join(parts)
            + "</svg>")


def _seat_open(parts: List[str], q: int, y: float, width: int, h: float, cp: int, name: str,
               extra: Sequence[str] = ()) -> None:
    tokens = " ".join(["seat"] + (["to-move"] if q == cp else []) + list(extra))
    parts.append(f'<g class="{tokens}" data-seat="{q}">')
    stroke = f' stroke="{_HIGH}" stroke-width="3"' if q == cp else ""
    parts.append(f'<rect x="12" y="{y}" width="{width - 24}" height="{h}" rx="8" '
                 f'fill="{_PANEL_MOVE if q == cp else _PANEL}"{stroke}/>')
    parts.append(_text(22, y + 22, f"seat {q}", 14, bold=True))
    parts.append(_text(22, y + 40, name[:16], 12, _MUTED, cls="name"))
    if q == cp:
        parts.append(_text(22, y + 58, "\u25b6 to move", 12, _HIGH, bold=True, cls="to-move"))


def _shithead(state: Any, names: Sequence[str]) -> str:
    n = state.num_players()
    cp = state.current_player()
    out = state.finish_order()
    width = 1000
    parts: List[str] = []
    head = f"{state.rules.name} rules \u00b7 {n} players \u00b7 {state.phase.value} phase \u00b7 move " \
           f"{state.move_number()} \u2014 spectator view: public cards only"
    parts.append(f'<g class="header">{_text(12, 28, head, 15, bold=True)}</g>')
    y = 44
    pile = state.pile()
    pile_lines = max(1, -(-len(pile) // 24))
    center_h = 24 + pile_lines * (_H + 6) + 30
    parts.append(f'<rect class="center" x="12" y="{y}" width="{width - 24}" height="{center_h}" rx="8" '
                 f'fill="{_PANEL}"/>')
    nd = state.draw_pile_size()
    parts.append(f'<g class="draw-pile" data-count="{nd}">{_text(22, y + 16, "draw pile", 12, _MUTED)}')
    parts.append(_back(22, y + 24) if nd else _slot(22, y + 24))
    parts.append(_text(22, y + 24 + _H + 16, f"{nd} cards", 12, bold=True) + "</g>")
    nb = len(state.burned())
    parts.append(f'<g class="burned" data-count="{nb}">{_text(22, y + 24 + _H + 30, f"burned: {nb}", 12, _MUTED)}'
                 f"</g>")
    parts.append(f'<g class="pile" data-count="{len(pile)}">'
                 + _text(110, y + 16, f"pile ({len(pile)}, bottom \u2192 top)", 12, _MUTED))
    if pile:
        _row(parts, 110, y + 24, [("face", c, ("top",) if i == len(pile) - 1 else ()) for i, c in enumerate(pile)],
             step=20, per_line=24)
    else:
        parts.append(_slot(110, y + 24))
    eff = state.effective_top()
    parts.append(_text(110, y + center_h - 8, f"effective top: {'open' if not eff else eff}", 13, bold=True,
                       cls="pile-info") + "</g>")
    y += center_h + 10
    for q in range(n):
        known = list(state.known_cards(q))
        hand: List[Any] = [("face", c, ("known",)) for c in known] + [("back",)] * (state.hand_size(q) - len(known))
        up = [("face", c, ()) for c in state.face_up(q)]
        down = [("slot",) if d is None else ("back",) for d in state.face_down(q)]
        h_lines = max(1, -(-len(hand) // 16))
        row_h = 22 + h_lines * (_H + 6) + 10
        status = ["out"] if q in out else []
        _seat_open(parts, q, y, width, row_h, cp, names[q] if q < len(names) else f"seat {q}", status)
        if q in out:
            parts.append(_text(22, y + 76, f"place {out.index(q) + 1}", 12, _HIGH, bold=True, cls="place"))
        for cls, label, x0, items, step in (("hand", f"hand ({len(hand)})", 140, hand, _STEP),
                                            ("face-up", "face-up", 140 + 16 * _STEP + 40, up, _W + 6),
                                            ("face-down", "face-down", 140 + 16 * _STEP + 40 + 3 * (_W + 6) + 20,
                                             down, _W + 6)):
            if cls != "hand":
                x0 = min(x0, width - 24 - 3 * (_W + 6))
            parts.append(f'<g class="{cls}">' + _text(x0, y + 16, label, 11, _MUTED))
            if items:
                _row(parts, x0, y + 22, items, step=step, per_line=16 if cls == "hand" else 3)
            else:
                parts.append(_text(x0, y + 22 + _H // 2, "\u2014", 13, _MUTED))
            parts.append("</g>")
        parts.append("</g>")
        y += row_h + 8
    return _document(parts, width, y + 12)


def _three_thirteen(state: Any, names: Sequence[str]) -> str:
    n = state.num_players()
    terminal = state.is_terminal()
    cp = -1 if terminal else state.current_player()
    o = state.observation(0)  # only its public fields are read: known, discard, sizes, scores, round
    width = 1000
    parts: List[str] = []
    head = (f"Three Thirteen \u00b7 {n} players \u00b7 round {o.round} of 11 \u00b7 wild {o.wild_rank} \u00b7 "
            f"{o.phase} phase \u00b7 move {o.move_number} \u2014 spectator view: public cards only")
    parts.append(f'<g class="header">{_text(12, 28, head, 15, bold=True)}</g>')
    y = 44
    center_h = 24 + _H + 30
    parts.append(f'<rect class="center" x="12" y="{y}" width="{width - 24}" height="{center_h}" rx="8" '
                 f'fill="{_PANEL}"/>')
    parts.append(f'<g class="stock" data-count="{o.stock_size}">{_text(22, y + 16, "stock", 12, _MUTED)}')
    parts.append(_back(22, y + 24) if o.stock_size else _slot(22, y + 24))
    parts.append(_text(22, y + 24 + _H + 16, f"{o.stock_size} cards", 12, bold=True) + "</g>")
    pile = o.discard_pile
    parts.append(f'<g class="discard" data-count="{len(pile)}">{_text(110, y + 16, "discard", 12, _MUTED)}')
    parts.append(_face(110, y + 24, pile[-1], ("top",)) if pile else _slot(110, y + 24))
    parts.append(_text(110, y + 24 + _H + 16, f"{len(pile)} cards", 12, bold=True) + "</g>")
    parts.append('<g class="round-info">' + _text(200, y + 40, f"round {o.round} of 11", 14, bold=True, cls="round")
                 + _text(200, y + 60, f"wild: {o.wild_rank}", 13, cls="wild-rank")
                 + _text(200, y + 78, f"dealer: seat {o.dealer}", 12, _MUTED) + "</g>")
    y += center_h + 10
    for q in range(n):
        known = list(o.known[q])
        hand: List[Any] = [("face", c, ("known",)) for c in known] + [("back",)] * (o.hand_sizes[q] - len(known))
        row_h = 22 + max(1, -(-len(hand) // 16)) * (_H + 6) + 10
        extra = (["dealer"] if q == o.dealer else []) + (["out"] if o.out_seat == q else [])
        _seat_open(parts, q, y, width, row_h, cp, names[q] if q < len(names) else f"seat {q}", extra)
        parts.append('<g class="hand">' + _text(140, y + 16, f"hand ({len(hand)})", 11, _MUTED))
        _row(parts, 140, y + 22, hand)
        parts.append("</g>")
        parts.append(_text(width - 140, y + 30, f"total {o.scores[q]}", 14, bold=True, cls="total"))
        parts.append("</g>")
        y += row_h + 8
    return _document(parts, width, y + 12, " three-thirteen")


def render_public(state: Any, names: Optional[Sequence[str]] = None) -> str:
    """The public view of ``state`` (a state of a registered game) as a standalone SVG document:
    what a spectator may see, never a hidden card. ``names``: the seats' names."""
    info = registry.game_of(state)
    names = list(names or [])
    if info.name == "shithead":
        return _shithead(state, names)
    if info.name == "three_thirteen":
        return _three_thirteen(state, names)
    raise TypeError(f"no public view of a {info.title} table")
