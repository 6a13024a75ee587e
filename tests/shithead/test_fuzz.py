"""Boundary fuzzing of every way data enters threes (hypothesis).

Entry points: ``State.from_dict`` (mutated real dicts and random JSON),
``State.apply_action`` and the other action-id methods (arbitrary ints and
objects), ``Rules(**params)`` / ``Rules.preset`` / ``Rules.from_dict``,
``State.string_to_action`` (arbitrary and near-valid text), ``Game(...)``,
``threes.shithead.rollouts`` / ``threes.rollout`` and ``pickle.loads`` of mutated
pickles of states.

The property everywhere: an input either works, and then what it produced is
valid (``State._check()`` passes, ``to_dict()`` round-trips, the position can
be played on to the end with every invariant holding), or it raises one of the
documented exceptions (``TypeError``, ``ValueError``, which includes
``threes.IllegalActionError``) and leaves the state it was called on, and the
dict it was given, exactly as they were. For pickles, exceptions raised by the
pickle machinery itself (outside the threes package) are accepted too; any
exception raised from inside threes must still be a documented one.

Every test is derandomized and database-free, so CI sees the same examples on
every run; the whole file runs in well under a minute. For a longer local run
set THREES_FUZZ_SCALE (a multiplier of every example count) and
THREES_FUZZ_RANDOM=1 (fresh examples each run).
"""
from __future__ import annotations

import copy
import decimal
import fractions
import functools
import json
import operator
import os
import pickle
import random
import string
import sys
import traceback

import numpy as np
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import threes
from threes import Card, Game, IllegalActionError, Rules, State
from threes.shithead import _core
from threes.cards import RANKS, SUITS
from threes.shithead.game import _OPTIONAL, _REQUIRED
from threes.shithead.rules import FIELDS

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz"))
from fuzz_support import memory_cap, raised_inside  # noqa: E402

DOCUMENTED = (TypeError, ValueError)  # IllegalActionError is a ValueError
THREES_DIR = os.path.dirname(os.path.abspath(threes.__file__))
CARD_TEXTS = tuple(_core.kind_text(k) for k in range(_core.NUM_KINDS))
ZONE_KEYS = ("hands", "known", "face_up", "face_down", "pile", "draw_pile", "burned")
SEAT_ZONES = ("hands", "known", "face_up", "face_down")


# For a longer local run: THREES_FUZZ_SCALE=20 multiplies every example count,
# THREES_FUZZ_RANDOM=1 draws fresh examples instead of the fixed CI ones.
_SCALE = float(os.environ.get("THREES_FUZZ_SCALE", "1"))
_RANDOM = os.environ.get("THREES_FUZZ_RANDOM", "") not in ("", "0")


def fuzz_settings(n):
    return settings(max_examples=max(1, int(n * _SCALE)), deadline=None, database=None,
                    derandomize=not _RANDOM, print_blob=_RANDOM, suppress_health_check=list(HealthCheck))


# --------------------------------------------------------- the seed states --


def _configs():
    return [
        (Game(4, "threes"), "threes 4p"),
        (Game(2, "classic"), "classic 2p"),
        (Game(3, "dutch", dealer=0), "dutch 3p dealer 0"),
        (Game(5, Rules(jokers=1, cards_per_zone=2, run_to_burn=3)), "custom 5p"),
        (Game(3, Rules.preset("classic", merge_hand_with_face_up=True, pickup_then_play=True,
                              invisible_in_runs="skip")), "classic merge 3p"),
        (Game(2, "threes", max_moves=40), "threes 2p capped"),
        (Game(7, "threes", max_moves=3000, dealer=3), "threes 7p"),
    ]


def _snapshots(game, seed):
    """to_dict() of one random game at its interesting points: the deal, the
    middle of the swap phase, the first play, a random play position, the
    first blind play, the first position with a player out, the end."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    out = {"deal": s.to_dict()}
    target = rng.randrange(20, 200)
    while not s.is_terminal():
        p = s.current_player()
        if s.phase.value == "swap" and s.move_number() == 1:
            out.setdefault("swap", s.to_dict())
        if s.phase.value == "play":
            out.setdefault("play", s.to_dict())
            if s.move_number() >= target:
                out.setdefault("mid", s.to_dict())
            if s.hand_size(p) == 0 and not s.face_up(p) and any(c is not None for c in s.face_down(p)):
                out.setdefault("blind", s.to_dict())
            if s.finish_order():
                out.setdefault("out", s.to_dict())
            if s.pile():
                out.setdefault("pile", s.to_dict())
        s.apply_action(rng.choice(s.legal_actions()))
    out["over"] = s.to_dict()
    return out


@functools.lru_cache(maxsize=None)
def _pool():
    dicts = []
    for game, _name in _configs():
        for seed in range(3):
            dicts += _snapshots(game, seed * 7919 + 11).values()
    # every seed must load: the fuzzing starts from valid positions
    for d in dicts:
        assert State.from_dict(d).to_dict() == d
    return tuple(dicts)


def pool():
    return _pool()


def base_dicts():
    return st.sampled_from(range(len(pool()))).map(lambda i: copy.deepcopy(pool()[i]))


def base_states():
    return st.sampled_from(range(len(pool()))).map(lambda i: State.from_dict(pool()[i]))


# ------------------------------------------------------------ garbage data --

class Indexable:
    """An object with __index__ (accepted as an int by the action methods)."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v

    def __repr__(self):
        return f"Indexable({self.v})"


