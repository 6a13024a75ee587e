"""Imperfect information: observations, information states, the observation
tensor, resampling the hidden cards (resample_from_infostate) and rollouts
from one seat's point of view (RULES.md section 2, observation.h,
determinize.h).

What seat p may see: its own hand, every face-up card, the pile, the burned
cards, the size of every zone, which face-down slots are full, the publicly
known cards of every hand, the finishing order, the phase and whose turn it
is. Hidden from p: the other hands' unknown cards, every face-down card (its
own included) and the draw pile.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

import threes
from threes import PRESETS, TERMINAL_PLAYER_ID, Card, Game, Rules, State
from threes.cards import _TEXT
from threes.shithead.observation import observation_tensor_layout

R = len(threes.RANKS)  # 14 ranks: 2 .. A and the joker
PHASES = ("swap", "play", "over")

# Every preset at 2..5 players; 6 players where the preset seats them (classic
# and dutch only with two cards per zone, as in test_random_sim.py).
CONFIGS = [(preset, n, {}) for preset in PRESETS for n in (2, 3, 4, 5)]
CONFIGS += [("threes", 6, {}), ("classic", 6, {"cards_per_zone": 2}), ("dutch", 6, {"cards_per_zone": 2})]


# ---------------------------------------------------------------- helpers --


def make_game(preset, n, overrides=None, **kw):
    rules = Rules.preset(preset, **overrides) if overrides else preset
    return Game(n, rules, **kw)


from test_api import random_game  # noqa: E402  (every state of one random game)


def pick_positions(states):
    """A spread of positions of one game: the deal, mid-swap, the start of
    the play phase, early, mid and late game, the last move and the end."""
    first_play = next((i for i, s in enumerate(states) if s.phase.value != "swap"), len(states) - 1)
    last = len(states) - 1
    span = last - first_play
    idx = {0, 1, first_play, first_play + span // 4, first_play + span // 2, first_play + 3 * span // 4,
           max(first_play, last - 1), last}
    return [states[i] for i in sorted(idx)]


def zone_counter(state):
    cards = []
    for q in range(state.num_players()):
        cards += state.hand(q) + state.face_up(q) + [c for c in state.face_down(q) if c is not None]
    cards += state.pile() + state.draw_pile() + state.burned()
    return Counter(str(c) for c in cards)


def cards_left(state, q):
    return state.hand_size(q) + len(state.face_up(q)) + sum(c is not None for c in state.face_down(q))


def hidden_places(state, p):
    """(number of cards hidden from p, number of single places: face-down slots
    and draw-pile positions) -- computed from the accessors."""
    n = state.num_players()
    hidden = len(state.draw_pile())
    singles = len(state.draw_pile())
    for q in range(n):
        fd = sum(c is not None for c in state.face_down(q))
        hidden += fd
        singles += fd
        if q != p:
            hidden += state.hand_size(q) - len(state.known_cards(q))
    return hidden, singles


def hidden_kinds(state, p):
    """The multiset of the cards hidden from p."""
    n = state.num_players()
    out = Counter(str(c) for c in state.draw_pile())
    for q in range(n):
        out.update(str(c) for c in state.face_down(q) if c is not None)
        if q != p:
            out.update(Counter(str(c) for c in state.hand(q)) - Counter(str(c) for c in state.known_cards(q)))
    return out


def everything_p_sees(state, p):
    """Every accessor value seat p may see, with absolute seats."""
    n = state.num_players()
    return {
        "phase": state.phase.value,
        "current": state.current_player(),
        "move": state.move_number(),
        "truncated": state.is_truncated(),
        "history": state.history(),
        "finish": state.finish_order(),
        "own_hand": [str(c) for c in state.hand(p)],
        "known": [sorted(str(c) for c in state.known_cards(q)) for q in range(n)],
        "face_up": [[str(c) for c in state.face_up(q)] for q in range(n)],
        "hand_sizes": [state.hand_size(q) for q in range(n)],
        "down_slots": [[c is not None for c in state.face_down(q)] for q in range(n)],
        "pile": [str(c) for c in state.pile()],
        "burned": sorted(str(c) for c in state.burned()),
        "draw_size": len(state.draw_pile()),
        "top": state.effective_top(),
        "run": state.top_run(),
        "rules": state.rules,
        "dealer": state.dealer,
        "max_moves": state.max_game_length(),
    }


def chi_square(counts, probs, total):
    """Pearson's statistic of observed counts against expected probabilities
    (every category of probs; counts outside probs make the test fail)."""
    assert set(counts) <= set(probs), f"outcomes outside the expected set: {set(counts) - set(probs)}"
    return sum((counts.get(k, 0) - total * q) ** 2 / (total * q) for k, q in probs.items())


# Critical values of the chi-square distribution at p = 0.001.
CHI2_999 = {23: 49.728, 40: 73.402}


@pytest.fixture(scope="module")
def positions():
    """(config name, state) for a spread of positions of random games of every
    config, plus a game truncated at a small move cap."""
    out = []
    for preset, n, overrides in CONFIGS:
        game = make_game(preset, n, overrides)
        for seed in (101, 202):
            for s in pick_positions(random_game(game, seed + n)):
                out.append((f"{preset}-{n}p", s))
    for seed in (5, 6):
        game = make_game("threes", 4, max_moves=60)
        final = random_game(game, seed)[-1]
        assert final.is_truncated()
        out.append(("threes-4p-truncated", final))
    return out


@pytest.fixture(scope="module")
def play_with_known():
    """A 3-player threes position in the play phase in which seat 1 holds
    both publicly known and unknown cards, the draw pile has cards and every
    seat still has face-down cards; seat 0 is to move or not, whatever comes."""
    game = Game(3, "threes")
    for seed in range(500):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            if state.phase.value != "play":
                continue
            known = state.known_cards(1)
            unknown = Counter(map(str, state.hand(1))) - Counter(map(str, known))
            if (known and unknown and len(state.draw_pile()) >= 4
                    and all(sum(c is not None for c in state.face_down(q)) >= 2 for q in range(3))
                    and len(Counter(map(str, state.hand(0))) - Counter(map(str, state.known_cards(0)))) >= 1
                    and state.face_up(2) and state.pile()):
                return state
    raise AssertionError("no suitable position found")


# ------------------------------------------------------ 1. observation content --


def check_observation(s, p):
    d = s.to_dict()
    n = d["num_players"]
    obs = s.observation(p)
    assert isinstance(obs, threes.Observation)
    assert obs.observer == p and obs.num_players == n
    assert obs.phase == d["phase"] == s.phase.value
    if d["phase"] == "over":
        assert obs.to_move is None
        assert s.current_player() == TERMINAL_PLAYER_ID
    else:
        cp = d["current_player"]
        assert obs.to_move == (cp - p) % n
        assert obs.seat(obs.to_move) == cp
    assert obs.move_number == d["move_count"] == s.move_number()
    assert obs.hand == tuple(s.hand(p))
    assert Counter(map(str, obs.hand)) == Counter(d["hands"][p])
    for j in range(n):
        q = (p + j) % n
        assert obs.seat(j) == q
        assert obs.face_up[j] == tuple(s.face_up(q))
        assert Counter(map(str, obs.face_up[j])) == Counter(d["face_up"][q])
        assert Counter(map(str, obs.known_in_hand[j])) == Counter(map(str, s.known_cards(q))) == Counter(d["known"][q])
        assert not Counter(map(str, obs.known_in_hand[j])) - Counter(map(str, s.hand(q)))
        assert obs.hand_sizes[j] == s.hand_size(q) == len(d["hands"][q])
        assert obs.face_down_slots[j] == tuple(k for k, c in enumerate(d["face_down"][q]) if c is not None)
        assert obs.face_down_slots[j] == tuple(k for k, c in enumerate(s.face_down(q)) if c is not None)
    assert obs.draw_pile_size == len(d["draw_pile"]) == s.draw_pile_size()
    assert [str(c) for c in obs.pile] == d["pile"]
    assert Counter(map(str, obs.burned)) == Counter(d["burned"])
    assert obs.effective_top == s.effective_top()
    assert obs.top_run == s.top_run()
    assert obs.finish_order == tuple((q - p) % n for q in d["finish_order"])
    assert [obs.seat(j) for j in obs.finish_order] == s.finish_order()
    # the texts
    text = s.observation_string(p)
    assert text == str(obs)
    info = s.information_state_string(p)
    assert info.startswith(text + "\n")
    assert info.endswith("history: " + " ".join(map(str, s.history())))
    # deterministic and a value: the same state gives an equal observation
    assert s.observation(p) == obs and hash(s.observation(p)) == hash(obs)
    return obs


def test_observation_matches_accessors(positions):
    phases = Counter()
    seen_known = seen_finish = 0
    for _, s in positions:
        for p in range(s.num_players()):
            obs = check_observation(s, p)
            seen_known += any(obs.known_in_hand)
            seen_finish += bool(obs.finish_order)
        phases[s.phase.value] += 1
    # the positions cover every phase, known cards and players out
    assert phases["swap"] and phases["play"] and phases["over"]
    assert seen_known and seen_finish


def test_observation_seats_are_relative():
    s = random_game(Game(4, "classic"), 3)[12]
    n = s.num_players()
    assert s.phase.value == "play" and all(s.hand(q) for q in range(n))
    base = s.observation(0)
    for p in range(n):
        obs = s.observation(p)
        for j in range(n):
            k = (p + j) % n  # the same absolute seat, relative to seat 0
            assert obs.face_up[j] == base.face_up[k]
            assert obs.hand_sizes[j] == base.hand_sizes[k]
            assert obs.face_down_slots[j] == base.face_down_slots[k]
            assert obs.known_in_hand[j] == base.known_in_hand[k]
        assert obs.hand_sizes[0] == s.hand_size(p)
        if s.current_player() >= 0:
            assert obs.to_move == (s.current_player() - p) % n
    # the observer's own hand is not the others'
    hands = {tuple(map(str, s.observation(p).hand)) for p in range(n)}
    assert len(hands) == n


def test_observation_of_finished_game_orders_relative_seats():
    s = random_game(Game(5, "dutch"), 17)[-1]
    assert s.is_terminal() and not s.is_truncated()
    fin = s.finish_order()
    assert len(fin) == 5
    for p in range(5):
        obs = s.observation(p)
        assert obs.to_move is None and obs.phase == "over"
        assert obs.finish_order == tuple((q - p) % 5 for q in fin)
        assert "to move: -" in s.observation_string(p)


@pytest.mark.parametrize("bad, exc", [(-1, ValueError), (4, ValueError), (99, ValueError), ("0", TypeError),
                                      (True, TypeError), (1.0, TypeError), (None, TypeError)])
def test_observation_bad_player(bad, exc):
    s = Game(4, "threes").new_initial_state(1)
    before = s.to_dict()
    for f in (s.observation, s.observation_string, s.information_state_string):
        with pytest.raises(exc):
            f(bad)
    assert s.to_dict() == before


# --------------------------------------------------------- 2. nothing leaks --


def assert_same_view(a, b, p):
    assert a.observation(p) == b.observation(p)
    assert a.observation_string(p) == b.observation_string(p)
    assert a.information_state_string(p) == b.information_state_string(p)
    ta, tb = a.observation_tensor(p), b.observation_tensor(p)
    assert np.array_equal(ta, tb)


def test_resample_keeps_every_view_of_the_observer(positions):
    changed = 0
    for _, s in positions:
        for p in range(s.num_players()):
            for seed in (1, 2, 3):
                t = s.resample_from_infostate(p, seed)
                assert_same_view(s, t, p)
                changed += t != s
    assert changed > 100  # the resampled states do differ from the originals


def _swap_in_dict(d, a, b):
    """Swaps the cards at two places of a state dict; a place is a tuple
    ("hands", seat, card text) (one copy of that card), ("face_down", seat,
    slot), ("face_up", seat, index), ("draw_pile", index) or ("pile", index)."""

    def get(place):
        if place[0] == "hands":
            return place[2]
        if place[0] in ("face_down", "face_up"):
            return d[place[0]][place[1]][place[2]]
        return d[place[0]][place[1]]

    def put(place, card):
        if place[0] == "hands":
            h = d["hands"][place[1]]
            h[h.index(place[2])] = card
        elif place[0] in ("face_down", "face_up"):
            d[place[0]][place[1]][place[2]] = card
        else:
            d[place[0]][place[1]] = card

    ca, cb = get(a), get(b)
    assert ca is not None and cb is not None and ca != cb
    put(a, cb)
    put(b, ca)
    return State.from_dict(d)


def _unknown(state, q):
    return sorted((Counter(map(str, state.hand(q))) - Counter(map(str, state.known_cards(q)))).elements())


def test_hand_built_hidden_changes_are_invisible(play_with_known):
    s = play_with_known
    n = s.num_players()
    p = 0
    d0 = s.to_dict()
    draw = d0["draw_pile"]
    # (a) an unknown card of seat 1's hand <-> a draw-pile card of another rank
    x = next(c for c in _unknown(s, 1) if c not in d0["known"][1])
    i = next(i for i, c in enumerate(draw) if Card(c).rank != Card(x).rank)
    t = _swap_in_dict(s.to_dict(), ("hands", 1, x), ("draw_pile", i))
    assert t != s and Counter(map(str, t.hand(1))) != Counter(map(str, s.hand(1)))
    assert [str(c) for c in t.known_cards(1)] == [str(c) for c in s.known_cards(1)]
    for q in (0, 2):  # neither seat 0 nor seat 2 sees seat 1's unknown cards or the draw pile
        assert_same_view(s, t, q)
    assert s.information_state_string(1) != t.information_state_string(1)  # seat 1 sees its own hand
    assert not np.array_equal(s.observation_tensor(1), t.observation_tensor(1))

    # (b) the observer's own face-down card <-> another seat's face-down card
    k0 = next(k for k, c in enumerate(d0["face_down"][0]) if c is not None)
    k2 = next(k for k, c in enumerate(d0["face_down"][2]) if c is not None and c != d0["face_down"][0][k0])
    t = _swap_in_dict(s.to_dict(), ("face_down", 0, k0), ("face_down", 2, k2))
    assert t != s
    for q in range(n):  # nobody sees a face-down card, not even its owner
        assert_same_view(s, t, q)

    # (c) an unknown card of seat 1's hand <-> a face-down card of seat 0
    k = next(k for k, c in enumerate(d0["face_down"][0]) if c is not None and c != x)
    t = _swap_in_dict(s.to_dict(), ("hands", 1, x), ("face_down", 0, k))
    assert t != s
    for q in (0, 2):
        assert_same_view(s, t, q)

    # (d) the next card drawn <-> another draw-pile card (the order of the draw pile)
    j = next(j for j, c in enumerate(draw) if c != draw[-1])
    t = _swap_in_dict(s.to_dict(), ("draw_pile", len(draw) - 1), ("draw_pile", j))
    assert t != s
    for q in range(n):
        assert_same_view(s, t, q)


def test_visible_changes_change_the_information_state(play_with_known):
    s = play_with_known
    n = s.num_players()
    p = 0
    d0 = s.to_dict()
    draw = d0["draw_pile"]
    info = s.information_state_string(p)
    tensor = s.observation_tensor(p)

    # p's own (unknown) hand card <-> a draw-pile card of another rank: p sees it, seat 1 does not
    x = next(c for c in _unknown(s, 0) if c not in d0["known"][0])
    i = next(i for i, c in enumerate(draw) if Card(c).rank != Card(x).rank)
    t = _swap_in_dict(s.to_dict(), ("hands", 0, x), ("draw_pile", i))
    assert t.information_state_string(p) != info
    assert t.observation(p) != s.observation(p)
    assert not np.array_equal(t.observation_tensor(p), tensor)
    assert_same_view(s, t, 1)

    # a face-up card of seat 2 <-> a draw-pile card of another rank: every seat sees it
    up = d0["face_up"][2][0]
    i = next(i for i, c in enumerate(draw) if Card(c).rank != Card(up).rank)
    t = _swap_in_dict(s.to_dict(), ("face_up", 2, 0), ("draw_pile", i))
    for q in range(n):
        assert t.information_state_string(q) != s.information_state_string(q)
        assert not np.array_equal(t.observation_tensor(q), s.observation_tensor(q))

    # a known card of seat 1 that nobody is told about any more
    d = s.to_dict()
    d["known"][1] = d["known"][1][1:]
    t = State.from_dict(d)
    t._check()  # a valid state
    assert t.information_state_string(p) != info
    assert not np.array_equal(t.observation_tensor(p), tensor)

    # the history: the same position reached by other (public) moves
    d = s.to_dict()
    a = d["history"][-1]
    d["history"][-1] = (a + 1) % s.num_distinct_actions()
    t = State.from_dict(d)
    assert t == s  # == compares positions, history aside
    assert t.observation_string(p) == s.observation_string(p)
    assert np.array_equal(t.observation_tensor(p), tensor)
    assert t.information_state_string(p) != info

    # the pile's order is public (bottom first in the observation)
    d = s.to_dict()
    if len(d["pile"]) >= 2 and d["pile"][0] != d["pile"][-1]:
        d["pile"][0], d["pile"][-1] = d["pile"][-1], d["pile"][0]
        try:
            t = State.from_dict(d)
        except ValueError:
            t = None  # the reordered pile may be impossible under the rules
        if t is not None:
            assert t.information_state_string(p) != info


# ---------------------------------------------------- 3. observation tensor --


def expected_tensor(s, p):
    n = s.num_players()
    layout = observation_tensor_layout(n)
    out = np.zeros(sum(size for _, size in layout.values()), dtype=np.float32)

    def block(name):
        off, size = layout[name]
        return out[off:off + size]

    for c in s.hand(p):
        block("own_hand")[c.rank_index] += 1
    finish = s.finish_order()
    for j in range(n):
        q = (p + j) % n
        for c in s.face_up(q):
            block("face_up")[j * R + c.rank_index] += 1
        for c in s.known_cards(q):
            block("known_in_hand")[j * R + c.rank_index] += 1
        seat = block("seat_sizes")[3 * j:3 * j + 3]
        seat[0] = len(s.hand(q))
        seat[1] = sum(c is not None for c in s.face_down(q))
        seat[2] = 1.0 if (q in finish and cards_left(s, q) == 0) else 0.0
    for c in s.pile():
        block("pile")[c.rank_index] += 1
    top = s.effective_top()
    block("effective_top")[R if top is None else threes.RANKS.index(top)] = 1
    run_rank, run_len = s.top_run()
    block("run_rank")[R if run_rank is None else threes.RANKS.index(run_rank)] = 1
    block("pile_sizes")[:] = [run_len, len(s.pile())]
    for c in s.burned():
        block("burned")[c.rank_index] += 1
    block("draw_pile")[0] = len(s.draw_pile())
    if not s.is_terminal():
        block("to_move")[(s.current_player() - p) % n] = 1
    block("phase")[PHASES.index(s.phase.value)] = 1
    return out


@pytest.mark.parametrize("n", range(2, 13))
def test_tensor_layout(n):
    layout = observation_tensor_layout(n)
    sizes = {"own_hand": R, "face_up": n * R, "known_in_hand": n * R, "seat_sizes": 3 * n, "pile": R,
             "effective_top": R + 1, "run_rank": R + 1, "pile_sizes": 2, "burned": R, "draw_pile": 1,
             "to_move": n, "phase": 3}
    assert list(layout) == list(sizes)  # the order of observation.h
    off = 0
    for name, (o, size) in layout.items():
        assert o == off and size == sizes[name], name
        off += size
    assert off == 78 + 32 * n
    if n <= 6:
        s = Game(n, "threes").new_initial_state(n)
        assert s.observation_tensor_shape() == [off]
        assert s.observation_tensor(0).shape == (off,)


def test_tensor_values(positions):
    over_seen = out_flags = shithead_seen = 0
    for _, s in positions:
        n = s.num_players()
        shape = s.observation_tensor_shape()
        assert shape == [sum(size for _, size in observation_tensor_layout(n).values())]
        for p in range(n):
            t = s.observation_tensor(p)
            assert t.dtype == np.float32 and list(t.shape) == shape
            exp = expected_tensor(s, p)
            if not np.array_equal(t, exp):
                layout = observation_tensor_layout(n)
                bad = [name for name, (o, z) in layout.items() if not np.array_equal(t[o:o + z], exp[o:o + z])]
                raise AssertionError(f"{s!r} observer {p}: blocks {bad} differ")
            # and the tensor is a fresh array each time
            t[:] = -1
            assert np.array_equal(s.observation_tensor(p), exp)
        if s.is_terminal():
            over_seen += 1
            off, _ = observation_tensor_layout(n)["seat_sizes"]
            flags = s.observation_tensor(0)[off + 2:off + 3 * n:3]
            out_flags += int(flags.sum())
            if not s.is_truncated():
                shithead_seen += 1
                assert flags.sum() == n - 1  # the shithead is not out
                assert flags[s.finish_order()[-1]] == 0
    assert over_seen and out_flags and shithead_seen


def test_tensor_blocks_by_hand():
    """A hand-built position with known values in every block."""
    d = {
        "rules": "classic", "num_players": 3, "phase": "play", "current_player": 2,
        "hands": [["4c", "4d", "9h"], ["Kc", "Kd", "8c", "2s"], ["Jc", "Jd", "Js"]],
        "known": [[], ["Kc"], []],
        "face_up": [["Qc"], ["Ac", "As"], ["5h"]],
        "face_down": [["6c", None, "6d"], [None, None, "7c"], [None, "3s", None]],
        "pile": ["5c", "9c", "9d"], "draw_pile": ["5d", "Jh"],
        "finish_order": [],
    }
    used = Counter(sum(d["hands"], []) + sum(d["face_up"], []) + [c for f in d["face_down"] for c in f if c]
                   + d["pile"] + d["draw_pile"])
    d["burned"] = [t for t in _TEXT[:52] if t not in used]
    s = State.from_dict(d)
    n = 3
    L = observation_tensor_layout(n)

    def block(t, name):
        o, z = L[name]
        return t[o:o + z]

    ri = threes.RANKS.index
    t = s.observation_tensor(1)  # observer seat 1: relative 0 = seat 1, 1 = seat 2, 2 = seat 0
    assert block(t, "own_hand")[ri("K")] == 2 and block(t, "own_hand")[ri("8")] == 1
    assert block(t, "own_hand")[ri("2")] == 1 and block(t, "own_hand").sum() == 4
    fu = block(t, "face_up").reshape(n, R)
    assert fu[0, ri("A")] == 2 and fu[1, ri("5")] == 1 and fu[2, ri("Q")] == 1 and fu.sum() == 4
    kn = block(t, "known_in_hand").reshape(n, R)
    assert kn[0, ri("K")] == 1 and kn.sum() == 1
    seats = block(t, "seat_sizes").reshape(n, 3)
    assert seats.tolist() == [[4, 1, 0], [3, 1, 0], [3, 2, 0]]
    assert block(t, "pile")[ri("9")] == 2 and block(t, "pile")[ri("5")] == 1 and block(t, "pile").sum() == 3
    assert block(t, "effective_top").sum() == 1
    top = s.effective_top()
    assert block(t, "effective_top")[R if top is None else ri(top)] == 1
    assert block(t, "run_rank")[ri("9")] == 1 and block(t, "run_rank").sum() == 1
    assert block(t, "pile_sizes").tolist() == [2, 3]
    assert block(t, "burned").sum() == len(d["burned"]) and block(t, "burned")[ri("T")] == 4
    assert block(t, "draw_pile").tolist() == [2]
    assert block(t, "to_move").tolist() == [0, 1, 0]  # seat 2 is relative seat 1 of seat 1
    assert block(t, "phase").tolist() == [0, 1, 0]
    assert np.array_equal(t, expected_tensor(s, 1))
    t0 = s.observation_tensor(0)
    assert block(t0, "to_move").tolist() == [0, 0, 1]
    assert block(t0, "own_hand")[ri("4")] == 2


@pytest.mark.parametrize("bad, exc", [(-1, ValueError), (3, ValueError), (1000, ValueError), ("0", TypeError),
                                      (True, TypeError), (None, TypeError), (0.0, TypeError)])
def test_tensor_bad_player(bad, exc):
    s = Game(3, "dutch").new_initial_state(2)
    before = s.to_dict()
    with pytest.raises(exc):
        s.observation_tensor(bad)
    assert s.to_dict() == before


# ------------------------------------------------ 4. resample_from_infostate --


def check_resample(s, p, t):
    n = s.num_players()
    t._check()  # the engine's invariants
    assert State.from_dict(t.to_dict()) == t
    assert zone_counter(t) == zone_counter(s)  # card conservation
    assert everything_p_sees(t, p) == everything_p_sees(s, p)
    for q in range(n):
        assert not Counter(map(str, t.known_cards(q))) - Counter(map(str, t.hand(q)))  # known cards stay
        assert Counter(map(str, t.known_cards(q))) == Counter(map(str, s.known_cards(q)))
        assert [c is None for c in t.face_down(q)] == [c is None for c in s.face_down(q)]
    assert hidden_kinds(t, p) == hidden_kinds(s, p)
    assert t.draw_pile_size() == s.draw_pile_size()
    # the legal actions are the mover's: unchanged when the observer moves (or nobody does)
    if s.is_terminal() or s.current_player() == p:
        assert t.legal_actions() == s.legal_actions()
        return True
    return False


def test_resample_properties(positions):
    multi = legal_checked = 0
    for name, s in positions:
        n = s.num_players()
        before = s.to_dict()
        key = s.fingerprint()
        for p in range(n):
            ts = [s.resample_from_infostate(p, seed) for seed in range(4)]
            for t in ts:
                legal_checked += check_resample(s, p, t)
            # the same seed, the same state
            again = s.resample_from_infostate(p, 2)
            assert again == ts[2] and again.to_dict() == ts[2].to_dict()
            hidden, singles = hidden_places(s, p)
            assert hidden == sum(hidden_kinds(s, p).values())
            if hidden >= 6 and singles >= 2 and len(hidden_kinds(s, p)) >= 3:
                multi += 1
                assert len({t.fingerprint() for t in ts}) >= 2, (name, p)
        assert s.to_dict() == before and s.fingerprint() == key  # the original is unchanged
    assert multi > 50 and legal_checked > 200


def test_resample_every_config_at_six_players():
    for preset, n, overrides in CONFIGS:
        if n != 6:
            continue
        game = make_game(preset, n, overrides)
        s = random_game(game, 9)[12]
        for p in range(n):
            t = s.resample_from_infostate(p, p + 1)
            check_resample(s, p, t)


def test_resample_hides_only_what_is_hidden(play_with_known):
    """Over many seeds the hidden places take many cards; the observer's hand,
    the face-up cards and the known cards never move."""
    s = play_with_known
    p = 0
    seen_draw_top = set()
    seen_down = set()
    for seed in range(200):
        t = s.resample_from_infostate(p, seed)
        assert t.hand(p) == s.hand(p)
        assert [str(c) for c in t.known_cards(1)] == [str(c) for c in s.known_cards(1)]
        seen_draw_top.add(str(t.draw_pile()[-1]))
        seen_down.add(str(t.face_down(0)[next(k for k, c in enumerate(s.face_down(0)) if c is not None)]))
    # the observer's own face-down cards are resampled too, from the hidden cards only
    assert len(seen_down) > 10 and len(seen_draw_top) > 10
    hidden = set(hidden_kinds(s, p))
    assert seen_down <= hidden and seen_draw_top <= hidden


def test_resample_seed_handling():
    s = random_game(Game(4, "threes"), 4)[30]
    assert s.resample_from_infostate(1, -1) == s.resample_from_infostate(1, 2**64 - 1)
    assert s.resample_from_infostate(1, 2**64 + 5) == s.resample_from_infostate(1, 5)
    assert s.resample_from_infostate(1, np.int64(7)) == s.resample_from_infostate(1, 7)
    check_resample(s, 1, s.resample_from_infostate(1))  # seed None: some seed
    check_resample(s, 1, s.resample_from_infostate(1, None))


@pytest.mark.parametrize("player, exc", [(-1, ValueError), (4, ValueError), (50, ValueError), ("0", TypeError),
                                         (True, TypeError), (1.0, TypeError), (None, TypeError)])
def test_resample_bad_player(player, exc):
    s = random_game(Game(4, "classic"), 8)[20]
    before = s.to_dict()
    with pytest.raises(exc):
        s.resample_from_infostate(player, 1)
    assert s.to_dict() == before


@pytest.mark.parametrize("seed", ["1", 1.5, True, [1], b"1"])
def test_resample_bad_seed(seed):
    s = random_game(Game(3, "dutch"), 8)[20]
    before = s.to_dict()
    with pytest.raises(TypeError):
        s.resample_from_infostate(0, seed)
    assert s.to_dict() == before


def test_resample_with_nothing_hidden():
    """A finished 2-player game with no draw pile and no face-down card: only
    the loser's hand is hidden from the winner, and a single hand of unknown
    cards has one arrangement only."""
    s = None
    for seed in range(200):
        final = random_game(Game(2, "classic"), seed)[-1]
        if not final.is_truncated() and not final.draw_pile() and not any(
                c is not None for q in range(2) for c in final.face_down(q)):
            s = final
            break
    assert s is not None
    for p in range(2):
        for seed in range(5):
            t = s.resample_from_infostate(p, seed)
            check_resample(s, p, t)
            assert t == s


# ------------------------------------------------------------ 5. canonical --


def test_resample_is_canonical(positions):
    for _, s in positions[::3]:
        for p in range(s.num_players()):
            u = s.resample_from_infostate(p, 1)
            for seed in (2, 3, 77):
                a, b = s.resample_from_infostate(p, seed), u.resample_from_infostate(p, seed)
                assert a == b
                assert a.to_dict() == b.to_dict()


def test_resample_is_canonical_for_hand_built_twins(play_with_known):
    s = play_with_known
    d0 = s.to_dict()
    x = next(c for c in _unknown(s, 1) if c not in d0["known"][1])
    i = next(i for i, c in enumerate(d0["draw_pile"]) if Card(c).rank != Card(x).rank)
    twin = _swap_in_dict(s.to_dict(), ("hands", 1, x), ("draw_pile", i))
    k0 = next(k for k, c in enumerate(d0["face_down"][0]) if c is not None)
    k2 = next(k for k, c in enumerate(d0["face_down"][2]) if c is not None and c != d0["face_down"][0][k0])
    twin2 = _swap_in_dict(twin.to_dict(), ("face_down", 0, k0), ("face_down", 2, k2))
    for t in (twin, twin2):
        assert t != s
        for seed in range(5):
            assert s.resample_from_infostate(0, seed) == t.resample_from_infostate(0, seed)
            assert s.resample_from_infostate(2, seed) == t.resample_from_infostate(2, seed)
    # seat 1 can tell twin from s (its own hand), so no promise there; but the
    # face-down swap alone is invisible to seat 1 as well
    for seed in range(5):
        assert twin.resample_from_infostate(1, seed) == twin2.resample_from_infostate(1, seed)


# ----------------------------------------------------------- 6. uniformity --


def _endgame_four_hidden():
    """2-player classic, observer seat 0: four hidden cards of distinct kinds
    in four hidden places -- seat 0's face-down slot 0, seat 1's one unknown
    hand card, seat 1's face-down slot 0, the draw pile's only card."""
    d = {
        "rules": "classic", "num_players": 2, "phase": "play", "current_player": 0,
        "hands": [["4c", "4d", "4h"], ["Kc", "Kd", "8c"]],
        "known": [[], ["Kc", "Kd"]],
        "face_up": [[], ["Qc"]],
        "face_down": [["6c", None, None], ["7c", None, None]],
        "pile": ["3c"], "draw_pile": ["5c"],
    }
    used = set(sum(d["hands"], []) + d["face_up"][1] + ["6c", "7c", "3c", "5c"])
    d["burned"] = [t for t in _TEXT[:52] if t not in used]
    return State.from_dict(d)


def test_resample_uniform_small_case():
    s = _endgame_four_hidden()
    hidden = ("5c", "6c", "7c", "8c")
    assert hidden_kinds(s, 0) == Counter(hidden)
    samples = 6000
    counts = Counter()
    for seed in range(samples):
        t = s.resample_from_infostate(0, seed)
        unknown = _unknown(t, 1)
        assert len(unknown) == 1
        outcome = (str(t.face_down(0)[0]), unknown[0], str(t.face_down(1)[0]), str(t.draw_pile()[0]))
        counts[outcome] += 1
    assert s.to_dict() == _endgame_four_hidden().to_dict()
    perms = {perm: 1 / 24 for perm in itertools.permutations(hidden)}
    assert len(counts) == 24  # every assignment happens
    stat = chi_square(counts, perms, samples)
    assert stat < CHI2_999[23], f"chi-square {stat:.1f} (df 23) over {counts}"

    # power: the same statistic rejects a naive (biased) shuffle of as many samples
    rng = random.Random(12345)
    biased = Counter()
    for _ in range(samples):
        a = list(hidden)
        for i in range(len(a)):
            j = rng.randrange(len(a))
            a[i], a[j] = a[j], a[i]
        biased[tuple(a)] += 1
    assert chi_square(biased, perms, samples) > CHI2_999[23]
    # and accepts a fair one
    rng = random.Random(12345)
    fair = Counter()
    for _ in range(samples):
        a = list(hidden)
        rng.shuffle(a)
        fair[tuple(a)] += 1
    assert chi_square(fair, perms, samples) < CHI2_999[23]


def test_resample_uniform_fresh_deal():
    """A fresh 2-player classic deal seen by seat 0: 43 hidden cards (seat 1's
    hand of 3, six face-down slots, 34 draw-pile cards). One hidden card goes
    to seat 1's hand with probability 3/43 and to each single place with 1/43."""
    s = Game(2, "classic").new_initial_state(2024)
    hidden, singles = hidden_places(s, 0)
    assert (hidden, singles) == (43, 40)
    target = str(min(Card(c) for c in hidden_kinds(s, 0)))
    places = ["hand1"] + [f"down{q}.{k}" for q in range(2) for k in range(3)] + [f"draw{i}" for i in range(34)]
    probs = {pl: (3 if pl == "hand1" else 1) / 43 for pl in places}
    samples = 6000
    counts = Counter()
    for seed in range(samples):
        t = s.resample_from_infostate(0, seed)
        if target in map(str, t.hand(1)):
            counts["hand1"] += 1
            continue
        where = [f"down{q}.{k}" for q in range(2) for k, c in enumerate(t.face_down(q)) if str(c) == target]
        where += [f"draw{i}" for i, c in enumerate(t.draw_pile()) if str(c) == target]
        assert len(where) == 1
        counts[where[0]] += 1
    stat = chi_square(counts, probs, samples)
    assert stat < CHI2_999[40], f"chi-square {stat:.1f} (df 40)"

    # power: Sattolo's algorithm (Fisher-Yates off by one) never leaves a card
    # where it was, and the statistic sees it
    rng = random.Random(99)
    biased = Counter()
    for _ in range(samples):
        a = list(range(43))
        for i in range(42, 0, -1):
            j = rng.randrange(i)
            a[i], a[j] = a[j], a[i]
        pos = a.index(20)
        biased["hand1" if pos < 3 else places[pos - 2]] += 1
    assert chi_square(biased, probs, samples) > CHI2_999[40]


