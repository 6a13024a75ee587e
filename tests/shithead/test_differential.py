"""Differential test: the C engine against the pure-Python reference model
(python/threes/model.py), an independent implementation of RULES.md.

For every preset (threes, classic, dutch) GAMES_PER_PRESET uniformly random
games at 2 to 5 players are played through both, from the same seed: the
initial positions must be equal (which checks the deal and the PRNG), and
after EVERY action
  * the legal actions must be equal (checked before the action is chosen),
  * the positions must be equal: every zone (the engine's compact
    ``_snapshot()`` against the model's lists of card kinds: hands, known
    cards, face-up cards, face-down slots, pile, draw pile, burned cards),
    the player to move, the phase, the move count, the finishing order and
    the truncation flag.
The full ``to_dict()`` (and the returns, round trips of each side's dict
through the other side, clones, an illegal action refused by both, and the
children of every other legal action) is compared at the start and end of
every game and at a random sample of moves (FULL_COMPARE_PROBABILITY, 1/1000).
Built positions for corners that random play seldom reaches are compared
three plies deep. Further games vary the other parameters (merge, burner plays
again, pick-up-then-play, runs, strict lower, start rules, dealer, small move
caps) on top of the preset games.

Each action is chosen with ``random.Random(seed)`` from the engine's legal
actions, as ``legal[rng.randrange(len(legal))]`` (the same choice as the
model's ``play_random``).

A failure names the rules, the player count, the seed and the move, shows the
position before the move (replayed from the seed), and which parts of the
position differ afterwards.
"""
import json
import random
import sys

import pytest

import threes


from reference import shithead_model as model  # noqa: E402

ModelState = model.ModelState

GAMES_PER_PRESET = 5000
# Chunks per preset, for pytest-xdist (dutch games are the longest).
CHUNKS = {"dutch": 50, "threes": 20, "classic": 20}  # the quick suite plays chunk 0 of each: 100, 250, 250 games
FULL_COMPARE_PROBABILITY = 1 / 1000 # full to_dict comparison at a sample of moves
PHASE_IDS = {"swap": 0, "play": 1, "over": 2}
KEY_ORDER = ("rules", "num_players", "dealer", "max_moves", "phase", "current_player", "move_count",
             "truncated", "finish_order", "hands", "known", "face_up", "face_down", "pile",
             "draw_pile", "burned", "history")
SNAPSHOT_FIELDS = ("hands", "known", "face_up", "face_down", "pile", "draw_pile", "burned")


# ------------------------------------------------------------- reporting --

def _replay(game, seed, history):
    state = game.new_initial_state(seed)
    for a in history:
        state.apply_action(a)
    return state


def _dict_diff(engine_dict, model_dict):
    lines = []
    for key in sorted(set(engine_dict) | set(model_dict)):
        e, m = engine_dict.get(key), model_dict.get(key)
        if e != m:
            lines.append(f"  {key}:\n    engine {json.dumps(e)}\n    model  {json.dumps(m)}")
    return "\n".join(lines)


def _fail(what, game, seed, engine, ref, action=None):
    """An AssertionError with everything needed to reproduce and judge."""
    history = engine.history()
    parts = [f"{what}: rules {game.rules.name} {game.rules.to_dict()}, {game.num_players()} players, "
             f"seed {seed}, dealer {engine.dealer}, max_moves {game.max_game_length()}"]
    if action is not None:
        before = _replay(game, seed, history[:-1])
        parts.append(f"move {len(history) - 1}: player {before.current_player()} played action {action} "
                     f"({before.action_to_string(action)})")
        parts.append("position before the move:\n" + json.dumps(
            {k: v for k, v in before.to_dict().items() if k not in ("rules", "history")}))
    else:
        parts.append(f"at move {len(history)}, position (engine):\n" + json.dumps(
            {k: v for k, v in engine.to_dict().items() if k not in ("rules", "history")}))
    parts.append("differences:\n" + (_dict_diff(engine.to_dict(), ref.to_dict()) or "  (none in to_dict)"))
    raise AssertionError("\n".join(parts))


# --------------------------------------------------------------- checks --