INTERESTING_INTS = [0, 1, -1, 2, 3, 4, 5, 11, 12, 13, -4, 52, 53, 54, 255, 256, 2**31 - 1, 2**31, -2**31,
                    -2**31 - 1, 2**32, 2**32 + 1, 2**63 - 1, 2**63, 2**64, 2**64 + 1, -2**63, 10**30, -10**30]

ints = st.one_of(st.integers(-20, 300), st.sampled_from(INTERESTING_INTS), st.integers())

scalars = st.one_of(
    st.none(), st.booleans(), ints,
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(CARD_TEXTS), st.sampled_from(["swap", "play", "over", "threes", "classic", "dutch",
                                                 "Ah", "10h", "ah", " Ah ", "Xs", "Zz", "", "threes.State/1"]),
    st.binary(max_size=4),
    st.sampled_from([1.0, 2.0, 0.0, -0.0, 4.0, 1e300, float("nan"), float("inf")]),
)

odd_objects = st.one_of(
    st.builds(object),
    st.sampled_from([np.int64(3), np.int8(-1), np.uint64(2**64 - 1), np.float64(1.0), np.bool_(True),
                     np.int32(0), decimal.Decimal("2"), fractions.Fraction(3, 1), 2 + 0j, (), frozenset(),
                     Card("Ah"), bytearray(b"x"), Ellipsis, NotImplemented, threes.Rules(), int, str]),
    st.builds(Indexable, ints),
    st.sets(st.integers(0, 5), max_size=3),
    st.tuples(scalars, scalars),
)

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), ints, st.floats(allow_nan=False), st.text(max_size=5),
              st.sampled_from(CARD_TEXTS)),
    lambda children: st.one_of(st.lists(children, max_size=5),
                               st.dictionaries(st.text(max_size=6), children, max_size=4)),
    max_leaves=12,
)

garbage = st.one_of(
    scalars, odd_objects,
    st.lists(scalars, max_size=4),
    st.dictionaries(st.one_of(st.text(max_size=5), ints, st.none()), scalars, max_size=3),
    json_values,
)

card_texts = st.one_of(
    st.sampled_from(CARD_TEXTS),
    st.sampled_from(CARD_TEXTS).map(str.lower),
    st.sampled_from(CARD_TEXTS).map(lambda t: t.replace("T", "10")),
    st.sampled_from(CARD_TEXTS).map(lambda t: " " + t + "\t"),
    st.sampled_from(["Xs", "Xx", "Zz", "", " ", "A", "Ahh", "10", "1h", "0c", "joker", "AH", "XR", "Xb",
                     "\u212ah", "A\u0127", "Ah\x00", "Tt", "11h"]),
    st.text(max_size=4),
)


# ----------------------------------------------------------------- checks --


def assert_valid(s, seed=0, deep=True):
    """A state that threes accepted must be valid in every way we can see."""
    assert isinstance(s, State)
    s._check()
    d = s.to_dict()
    assert json.loads(json.dumps(d)) == d, "to_dict() is not JSON-able"
    s2 = State.from_dict(d)
    s2._check()
    assert s2.to_dict() == d, "to_dict() does not round-trip"
    assert s2 == s
    assert pickle.loads(pickle.dumps(s)).to_dict() == d
    assert s.clone().to_dict() == d
    n = s.num_players()
    nda = s.num_distinct_actions()
    legal = s.legal_actions()
    assert legal == sorted(set(legal)) and all(0 <= a < nda for a in legal)
    assert int(s.legal_actions_mask().sum()) == len(legal)
    assert len(s.returns()) == n
    if s.is_terminal():
        assert legal == [] and s.current_player() == threes.TERMINAL_PLAYER_ID
        if not s.is_truncated():
            assert sorted(s.finish_order()) == list(range(n))
            assert abs(sum(s.returns())) < 1e-9
    else:
        assert legal, "a live position without a legal action"
        cp = s.current_player()
        assert 0 <= cp < n and cp not in s.finish_order()
        assert s.move_number() < s.max_game_length()
    for a in legal:
        assert s.is_legal(a)
        text = s.action_to_string(a)
        assert s.string_to_action(text) == a, (a, text)
        assert s.encode_move(s.decode_action(a)) == a
    str(s)
    repr(s)
    assert s.to_dict() == d, "a query changed the state"
    if not deep:
        return
    # play on with random legal actions, checking every invariant
    rng = random.Random(seed)
    c = s.clone()
    for _ in range(rng.randrange(1, 12)):
        if c.is_terminal():
            break
        c.apply_action(rng.choice(c.legal_actions()))
        c._check()
    # and to the end in C, both engines, every invariant checked after every move
    if not s.is_terminal():
        policy = rng.randrange(_core.NUM_POLICIES)
        fast, full, final = s._rollout_both([policy] * n, seed, True)
        assert fast == full, (fast, full)
        final._check()
        assert final.is_terminal()
    assert s.to_dict() == d


def state_fingerprint(s):
    return s.to_dict(), s.legal_actions(), s.history()


