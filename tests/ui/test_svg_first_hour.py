"""What a newcomer saw wrong in the pictures in the first hour (issue 39), each checked here:

* a wild card of a Three Thirteen hand carried its star in the corner the next card covers: the mark
  (and what the card stands for) is in the strip of the card that stays visible;
* the title (and the legend) ran off the right edge: every text of a picture fits its canvas, for
  2 up to the most players, every observer, long rule sets and late rounds;
* the legend ended "hidden from seat" (its seat cut off): it names the seat, on the canvas;
* the melds did not say what a wild card stands for: each shown hand's best melds are written under
  it, a wild card's stand-in with it ("3\u2665(=5)"), and on the card itself ("=5").

Text widths are estimated conservatively per character (wider than DejaVu Sans, the widest font
of the pictures' font stack, draws any ASCII letter but m, w, M, W: 0.6 em, 0.68 em in bold; any
other character 1 em but the middle dot); the browser test (tests/web/test_web_first_hour.py)
measures the drawn text too.
"""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from threes import registry
from threes import three_thirteen as tt
from threes.bots import PolicyBot
from threes.shithead.rules import PRESETS, Rules
from threes.svg import render

SVG_NS = "{http://www.w3.org/2000/svg}"
SH = registry.get("shithead").load()
TT_MAX = getattr(tt, "MAX_PLAYERS", 8)


# ------------------------------------------------------------------ helpers --
def _classes(el):
    return el.get("class", "").split()


def _width_estimate(text: str, size: float, bold: bool) -> float:
    em = 0.0
    for ch in text:
        if ch in "mwMW@%":
            em += 1.0
        elif ord(ch) < 128:
            em += 0.68 if bold else 0.6
        elif ch == "\u00b7":
            em += 0.35
        else:
            em += 1.0
    return em * size


def _translate(el):
    m = re.match(r"translate\(([-0-9.]+),([-0-9.]+)\)", el.get("transform", ""))
    return (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)


def _texts(svg: str):
    """Every <text> of a picture: (its text, left x, right x, its classes, whether it is on a card),
    in the picture's coordinates (estimated widths)."""
    root = ET.fromstring(svg)
    out = []

    def walk(el, dx, dy, on_card):
        tx, ty = _translate(el)
        dx, dy = dx + tx, dy + ty
        on_card = on_card or "card" in _classes(el)
        for child in el:
            if child.tag == SVG_NS + "text":
                text = "".join(child.itertext())
                size = float(child.get("font-size"))
                w = _width_estimate(text, size, child.get("font-weight") == "bold")
                x = dx + float(child.get("x"))
                anchor = child.get("text-anchor", "start")
                left = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
                out.append((text, left, left + w, _classes(child), on_card))
            else:
                walk(child, dx, dy, on_card)

    walk(root, 0.0, 0.0, False)
    return root, out


def _canvas_width(root) -> float:
    return float(root.get("viewBox").split()[2])


def _check_fits(svg: str, what: str) -> None:
    root, texts = _texts(svg)
    width = _canvas_width(root)
    for text, left, right, _, _ in texts:
        assert left >= 0 and right <= width, f"{what}: {text!r} spans {left:.0f}..{right:.0f} on a {width:g} canvas"


def _observers(n):
    return [None, "public"] + list(range(n))


def _tt_states(n, seed, jokers=0, every=40, **options):
    s = tt.Game(n, jokers=jokers, **options).new_initial_state(seed)
    bot = PolicyBot("greedy", seed=seed)
    out = [s.clone()]
    i = 0
    while not s.is_terminal():
        s.apply_action(bot.step(s))
        i += 1
        if i % every == 0:
            out.append(s.clone())
    out.append(s.clone())
    return out


def _sh_states(n, rules, seed, every=25):
    s = SH.Game(n, rules).new_initial_state(seed=seed)
    rng = random.Random(seed)
    out = [s.clone()]
    i = 0
    while not s.is_terminal() and i < 600:
        s.apply_action(rng.choice(s.legal_actions()))
        i += 1
        if i % every == 0:
            out.append(s.clone())
    out.append(s.clone())
    return out


