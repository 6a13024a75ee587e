"""The SVG picture of a table (threes.svg.render, State._repr_svg_).

Conventions checked here (see the module docstring of threes.svg):
  * ``class="card ..."`` with ``data-card`` is a card drawn face up;
  * ``class="card back"`` is a card drawn face down, without ``data-card``;
  * the draw pile is one back (when not empty), the burned cards a count only;
  * zone groups ``seat``/``hand``/``face-up``/``face-down``/``pile``/
    ``draw-pile``/``burned``.
"""
import collections
import random
import re
import xml.etree.ElementTree as ET

import pytest

import threes
from threes.svg import render

SVG_NS = "{http://www.w3.org/2000/svg}"

CONFIGS = [("threes", n, {}) for n in (2, 3, 4, 5, 6)]
for _preset in ("classic", "dutch"):
    CONFIGS += [(_preset, n, {}) for n in (2, 3, 4, 5)]
    CONFIGS.append((_preset, 6, {"cards_per_zone": 2}))
CONFIG_IDS = [f"{p}-{n}p" for p, n, _ in CONFIGS]


# ------------------------------------------------------------------ helpers --
def _classes(el):
    return el.get("class", "").split()


def _parse(svg):
    assert svg.startswith("<svg")
    root = ET.fromstring(svg)
    assert root.tag == SVG_NS + "svg"
    return root


def _faces(el):
    """The cards drawn face up under el."""
    return [e for e in el.iter() if "card" in _classes(el=e) and "back" not in _classes(e)]


def _backs(el):
    return [e for e in el.iter() if _classes(e)[:2] == ["card", "back"]]


def _face_names(el):
    return collections.Counter(e.get("data-card") for e in _faces(el))


def _group(root, cls):
    found = [e for e in root.iter() if cls in _classes(e) and e.tag == SVG_NS + "g"]
    assert len(found) == 1, cls
    return found[0]


def _seat(root, q):
    found = [e for e in root.iter() if "seat" in _classes(e) and e.get("data-seat") == str(q)]
    assert len(found) == 1
    return found[0]


def _zone(seat_el, cls):
    found = [e for e in seat_el if cls in _classes(e)]
    assert len(found) == 1
    return found[0]


def _names(cards):
    return collections.Counter(str(c) for c in cards)


def _states(preset, players, overrides, seed=0, max_moves=None, count=10):
    """``count`` positions spread evenly along one random game, from the deal
    (swap phase) to the end."""
    rules = threes.Rules.preset(preset, **overrides)
    game = threes.Game(players, rules, max_moves=max_moves)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    every = [state.clone()]
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        every.append(state.clone())
    last = len(every) - 1
    picks = sorted({round(i * last / (count - 1)) for i in range(count)})
    return [every[i] for i in picks]


def _check_full(state):
    """observer=None: every card face up, the true cards."""
    root = _parse(render(state))
    n = state.num_players()
    expected = collections.Counter()
    for q in range(n):
        seat = _seat(root, q)
        hand, up, down = (_zone(seat, c) for c in ("hand", "face-up", "face-down"))
        assert _face_names(hand) == _names(state.hand(q))
        assert _face_names(up) == _names(state.face_up(q))
        assert _face_names(down) == _names(c for c in state.face_down(q) if c is not None)
        assert not _backs(seat)
        assert len(_faces(hand)) == state.hand_size(q)
        known = [e for e in _faces(hand) if "known" in _classes(e)]
        assert collections.Counter(e.get("data-card") for e in known) == _names(state.known_cards(q))
        # The empty face-down slots are outlines, not cards.
        slots = [e for e in down.iter() if "slot" in _classes(e)]
        assert len(slots) == sum(c is None for c in state.face_down(q))
        expected += _names(state.hand(q)) + _names(state.face_up(q))
        expected += _names(c for c in state.face_down(q) if c is not None)
    pile = _group(root, "pile")
    assert [e.get("data-card") for e in _faces(pile)] == [str(c) for c in state.pile()]
    assert pile.get("data-count") == str(len(state.pile()))
    tops = [e for e in root.iter() if "top" in _classes(e)]
    if state.pile():
        assert [e.get("data-card") for e in tops] == [str(state.pile()[-1])]
    else:
        assert tops == []
    expected += _names(state.pile())
    # All face-up cards: hands + face-up + face-down + pile; burned is a count.
    assert _face_names(root) == expected
    draw = _group(root, "draw-pile")
    assert draw.get("data-count") == str(state.draw_pile_size())
    assert len(_backs(root)) == len(_backs(draw)) == (1 if state.draw_pile_size() else 0)
    burned = _group(root, "burned")
    assert burned.get("data-count") == str(len(state.burned()))
    assert not _faces(burned) and not _backs(burned)
    return root