def check_rejection_leaves(s, before, exc):
    after = state_fingerprint(s)
    assert after == before, f"the state changed although the call raised {exc!r}"


def check_from_dict(d, seed=0):
    """from_dict(d) either gives a valid state or raises a documented
    exception; either way d itself is untouched."""
    note(f"the dict: {d!r}")
    before = repr(d)
    try:
        s = State.from_dict(d)
    except DOCUMENTED:
        assert repr(d) == before, "from_dict modified its argument"
        return None
    assert repr(d) == before, "from_dict modified its argument"
    assert_valid(s, seed)
    # The rules of an accepted dict mean what Rules.coerce documents: a
    # preset name, or overrides plus "preset" (Rules.preset(base, **rest)).
    r = d.get("rules", "threes")
    if isinstance(r, dict):
        rest = dict(r)
        base = rest.pop("preset", "threes")
        try:
            direct = Rules.preset(base, **rest)
        except DOCUMENTED as exc:
            raise AssertionError(f"from_dict accepted the rules {r!r}, which Rules.preset(base, **overrides) "
                                 f"rejects: {exc!r}") from None
        assert direct == s.rules
    return s


# ------------------------------------------------------- dict mutations --


def _card_lists(d):
    """Every list in d that holds cards (by zone), as (path, list)."""
    out = []
    if not isinstance(d, dict):
        return out
    for key in ZONE_KEYS:
        v = d.get(key)
        if key in SEAT_ZONES:
            if isinstance(v, list):
                out += [((key, i), z) for i, z in enumerate(v) if isinstance(z, list)]
        elif isinstance(v, list):
            out.append(((key,), v))
    return out


def _all_paths(x, path=()):
    yield path
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _all_paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _all_paths(v, path + (i,))


def _get(x, path):
    for k in path:
        x = x[k]
    return x


def _seat_value(draw, d):
    n = d.get("num_players") if isinstance(d.get("num_players"), int) else 4
    return draw(st.one_of(st.integers(-2, n + 1), st.sampled_from([-4, -1, 12, 13, 2**31, -2**31 - 1, 2**70]),
                          garbage))


def _mut_card_replace(draw, d):
    lists = [(p, z) for p, z in _card_lists(d) if z]
    if not lists:
        return d
    _, z = draw(st.sampled_from(lists))
    i = draw(st.integers(0, len(z) - 1))
    z[i] = draw(st.one_of(card_texts, st.sampled_from(CARD_TEXTS), garbage))
    return d


def _mut_card_move(draw, d):
    lists = _card_lists(d)
    src = [(p, z) for p, z in lists if any(c is not None for c in z)]
    if not src or not lists:
        return d
    _, a = draw(st.sampled_from(src))
    idx = [i for i, c in enumerate(a) if c is not None]
    i = draw(st.sampled_from(idx))
    card = a[i]
    if draw(st.booleans()) and draw(st.booleans()):
        a[i] = None  # leave an empty slot behind
    else:
        a.pop(i)
    path, b = draw(st.sampled_from(lists))
    holes = [j for j, c in enumerate(b) if c is None]
    if holes and draw(st.booleans()):
        b[draw(st.sampled_from(holes))] = card
    else:
        b.insert(draw(st.integers(0, len(b))), card)
    return d


def _mut_card_duplicate(draw, d):
    lists = _card_lists(d)
    cards = [c for _, z in lists for c in z if c is not None]
    if not cards or not lists:
        return d
    card = draw(st.sampled_from(cards))
    _, b = draw(st.sampled_from(lists))
    b.insert(draw(st.integers(0, len(b))), card)
    return d


def _mut_card_remove(draw, d):
    lists = [(p, z) for p, z in _card_lists(d) if z]
    if not lists:
        return d
    _, z = draw(st.sampled_from(lists))
    z.pop(draw(st.integers(0, len(z) - 1)))
    return d


def _mut_field(draw, d):
    if not isinstance(d, dict):
        return d
    key = draw(st.sampled_from(["num_players", "dealer", "current_player", "move_count", "max_moves", "phase",
                                "truncated", "finish_order", "format", "history", "rules"]))
    if key in ("dealer", "current_player"):
        v = _seat_value(draw, d)
    elif key == "num_players":
        v = draw(st.one_of(st.integers(0, 14), garbage))
    elif key in ("move_count", "max_moves"):
        cur = d.get(key) if isinstance(d.get(key), int) else 0
        v = draw(st.one_of(st.sampled_from([cur - 1, cur + 1, 0, 1, 40, 10_000, _core.MAX_MAX_MOVES,
                                            _core.MAX_MAX_MOVES + 1, 2**32, -1]),
                           st.integers(0, 12_000), garbage))
    elif key == "phase":
        v = draw(st.one_of(st.sampled_from(["swap", "play", "over", "SWAP", " play", "", "Over"]), garbage))
    elif key == "truncated":
        v = draw(st.one_of(st.booleans(), st.sampled_from([0, 1, "true", None, np.bool_(True)]), garbage))
    elif key == "finish_order":
        n = d.get("num_players") if isinstance(d.get("num_players"), int) and 0 < d["num_players"] < 20 else 4
        v = draw(st.one_of(st.permutations(list(range(n))).flatmap(lambda p: st.integers(0, len(p)).map(
            lambda k: p[:k])),
                           st.lists(st.integers(-2, n + 1), max_size=n + 2), st.lists(garbage, max_size=3),
                           garbage))
    elif key == "format":
        v = draw(st.one_of(st.sampled_from(["threes.State/1", "threes.State/2", "", None]), garbage))
    elif key == "history":
        v = draw(st.one_of(st.lists(ints, max_size=5), st.lists(garbage, max_size=3), garbage))
    else:
        v = draw(rules_values_for_state(d))
    d[key] = v
    return d