def _tt_dealt(hand, round_=1, **options):
    """A Three Thirteen deal of two players in round ``round_`` where seat 0 holds ``hand`` (the
    engine checks the position: cards swapped with the stock)."""
    g = tt.Game(2, **options)
    s = g.new_initial_state(seed=5)
    while s._fields()["round"] < round_:
        s.apply_action(PolicyBot("greedy", seed=1).step(s))
    d = s.to_dict()
    old = list(d["hands"][0])
    assert len(old) == len(hand)
    before = sorted(d["stock"] + d["hands"][1] + d["discard"] + d["hands"][0])
    for card in hand:
        where = "stock" if card in d["stock"] else "discard" if card in d["discard"] else None
        if card in old:
            old.remove(card)
            continue
        assert where is not None, card
        d[where][d[where].index(card)] = old.pop()
    d["hands"][0] = list(hand)
    assert before == sorted(d["stock"] + d["hands"][1] + d["discard"] + d["hands"][0])
    return type(s).from_dict(d)


# ------------------------------------------------------------ a. wild marks --
def _wild_cards_of_hands(svg):
    root = ET.fromstring(svg)
    found = []
    for hand in root.iter(SVG_NS + "g"):
        if "hand" not in _classes(hand):
            continue
        cards = [g for g in hand if g.tag == SVG_NS + "g" and "card" in _classes(g)]
        for i, g in enumerate(cards):
            if "wild" not in _classes(g):
                continue
            x, y = _translate(g)
            nxt = [_translate(h) for h in cards[i + 1:i + 2]]
            # the part of this card the next card leaves visible (the next card's left edge, same line)
            visible = nxt[0][0] - x if nxt and nxt[0][1] == y else float("inf")
            found.append((g, visible))
    return found


@pytest.mark.parametrize("jokers", [0, 2])
def test_every_wild_card_of_a_hand_shows_its_mark_in_the_visible_strip(jokers):
    seen = overlapped = 0
    for n in (2, 4, TT_MAX):
        for s in _tt_states(n, seed=11 + n, jokers=jokers, every=23):
            svg = render(s)
            for g, visible in _wild_cards_of_hands(svg):
                marks = [t for t in g.iter(SVG_NS + "text") if "wild-mark" in _classes(t)]
                assert len(marks) == 1, g.get("data-card")
                t = marks[0]
                right = float(t.get("x")) + _width_estimate(t.text, float(t.get("font-size")), True)
                assert t.get("text-anchor", "start") == "start" and right <= visible, \
                    (g.get("data-card"), right, visible)
                seen += 1
                overlapped += visible < 44
    assert seen > 20 and overlapped > 10, (seen, overlapped)


