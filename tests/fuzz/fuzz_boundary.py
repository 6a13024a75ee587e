#!/usr/bin/env python3
"""atheris fuzz target: every way data enters threes.

The fuzzer's bytes choose an entry point and build its input with
atheris.FuzzedDataProvider: State.from_dict with a mutated dict of a real
position (or a random structure), State.apply_action and the other action-id
methods with ints and arbitrary objects, Rules(**params) / Rules.preset /
Rules.from_dict, State.string_to_action with raw or near-valid text, Game(...),
threes.shithead.rollouts / threes.rollout, and pickle.loads of mutated pickles.

The property (the same as tests/test_fuzz.py): an input either works, and what
it produced is a valid state (State._check() passes, to_dict() round-trips,
play goes on with every invariant holding), or it raises a documented
exception (TypeError or ValueError, which includes threes.IllegalActionError)
and leaves the state it was called on unchanged. For pickles, exceptions of
the pickle machinery itself are accepted too; anything raised from inside
threes must still be documented. Any other outcome raises AssertionError (or
lets the undocumented exception through), which atheris reports as a crash.

    python tests/fuzz/fuzz_boundary.py -atheris_runs=20000
    python tests/fuzz/fuzz_boundary.py -max_total_time=600 corpus_dir/

atheris is not a dependency of threes: pip install atheris.
"""
from __future__ import annotations

import copy
import decimal
import fractions
import io
import json
import operator
import os
import pickle
import random
import sys

import atheris
import numpy as np

with atheris.instrument_imports(include=["threes"]):
    import threes
    import threes.cards
    import threes.ui.text
    import threes.shithead.game
    import threes.shithead.rollouts
    import threes.shithead.rules
    from threes import Card, Game, IllegalActionError, Rules, State
    from threes.shithead import _core
    from threes.shithead.game import _OPTIONAL, _REQUIRED
    from threes.shithead.rules import FIELDS

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_support import memory_cap, raised_inside  # noqa: E402

DOCUMENTED = (TypeError, ValueError)
THREES_DIR = os.path.dirname(os.path.abspath(threes.__file__))
CARD_TEXTS = tuple(_core.kind_text(k) for k in range(_core.NUM_KINDS))
RANKS, SUITS = threes.RANKS, threes.SUITS
ZONE_KEYS = ("hands", "known", "face_up", "face_down", "pile", "draw_pile", "burned")
SEAT_ZONES = ("hands", "known", "face_up", "face_down")
INTERESTING_INTS = [0, 1, -1, 2, 3, 4, 5, 11, 12, 13, -4, 52, 53, 54, 255, 256, 2**31 - 1, 2**31, -2**31,
                    -2**31 - 1, 2**32, 2**63 - 1, 2**63, 2**64, 2**64 + 1, -2**63, 10**30, -10**30,
                    _core.MAX_MAX_MOVES, _core.MAX_MAX_MOVES + 1, 10_000]
WORDS = ["swap", "play", "over", "threes", "classic", "dutch", "Ah", "10h", "ah", " Ah ", "Xs", "Zz", "",
         "threes.State/1", "skip", "break", "rank-suit", "rank-from-dealer", "random", "greedy", "heuristic",
         "true", "yes", "0", "preset"]


class Indexable:
    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v

    def __repr__(self):
        return f"Indexable({self.v})"


ODD_OBJECTS = [np.int64(3), np.int8(-1), np.uint64(2**64 - 1), np.float64(1.0), np.bool_(True), np.int32(0),
               decimal.Decimal("2"), fractions.Fraction(3, 1), 2 + 0j, (), frozenset(), Card("Ah"),
               bytearray(b"x"), Ellipsis, NotImplemented, Rules(), int, str, object()]


# ------------------------------------------------------------ seed states --


def _snapshots(game, seed):
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    out = {"deal": s.to_dict()}
    while not s.is_terminal():
        p = s.current_player()
        if s.phase.value == "swap" and s.move_number() == 1:
            out.setdefault("swap", s.to_dict())
        if s.phase.value == "play":
            out.setdefault("play", s.to_dict())
            if s.move_number() >= 60:
                out.setdefault("mid", s.to_dict())
            if s.hand_size(p) == 0 and not s.face_up(p) and any(c is not None for c in s.face_down(p)):
                out.setdefault("blind", s.to_dict())
            if s.finish_order():
                out.setdefault("out", s.to_dict())
        s.apply_action(rng.choice(s.legal_actions()))
    out["over"] = s.to_dict()
    return list(out.values())