@st.composite
def _tweaked_rules(draw, cur):
    r = dict(cur) if isinstance(cur, dict) else {}
    for _ in range(draw(st.integers(1, 2))):
        name = draw(rule_names)
        if r and draw(st.booleans()):
            name = draw(st.sampled_from(sorted(map(str, r))))
        op = draw(st.integers(0, 5))
        if op == 0 and name in r:
            del r[name]
        elif op == 1 and name in r:
            r[name] = draw(_retyped(r[name]))
        else:
            r[name] = draw(rule_value(name))
    return r


def _retyped(v):
    """The same value in another type: 2 -> 2.0, 1 -> True, a list -> a tuple or text."""
    options = [st.just(v)]
    if isinstance(v, bool):
        options += [st.just(int(v)), st.just(float(v)), st.just(str(v))]
    elif isinstance(v, int):
        options += [st.just(float(v)), st.just(str(v)), st.just(decimal.Decimal(v))]
        if -2**63 <= v < 2**63:
            options.append(st.just(np.int64(v)))
        if v in (0, 1):
            options.append(st.just(bool(v)))
    elif isinstance(v, list):
        options += [st.just(tuple(v)), st.just(" ".join(map(str, v))), st.just(set(v)),
                    st.just([float(x) if isinstance(x, int) else x for x in v])]
    elif isinstance(v, str):
        options += [st.just(v.upper()), st.just(" " + v), st.just(v.encode()), st.just([v])]
    return st.one_of(options)


def rules_values_for_state(d):
    return st.one_of(
        st.sampled_from(list(threes.PRESETS) + ["THREES", " classic ", "bogus", ""]),
        _tweaked_rules(d.get("rules")),
        st.builds(lambda p, rest: dict(rest, preset=p), st.sampled_from(threes.PRESETS + ("x",)),
                  st.dictionaries(st.sampled_from(FIELDS), st.just(0) | st.just(1), max_size=1)),
        garbage,
    )


def _mut_rules_field(draw, d):
    """Changes one field of the rules dict: its type, its value, or its presence."""
    if not isinstance(d, dict):
        return d
    r = d.get("rules")
    if not isinstance(r, dict):
        d["rules"] = draw(rules_values_for_state(d))
        return d
    name = draw(st.one_of(st.sampled_from(sorted(map(str, r)) or ["decks"]), rule_names))
    op = draw(st.integers(0, 4))
    if op == 0 and name in r:
        del r[name]
    elif op in (1, 2) and name in r:
        r[name] = draw(_retyped(r[name]))
    else:
        r[name] = draw(rule_value(name))
    return d


def _mut_shuffle(draw, d):
    lists = [p for p in _all_paths(d) if isinstance(_get(d, p), list) and len(_get(d, p)) > 1]
    if not lists:
        return d
    z = _get(d, draw(st.sampled_from(lists)))
    perm = draw(st.permutations(list(range(len(z)))))
    z[:] = [z[i] for i in perm]
    return d


def _mut_swap_seats(draw, d):
    key = draw(st.sampled_from(SEAT_ZONES))
    z = d.get(key) if isinstance(d, dict) else None
    if not isinstance(z, list) or len(z) < 2:
        return d
    i, j = draw(st.lists(st.integers(0, len(z) - 1), min_size=2, max_size=2, unique=True))
    z[i], z[j] = z[j], z[i]
    return d


def _mut_generic(draw, d):
    """Anything anywhere: delete, replace by garbage, nest, change type."""
    # a random walk down from the root: every level is as likely as the cards
    path, node = (), d
    while isinstance(node, (dict, list)) and node and draw(st.integers(0, 3)) != 0:
        key = draw(st.sampled_from(sorted(node, key=repr) if isinstance(node, dict) else range(len(node))))
        path, node = path + (key,), node[key]
    op = draw(st.sampled_from(["delete", "garbage", "nest_list", "nest_dict", "tuple", "str", "float",
                               "bool", "append", "add_key"]))
    if not path:
        if op == "add_key" and isinstance(d, dict):
            d[draw(st.one_of(st.sampled_from(_OPTIONAL + _REQUIRED + ("foo", "Hands", "seed")),
                             st.text(max_size=5), ints))] = draw(garbage)
            return d
        return draw(garbage) if op == "garbage" else ([d] if op == "nest_list" else d)
    parent, key = _get(d, path[:-1]), path[-1]
    v = parent[key]
    if op == "delete":
        del parent[key]
    elif op == "garbage":
        parent[key] = draw(garbage)
    elif op == "nest_list":
        parent[key] = [v]
    elif op == "nest_dict":
        parent[key] = {"x": v}
    elif op == "tuple" and isinstance(v, list):
        parent[key] = tuple(v)
    elif op == "str":
        parent[key] = str(v)
    elif op == "float" and isinstance(v, int) and not isinstance(v, bool):
        parent[key] = float(v)
    elif op == "bool" and isinstance(v, int):
        parent[key] = bool(v)
    elif op == "append" and isinstance(v, list):
        v.append(draw(st.one_of(st.none(), card_texts, garbage)))
    elif op == "add_key" and isinstance(v, dict):
        v[draw(st.text(max_size=5))] = draw(garbage)
    else:
        parent[key] = draw(garbage)
    return d