# ------------------------------------------------------ 7. rollouts, observer --


def _rollout_arrays(r):
    return r.places.copy(), r.moves.copy(), r.truncated.copy()


def test_rollouts_with_observer_use_only_what_the_observer_knows():
    cases = [
        random_game(Game(4, "threes"), 21)[30],
        random_game(Game(3, "classic"), 22)[25],
        random_game(Game(2, "dutch"), 23)[10],
        random_game(Game(4, "dutch"), 24)[1],  # swap phase
    ]
    for s in cases:
        n = s.num_players()
        for p in range(n):
            before = s.to_dict()
            t = s.resample_from_infostate(p, 1000 + p)
            a = threes.rollouts(s, 64, observer=p, seed=5, threads=1)
            b = threes.rollouts(t, 64, observer=p, seed=5, threads=2)
            assert s.to_dict() == before  # the state is not changed
            for x, y in zip(_rollout_arrays(a), _rollout_arrays(b)):
                assert np.array_equal(x, y)
            assert a.num_games == 64 and a.num_players == n
            # the same seed again, the same games
            c = threes.rollouts(s, 64, observer=p, seed=5, threads=1)
            assert all(np.array_equal(x, y) for x, y in zip(_rollout_arrays(a), _rollout_arrays(c)))
            # without an observer the hidden cards are used as they are: other games
            plain = threes.rollouts(s, 64, seed=5, threads=1)
            assert not (np.array_equal(plain.places, a.places) and np.array_equal(plain.moves, a.moves))