def _seed_dicts():
    games = [Game(4, "threes"), Game(2, "classic"), Game(3, "dutch", dealer=0),
             Game(5, Rules(jokers=1, cards_per_zone=2, run_to_burn=3)), Game(2, "threes", max_moves=40)]
    out = []
    for i, g in enumerate(games):
        out += _snapshots(g, 100 + i)
    for d in out:
        assert State.from_dict(d).to_dict() == d
    return out


SEEDS = _seed_dicts()
GAMES = [Game(4, "threes"), Game(2, "classic"), Game(3, "dutch")]


# ------------------------------------------------------- input building --


class Input:
    """Values built from the fuzzer's bytes."""

    def __init__(self, data):
        self.f = atheris.FuzzedDataProvider(data)

    def int_in(self, lo, hi):
        return self.f.ConsumeIntInRange(lo, hi)

    def bool(self):
        return self.f.ConsumeBool()

    def pick(self, seq):
        seq = list(seq)
        return seq[self.int_in(0, len(seq) - 1)] if seq else None

    def any_int(self):
        k = self.int_in(0, 3)
        if k == 0:
            return self.int_in(-20, 300)
        if k == 1:
            return self.pick(INTERESTING_INTS)
        return self.f.ConsumeInt(self.int_in(1, 13))

    def text(self, n=8):
        return self.f.ConsumeUnicodeNoSurrogates(self.int_in(0, n))

    def card_text(self):
        k = self.int_in(0, 5)
        c = self.pick(CARD_TEXTS)
        if k == 0:
            return c
        if k == 1:
            return c.lower()
        if k == 2:
            return c.replace("T", "10")
        if k == 3:
            return " " + c + "\t"
        if k == 4:
            return self.pick(["Xs", "Xx", "Zz", "", " ", "A", "Ahh", "10", "1h", "0c", "joker", "AH", "XR", "Xb",
                              "\u212ah", "Ah\x00", "Tt", "11h"])
        return self.text(4)

    def garbage(self, depth=0):
        k = self.int_in(0, 16 if depth < 2 else 11)
        if k == 0:
            return None
        if k == 1:
            return self.bool()
        if k in (2, 3):
            return self.any_int()
        if k == 4:
            return self.f.ConsumeFloat()
        if k == 5:
            return self.text()
        if k == 6:
            return self.card_text()
        if k == 7:
            return self.f.ConsumeBytes(self.int_in(0, 4))
        if k == 8:
            return self.pick(ODD_OBJECTS)
        if k == 9:
            return Indexable(self.any_int())
        if k in (10, 11):
            return self.pick(WORDS)
        if k == 12:
            return [self.garbage(depth + 1) for _ in range(self.int_in(0, 4))]
        if k == 13:
            return {self.pick([self.text(5), self.any_int(), None, self.pick(WORDS)]): self.garbage(depth + 1)
                    for _ in range(self.int_in(0, 3))}
        if k == 14:
            return tuple(self.garbage(depth + 1) for _ in range(self.int_in(0, 3)))
        if k == 15:
            return [self.card_text() for _ in range(self.int_in(0, 5))]
        return {self.pick(_REQUIRED + _OPTIONAL): self.garbage(depth + 1) for _ in range(self.int_in(0, 4))}

    def json_value(self, depth=0):
        k = self.int_in(0, 9 if depth < 3 else 6)
        if k == 0:
            return None
        if k == 1:
            return self.bool()
        if k == 2:
            return self.any_int()
        if k == 3:
            return self.f.ConsumeRegularFloat()
        if k == 4:
            return self.text(5)
        if k in (5, 6):
            return self.card_text()
        if k in (7, 8):
            return [self.json_value(depth + 1) for _ in range(self.int_in(0, 5))]
        return {self.text(6): self.json_value(depth + 1) for _ in range(self.int_in(0, 4))}


# ------------------------------------------------------------ properties --


def fail(msg):
    raise AssertionError(msg)


def fingerprint(s):
    return s.to_dict(), s.legal_actions(), s.history()


def unchanged(s, before, what):
    if fingerprint(s) != before:
        fail(f"the state changed although {what}")