def _check_observer(state, p):
    """observer=p: only what p can see is face up."""
    root = _parse(render(state, observer=p))
    n = state.num_players()
    visible = _names(state.hand(p)) + _names(state.pile())
    backs = 1 if state.draw_pile_size() else 0
    for q in range(n):
        seat = _seat(root, q)
        assert ("observer" in _classes(seat)) == (q == p)
        hand, up, down = (_zone(seat, c) for c in ("hand", "face-up", "face-down"))
        if q == p:
            assert _face_names(hand) == _names(state.hand(q))
            assert not _backs(hand)
        else:
            known = state.known_cards(q)
            assert _face_names(hand) == _names(known)
            assert all("known" in _classes(e) for e in _faces(hand))
            assert len(_backs(hand)) == state.hand_size(q) - len(known)
            visible += _names(known)
            backs += state.hand_size(q) - len(known)
        assert _face_names(up) == _names(state.face_up(q))
        visible += _names(state.face_up(q))
        assert not _faces(down)
        full = sum(c is not None for c in state.face_down(q))
        assert len(_backs(down)) == full
        backs += full
    assert _face_names(root) == visible
    assert len(_backs(root)) == backs
    for e in _backs(root):
        assert e.get("data-card") is None
        assert not [t for t in e.iter() if t.tag == SVG_NS + "text"], "a back shows text"
    return root


# -------------------------------------------------------------------- tests --
@pytest.mark.parametrize("preset,players,overrides", CONFIGS, ids=CONFIG_IDS)
def test_cards_drawn_match_the_state(preset, players, overrides):
    states = _states(preset, players, overrides, seed=players, count=20)
    assert states[0].phase.value == "swap"
    assert any(s.phase.value == "play" and not s.is_terminal() for s in states)
    assert states[-1].is_terminal()
    for state in states:
        _check_full(state)
        for p in range(players):
            _check_observer(state, p)


@pytest.mark.parametrize("preset,players,overrides", CONFIGS, ids=CONFIG_IDS)
def test_seat_markers(preset, players, overrides):
    for state in _states(preset, players, overrides, seed=100 + players, count=8):
        root = _parse(render(state))
        cp = state.current_player()
        movers = [e for e in root.iter() if e.tag == SVG_NS + "g" and "to-move" in _classes(e)]
        if cp >= 0:
            assert [e.get("data-seat") for e in movers] == [str(cp)]
        else:
            assert movers == []
        places = {}
        for q in range(players):
            texts = [t.text for t in _seat(root, q).iter() if "place" in _classes(t)]
            assert len(texts) <= 1
            if texts:
                places[q] = texts[0]
        out = state.finish_order()
        assert sorted(places) == sorted(out)
        if state.is_terminal() and not state.is_truncated():
            assert places[out[-1]] == "shithead"
            assert list(places.values()).count("shithead") == 1
            if players > 1:
                assert places[out[0]] == "1st"
        else:
            assert "shithead" not in places.values()