def test_rollouts_observer_differs_from_true_cards_for_twins(play_with_known):
    """Two states seat 0 cannot tell apart: with observer=0 the rollouts are
    the same; without an observer (using the true cards) they generally are not."""
    s = play_with_known
    d0 = s.to_dict()
    x = next(c for c in _unknown(s, 1) if c not in d0["known"][1])
    i = next(i for i, c in enumerate(d0["draw_pile"]) if Card(c).rank != Card(x).rank)
    twin = _swap_in_dict(s.to_dict(), ("hands", 1, x), ("draw_pile", i))
    a = threes.rollouts(s, 200, observer=0, seed=3, threads=1)
    b = threes.rollouts(twin, 200, observer=0, seed=3, threads=1)
    assert np.array_equal(a.places, b.places) and np.array_equal(a.moves, b.moves)
    c = threes.rollouts(s, 200, seed=3, threads=1)
    e = threes.rollouts(twin, 200, seed=3, threads=1)
    assert not (np.array_equal(c.places, e.places) and np.array_equal(c.moves, e.moves))


def test_rollouts_observer_bad_arguments():
    game = Game(3, "threes")
    s = random_game(game, 31)[10]
    before = s.to_dict()
    for bad in (-1, 3, 12, 255, 256, 1000):
        with pytest.raises(ValueError):
            threes.rollouts(s, 4, observer=bad, seed=1)
    for bad in ("0", True, 1.0):
        with pytest.raises((TypeError, ValueError)):
            threes.rollouts(s, 4, observer=bad, seed=1)
    for obs in (0, 1):
        with pytest.raises(ValueError):
            threes.rollouts(game, 4, observer=obs, seed=1)
    assert s.to_dict() == before
    assert threes.rollouts(game, 4, observer=None, seed=1).num_games == 4