def check_valid(s, seed=0, deep=True):
    if not isinstance(s, State):
        fail(f"expected a State, got {type(s).__name__}")
    s._check()
    d = s.to_dict()
    if json.loads(json.dumps(d)) != d:
        fail("to_dict() is not JSON-able")
    s2 = State.from_dict(d)
    s2._check()
    if s2.to_dict() != d or s2 != s:
        fail("to_dict() does not round-trip")
    if pickle.loads(pickle.dumps(s)).to_dict() != d:
        fail("pickle does not round-trip")
    n, nda = s.num_players(), s.num_distinct_actions()
    legal = s.legal_actions()
    if legal != sorted(set(legal)) or not all(0 <= a < nda for a in legal):
        fail(f"legal_actions() is not sorted ids in range: {legal}")
    if int(s.legal_actions_mask().sum()) != len(legal) or len(s.returns()) != n:
        fail("legal_actions_mask() or returns() disagree")
    if s.is_terminal():
        if legal or s.current_player() != threes.TERMINAL_PLAYER_ID:
            fail("a finished game with legal actions or a player to move")
        if not s.is_truncated() and sorted(s.finish_order()) != list(range(n)):
            fail("a finished game that does not list every seat")
    else:
        if not legal:
            fail("a live position without a legal action")
        cp = s.current_player()
        if not 0 <= cp < n or cp in s.finish_order() or s.move_number() >= s.max_game_length():
            fail(f"bad player to move {cp} / move count")
    for a in legal:
        if not s.is_legal(a) or s.string_to_action(s.action_to_string(a)) != a:
            fail(f"legal action {a} ({s.action_to_string(a)}) does not read back")
        if s.encode_move(s.decode_action(a)) != a:
            fail(f"decode/encode of {a} does not round-trip")
    str(s)
    repr(s)
    if s.to_dict() != d:
        fail("a query changed the state")
    if not deep:
        return
    rng = random.Random(seed)
    c = s.clone()
    for _ in range(rng.randrange(1, 10)):
        if c.is_terminal():
            break
        c.apply_action(rng.choice(c.legal_actions()))
        c._check()
    if not s.is_terminal():
        fast, full, final = s._rollout_both([rng.randrange(_core.NUM_POLICIES)] * n, seed, True)
        if fast != full:
            fail(f"the counts-only rollout and the full engine disagree: {fast} vs {full}")
        final._check()
    if s.to_dict() != d:
        fail("playing on a clone changed the state")


def check_from_dict(d, seed=0, deep=True):
    before = repr(d)
    try:
        s = State.from_dict(d)
    except DOCUMENTED:
        if repr(d) != before:
            fail("from_dict modified its argument")
        return None
    if repr(d) != before:
        fail("from_dict modified its argument")
    check_valid(s, seed, deep)
    r = d.get("rules", "threes")
    if isinstance(r, dict):
        rest = dict(r)
        base = rest.pop("preset", "threes")
        try:
            direct = Rules.preset(base, **rest)
        except DOCUMENTED as exc:
            fail(f"from_dict accepted the rules {r!r}, which Rules.preset(base, **overrides) rejects: {exc!r}")
        if direct != s.rules:
            fail(f"the rules {r!r} load as {s.rules!r}, Rules.preset gives {direct!r}")
    return s


# -------------------------------------------------------- dict mutations --


def _card_lists(d):
    out = []
    if not isinstance(d, dict):
        return out
    for key in ZONE_KEYS:
        v = d.get(key)
        if key in SEAT_ZONES:
            if isinstance(v, list):
                out += [z for z in v if isinstance(z, list)]
        elif isinstance(v, list):
            out.append(v)
    return out


def _retyped(inp, v):
    if isinstance(v, bool):
        return inp.pick([int(v), float(v), str(v), np.bool_(v)])
    if isinstance(v, int):
        opts = [float(v), str(v), decimal.Decimal(v), bool(v % 2), [v]]
        if -2**63 <= v < 2**63:
            opts.append(np.int64(v))
        return inp.pick(opts)
    if isinstance(v, list):
        return inp.pick([tuple(v), " ".join(map(str, v)), [v], [float(x) if isinstance(x, int) else x for x in v]])
    if isinstance(v, str):
        return inp.pick([v.upper(), " " + v, v.encode(), [v]])
    return inp.garbage()


def rule_value(inp, name):
    k = inp.int_in(0, 5)
    if k == 0:
        return inp.garbage()
    if name in ("decks", "jokers", "cards_per_zone", "run_to_burn"):
        return inp.pick([inp.int_in(-2, 20), inp.any_int(), 1.0, 2.0, True, "2"])
    if name in ("lower_strict", "burner_plays_again", "pickup_then_play", "merge_hand_with_face_up"):
        return inp.pick([True, False, 0, 1, 2, "yes", "no", " True", "0", "maybe", 1.0, None])
    if name in ("wild", "lower", "invisible", "burn", "start_ranks"):
        items = list(RANKS) + ["10", "joker", "JK", "t", " a", "1", "Z", "11", "", 2, 15, 16, 0, True, 2.0, None]
        xs = [inp.pick(items) for _ in range(inp.int_in(0, 16))]
        return inp.pick([xs, " ".join(map(str, xs)), tuple(xs), set(x for x in xs if x is not None)])
    if name == "start_suits":
        xs = [inp.pick(list(SUITS) + ["C", " h", "x", "", "r"]) for _ in range(inp.int_in(0, 5))]
        return inp.pick([xs, " ".join(xs), ",".join(xs)])
    if name == "invisible_in_runs":
        return inp.pick(["skip", "break", "SKIP", " break ", "x", 0, None])
    if name == "start":
        return inp.pick(["rank-from-dealer", "rank-suit", "RANK-SUIT", "x", 1, None])
    if name == "preset":
        return inp.pick(list(threes.PRESETS) + [" Dutch", "bogus", 3, None])
    return inp.garbage()