# ------------------------------------------------ b, c. nothing runs off the edge --
@pytest.mark.parametrize("n", range(2, TT_MAX + 1))
def test_three_thirteen_texts_fit_the_canvas(n):
    for options in ({}, {"jokers": 2, "decks": 4, "ace": "either", "wild_penalty": 20}):
        states = _tt_states(n, seed=100 + n, every=97 if n > 4 else 61, **options)
        for k, s in enumerate(states):
            for obs in _observers(n) if k in (0, len(states) // 2, len(states) - 1) else [None, n - 1]:
                _check_fits(render(s, observer=obs), f"Three Thirteen, {n} players, {options}, state {k}, {obs}")


def _long_rules():
    return Rules.preset("threes", pickup_then_play=False, run_to_burn=3, wild=["2", "3", "8", "X"],
                        burn=["T", "X"], invisible=["8", "3"], lower_strict=True)


@pytest.mark.parametrize("preset", list(PRESETS) + ["custom"])
def test_shithead_texts_fit_the_canvas(preset):
    rules = _long_rules() if preset == "custom" else Rules.preset(preset)
    for n in range(2, rules.max_players() + 1):
        states = _sh_states(n, rules, seed=7 * n)
        for k, s in enumerate(states):
            for obs in _observers(n) if k in (0, len(states) - 1) else [n - 1]:
                _check_fits(render(s, observer=obs), f"Shithead {preset}, {n} players, state {k}, {obs}")


def test_a_long_title_and_legend_are_wrapped_not_cut():
    """The newcomer's picture: eight players of Three Thirteen with jokers, seen by a seat."""
    s = tt.Game(8, jokers=2, decks=3).new_initial_state(seed=3)
    svg = render(s, observer=3)
    root, texts = _texts(svg)
    width = _canvas_width(root)
    title = [t for t in texts if "title" in t[3]]
    assert len(title) >= 2  # it is long: two lines
    assert " \u00b7 ".join(t[0] for t in title).startswith("Three Thirteen \u00b7 8 players \u00b7 round 1 of 11")
    legend = [t for t in texts if "legend" in t[3]]
    assert " ".join(t[0] for t in legend).endswith("backs: hidden from seat 3")
    for text, left, right, _, _ in title + legend:
        assert 0 <= left and right <= width, (text, right, width)


@pytest.mark.parametrize("game", ["shithead", "three_thirteen"])
def test_the_legend_names_the_seat_it_hides_from(game):
    for n in (2, 5, 8):
        s = (SH.Game(n, Rules.preset("threes")) if game == "shithead" else tt.Game(n)).new_initial_state(seed=n)
        for obs in ["public"] + list(range(n)):
            svg = render(s, observer=obs)
            root, texts = _texts(svg)
            legend = " ".join(t[0] for t in texts if "legend" in t[3])
            who = "every player" if obs == "public" else f"seat {obs}"
            assert legend.endswith(f"backs: hidden from {who}"), legend
            line = [t for t in texts if "legend" in t[3] and "hidden from" in t[0]]
            assert len(line) == 1 and line[0][0].endswith(who) and line[0][2] <= _canvas_width(root), line
        assert "hidden from" not in " ".join(t[0] for t in _texts(render(s))[1] if "legend" in t[3])


# --------------------------------------------- d. what a wild card stands for --
def _hand_of(svg, seat=0):
    root = ET.fromstring(svg)
    seat_g = [g for g in root.iter(SVG_NS + "g") if "seat" in _classes(g) and g.get("data-seat") == str(seat)][0]
    hand = [g for g in seat_g.iter(SVG_NS + "g") if "hand" in _classes(g)][0]
    cards = {g.get("data-card"): g for g in hand if "card" in _classes(g) and g.get("data-card")}
    notes = {name: [t.text for t in g.iter(SVG_NS + "text") if "stands-for" in _classes(t)] for name, g in cards.items()}
    melds = [("".join(t.itertext())) for t in hand.iter(SVG_NS + "text") if "melds" in _classes(t)]
    return notes, melds


@pytest.mark.parametrize("hand, round_, options, wild_card, stands, words", [
    # round 1: threes are wild; a run 4-5-6 of clubs with the 3 of hearts as its 5
    (["4c", "3h", "6c"], 1, {}, "3h", "=5", "run 4\u2663 3\u2665(=5) 6\u2663"),
    # a set of Kings with a three
    (["Kd", "3h", "Ks"], 1, {}, "3h", "=K", "set"),
    # a joker as the King of a run Q-K-A (aces either way)
    (["Qh", "Xr", "Ah"], 1, {"jokers": 1, "ace": "either"}, "Xr", "=K", "run Q\u2665 JK\u2605(=K) A\u2665"),
])
def test_a_wild_card_in_a_meld_says_what_it_stands_for(hand, round_, options, wild_card, stands, words):
    s = _tt_dealt(hand, round_, **options)
    for obs in (None, 0):
        notes, melds = _hand_of(render(s, observer=obs))
        assert notes[wild_card] == [stands], notes
        assert all(v == [] for k, v in notes.items() if k != wild_card), notes
        assert melds and melds[0].startswith("melds: ") and words in melds[0], melds
        assert f"({stands})" in melds[0]
    # what another seat cannot see is not arranged for it: no melds, no stand-ins of a hidden hand
    notes, melds = _hand_of(render(s, observer=1))
    assert notes == {} and melds == []
    notes, melds = _hand_of(render(s, observer="public"))
    assert notes == {} and melds == []


def test_melds_of_wild_cards_only_or_a_wild_card_left_over_say_nothing_more():
    # threes wild: three threes are a set of threes (no stand-in to tell); a lone three is left over
    s = _tt_dealt(["3h", "3s", "3d"], 1)
    notes, melds = _hand_of(render(s, observer=0))
    assert notes == {"3h": [], "3s": [], "3d": []} and len(melds) == 1 and melds[0].startswith("melds: set "), melds
    s = _tt_dealt(["3h", "9s", "Kd"], 1)
    notes, melds = _hand_of(render(s, observer=0))
    assert all(v == [] for v in notes.values()) and melds[0] == "no melds" and melds[1].startswith("left over")
