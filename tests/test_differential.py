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
The full ``to_dict()`` (and the returns, and round trips of each side's dict
through the other side) is compared at the end of every game and at a random
sample of moves. Further games vary the other parameters (merge, burner plays
again, pick-up-then-play, runs, strict lower, start rules, dealer, small move
caps) on top of the preset games.

Each action is chosen with ``random.Random(seed)`` from the engine's legal
actions, as ``legal[rng.randrange(len(legal))]`` (the same choice as the
model's ``play_random``).

A failure names the rules, the player count, the seed and the move, shows the
position before the move (replayed from the seed), and which parts of the
position differ afterwards.
"""
import importlib.util
import json
import pathlib
import random
import sys

import pytest

import threes


def _load_model():
    # The model lives in the package's source tree; the installed package may
    # predate it, so it is loaded from its file. It imports nothing of threes.
    path = pathlib.Path(__file__).resolve().parents[1] / "python" / "threes" / "model.py"
    spec = importlib.util.spec_from_file_location("threes_reference_model", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


model = _load_model()
ModelState = model.ModelState

GAMES_PER_PRESET = 5000
# Chunks per preset, for pytest-xdist (dutch games are the longest).
CHUNKS = {"dutch": 25, "threes": 10, "classic": 5}
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
    parts.append("differences after it:\n" + _dict_diff(engine.to_dict(), ref.to_dict()))
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
    # an illegal action is refused by both, leaving them unchanged
    illegal = next((a for a in range(game.num_distinct_actions()) if a not in legal), None)
    if illegal is not None:
        with pytest.raises(ValueError):
            ref.apply_action(illegal)
        with pytest.raises(threes.IllegalActionError):
            engine.apply_action(illegal)
        assert ref.to_dict() == md and engine.to_dict() == ed


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


@pytest.mark.parametrize("preset,chunk", MAIN_CHUNKS, ids=[f"{p}-{c}" for p, c in MAIN_CHUNKS])
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


@pytest.mark.parametrize("preset,overrides", VARIANTS, ids=[_variant_id(p, o) for p, o in VARIANTS])
def test_random_games_with_other_parameters(preset, overrides, record_property):
    """VARIANT_GAMES games per variant: 2..5 players, every third game with
    another dealer, every seventh with a move cap of 400 and every
    twenty-fifth with a cap of 1 to 12 (truncated in the swap phase or just
    after); seeds from the top of the 64-bit range."""
    rules = threes.Rules.preset(preset, **overrides)
    stats = _new_stats()
    for i in range(VARIANT_GAMES):
        players = 2 + i % 4
        dealer = (i // 3) % players if i % 3 == 0 else None
        max_moves = 1 + i % 12 if i % 25 == 0 else (400 if i % 7 == 0 else None)
        seed = (1 << 64) - 1 - i
        play_both(_game(players, rules, max_moves, dealer), seed, stats)
    record_property("truncated_games", (f"differential {_variant_id(preset, overrides)}"[:60],
                                        stats["truncated"], stats["games"], stats["moves"]))
    assert stats["truncated"] >= VARIANT_GAMES // 25  # the small caps did truncate
    if rules.merge_hand_with_face_up:
        assert stats["merges"] > 0, "no game played hand and face-up cards together"


# ------------------------------------------------- the model's helpers --

def test_model_prng_is_the_engines():
    from threes import _core

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