def rule_name(inp):
    k = inp.int_in(0, 4)
    if k < 3:
        return inp.pick(FIELDS)
    if k == 3:
        return inp.pick(["preset", "deck", "Decks", "foo", ""])
    return inp.text(10)


def mutate(inp, d):
    op = inp.int_in(0, 12)
    if op == 0:  # replace a card
        lists = [z for z in _card_lists(d) if z]
        if lists:
            z = inp.pick(lists)
            z[inp.int_in(0, len(z) - 1)] = inp.card_text() if inp.bool() else inp.garbage()
    elif op in (1, 2):  # move a card between zones (or into an empty slot)
        lists = _card_lists(d)
        src = [z for z in lists if any(c is not None for c in z)]
        if src:
            a = inp.pick(src)
            i = inp.pick([i for i, c in enumerate(a) if c is not None])
            card = a[i]
            if inp.int_in(0, 3) == 0:
                a[i] = None
            else:
                a.pop(i)
            b = inp.pick(lists)
            holes = [j for j, c in enumerate(b) if c is None]
            if holes and inp.bool():
                b[inp.pick(holes)] = card
            else:
                b.insert(inp.int_in(0, len(b)), card)
    elif op == 3:  # duplicate a card
        lists = _card_lists(d)
        cards = [c for z in lists for c in z if c is not None]
        if cards:
            b = inp.pick(lists)
            b.insert(inp.int_in(0, len(b)), inp.pick(cards))
    elif op == 4:  # remove a card
        lists = [z for z in _card_lists(d) if z]
        if lists:
            z = inp.pick(lists)
            z.pop(inp.int_in(0, len(z) - 1))
    elif op == 5 and isinstance(d, dict):  # a scalar field
        key = inp.pick(["num_players", "dealer", "current_player", "move_count", "max_moves", "phase", "truncated",
                        "finish_order", "format", "history"])
        cur = d.get(key)
        k = inp.int_in(0, 3)
        if k == 0:
            d[key] = inp.garbage()
        elif k == 1 and isinstance(cur, int) and not isinstance(cur, bool):
            d[key] = cur + inp.int_in(-2, 2)
        elif k == 1 and isinstance(cur, list):
            d[key] = [inp.int_in(-2, 13) for _ in range(inp.int_in(0, 6))]
        elif key == "phase":
            d[key] = inp.pick(["swap", "play", "over", "SWAP", " play", ""])
        elif key == "truncated":
            d[key] = inp.pick([True, False, 0, 1, "true", None])
        elif key == "finish_order":
            n = d.get("num_players") if isinstance(d.get("num_players"), int) and 0 < d["num_players"] < 20 else 4
            seats = list(range(n))
            random.Random(inp.int_in(0, 1000)).shuffle(seats)
            d[key] = seats[:inp.int_in(0, n)]
        else:
            d[key] = inp.any_int()
    elif op == 6 and isinstance(d, dict):  # a rules field
        r = d.get("rules")
        if not isinstance(r, dict):
            d["rules"] = inp.pick(list(threes.PRESETS) + ["bogus", {}, {"preset": "classic"}])
        else:
            name = inp.pick(sorted(map(str, r))) if r and inp.bool() else rule_name(inp)
            k = inp.int_in(0, 4)
            if k == 0:
                r.pop(name, None)
            elif k in (1, 2) and name in r:
                r[name] = _retyped(inp, r[name])
            else:
                r[name] = rule_value(inp, name)
    elif op == 7:  # shuffle a list
        lists = [z for z in _card_lists(d) if len(z) > 1]
        if isinstance(d, dict):
            lists += [d[k] for k in SEAT_ZONES + ("finish_order",) if isinstance(d.get(k), list) and len(d[k]) > 1]
        if lists:
            z = inp.pick(lists)
            random.Random(inp.int_in(0, 2**16)).shuffle(z)
    elif op == 8 and isinstance(d, dict):  # delete or add a key
        if inp.bool() and d:
            del d[inp.pick(sorted(d, key=repr))]
        else:
            d[inp.pick(list(_REQUIRED + _OPTIONAL) + ["foo", "Hands", "seed"]) if inp.bool() else inp.text(6)] = \
                inp.garbage()
    elif op == 9:  # anything anywhere: a random walk down, then change it
        path, node = (), d
        while isinstance(node, (dict, list)) and node and inp.int_in(0, 3) != 0:
            key = inp.pick(sorted(node, key=repr) if isinstance(node, dict) else range(len(node)))
            path, node = path + (key,), node[key]
        if not path:
            return inp.garbage() if inp.bool() else [d]
        parent = d
        for k in path[:-1]:
            parent = parent[k]
        k = inp.int_in(0, 4)
        if k == 0:
            del parent[path[-1]]
        elif k == 1:
            parent[path[-1]] = [node] if inp.bool() else {"x": node}
        elif k == 2:
            parent[path[-1]] = _retyped(inp, node)
        else:
            parent[path[-1]] = inp.garbage()
    elif op == 10 and isinstance(d, dict):  # known cards
        hands, known = d.get("hands"), d.get("known")
        if isinstance(hands, list) and isinstance(known, list) and hands and len(known) == len(hands):
            p = inp.int_in(0, len(hands) - 1)
            if isinstance(hands[p], list) and isinstance(known[p], list):
                if hands[p] and inp.bool():
                    known[p].append(inp.pick(hands[p]))
                elif known[p]:
                    known[p].pop()
                else:
                    known[p] = list(hands[p])
    elif op == 11 and isinstance(d, dict):  # swap two seats' zones
        z = d.get(inp.pick(SEAT_ZONES))
        if isinstance(z, list) and len(z) > 1:
            i, j = inp.int_in(0, len(z) - 1), inp.int_in(0, len(z) - 1)
            z[i], z[j] = z[j], z[i]
    elif op == 12:  # append a slot, a None or anything to a zone
        lists = _card_lists(d)
        if lists:
            inp.pick(lists).append(inp.pick([None, inp.card_text(), inp.garbage()]))
    return d