def _fast_state(engine):
    return (engine._snapshot(), engine.current_player(), engine._phase_id(), engine.move_number(),
            engine.finish_order(), engine.is_truncated())


def _fast_model_state(ref):
    return (ref.snapshot(), ref.current_player(), PHASE_IDS[ref.phase], ref.move_count,
            ref.finished, ref.truncated)


def _full_compare(game, seed, engine, ref, action=None):
    """Everything, including round trips of each side's dict through the other."""
    ed, md = engine.to_dict(), ref.to_dict()
    if ed != md:
        _fail("to_dict differs", game, seed, engine, ref, action)
    if engine.legal_actions() != ref.legal_actions():
        _fail(f"legal actions differ: engine {engine.legal_actions()}, model {ref.legal_actions()}",
              game, seed, engine, ref, action)
    assert ref.returns() == pytest.approx(engine.returns(), abs=1e-12)
    assert ref.is_terminal() == engine.is_terminal()
    assert ref.finish_order() == engine.finish_order()
    # the model reads the engine's dict, the engine reads the model's
    back = ModelState.from_dict(json.loads(json.dumps(ed)))
    assert back.to_dict() == ed
    assert back.legal_actions() == ref.legal_actions()
    assert threes.State.from_dict(md) == engine
    # a clone is equal and independent
    clone = ref.clone()
    assert clone.to_dict() == md
    legal = ref.legal_actions()
    if legal:
        clone.apply_action(legal[0])
        assert ref.to_dict() == md
    # every other legal action leads to the same child position on both sides
    try:
        _compare_children(engine, ref)
    except AssertionError as e:
        raise AssertionError(f"rules {game.rules.to_dict()}, seed {seed}, move {engine.move_number()}: {e}")
    # an illegal action is refused by both, leaving them unchanged
    illegal = next((a for a in range(game.num_distinct_actions()) if a not in legal), None)
    if illegal is not None:
        with pytest.raises(ValueError):
            ref.apply_action(illegal)
        with pytest.raises(threes.IllegalActionError):
            engine.apply_action(illegal)
        assert ref.to_dict() == md and engine.to_dict() == ed


def _compare_children(engine, ref, depth=1, full=False):
    """Applies every legal action to clones of both and compares the children
    (recursively, to ``depth`` plies)."""
    legal = engine.legal_actions()
    assert legal == ref.legal_actions(), f"legal actions differ in {json.dumps(engine.to_dict())}"
    for action in legal:
        child, ref_child = engine.clone(), ref.clone()
        child.apply_action(action)
        ref_child.apply_action(action)
        same = (child.to_dict() == ref_child.to_dict() and child.returns() == ref_child.returns()) if full \
            else _fast_state(child) == _fast_model_state(ref_child)
        if not same:
            raise AssertionError(
                f"after action {action} ({engine.action_to_string(action)}) from\n"
                f"{json.dumps(engine.to_dict())}\nthe positions differ:\n"
                + _dict_diff(child.to_dict(), ref_child.to_dict()))
        if depth > 1:
            _compare_children(child, ref_child, depth - 1, full)


def play_both(game, seed, stats):
    """One random game through the engine and the model, compared after every action."""
    rules = game.rules
    engine = game.new_initial_state(seed)
    ref = ModelState.deal(rules.to_dict(), game.num_players(), seed, dealer=engine.dealer,
                          max_moves=game.max_game_length())
    _full_compare(game, seed, engine, ref)
    rng = random.Random(seed)
    sampler = random.Random(~seed)  # a separate stream: sampling does not change the game
    merge = rules.merge_hand_with_face_up
    copies = 4 * rules.decks
    while not engine.is_terminal():
        legal = engine.legal_actions()
        if legal != ref.legal_actions():
            _fail(f"legal actions differ: engine {legal}, model {ref.legal_actions()}",
                  game, seed, engine, ref)
        action = legal[rng.randrange(len(legal))]
        if merge and ref.phase == "play" and action < 14 * copies:
            rank, count = divmod(action, copies)
            hand = ref.hands[ref.current]
            if hand and count + 1 > sum(1 for k in hand if k >> 2 == rank):
                stats["merges"] += 1
        engine.apply_action(action)
        ref.apply_action(action)
        if _fast_state(engine) != _fast_model_state(ref):
            _fail("positions differ", game, seed, engine, ref, action)
        if sampler.random() < FULL_COMPARE_PROBABILITY:
            _full_compare(game, seed, engine, ref, action)
    if not ref.is_terminal():
        _fail("the engine's game is over, the model's is not", game, seed, engine, ref)
    _full_compare(game, seed, engine, ref)
    stats["games"] += 1
    stats["moves"] += engine.move_number()
    stats["truncated"] += engine.is_truncated()
    return engine