def _mut_known(draw, d):
    if not isinstance(d, dict):
        return d
    hands, known = d.get("hands"), d.get("known")
    if not (isinstance(hands, list) and isinstance(known, list) and hands and len(known) == len(hands)):
        return d
    p = draw(st.integers(0, len(hands) - 1))
    if not isinstance(hands[p], list) or not isinstance(known[p], list):
        return d
    choice = draw(st.integers(0, 2))
    if choice == 0 and hands[p]:
        known[p].append(draw(st.sampled_from(hands[p])))
    elif choice == 1 and known[p]:
        known[p].pop()
    else:
        known[p] = list(hands[p]) + draw(st.lists(st.sampled_from(CARD_TEXTS), max_size=1))
    return d


def _mut_delete_key(draw, d):
    if isinstance(d, dict) and d:
        del d[draw(st.sampled_from(sorted(d, key=repr)))]
    return d


MUTATIONS = [_mut_card_replace, _mut_card_move, _mut_card_duplicate, _mut_card_remove, _mut_field,
             _mut_rules_field,
             _mut_shuffle, _mut_swap_seats, _mut_generic, _mut_known, _mut_delete_key]


@st.composite
def mutated_dicts(draw):
    d = draw(base_dicts())
    for _ in range(draw(st.integers(1, 3))):
        d = draw(st.sampled_from(MUTATIONS))(draw, d)
    return d


# ------------------------------------------------------------ rule values --

rule_names = st.one_of(st.sampled_from(FIELDS), st.sampled_from(["preset", "deck", "Decks", "foo", ""]),
                       st.text(string.ascii_lowercase + "_", max_size=8))

rank_items = st.one_of(st.sampled_from(list(RANKS) + ["10", "joker", "JK", "t", " a", "1", "Z", "11", ""]),
                       st.integers(0, 17), st.sampled_from([True, 2.0, None, "2 3", b"2"]))


def rule_value(name):
    ranks = st.one_of(st.lists(rank_items, max_size=5),
                      st.lists(rank_items, max_size=4).map(lambda xs: " ".join(map(str, xs))),
                      st.lists(st.sampled_from(RANKS), max_size=15, unique=True).map(tuple),
                      st.lists(st.sampled_from(RANKS), max_size=16),
                      garbage)
    if name in ("decks", "jokers", "cards_per_zone", "run_to_burn"):
        return st.one_of(st.integers(-2, 20), st.sampled_from([255, 256, 2**31, 2**70, 1.0, 2.0, True, "2"]),
                         garbage)
    if name in ("lower_strict", "burner_plays_again", "pickup_then_play", "merge_hand_with_face_up"):
        return st.one_of(st.booleans(), st.sampled_from([0, 1, 2, "yes", "no", " True", "0", "maybe", 1.0,
                                                         np.bool_(True), None]), garbage)
    if name in ("wild", "lower", "invisible", "burn", "start_ranks"):
        return ranks
    if name == "start_suits":
        return st.one_of(st.lists(st.sampled_from(list(SUITS) + ["C", " h", "x", "", "r"]), max_size=5),
                         st.lists(st.sampled_from(SUITS), max_size=5).map(" ".join), garbage)
    if name == "invisible_in_runs":
        return st.one_of(st.sampled_from(["skip", "break", "SKIP", " break ", "x", 0, None]), garbage)
    if name == "start":
        return st.one_of(st.sampled_from(["rank-from-dealer", "rank-suit", "RANK-SUIT", "x", 1, None]),
                         garbage)
    if name == "preset":
        return st.one_of(st.sampled_from(list(threes.PRESETS) + [" Dutch", "bogus"]), garbage)
    return garbage


@st.composite
def rule_params(draw):
    names = draw(st.lists(rule_names, max_size=4, unique=True))
    return {n: draw(rule_value(n)) for n in names}


def check_rules(r, deep=True):
    assert isinstance(r, Rules)
    d = r.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert Rules.from_dict(d) == r and Rules(**d) == r and r.replace() == r
    assert pickle.loads(pickle.dumps(r)) == r
    hash(r)
    repr(r)
    r.table()
    m = r.max_players()
    assert 0 <= m <= _core.MAX_PLAYERS
    nda = Game(max(m, 2), r).num_distinct_actions() if m >= 2 else None
    if m >= 2 and deep:
        for n in sorted({2, m}):
            g = Game(n, r)
            assert g.num_distinct_actions() == nda
            s = g.new_initial_state(n)
            assert_valid(s, n, deep=(n == 2))
    if m >= 2:
        try:
            Game(m + 1, r)
        except ValueError:
            pass
        else:
            raise AssertionError(f"max_players() is {m} but {m + 1} players were seated")