def test_header_text():
    states = _states("threes", 4, {}, seed=5)
    for state in (states[0], states[len(states) // 2], states[-1]):
        root = _parse(render(state))
        header = " ".join(t.text for t in _group(root, "header").iter(SVG_NS + "text"))
        assert f"{state.rules.name} rules" in header
        assert "4 players" in header
        assert f"{state.phase.value} phase" in header
        assert f"move {state.move_number()}" in header
        assert "all cards shown" in header
    assert "seat 0 to move" in " ".join(t.text for t in _parse(render(states[0])).iter(SVG_NS + "text"))
    over = " ".join(t.text for t in _group(_parse(render(states[-1])), "header").iter(SVG_NS + "text"))
    assert "shithead" in over
    seen = " ".join(t.text for t in _group(_parse(render(states[-1], observer=2)), "header").iter(SVG_NS + "text"))
    assert "as seen by seat 2" in seen
    pile_info = [t.text for t in _parse(render(states[len(states) // 2])).iter() if "pile-info" in _classes(t)]
    assert len(pile_info) == 1 and pile_info[0].startswith("effective top:")


def test_truncated_games():
    truncated = 0
    for seed in range(4):
        states = _states("threes", 4, {}, seed=seed, max_moves=50, count=6)
        final = states[-1]
        truncated += final.is_truncated()
        for state in states:
            _check_full(state)
            for p in range(4):
                _check_observer(state, p)
        if final.is_truncated():
            header = " ".join(t.text for t in _parse(render(final)).iter(SVG_NS + "text"))
            assert "TRUNCATED" in header
            assert "shithead" not in header.replace("is the shithead", "")
    assert truncated, "no game reached the cap of 50 moves"


@pytest.mark.parametrize("preset,players,overrides", [("threes", 4, {}), ("classic", 3, {}), ("dutch", 5, {}),
                                                      ("classic", 6, {"cards_per_zone": 2})])
def test_the_picture_depends_only_on_what_the_observer_sees(preset, players, overrides):
    states = _states(preset, players, overrides, seed=42, count=10)
    differed = 0
    for state in states:
        for p in range(players):
            mine = render(state, observer=p)
            for seed in range(3):
                other = state.resample_from_infostate(p, seed)
                assert render(other, observer=p) == mine
                differed += render(other) != render(state)
    assert differed, "resampling never changed a hidden card: the test proves nothing"


def test_hidden_cards_never_appear_for_an_observer():
    state = _states("threes", 4, {}, seed=9)[3]
    assert state.phase.value == "play"
    for p in range(4):
        svg = render(state, observer=p)
        shown = collections.Counter(re.findall(r'data-card="([^"]+)"', svg))
        visible = _names(state.hand(p)) + _names(state.pile())
        for q in range(4):
            visible += _names(state.face_up(q))
            if q != p:
                visible += _names(state.known_cards(q))
        assert shown == visible
        # Every other hand's unknown cards are hidden: some exist in this position.
        hidden = sum(state.hand_size(q) - len(state.known_cards(q)) for q in range(4) if q != p)
        assert hidden > 0
        assert svg.count('class="card back"') == hidden + sum(
            c is not None for q in range(4) for c in state.face_down(q)) + (state.draw_pile_size() > 0)


def test_large_hand_and_pile_render():
    state = threes.Game(4).new_initial_state(11)
    d = state.to_dict()
    normal = _parse(render(state))
    # Seat 0 picks up most of the draw pile; a long pile lies on the table.
    d["phase"] = "play"
    rest, pile = list(d["draw_pile"]), []
    for c in d["draw_pile"]:  # no burn card, no run: a pile that can lie on the table
        if len(pile) < 30 and c[0] not in "TX" and (not pile or pile[-1][0] != c[0]):
            pile.append(c)
            rest.remove(c)
    d["hands"][0] = d["hands"][0] + rest[:40]
    d["pile"], d["draw_pile"] = pile, rest[40:]
    big = threes.State.from_dict(d)
    assert big.hand_size(0) == 43 and len(big.pile()) == 30 and big.draw_pile_size() > 0
    root = _check_full(big)
    for p in range(4):
        _check_observer(big, p)
    width, height = (float(v) for v in root.get("viewBox").split()[2:])
    assert height > float(normal.get("viewBox").split()[3])
    # Every card lies inside the picture.
    for e in _faces(root) + _backs(root):
        x, y = (float(v) for v in re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", e.get("transform")).groups())
        assert 0 <= x and x + 44 <= width and 0 <= y and y + 62 <= height
    # The top of the pile is the last card drawn, so nothing covers it.
    pile = _group(root, "pile")
    assert _faces(pile)[-1].get("data-card") == str(big.pile()[-1])
    assert "top" in _classes(_faces(pile)[-1])


def test_card_faces():
    d = threes.Game(2).new_initial_state(1).to_dict()
    d["phase"] = "play"
    d["current_player"] = 0
    pool = d["hands"][0] + d["hands"][1] + d["draw_pile"]
    for c in ["Ah", "Td", "2c", "Ks", "Xr", "Xb"]:
        pool.remove(c)
    d["pile"] = ["Ah", "2c", "Ks"]
    d["hands"] = [["Td", "Xr", "Xb"] + pool[:3], pool[3:6]]
    d["draw_pile"] = pool[6:]
    state = threes.State.from_dict(d)
    root = _parse(render(state))
    cards = {e.get("data-card"): e for e in _faces(root)}
    assert set(cards) >= {"Ah", "Td", "2c", "Ks", "Xr", "Xb"}

    def texts(e):
        return [(t.text, t.get("fill")) for t in e.iter(SVG_NS + "text")]

    red, black = "#c62828", "#1b1b1b"
    assert ("A", red) in texts(cards["Ah"]) and ("\u2665", red) in texts(cards["Ah"])
    assert ("10", red) in texts(cards["Td"]) and ("\u2666", red) in texts(cards["Td"])
    assert ("2", black) in texts(cards["2c"]) and ("\u2663", black) in texts(cards["2c"])
    assert ("K", black) in texts(cards["Ks"]) and ("\u2660", black) in texts(cards["Ks"])
    assert ("\u2605", red) in texts(cards["Xr"]) and ("JOKER", red) in texts(cards["Xr"])
    assert ("\u2605", black) in texts(cards["Xb"]) and ("JOKER", black) in texts(cards["Xb"])
    for e in cards.values():
        rects = list(e.iter(SVG_NS + "rect"))
        assert rects and rects[0].get("rx")
    back = _backs(root)[0]
    assert list(back.iter(SVG_NS + "rect")) and not list(back.iter(SVG_NS + "text"))


def test_observer_is_validated():
    state = threes.Game(3).new_initial_state(0)
    for bad in (-1, 3, 100):
        with pytest.raises(ValueError):
            render(state, observer=bad)
    for bad in (True, False, 1.0, "1", [0]):
        with pytest.raises(TypeError):
            render(state, observer=bad)
    with pytest.raises(TypeError):
        render("not a state")
    assert render(state, observer=2) != render(state)


def test_size_scales_the_width():
    state = _states("threes", 3, {}, seed=2)[3]
    natural = _parse(render(state))
    vb = natural.get("viewBox").split()
    assert vb[:2] == ["0", "0"]
    assert float(natural.get("width")) == float(vb[2]) and float(natural.get("height")) == float(vb[3])
    for size in (300, 1000, 512.5):
        root = _parse(render(state, size=size))
        assert float(root.get("width")) == size
        assert root.get("viewBox") == natural.get("viewBox")
        assert float(root.get("height")) == pytest.approx(size * float(vb[3]) / float(vb[2]), abs=1e-3)
    for bad in (0, -5, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            render(state, size=bad)
    for bad in (True, "300"):
        with pytest.raises(TypeError):
            render(state, size=bad)


def test_standalone_and_deterministic():
    for state in _states("dutch", 4, {}, seed=3, count=5):
        svg = render(state)
        root = _parse(svg)
        assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
        for attr in ("width", "height", "viewBox"):
            assert root.get(attr)
        assert "href" not in svg and "url(" not in svg and "<image" not in svg and "<script" not in svg
        assert render(state) == svg
        assert render(state.clone()) == svg
        assert render(threes.State.from_dict(state.to_dict())) == svg
        for p in range(4):
            assert render(state, observer=p) == render(state.clone(), observer=p)


def test_text_is_escaped():
    from threes.svg import _esc, _text

    assert _esc('<a & "b" \'c\'>') == "&lt;a &amp; &quot;b&quot; &#39;c&#39;&gt;"
    el = ET.fromstring(_text(1, 2, 'x < y & "z"', cls='a"b'))
    assert el.text == 'x < y & "z"' and el.get("class") == 'a"b'
    # The rules name, the only free-form text of a state, goes through _esc.
    svg = render(threes.Game(2, threes.Rules.preset("threes", run_to_burn=3)).new_initial_state(0))
    root = _parse(svg)
    assert "custom rules" in " ".join(t.text for t in root.iter(SVG_NS + "text"))
    assert not re.search(r"&(?!amp;|lt;|gt;|quot;|#39;)", svg)


def test_repr_svg():
    state = _states("threes", 3, {}, seed=8)[2]
    if hasattr(state, "_repr_svg_"):
        assert state._repr_svg_() == render(state)
    else:
        assert render(state).startswith("<svg")
    _parse(render(state))
