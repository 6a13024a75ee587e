"""The SVG picture of a Three Thirteen table (threes.svg.render dispatches
through threes.registry to threes.three_thirteen.svg.render; State._repr_svg_)."""
import random
import xml.etree.ElementTree as ET

import pytest

import threes
from threes import three_thirteen as tt
from threes.bots import PolicyBot
from threes.shithead.svg import render as render_shithead
from threes.svg import render
from threes.three_thirteen.svg import render as render_three_thirteen

SVG_NS = "{http://www.w3.org/2000/svg}"
RANKS = "A23456789TJQK"


def _parse(svg):
    assert svg.startswith("<svg")
    root = ET.fromstring(svg)
    assert root.tag == SVG_NS + "svg"
    return root


def _classes(el):
    return el.get("class", "").split()


def _groups(root, cls):
    return [g for g in root.iter(SVG_NS + "g") if cls in _classes(g)]


def _faces(el):
    return [g for g in el.iter(SVG_NS + "g") if "card" in _classes(g) and "back" not in _classes(g)]


def _backs(el):
    return [g for g in el.iter(SVG_NS + "g") if _classes(g)[:2] == ["card", "back"]]


def _texts(el):
    return ["".join(t.itertext()) for t in el.iter(SVG_NS + "text")]


def _states(n=3, seed=1, jokers=0, every=7):
    """States along a greedy game, round 1 to the end."""
    s = tt.Game(n, jokers=jokers).new_initial_state(seed)
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


def _hand_texts(state, q):
    return sorted(str(tt.kind_to_card(k)) for k in state._fields()["hands"][q])


def test_render_dispatches_through_the_registry():
    s = tt.Game(3).new_initial_state(2)
    assert render(s) == render_three_thirteen(s)
    assert s._repr_svg_() == render(s)
    sh = threes.Game(3).new_initial_state(2)
    assert render(sh) == render_shithead(sh) == sh._repr_svg_()
    with pytest.raises(TypeError, match="registered game"):
        render("not a state")
    with pytest.raises(TypeError):
        render_three_thirteen(sh)
    with pytest.raises(TypeError):
        render_shithead(s)


@pytest.mark.parametrize("n,seed,jokers", [(2, 1, 0), (3, 2, 0), (4, 3, 2), (5, 4, 0)])
def test_the_table_as_every_card_shown(n, seed, jokers):
    for s in _states(n, seed, jokers, every=11):
        root = _parse(render(s))
        f = s._fields()
        seats = _groups(root, "seat")
        assert [int(g.get("data-seat")) for g in seats] == list(range(n))
        for q, g in enumerate(seats):
            hand = _groups(g, "hand")[0]
            assert sorted(c.get("data-card") for c in _faces(hand)) == _hand_texts(s, q)
            assert not _backs(hand)
            assert f"total {f['totals'][q]}" in _texts(g)
            assert ("to-move" in _classes(g)) == (not s.is_terminal() and q == s.current_player())
            assert ("dealer" in _classes(g)) == (q == f["dealer"])
            if f["hands"][q]:
                assert f"deadwood {s.deadwood(q)}" in _texts(g)
        stock = _groups(root, "stock")[0]
        assert int(stock.get("data-count")) == s.stock_size()
        assert len(_backs(stock)) == (1 if s.stock_size() else 0)
        disc = _groups(root, "discard")[0]
        assert int(disc.get("data-count")) == len(s.discard_pile())
        tops = _faces(disc)
        if s.discard_pile():
            assert [c.get("data-card") for c in tops] == [s.discard_pile()[-1]]
            assert "top" in _classes(tops[0])
        head = " ".join(_texts(_groups(root, "header")[0]))
        assert f"round {s.round()} of 11" in head and f"wild {s.wild_rank().replace('T', '10')}" in head
        if not s.is_terminal():
            assert f"seat {s.current_player()} to move" in head
        # wild cards carry the class and the star
        wild = s.wild_rank()
        for c in _faces(root):
            is_wild = c.get("data-card")[0] == wild or c.get("data-card")[0] == "X"
            assert ("wild" in _classes(c)) == is_wild, c.get("data-card")


def test_an_observer_sees_its_hand_and_backs_elsewhere():
    for s in _states(3, 5, every=5)[:-1]:
        f = s._fields()
        for p in range(3):
            root = _parse(render(s, observer=p))
            for q, g in enumerate(_groups(root, "seat")):
                hand = _groups(g, "hand")[0]
                size = len(f["hands"][q])
                if q == p:
                    assert "observer" in _classes(g)
                    assert sorted(c.get("data-card") for c in _faces(hand)) == _hand_texts(s, q)
                else:
                    faces = _faces(hand)
                    assert len(faces) + len(_backs(hand)) == size
                    # only the card taken from the discard pile this turn is shown, marked known
                    assert [c.get("data-card") for c in faces] == (
                        [str(tt.kind_to_card(f["taken_kind"]))] if faces else [])
                    if faces:
                        assert q == s.current_player() and "known" in _classes(faces[0])
                    assert not any(t.startswith("deadwood") for t in _texts(g))


def test_an_observer_s_picture_depends_only_on_what_it_can_see():
    rng = random.Random(3)
    checked = 0
    for s in _states(3, 7, every=4)[:-1]:
        p = rng.randrange(3)
        other = s.resample_from_infostate(p, rng.getrandbits(64))
        if s._fields()["taken_kind"] >= 0:
            continue  # resampling deals the taken card anew (the engine does not track it as known)
        assert render(other, observer=p) == render(s, observer=p)
        checked += 1
        if s._fields()["hands"][(p + 1) % 3] != other._fields()["hands"][(p + 1) % 3]:
            assert render(other) != render(s)
    assert checked > 5


def test_the_end_shows_the_totals_and_the_winner():
    end = _states(3, 9)[-1]
    assert end.is_terminal()
    root = _parse(render(end))
    head = " ".join(_texts(_groups(root, "header")[0]))
    totals = end.scores()
    assert "game over: final totals " + ", ".join(map(str, totals)) in head
    winners = [int(g.get("data-seat")) for g in _groups(root, "seat") if "winner" in _texts(g)]
    assert winners == [q for q in range(3) if totals[q] == min(totals)]
    assert not any("to-move" in _classes(g) for g in _groups(root, "seat"))


def test_observer_and_size_are_validated_and_the_output_is_deterministic():
    s = tt.Game(3).new_initial_state(4)
    for bad in (-1, 3):
        with pytest.raises(ValueError):
            render(s, observer=bad)
    for bad in (True, 1.0, "1"):
        with pytest.raises(TypeError):
            render(s, observer=bad)
    with pytest.raises(ValueError):
        render(s, size=0)
    root = _parse(render(s, size=300))
    assert float(root.get("width")) == 300
    assert render(s, observer=1) == render(s.clone(), observer=1)
    assert "three-thirteen" in _classes(_parse(render(s)))