def mutated_dict(inp):
    d = copy.deepcopy(inp.pick(SEEDS))
    for _ in range(inp.int_in(1, 3)):
        d = mutate(inp, d)
    return d


# ----------------------------------------------------------- entry points --


def fuzz_from_dict(inp):
    check_from_dict(mutated_dict(inp), inp.int_in(0, 2**16), deep=inp.int_in(0, 3) == 0)


def fuzz_from_dict_random(inp):
    k = inp.int_in(0, 2)
    if k == 0:
        d = inp.json_value()
    elif k == 1:
        d = {key: inp.json_value(1) for key in _REQUIRED}
        for key in _OPTIONAL:
            if inp.bool():
                d[key] = inp.json_value(1)
    else:
        d = copy.deepcopy(inp.pick(SEEDS))
        for _ in range(inp.int_in(1, 3)):
            d[inp.pick(_REQUIRED + _OPTIONAL)] = inp.json_value(1)
    check_from_dict(d, deep=False)


def _as_int(x):
    if isinstance(x, (bool, np.bool_)):
        return None
    try:
        return operator.index(x)
    except TypeError:
        return None


def action_input(inp, s):
    nda = s.num_distinct_actions()
    legal = s.legal_actions()
    k = inp.int_in(0, 7)
    if k in (0, 1) and legal:
        return inp.pick(legal)
    if k == 2:
        return inp.int_in(-3, nda + 3)
    if k == 3:
        return inp.pick([nda - 1, nda, 2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**63, 2**64, 2**20 + 1])
    if k == 4:
        return inp.any_int()
    if k == 5:
        v = inp.int_in(0, nda + 1)
        return inp.pick([np.int64(v), Indexable(v), float(v), str(v), np.uint16(v), [v]])
    return inp.garbage()