# ------------------------------------------------------------------ tests --


@fuzz_settings(3000)
@given(d=mutated_dicts(), seed=st.integers(0, 2**16))
def test_from_dict_mutated_real_dicts(d, seed):
    check_from_dict(d, seed)


@fuzz_settings(600)
@given(d=st.one_of(
    json_values,
    st.dictionaries(st.sampled_from(_REQUIRED + _OPTIONAL), json_values, max_size=18),
    st.fixed_dictionaries({k: json_values for k in _REQUIRED},
                          optional={k: json_values for k in _OPTIONAL}),
    garbage,
))
def test_from_dict_random_structures(d):
    check_from_dict(d)


@st.composite
def half_random_dicts(draw):
    """A real dict with a few keys replaced by random JSON."""
    d = draw(base_dicts())
    for key in draw(st.lists(st.sampled_from(_REQUIRED + _OPTIONAL), min_size=1, max_size=3, unique=True)):
        d[key] = draw(json_values)
    return d


@fuzz_settings(600)
@given(d=half_random_dicts())
def test_from_dict_half_random(d):
    check_from_dict(d)


def action_inputs(nda):
    return st.one_of(
        st.integers(-3, nda + 3),
        st.sampled_from([nda - 1, nda, nda + 1, 2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**63, 2**64, -2**64,
                         2**16, 2**20 + 1, 2**32 + 5]),
        st.integers(),
        garbage,
        st.integers(0, nda + 1).map(np.int64),
        st.integers(0, nda + 1).map(Indexable),
        st.integers(0, nda + 1).map(float),
        st.integers(0, nda + 1).map(str),
    )


def _as_int(x):
    if isinstance(x, (bool, np.bool_)):
        return None
    try:
        return operator.index(x)
    except TypeError:
        return None


@fuzz_settings(800)
@given(s=base_states(), data=st.data())
def test_apply_action_arbitrary_inputs(s, data):
    nda = s.num_distinct_actions()
    for _ in range(data.draw(st.integers(1, 8))):
        legal = s.legal_actions()
        if legal and data.draw(st.integers(0, 2)) == 0:
            a = data.draw(st.sampled_from(legal))
        else:
            a = data.draw(action_inputs(nda))
        a_int = _as_int(a)
        before = state_fingerprint(s)
        # the queries on an action id
        for name in ("is_legal", "decode_action", "action_to_string", "child"):
            try:
                out = getattr(s, name)(a)
            except DOCUMENTED as exc:
                check_rejection_leaves(s, before, exc)
                if a_int is None:
                    assert isinstance(exc, TypeError), (name, a, exc)
                elif name == "child":
                    assert isinstance(exc, IllegalActionError) and a_int not in legal, (a, exc)
                elif name == "is_legal":
                    raise AssertionError(f"is_legal({a!r}) raised {exc!r} for an int")
                else:
                    assert isinstance(exc, IllegalActionError) and not 0 <= a_int < nda, (name, a, exc)
            else:
                check_rejection_leaves(s, before, None)
                assert a_int is not None, f"{name} accepted {a!r}"
                if name == "is_legal":
                    assert out == (a_int in legal)
                elif name == "child":
                    assert a_int in legal
                    out._check()
                else:
                    assert 0 <= a_int < nda
        try:
            s.apply_action(a)
        except DOCUMENTED as exc:
            check_rejection_leaves(s, before, exc)
            if a_int is None:
                assert isinstance(exc, TypeError), (a, exc)
            else:
                assert isinstance(exc, IllegalActionError), (a, exc)
                assert a_int not in legal, f"legal action {a!r} was refused: {exc}"
        else:
            assert a_int is not None and a_int in legal, f"apply_action accepted {a!r}"
            assert s.history()[-1] == a_int and len(s.history()) == len(before[2]) + 1
            s._check()
    assert_valid(s, deep=False)


@fuzz_settings(800)
@given(params=rule_params(), base=st.one_of(st.sampled_from(threes.PRESETS), rule_value("preset")))
def test_rules_arbitrary_params(params, base):
    def outcome(call):
        try:
            return call()
        except DOCUMENTED as exc:
            return type(exc)

    def replaced():
        return Rules.preset(base).replace(**params)

    plain = outcome(lambda: Rules(**params))
    outcomes = [
        outcome(lambda: Rules.preset(base, **params)),
        outcome(lambda: Rules.from_dict(dict(params, preset=base))),
        outcome(lambda: Rules.from_dict(dict(params, preset=base))),  # again: the cache must agree
        outcome(replaced),
    ]
    for r in outcomes:
        if isinstance(r, Rules):
            check_rules(r, deep=False)
    if "preset" not in params:
        # preset(base, **p), from_dict(p + {"preset": base}) and
        # preset(base).replace(**p) are documented as the same rule set
        assert outcomes == [outcomes[0]] * 4, (params, base, outcomes)
    if isinstance(plain, Rules):
        check_rules(plain, deep=True)
        if base == "threes" and "preset" not in params:
            assert outcomes[0] == plain


@fuzz_settings(500)
@given(d=st.one_of(rule_params(), st.dictionaries(st.one_of(ints, st.none(), st.text(max_size=4)), garbage,
                                                   max_size=3), garbage))
