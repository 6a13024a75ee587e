"""The SVG last-move marker (threes.svg, the module docstring's "The last move"): a caption, the class
``last-move`` on the cards the move put on the table, ``last-mover`` on its seat; from the move's events
(``render(state, events=...)``) or from ``state.history()``; for both games; never a hidden card shown to
an observer."""
import random
import re
import xml.etree.ElementTree as ET

import pytest

import threes
from threes import three_thirteen as tt
from threes.bots import PolicyBot
from threes.svg import render

SVG_NS = "{http://www.w3.org/2000/svg}"
SUITS = "\u2663\u2666\u2665\u2660\u2605"


def _root(svg):
    return ET.fromstring(svg)


def _classes(e):
    return e.get("class", "").split()


def caption(svg) -> str:
    return " ".join(t.text for t in _root(svg).iter(SVG_NS + "text") if "last-move-caption" in _classes(t))


def marked(svg):
    """data-card of the cards carrying the last-move class, in document order."""
    return [e.get("data-card") for e in _root(svg).iter(SVG_NS + "g")
            if "card" in _classes(e) and "last-move" in _classes(e)]


def pile_cards(svg):
    pile = next(e for e in _root(svg).iter(SVG_NS + "g") if "pile" in _classes(e))
    return [(e.get("data-card"), "last-move" in _classes(e)) for e in pile.iter(SVG_NS + "g") if "card" in _classes(e)]


def mover(svg):
    return [e.get("data-seat") for e in _root(svg).iter(SVG_NS + "g")
            if "seat" in _classes(e) and "last-mover" in _classes(e)]


def _played(state, rng):
    """Plays random moves until one is a play whose cards stay on the pile; returns its events."""
    while True:
        events = state.apply(rng.choice(state.legal_actions()), undo=False)
        if events[0].kind == "play" and not any(e.kind == "burn" for e in events):
            return events


def test_a_play_marks_its_cards_on_top_of_the_pile_from_events_and_from_history():
    rng = random.Random(3)
    state = threes.Game(3).new_initial_state(3)
    for _ in range(6):
        events = _played(state, rng)
        play = events[0]
        n = len(play.cards)
        for svg in (render(state, events=events), render(state)):
            cards = pile_cards(svg)
            assert [m for _, m in cards] == [False] * (len(cards) - n) + [True] * n
            assert sorted(c for c, m in cards if m) == sorted(str(c) for c in play.cards)
            assert svg.count('class="last-move-mark"') == n
        with_events = render(state, observer=0, events=events)
        who = "you" if play.seat == 0 else f"seat {play.seat}"
        assert caption(with_events).startswith(f"last move: {who} play")
        assert mover(with_events) == [str(play.seat)]
        rank = {"T": "10", "X": "JK"}.get(play.cards[0].rank, play.cards[0].rank)
        assert caption(render(state)) == f"last move: {rank}x{n}"


def test_a_burn_marks_no_pile_card_and_the_caption_tells_it():
    rng = random.Random(5)
    state = threes.Game(3).new_initial_state(5)
    for _ in range(3000):
        events = state.apply(rng.choice(state.legal_actions()), undo=False)
        if any(e.kind == "burn" for e in events):
            break
    else:
        pytest.fail("no burn")
    svg = render(state, events=events)
    assert "burns the pile" in caption(svg)
    assert not any(m for _, m in pile_cards(svg))


def test_no_marker_before_any_move_and_a_swap_names_its_seat():
    state = threes.Game(3).new_initial_state(1)
    svg = render(state)
    assert caption(svg) == "" and marked(svg) == [] and mover(svg) == []
    move = state.legal_moves()[0]
    events = state.apply(move)
    svg = render(state)
    assert caption(svg).startswith("last move: keep face up: ")
    assert mover(svg) == ["0"]
    assert caption(render(state, observer=1, events=events)).startswith("last move: seat 0 keeps face up: ")


def test_an_observer_never_sees_another_seat_s_drawn_cards_in_the_caption():
    rng = random.Random(8)
    state = threes.Game(3).new_initial_state(8)
    met = 0
    for _ in range(400):
        if state.is_terminal():
            break
        events = state.apply(rng.choice(state.legal_actions()), undo=False)
        for e in events:
            if e.kind == "draw":
                for p in range(3):
                    text = caption(render(state, observer=p, events=events))
                    drawn = [threes.shithead.describe.card_face(c) for c in e.cards]
                    if p == e.seat:
                        assert " ".join(drawn) in text
                    else:
                        assert f"seat {e.seat} draws {e.count} card" in text
                met += 1
    assert met > 10


@pytest.mark.parametrize("preset, players", [("threes", 4), ("classic", 3)])
def test_the_marked_picture_depends_only_on_what_the_observer_sees(preset, players):
    rng = random.Random(11)
    state = threes.Game(players, preset).new_initial_state(11)
    checked = 0
    while not state.is_terminal():
        events = state.apply(rng.choice(state.legal_actions()), undo=False)
        if rng.random() < 0.15:
            for p in range(players):
                other = state.resample_from_infostate(p, rng.getrandbits(32))
                assert render(other, observer=p) == render(state, observer=p)
                assert render(other, observer=p, events=events) == render(state, observer=p, events=events)
                checked += 1
    assert checked > 20


# ------------------------------------------------------------ Three Thirteen --
def test_three_thirteen_a_discard_and_a_take_are_marked():
    state = tt.Game(3).new_initial_state(2)
    bot = PolicyBot("greedy", seed=2)
    met = set()
    for _ in range(300):
        if state.is_terminal():
            break
        events = state.apply(bot.step(state), undo=False)
        discard = next((e for e in events if e.kind == "discard"), None)
        took = any(e.kind == "draw" and e.source == "discard" for e in events)
        new_round = any(e.kind == "round" for e in events)
        for svg in (render(state, events=events), render(state)):
            if discard is not None and not new_round:
                assert marked(svg) == [str(discard.cards[0])]
                top = [e for e in _root(svg).iter(SVG_NS + "g") if "top" in _classes(e)]
                assert "last-move" in _classes(top[0])
                met.add("discard")
            elif took:
                assert marked(svg) == [str(events[0].cards[0])]
                met.add("take")
            else:
                assert marked(svg) == []
        cp_before = events[0].seat
        assert mover(render(state, events=events)) == [str(cp_before)]
        if not new_round and not state.is_terminal():
            assert mover(render(state)) == [str(cp_before)]
    assert met == {"discard", "take"}


def test_three_thirteen_a_stock_draw_stays_hidden_from_the_others():
    state = tt.Game(3).new_initial_state(4)
    while True:
        a = state.legal_actions()[0]  # the stock
        events = state.apply(a)
        if events[0].kind == "draw" and events[0].source == "stock":
            break
    seat = events[0].seat
    from threes.three_thirteen.describe import card_face

    for p in range(3):
        text = caption(render(state, observer=p, events=events))
        if p == seat:
            assert f"draw {card_face(events[0].cards[0])} from the stock" in text
        else:
            assert text == f"last move: seat {seat} draws from the stock"
            assert not any(s in text for s in SUITS)
    assert caption(render(state)) == "last move: stock"