def fuzz_apply_action(inp):
    s = State.from_dict(inp.pick(SEEDS))
    for _ in range(inp.int_in(1, 8)):
        legal = s.legal_actions()
        nda = s.num_distinct_actions()
        a = action_input(inp, s)
        a_int = _as_int(a)
        before = fingerprint(s)
        for name in ("is_legal", "decode_action", "action_to_string", "child"):
            try:
                out = getattr(s, name)(a)
            except DOCUMENTED as exc:
                unchanged(s, before, f"{name}({a!r}) raised {exc!r}")
                if a_int is None:
                    if not isinstance(exc, TypeError):
                        fail(f"{name}({a!r}) raised {exc!r}, not TypeError")
                elif name == "is_legal":
                    fail(f"is_legal({a!r}) raised {exc!r}")
                elif not isinstance(exc, IllegalActionError):
                    fail(f"{name}({a!r}) raised {exc!r}, not IllegalActionError")
                elif name == "child" and a_int in legal:
                    fail(f"child({a!r}) refused a legal action: {exc!r}")
                elif name != "child" and 0 <= a_int < nda:
                    fail(f"{name}({a!r}) refused an id in range: {exc!r}")
            else:
                unchanged(s, before, f"{name}({a!r}) is a query")
                if a_int is None:
                    fail(f"{name} accepted {a!r}")
                if name == "is_legal" and out != (a_int in legal):
                    fail(f"is_legal({a!r}) is {out}")
                if name == "child":
                    if a_int not in legal:
                        fail(f"child accepted the illegal action {a!r}")
                    out._check()
                if name in ("decode_action", "action_to_string") and not 0 <= a_int < nda:
                    fail(f"{name} accepted the out-of-range id {a!r}")
        try:
            s.apply_action(a)
        except DOCUMENTED as exc:
            unchanged(s, before, f"apply_action({a!r}) raised {exc!r}")
            if a_int is None and not isinstance(exc, TypeError):
                fail(f"apply_action({a!r}) raised {exc!r}, not TypeError")
            if a_int is not None and (not isinstance(exc, IllegalActionError) or a_int in legal):
                fail(f"apply_action({a!r}) raised {exc!r} (legal: {a_int in legal})")
        else:
            if a_int is None or a_int not in legal:
                fail(f"apply_action accepted {a!r}")
            if s.history()[-1] != a_int:
                fail("history does not end with the action applied")
            s._check()
    check_valid(s, deep=False)


def _outcome(call):
    try:
        return call()
    except DOCUMENTED as exc:
        return type(exc)


def check_rules(r):
    if not isinstance(r, Rules):
        fail(f"expected Rules, got {r!r}")
    d = r.to_dict()
    if json.loads(json.dumps(d)) != d or Rules.from_dict(d) != r or Rules(**d) != r:
        fail(f"{r!r} does not round-trip")
    if pickle.loads(pickle.dumps(r)) != r:
        fail(f"{r!r} does not pickle")
    hash(r)
    repr(r)
    r.table()
    m = r.max_players()
    if not 0 <= m <= _core.MAX_PLAYERS:
        fail(f"max_players() is {m}")
    if m >= 2:
        s = Game(2, r).new_initial_state(1)
        check_valid(s, deep=False)
        Game(m, r)
        try:
            Game(m + 1, r)
        except ValueError:
            pass
        else:
            fail(f"max_players() is {m} but {m + 1} players were seated")


def fuzz_rules(inp):
    params = {}
    for _ in range(inp.int_in(0, 4)):
        name = rule_name(inp)
        params[name] = rule_value(inp, name)
    base = inp.pick(threes.PRESETS) if inp.int_in(0, 3) else rule_value(inp, "preset")
    plain = _outcome(lambda: Rules(**params))
    outcomes = [
        _outcome(lambda: Rules.preset(base, **params)),
        _outcome(lambda: Rules.from_dict(dict(params, preset=base))),
        _outcome(lambda: Rules.from_dict(dict(params, preset=base))),
        _outcome(lambda: Rules.preset(base).replace(**params)),
    ]
    for r in outcomes + [plain]:
        if isinstance(r, Rules):
            check_rules(r)
    if "preset" not in params and outcomes != [outcomes[0]] * 4:
        fail(f"preset/from_dict/replace disagree on {params!r} over {base!r}: {outcomes}")
    # Rules(**p) checks p in its own order, preset() in the order of FIELDS: with
    # several bad values the exception type may differ, acceptance may not
    same = outcomes[0] == plain or not (isinstance(plain, Rules) or isinstance(outcomes[0], Rules))
    if base == "threes" and "preset" not in params and not same:
        fail(f"Rules(**{params!r}) is {plain!r} but Rules.preset('threes', ...) is {outcomes[0]!r}")
    if inp.bool():  # Rules.from_dict with any dict
        d = {inp.text(8) if inp.bool() else rule_name(inp): inp.garbage() for _ in range(inp.int_in(0, 3))}
        before = repr(d)
        r = _outcome(lambda: Rules.from_dict(d))
        if repr(d) != before:
            fail("Rules.from_dict modified its argument")
        if isinstance(r, Rules):
            check_rules(r)