def test_rules_from_dict_arbitrary(d):
    before = repr(d)
    try:
        r = Rules.from_dict(d)
    except DOCUMENTED:
        assert repr(d) == before
        return
    assert repr(d) == before
    check_rules(r, deep=False)
    rest = dict(d)
    assert Rules.preset(rest.pop("preset", "threes"), **rest) == r


notation = st.one_of(
    st.text(max_size=12),
    st.text(alphabet="0123456789xXtTjJqQkKaAbBlLiInNdDsSwWaApPuUcCkK+: \t\n\u00a0\u2003\u00b2_-.,",
            max_size=14),
    st.builds(lambda pre, r, x, n, sp: f"{pre}{sp}{r}{x}{n}",
              st.sampled_from(["", "hand ", "up ", "hand+up ", "face_up ", "hand+face_up ", "HAND ", "left ",
                               "up:", "blind ", "swap "]),
              st.sampled_from(list(RANKS) + list(RANKS.lower()) + ["10", "1", "0", "Z", "joker", ""]),
              st.sampled_from(["x", "X", "", "*", "x ", " x"]),
              st.one_of(st.integers(-2, 20).map(str), st.sampled_from(["", "999", "9" * 25, "4294967297",
                                                                     "\u00b2", "1.5", "0x1", " 2"])),
              st.sampled_from(["", " ", "  ", "\t"])),
    st.builds(lambda w, n: f"{w} {n}", st.sampled_from(["blind", "BLIND", "blind:", "blinds"]),
              st.one_of(st.integers(-3, 300).map(str), st.sampled_from(["", "x", "9" * 30, "\u0663"]))),
    st.builds(lambda w, rs, sep: w + sep.join(rs), st.sampled_from(["swap ", "SWAP", "swap:", "swapx "]),
              st.lists(st.sampled_from(list(RANKS) + ["10", "z", "1", "x", "joker"]), max_size=6),
              st.sampled_from(["", " ", ","])),
    st.sampled_from(["pickup", "pick up", "pick", " PickUp ", "pick  up", "pickup\n", "pick-up"]),
)


@fuzz_settings(1500)
@given(s=base_states(), text=st.one_of(notation, garbage), player=st.one_of(st.none(), st.integers(-1, 3)))
def test_string_to_action_arbitrary_text(s, text, player):
    before = state_fingerprint(s)
    args = (text,) if player is None else (player, text)
    try:
        a = s.string_to_action(*args)
    except DOCUMENTED as exc:
        check_rejection_leaves(s, before, exc)
        if not isinstance(text, str):
            assert isinstance(exc, TypeError)
        return
    check_rejection_leaves(s, before, None)
    assert isinstance(text, str)
    assert type(a) is int and 0 <= a < s.num_distinct_actions()
    # the notation of that id reads back as the same id
    assert s.string_to_action(s.action_to_string(a)) == a
    if a in s.legal_actions():
        c = s.child(a)
        c._check()


game_rules = st.one_of(
    st.sampled_from(list(threes.PRESETS) + ["Classic", "bogus", ""]),
    rule_params(),
    st.builds(lambda p: Rules.preset(p), st.sampled_from(threes.PRESETS)),
    garbage,
)


@fuzz_settings(600)
@given(args=st.lists(st.one_of(st.integers(-2, 14), garbage), max_size=2),
       kwargs=st.dictionaries(st.sampled_from(["num_players", "rules", "max_moves", "dealer", "seed", "players"]),
                              st.one_of(st.integers(-2, 14), st.sampled_from([40, 10_000, _core.MAX_MAX_MOVES,
                                                                              _core.MAX_MAX_MOVES + 1, 2**70]),
                                        game_rules, garbage), max_size=4),
       seed=st.one_of(st.none(), ints, garbage))
def test_game_arbitrary_arguments(args, kwargs, seed):
    try:
        g = Game(*args, **kwargs)
    except DOCUMENTED:
        return
    n = g.num_players()
    assert 2 <= n <= _core.MAX_PLAYERS and 0 <= g.dealer < n
    assert 1 <= g.max_game_length() <= _core.MAX_MAX_MOVES
    assert g == Game(n, g.rules, g.max_game_length(), g.dealer)
    repr(g)
    nda = g.num_distinct_actions()
    for a in (0, nda - 1):
        assert g.encode_move(g.decode_action(a)) == a
    seed_ok = seed is None or (isinstance(seed, (int, np.integer)) and not isinstance(seed, bool))
    try:
        s = g.new_initial_state(seed)
    except DOCUMENTED as exc:
        assert isinstance(exc, TypeError) and not seed_ok, (seed, exc)
        return
    assert seed_ok, f"new_initial_state accepted the seed {seed!r}"
    assert s.get_game() == g
    assert_valid(s, 0, deep=False)


policies = st.one_of(
    st.sampled_from(list(threes.POLICIES) + ["Random", " greedy ", "HEURISTIC", "bogus", ""]),
    st.lists(st.sampled_from(list(threes.POLICIES) + ["x", None, 1]), max_size=8),
    st.lists(st.sampled_from(threes.POLICIES), min_size=2, max_size=7).map(tuple),
    garbage,
)