def _new_stats():
    return {"games": 0, "moves": 0, "truncated": 0, "merges": 0}


# ---------------------------------------------------------- the presets --

_GAMES = {}


def _game(players, rules, max_moves=None, dealer=None):
    key = (players, rules, max_moves, dealer)
    if key not in _GAMES:
        _GAMES[key] = threes.Game(players, rules, max_moves=max_moves, dealer=dealer)
    return _GAMES[key]


MAIN_CHUNKS = [(preset, chunk) for preset in CHUNKS for chunk in range(CHUNKS[preset])]


# the quick suite plays each preset's first chunk (100 to 250 games); the full suite all 5,000
@pytest.mark.parametrize("preset,chunk", [pytest.param(p, c, marks=pytest.mark.full if c else (), id=f"{p}-{c}")
                                          for p, c in MAIN_CHUNKS])
def test_random_games_engine_equals_model(preset, chunk, record_property):
    """GAMES_PER_PRESET games per preset, player counts 2..5 in turn, seeds 0.."""
    rules = threes.Rules.preset(preset)
    size = -(-GAMES_PER_PRESET // CHUNKS[preset])
    seeds = range(chunk * size, min(GAMES_PER_PRESET, (chunk + 1) * size))
    stats = _new_stats()
    for seed in seeds:
        play_both(_game(2 + seed % 4, rules), seed, stats)
    record_property("truncated_games", (f"differential {preset}", stats["truncated"], stats["games"],
                                        stats["moves"]))
    assert stats["games"] == len(seeds)


def test_every_preset_plays_the_promised_number_of_games():
    sizes = {p: -(-GAMES_PER_PRESET // c) for p, c in CHUNKS.items()}
    for preset, chunks in CHUNKS.items():
        covered = set()
        for chunk in range(chunks):
            covered.update(range(chunk * sizes[preset], min(GAMES_PER_PRESET, (chunk + 1) * sizes[preset])))
        assert covered == set(range(GAMES_PER_PRESET)) and GAMES_PER_PRESET >= 5000


# ------------------------------------------- other parameters, on top --

VARIANT_GAMES = 200
VARIANTS = [
    ("threes", {"merge_hand_with_face_up": True}),
    ("threes", {"burner_plays_again": False}),
    ("threes", {"pickup_then_play": False}),
    ("threes", {"invisible_in_runs": "break"}),
    ("threes", {"lower_strict": True}),
    ("threes", {"start": "rank-suit", "start_suits": ["s", "h"], "start_ranks": ["X", "A", "K"], "jokers": 1}),
    ("classic", {"merge_hand_with_face_up": True}),
    ("classic", {"burner_plays_again": False}),
    ("classic", {"pickup_then_play": True}),
    ("classic", {"invisible_in_runs": "skip"}),
    ("classic", {"lower_strict": True}),
    ("classic", {"decks": 2, "start_ranks": ["A"], "start_suits": ["s"]}),
    ("dutch", {"merge_hand_with_face_up": True, "pickup_then_play": False}),
    ("dutch", {"burner_plays_again": False}),
    ("dutch", {"pickup_then_play": False}),
    ("dutch", {"invisible_in_runs": "skip", "run_to_burn": 3}),
    ("dutch", {"lower_strict": False}),
    ("dutch", {"cards_per_zone": 2, "start": "rank-from-dealer", "jokers": 2, "wild": ["2", "X"],
               "burn": ["T", "X"]}),
]


def _variant_id(preset, overrides):
    return preset + "-" + "-".join(f"{k}={v if not isinstance(v, list) else ''.join(v)}"
                                   for k, v in overrides.items())


#: the variants' games in two parts: the quick suite plays the first (games 0..29), the full suite both
VARIANT_PARTS = [range(0, 30), range(30, VARIANT_GAMES)]


@pytest.mark.parametrize("part", [pytest.param(0), pytest.param(1, marks=pytest.mark.full)])
@pytest.mark.parametrize("preset,overrides", VARIANTS, ids=[_variant_id(p, o) for p, o in VARIANTS])
def test_random_games_with_other_parameters(preset, overrides, part, record_property):
    """VARIANT_GAMES games per variant: 2..5 players, every third game with
    another dealer, every seventh with a move cap of 400 and every
    twenty-fifth with a cap of 1 to 12 (truncated in the swap phase or just
    after); seeds from the top of the 64-bit range."""
    rules = threes.Rules.preset(preset, **overrides)
    stats = _new_stats()
    games = VARIANT_PARTS[part]
    for i in games:
        players = 2 + i % 4
        dealer = (i // 3) % players if i % 3 == 0 else None
        max_moves = 1 + i % 12 if i % 25 == 0 else (400 if i % 7 == 0 else None)
        seed = (1 << 64) - 1 - i
        play_both(_game(players, rules, max_moves, dealer), seed, stats)
    record_property("truncated_games", (f"differential {_variant_id(preset, overrides)}"[:60],
                                        stats["truncated"], stats["games"], stats["moves"]))
    assert stats["truncated"] >= sum(i % 25 == 0 for i in games)  # the small caps did truncate
    if rules.merge_hand_with_face_up:
        assert stats["merges"] > 0, "no game played hand and face-up cards together"


# ------------------------------------------------- the model's helpers --

def test_model_prng_is_the_engines():
    from threes.shithead import _core

    for seed in (0, 1, 42, 2**63, 2**64 - 1):
        x = model.Xoshiro256(seed)
        assert [x.next() for _ in range(20)] == _core.rng_outputs(seed, 20)


@pytest.mark.parametrize("preset", list(CHUNKS))
def test_play_random_makes_the_same_game_as_the_engine(preset):
    for seed in range(10):
        players = 2 + seed % 4
        ref = model.play_random(ModelState.deal(preset, players, seed), random.Random(seed))
        engine = threes.Game(players, preset).new_initial_state(seed)
        rng = random.Random(seed)
        while not engine.is_terminal():
            legal = engine.legal_actions()
            engine.apply_action(legal[rng.randrange(len(legal))])
        assert ref.to_dict() == engine.to_dict()
        assert ref.returns() == pytest.approx(engine.returns(), abs=1e-12)


# ------------------------------------ rare corners, from built positions --
# Random play seldom reaches some corners of the rules (a merge offered while
# the draw pile still holds cards, the move cap reached by a finishing move,
# ...). Each position below is loaded into both implementations, and every
# line of play three plies deep is compared in full (to_dict and returns).

def _full_deck(rules):
    cards = []
    for _ in range(rules.decks):
        cards += [r + s for r in "23456789TJQKA" for s in "cdhs"]
        cards += ["Xr", "Xb"][: rules.jokers]
    return cards


def _position(rules, n=2, *, hands, up, down, known=None, pile=(), draw=(), current=0, finish=(),
              move_count=0, max_moves=None):
    """A position dict holding the given zones; every other card is burned."""
    rules = threes.Rules.coerce(rules)
    rest = list(_full_deck(rules))
    placed = [c for zone in (hands, up) for seat in zone for c in seat]
    placed += [c for seat in down for c in seat if c is not None] + list(pile) + list(draw)
    for c in placed:
        rest.remove(c)
    d = {"rules": rules.to_dict(), "num_players": n, "phase": "play", "current_player": current,
         "move_count": move_count, "finish_order": list(finish), "hands": hands,
         "known": known or [[] for _ in range(n)], "face_up": up, "face_down": down,
         "pile": list(pile), "draw_pile": list(draw),
         "burned": sorted(rest, key=model.parse_card)}
    if max_moves is not None:
        d["max_moves"] = max_moves
    return d


MERGE_THREES = threes.Rules.preset("threes", merge_hand_with_face_up=True)
CORNERS = {
    # 6.2 merge: draw pile empty, the hand all 5s: 5x1, 5x2 from the hand, 5x3, 5x4 with face-up 5s.
    "merge-offered": _position(MERGE_THREES, hands=[["5c", "5d"], ["Kc", "Kd", "Ks"]],
                               up=[["5h", "5s", "9c"], ["Ac", "Ad", "As"]],
                               down=[["4c", "6c", "Jc"], ["4d", "6d", "Jd"]], pile=["4h"]),
    # ... not while the draw pile holds cards
    "merge-not-with-draw-pile": _position(MERGE_THREES, hands=[["5c", "5c", "5d"], ["Kc", "Kd", "Ks"]],
                                          up=[["5h", "5s", "9c"], ["Ac", "Ad", "As"]],
                                          down=[["4c", "6c", "Jc"], ["4d", "6d", "Jd"]], pile=["4h"],
                                          draw=["Qc"]),
    # ... nor with a mixed hand, nor on a pile the rank may not go on (then: pick up)
    "merge-not-with-mixed-hand": _position(MERGE_THREES, hands=[["5c", "6d"], ["Kc", "Kd", "Ks"]],
                                           up=[["5h", "5s", "9c"], ["Ac", "Ad", "As"]],
                                           down=[["4c", "6c", "Jc"], ["4d", "6d", "Jd"]], pile=["4h"]),
    "merge-rank-not-playable": _position(MERGE_THREES, hands=[["5c"], ["Kc", "Kd", "Ks"]],
                                         up=[["5h", "5s", "9c"], ["Ac", "Ad", "As"]],
                                         down=[["4c", "6c", "Jc"], ["4d", "6d", "Jd"]], pile=["Qh"]),
    # 6.3 step 1, D-5: threes runs skip the 8s (5 5 8 5 8 + 5 burns), four 8s do not burn
    "run-skips-invisible": _position("threes", hands=[["5s", "8s", "Kc"], ["Kd", "Ks", "Ah"]],
                                     up=[["9c"], ["9d"]], down=[["4c"], ["4d"]],
                                     pile=["5c", "5d", "8c", "5h", "8d"]),
    "four-8s-do-not-burn": _position("threes", hands=[["8s", "Kc", "Qc"], ["Kd", "Ks", "Ah"]],
                                     up=[["9c"], ["9d"]], down=[["4c"], ["4d"]],
                                     pile=["6c", "8c", "8d", "8h"]),
    # the same piles with invisible cards breaking runs
    "run-broken-by-invisible": _position(threes.Rules.preset("threes", invisible_in_runs="break"),
                                         hands=[["5s", "8s", "Kc"], ["Kd", "Ks", "Ah"]],
                                         up=[["9c"], ["9d"]], down=[["4c"], ["4d"]],
                                         pile=["5c", "5d", "8c", "8d", "8h"]),
    # D-6: a 7 under 8s still means lower; lower_strict (dutch 7)
    "lower-under-invisible": _position("threes", hands=[["7s", "6s", "Kc"], ["Kd", "Ks", "Ah"]],
                                       up=[["9c"], ["9d"]], down=[["4c"], ["4d"]],
                                       pile=["7c", "8c", "8d"]),
    "lower-strict": _position("dutch", hands=[["7s", "6s", "2c", "Kc"], ["Kd", "Ks", "Ah"]],
                              up=[["9c"], ["9d"]], down=[["4c"], ["4d"]], pile=["7c", "9h"]),
    # 6.2: blind cards; an unplayable one is picked up with the pile, known, and the turn passes (classic)
    "blind-unplayable-classic": _position("classic", hands=[[], ["Kd", "Ks", "Ah"]], up=[[], ["9d"]],
                                          down=[["4c", None, "Ac"], ["4d"]], pile=["9h", "Qh"]),
    "blind-unplayable-threes": _position("threes", hands=[[], ["Kd", "Ks", "Ah"]], up=[[], ["9d"]],
                                         down=[["4c", None, "Xr"], ["4d"]], pile=["9h", "Qh"]),
    # 6.3 step 2: refill from the end of the draw pile; known cards leave the hand first
    "refill-and-known-first": _position("classic", hands=[["6c", "6d", "6h", "Ks"], ["Kd", "Qs", "Ah"]],
                                        known=[["6h", "Ks"], []], up=[["9c"], ["9d"]],
                                        down=[["4c"], ["4d"]], pile=["5s"], draw=["2c", "Jc", "Qd"]),
    # 7: a finishing move on the last allowed move is a normal finish ...
    "cap-reached-by-finishing-move": _position("threes", 2, hands=[["Ac"], ["Kd"]], up=[[], ["5c"]],
                                               down=[[], ["4d"]], pile=["9h"], move_count=99, max_moves=100),
    # ... any other last move truncates, also one that puts a player out with two still in
    "cap-reached-by-going-out": _position("threes", 3, hands=[["Ac"], ["Kd"], ["Qs"]],
                                          up=[[], [], ["5c"]], down=[[], ["4d"], []],
                                          pile=["9h"], move_count=99, max_moves=100),
    # (one seat out: the others share places 1 and 2)
    "cap-truncates": _position("threes", 3, hands=[[], ["Kd", "Qd"], ["Qs"]], up=[[], [], ["5c"]],
                               down=[[], ["4d"], []], pile=["9h"], current=1, finish=[0],
                               move_count=99, max_moves=100),
    # 6.3 steps 3-4: a burner who goes out passes the turn; the last player left is the shithead
    "burn-and-out": _position("classic", 3, hands=[["Tc"], ["Kd"], []], up=[[], [], ["5c"]],
                              down=[[], [], ["4d"]], pile=["9h"], finish=[]),
}


@pytest.mark.parametrize("name", list(CORNERS))
def test_built_positions_engine_equals_model(name):
    d = CORNERS[name]
    engine = threes.State.from_dict(d)
    ref = ModelState.from_dict(d)
    assert ref.to_dict() == engine.to_dict()
    _compare_children(engine, ref, depth=3, full=True)


def test_built_positions_follow_rules_md():
    """A few outcomes of the corners above, as RULES.md states them."""
    def after(name, text):
        ref = ModelState.from_dict(CORNERS[name])
        engine = threes.State.from_dict(CORNERS[name])
        action = engine.string_to_action(text)
        ref.apply_action(action)
        return ref

    strings = {name: sorted(threes.State.from_dict(d).action_to_string(a)
                            for a in ModelState.from_dict(d).legal_actions())
               for name, d in CORNERS.items()}
    assert strings["merge-offered"] == ["5x1", "5x2", "hand+up 5x3", "hand+up 5x4"]
    assert strings["merge-not-with-draw-pile"] == ["5x1", "5x2", "5x3"]
    assert "hand+up" not in " ".join(strings["merge-not-with-mixed-hand"])
    assert strings["merge-rank-not-playable"] == ["pickup"]
    assert after("run-skips-invisible", "5x1").pile == []
    assert len(after("four-8s-do-not-burn", "8x1").pile) == 5
    assert len(after("run-broken-by-invisible", "5x1").pile) == 6
    assert "6x1" in strings["lower-under-invisible"] and "Kx1" not in strings["lower-under-invisible"]
    assert "7x1" not in strings["lower-strict"] and "6x1" in strings["lower-strict"]
    s = after("blind-unplayable-classic", "blind 0")
    assert s.current_player() == 1 and s.known[0] == sorted(map(model.parse_card, ["4c", "9h", "Qh"]))
    s = after("refill-and-known-first", "6x2")
    assert s.pile[-2:] == [model.parse_card("6h"), model.parse_card("6c")]
    assert sorted(map(model.card_text, s.hands[0])) == sorted(["6d", "Ks", "Qd"])
    s = after("cap-reached-by-finishing-move", "Ax1")
    assert s.is_terminal() and not s.is_truncated() and s.returns() == [1.0, -1.0]
    s = after("cap-reached-by-going-out", "Ax1")
    assert s.is_truncated() and s.finish_order() == [0] and s.returns() == [1.0, -0.5, -0.5]
    s = after("cap-truncates", "Kx1")
    assert s.is_truncated() and s.returns() == [1.0, -0.5, -0.5]
    s = after("burn-and-out", "Tx1")
    assert s.finish_order() == [0] and s.current_player() == 1 and s.pile == []