def notation(inp):
    k = inp.int_in(0, 5)
    if k == 0:
        return inp.text(16)
    if k == 1:
        alphabet = "0123456789xXtTjJqQkKaAbBlLiInNdDsSwWpPuUcC+: \t\n\u00a0\u2003\u00b2_-.,"
        return "".join(inp.pick(alphabet) for _ in range(inp.int_in(0, 14)))
    if k == 2:
        pre = inp.pick(["", "hand ", "up ", "hand+up ", "face_up ", "hand+face_up ", "HAND ", "left ", "up:"])
        rank = inp.pick(list(RANKS) + list(RANKS.lower()) + ["10", "1", "0", "Z", "joker", ""])
        x = inp.pick(["x", "X", "", "*", "x ", " x"])
        n = inp.pick([str(inp.int_in(-2, 20)), "", "999", "9" * 25, "4294967297", "\u00b2", "1.5", "0x1"])
        return pre + rank + x + n
    if k == 3:
        return inp.pick(["blind", "BLIND", "blind:", "blinds"]) + " " + inp.pick(
            [str(inp.int_in(-3, 300)), "", "x", "9" * 30, "\u0663"])
    if k == 4:
        rs = [inp.pick(list(RANKS) + ["10", "z", "1", "x", "joker"]) for _ in range(inp.int_in(0, 6))]
        return inp.pick(["swap ", "SWAP", "swap:", "swapx "]) + inp.pick(["", " ", ","]).join(rs)
    return inp.pick(["pickup", "pick up", "pick", " PickUp ", "pick  up", "pickup\n", "pick-up"])


def fuzz_string_to_action(inp):
    s = State.from_dict(inp.pick(SEEDS))
    text = notation(inp) if inp.int_in(0, 4) else inp.garbage()
    args = (text,) if inp.bool() else (inp.int_in(-1, 3), text)
    before = fingerprint(s)
    try:
        a = s.string_to_action(*args)
    except DOCUMENTED as exc:
        unchanged(s, before, f"string_to_action({text!r}) raised {exc!r}")
        if not isinstance(text, str) and not isinstance(exc, TypeError):
            fail(f"string_to_action({text!r}) raised {exc!r}, not TypeError")
        return
    unchanged(s, before, f"string_to_action({text!r}) is a query")
    if not isinstance(text, str):
        fail(f"string_to_action accepted {text!r}")
    if type(a) is not int or not 0 <= a < s.num_distinct_actions():
        fail(f"string_to_action({text!r}) gave {a!r}")
    if s.string_to_action(s.action_to_string(a)) != a:
        fail(f"the notation of {a} does not read back")
    if a in s.legal_actions():
        s.child(a)._check()


def fuzz_game(inp):
    args = [inp.int_in(-2, 14) if inp.bool() else inp.garbage() for _ in range(inp.int_in(0, 2))]
    kwargs = {}
    for _ in range(inp.int_in(0, 4)):
        key = inp.pick(["num_players", "rules", "max_moves", "dealer", "seed", "players"])
        k = inp.int_in(0, 4)
        if k == 0:
            kwargs[key] = inp.int_in(-2, 14)
        elif k == 1:
            kwargs[key] = inp.pick([40, 10_000, _core.MAX_MAX_MOVES, _core.MAX_MAX_MOVES + 1, 2**70])
        elif k == 2:
            kwargs[key] = inp.pick(list(threes.PRESETS) + ["Classic", "bogus", Rules.preset("dutch")])
        elif k == 3:
            kwargs[key] = {rule_name(inp): rule_value(inp, "decks") for _ in range(inp.int_in(0, 2))}
        else:
            kwargs[key] = inp.garbage()
    try:
        g = Game(*args, **kwargs)
    except DOCUMENTED:
        return
    n = g.num_players()
    if not (2 <= n <= _core.MAX_PLAYERS and 0 <= g.dealer < n and 1 <= g.max_game_length() <= _core.MAX_MAX_MOVES):
        fail(f"Game accepted {args!r} {kwargs!r}: {g!r}")
    if g != Game(n, g.rules, g.max_game_length(), g.dealer):
        fail("a Game does not equal its own reconstruction")
    repr(g)
    seed = inp.pick([None, inp.any_int(), inp.garbage()])
    seed_ok = seed is None or (isinstance(seed, (int, np.integer)) and not isinstance(seed, bool))
    try:
        s = g.new_initial_state(seed)
    except DOCUMENTED as exc:
        if seed_ok or not isinstance(exc, TypeError):
            fail(f"new_initial_state({seed!r}) raised {exc!r}")
        return
    if not seed_ok:
        fail(f"new_initial_state accepted the seed {seed!r}")
    check_valid(s, deep=False)