@fuzz_settings(500)
@given(src=st.one_of(base_states(), st.sampled_from(range(3)).map(lambda i: _configs()[i][0]), garbage),
       n=st.one_of(st.integers(-2, 4), st.sampled_from([True, 2.0, "3", None, np.int64(2), np.uint8(1)])),
       policy=policies, seed=st.one_of(st.none(), ints, st.sampled_from([np.uint64(2**64 - 1), np.int64(-5)]),
                                       garbage),
       threads=st.one_of(st.none(), st.integers(-1, 4), st.sampled_from([_core.MAX_THREADS,
                                                                         _core.MAX_THREADS + 1, 2**70]), garbage),
       single=st.booleans())
def test_rollouts_arbitrary_arguments(src, n, policy, seed, threads, single):
    before = state_fingerprint(src) if isinstance(src, State) else None
    try:
        if single:
            out = threes.rollout(src, policy, seed, order=True)
        else:
            out = threes.rollouts(src, n, policy=policy, seed=seed, threads=threads)
    except DOCUMENTED as exc:
        if before is not None:
            check_rejection_leaves(src, before, exc)
        return
    if before is not None:
        check_rejection_leaves(src, before, None)
    players = src.num_players()
    if single:
        assert isinstance(src, State)
        rets, out = out
        assert len(rets) == players and all(-1.0 <= v <= 1.0 for v in rets)
        assert len(set(out)) == len(out) and all(0 <= q < players for q in out)
        assert out[:len(src.finish_order())] == src.finish_order()
        return
    k = int(n)
    assert out.places.shape == (k, players) and out.moves.shape == (k,) and out.truncated.shape == (k,)
    assert len(out.policies) == players
    for row, moves, trunc in zip(out.places, out.moves, out.truncated):
        placed = sorted(int(x) for x in row if x >= 0)
        assert placed == list(range(len(placed))), row
        if not trunc:
            assert len(placed) == players, row
        if isinstance(src, State):
            assert [int(row[q]) for q in src.finish_order()] == list(range(len(src.finish_order())))
    repr(out)
    out.summary()


class _Payload:
    """Pickles as _restore(d) for any d: a real pickle with a replaced payload."""

    def __init__(self, d):
        self.d = d

    def __reduce__(self):
        from threes.shithead.game import _restore

        return (_restore, (self.d,))


@st.composite
def mutated_pickles(draw):
    i = draw(st.sampled_from(range(len(pool()))))
    s = State.from_dict(pool()[i])
    proto = draw(st.integers(0, pickle.HIGHEST_PROTOCOL))
    kind = draw(st.sampled_from(["flip", "truncate", "payload", "insert", "payload_json", "clean"]))
    if kind in ("payload", "payload_json"):
        d = draw(mutated_dicts() if kind == "payload" else json_values)
        try:
            return s, pickle.dumps(_Payload(d), protocol=proto)
        except Exception:  # noqa: BLE001 - garbage that does not pickle at this protocol
            return s, pickle.dumps(_Payload(pool()[i]), protocol=proto)
    b = bytearray(pickle.dumps(s, protocol=proto))
    if kind == "clean":
        return s, bytes(b)
    if kind == "truncate":
        return s, bytes(b[:draw(st.integers(0, len(b) - 1))])
    for _ in range(draw(st.integers(1, 3))):
        pos = draw(st.integers(0, len(b) - 1))
        if kind == "flip":
            b[pos] = draw(st.one_of(st.integers(0, 255), st.just(b[pos] ^ (1 << draw(st.integers(0, 7))))))
        else:
            b[pos:pos] = draw(st.binary(min_size=1, max_size=6))
    return s, bytes(b)


def _states_in(x, depth=0):
    if isinstance(x, State):
        yield x
    elif depth < 3 and isinstance(x, (list, tuple)):
        for y in x:
            yield from _states_in(y, depth + 1)
    elif depth < 3 and isinstance(x, dict):
        for y in x.values():
            yield from _states_in(y, depth + 1)


@fuzz_settings(1200)
@given(sp=mutated_pickles())
def test_pickle_loads_mutated(sp):
    s, blob = sp
    note(f"the pickle: {blob!r}")
    before = state_fingerprint(s)
    try:
        with memory_cap():
            obj = pickle.loads(blob)
    except Exception as exc:  # noqa: BLE001 - judged below
        check_rejection_leaves(s, before, exc)
        if raised_inside(exc, THREES_DIR):
            # threes code ran (e.g. _restore with a mutated payload): only
            # documented exceptions may come out of it
            assert isinstance(exc, DOCUMENTED), "".join(traceback.format_exception(exc))
        return
    check_rejection_leaves(s, before, None)
    for x in _states_in(obj):
        assert_valid(x, deep=False)


# --------------------------------------------------- sanity of the harness --


def test_pool_covers_every_phase():
    phases = {d["phase"] for d in pool()}
    assert phases == {"swap", "play", "over"}
    assert any(d["truncated"] for d in pool())
    assert any(d["finish_order"] and d["phase"] == "play" for d in pool())
    for d in pool():
        if d["phase"] == "play" and d["current_player"] >= 0:
            p = d["current_player"]
            if not d["hands"][p] and not d["face_up"][p]:
                break
    else:
        raise AssertionError("no blind-phase position in the pool")
    for d in pool()[:10]:
        assert_valid(State.from_dict(d))