def fuzz_rollouts(inp):
    k = inp.int_in(0, 3)
    src = State.from_dict(inp.pick(SEEDS)) if k < 2 else (inp.pick(GAMES) if k == 2 else inp.garbage())
    n = inp.pick([inp.int_in(-2, 4), True, 2.0, "3", None, np.int64(2), np.uint8(1)])
    if inp.int_in(0, 2):
        policy = inp.pick(list(threes.POLICIES) + ["Random", " greedy ", "HEURISTIC", "bogus", ""])
    elif inp.bool():
        policy = [inp.pick(list(threes.POLICIES) + ["x", None, 1]) for _ in range(inp.int_in(0, 8))]
    else:
        policy = inp.garbage()
    seed = inp.pick([None, inp.any_int(), np.uint64(2**64 - 1), np.int64(-5), inp.garbage()])
    threads = inp.pick([None, inp.int_in(-1, 4), _core.MAX_THREADS, _core.MAX_THREADS + 1, 2**70, inp.garbage()])
    single = inp.bool()
    before = fingerprint(src) if isinstance(src, State) else None
    try:
        out = threes.rollout(src, policy, seed, order=True)[1] if single else threes.rollouts(src, n, policy, seed, threads)
    except DOCUMENTED as exc:
        if before is not None:
            unchanged(src, before, f"rollouts raised {exc!r}")
        return
    if before is not None:
        unchanged(src, before, "rollouts ran from it")
    players = src.num_players()
    if single:
        if len(set(out)) != len(out) or not all(0 <= q < players for q in out):
            fail(f"rollout returned {out}")
        if out[:len(src.finish_order())] != src.finish_order():
            fail("rollout changed the players already out")
        return
    k = int(n)
    if out.places.shape != (k, players) or out.moves.shape != (k,) or out.truncated.shape != (k,):
        fail("rollouts returned arrays of the wrong shape")
    for row, trunc in zip(out.places, out.truncated):
        placed = sorted(int(x) for x in row if x >= 0)
        if placed != list(range(len(placed))) or (not trunc and len(placed) != players):
            fail(f"rollouts returned the places {row}")
    out.summary()


# ---------------------------------------------------------------- pickles --


class _Payload:
    def __init__(self, d):
        self.d = d

    def __reduce__(self):
        return (threes.shithead.game._restore, (self.d,))


class _ThreesOnlyUnpickler(pickle.Unpickler):
    """pickle.Unpickler that resolves globals of the threes package only: a
    long unattended run must not be able to reach, say, os.system through a
    mutated GLOBAL opcode. Everything else is the standard machinery."""

    def find_class(self, module, name):
        if (module == "threes" or module.startswith("threes.")) and "." not in name:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"global {module}.{name} refused by the fuzz target")


def fuzz_pickle(inp):
    base = inp.pick(SEEDS)
    s = State.from_dict(base)
    proto = inp.int_in(0, pickle.HIGHEST_PROTOCOL)
    kind = inp.int_in(0, 5)
    if kind in (0, 1):
        d = mutated_dict(inp) if kind == 0 else inp.json_value()
        try:
            blob = pickle.dumps(_Payload(d), protocol=proto)
        except Exception:  # noqa: BLE001 - garbage that does not pickle at this protocol
            blob = pickle.dumps(s, protocol=proto)
    else:
        b = bytearray(pickle.dumps(s, protocol=proto))
        if kind == 2:
            b = b[:inp.int_in(0, len(b) - 1)]
        elif kind in (3, 4):
            for _ in range(inp.int_in(1, 4)):
                pos = inp.int_in(0, len(b) - 1)
                b[pos] = inp.int_in(0, 255) if inp.bool() else b[pos] ^ (1 << inp.int_in(0, 7))
        else:
            for _ in range(inp.int_in(1, 3)):
                pos = inp.int_in(0, len(b))
                b[pos:pos] = inp.f.ConsumeBytes(inp.int_in(1, 8))
        blob = bytes(b)
    before = fingerprint(s)
    try:
        with memory_cap():
            obj = _ThreesOnlyUnpickler(io.BytesIO(blob)).load()
    except Exception as exc:  # noqa: BLE001 - judged below
        unchanged(s, before, "a mutated copy of its pickle was loaded")
        if raised_inside(exc, THREES_DIR) and not isinstance(exc, DOCUMENTED):
            raise AssertionError(f"undocumented {type(exc).__name__} from inside threes while unpickling") from exc
        return
    unchanged(s, before, "a mutated copy of its pickle was loaded")
    if isinstance(obj, State):
        check_valid(obj, deep=False)


ENTRY_POINTS = [fuzz_from_dict, fuzz_from_dict, fuzz_from_dict_random, fuzz_apply_action, fuzz_rules,
                fuzz_string_to_action, fuzz_game, fuzz_rollouts, fuzz_pickle]


def TestOneInput(data):
    inp = Input(data)
    ENTRY_POINTS[inp.int_in(0, len(ENTRY_POINTS) - 1)](inp)


def main():
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
