"""Bots (threes.bots), play_game and tournaments (threes.tournament).

What is checked: every bot returns a legal action in every kind of position
(swap, play from the hand, from the face-up cards, blind; 2 to 5 players; all
presets); no bot depends on cards its player cannot see (the same action in
two positions the player cannot tell apart); the ISMCTS search keeps the
promises of src/threes_core/common/ismcts.h (iteration and node counts, root visits,
the most visited child, the node budget, the time limit, determinism) and
finds a clearly best move; play_game hands bots only resampled views and
plays reproducibly; tournaments rotate seats over duplicate deals, report
consistent statistics and do not depend on the number of worker threads.
"""
from __future__ import annotations

import json
import random
import time
from collections import Counter

import numpy as np
import pytest
import threes
from threes import IllegalActionError, Phase, State
from threes.bots import (
    Bot,
    GreedyBot,
    HeuristicBot,
    ISMCTSBot,
    PolicyBot,
    RandomBot,
    make_bot,
    play_game,
)

PRESETS = ("threes", "classic", "dutch")
PLAYERS = (2, 3, 4, 5)
CATEGORIES = ("swap", "hand", "face_up", "blind")
RANK_CHARS = "23456789TJQKA"


# ---------------------------------------------------------------- helpers --


def category(state):
    """Which kind of decision the player to move faces."""
    if state.phase is Phase.SWAP:
        return "swap"
    p = state.current_player()
    if state.hand_size(p):
        return "hand"
    if state.face_up(p):
        return "face_up"
    return "blind"


def random_trace(game, seed):
    """Every live state of one game played with uniformly random legal moves."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.fixture(scope="module")
def positions():
    """{(preset, players, category): [states]}: up to 4 evenly spaced live
    states of each kind from two random games per preset and player count."""
    out = {}
    for preset in PRESETS:
        for n in PLAYERS:
            game = threes.Game(n, preset)
            found = {}
            for seed in (101, 202):
                for s in random_trace(game, seed * n):
                    found.setdefault(category(s), []).append(s)
            for cat, states in found.items():
                step = max(1, len(states) // 4)
                out[(preset, n, cat)] = states[::step][:4]
    return out


def all_positions(positions):
    return [s for key in sorted(positions) for s in positions[key]]


def full_deck(preset):
    rules = threes.Rules.preset(preset)
    kinds = [r + s for r in RANK_CHARS for s in "cdhs"] + ["Xr", "Xb"][: rules.jokers]
    return Counter({k: rules.decks for k in kinds})


def endgame(preset, hands, face_down, pile, current=0):
    """A play-phase position with an empty draw pile and no face-up cards;
    every card not placed is burned."""
    n = len(hands)
    placed = Counter(c for h in hands for c in h) + Counter(c for d in face_down for c in d if c)
    placed += Counter(pile)
    rest = full_deck(preset) - placed
    d = {
        "rules": preset, "num_players": n, "phase": "play", "current_player": current,
        "hands": hands, "face_up": [[] for _ in range(n)], "face_down": face_down,
        "pile": pile, "draw_pile": [], "burned": sorted(rest.elements()),
    }
    return State.from_dict(d)


def go_out_now(preset):
    """Seat 0 (2 players) holds Kc Kd Kh on a 5: Kx3 goes out and wins at
    once; Kx1 or Kx2 lets seat 1 (Ac Ad, all it has) go out first."""
    return endgame(preset, [["Kc", "Kd", "Kh"], ["Ac", "Ad"]], [[None] * 3, [None] * 3], ["5c"])


def burn_then_go_out(preset):
    """Seat 0 of 3 holds Tc 9d 9h on a 5. Tx1 burns the pile (T burns in every
    preset), the burner plays again and 9x2 on the open pile goes out: a sure
    win. 9x1 / 9x2 first give seat 1 (one card, hidden from seat 0) the move;
    seat 2 has hidden hand and face-down cards."""
    return endgame(preset, [["Tc", "9d", "9h"], ["Ac"], ["4d", "6h", "Js"]],
                   [[None] * 3, [None] * 3, ["Qd", "7c", "3s"]], ["5c"])


def play_phase_state(preset="threes", n=4, seed=3, min_legal=3):
    """A play-phase state with at least `min_legal` legal actions."""
    game = threes.Game(n, preset)
    for s in random_trace(game, seed):
        if s.phase is Phase.PLAY and len(s.legal_actions()) >= min_legal:
            return s
    raise AssertionError("no such state in the sample game")  # pragma: no cover


def finished_state(preset="threes", n=3, seed=5):
    game = threes.Game(n, preset)
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    return s


def check_search(result, state, iterations):
    """The promises of ismcts.h for a search without a time limit and with
    room for every node."""
    legal = state.legal_actions()
    children = result["children"]
    actions = [a for a, _, _ in children]
    assert result["iterations"] == iterations
    assert 2 <= result["nodes"] <= iterations + 1
    assert len(actions) == len(set(actions))
    assert set(actions) <= set(legal)
    # Every iteration adds one visit to the root and to the one root child it
    # expands or selects, so the root children's visits add up to the
    # iterations.
    assert sum(v for _, v, _ in children) == iterations
    assert all(v >= 1 for _, v, _ in children)
    assert all(-1.0 <= q <= 1.0 for _, _, q in children)
    # Sorted by visits, most visited first.
    assert [v for _, v, _ in children] == sorted((v for _, v, _ in children), reverse=True)
    top = max(v for _, v, _ in children)
    assert result["action"] == min(a for a, v, _ in children if v == top)
    # Enough iterations to try every root action once.
    if iterations >= len(legal):
        assert set(actions) == set(legal)


def bot_factories():
    return {
        "random": lambda seed: RandomBot(seed),
        "greedy": lambda seed: GreedyBot(seed),
        "heuristic": lambda seed: HeuristicBot(seed),
        "ismcts": lambda seed: ISMCTSBot(40, seed=seed),
        "ismcts-greedy-rollouts": lambda seed: ISMCTSBot(25, rollout_policy="greedy", exploration=1.2, seed=seed),
    }


class SpyBot(Bot):
    """Plays uniformly at random with its own rng and records what it is
    given: every view (the object itself), the seat and, at its first step
    of each game, the seat's hand and face-up cards."""

    def __init__(self, name="spy"):
        self.name = name
        self.views = []
        self.games = []  # per game (reset): list of (seat, hand, face_up) at each step
        self.seeds = []
        self._rng = random.Random(0)

    def reset(self, seed=None):
        self.seeds.append(seed)
        self.games.append([])
        self._rng = random.Random(seed)

    def step(self, state):
        self.views.append(state)
        p = state.current_player()
        if self.games:
            self.games[-1].append((p, tuple(map(str, state.hand(p))), tuple(map(str, state.face_up(p))),
                                   state.phase))
        return self._rng.choice(state.legal_actions())


# ------------------------------------------------ 1. legal actions, specs --


def test_positions_cover_every_phase_preset_and_player_count(positions):
    for preset in PRESETS:
        for n in PLAYERS:
            for cat in CATEGORIES:
                assert positions.get((preset, n, cat)), (preset, n, cat)


@pytest.mark.parametrize("name", list(bot_factories()))
def test_every_bot_returns_a_legal_action(positions, name):
    bot = bot_factories()[name](7)
    for key in sorted(positions):
        for s in positions[key]:
            before = s.to_dict()
            a = bot.step(s)
            assert isinstance(a, int), (name, key, a)
            assert a in s.legal_actions(), (name, key, a)
            assert s.to_dict() == before  # the bot does not change the state it is given


def test_ismcts_step_agrees_with_its_search(positions):
    bot = ISMCTSBot(30, seed=4)
    for s in all_positions(positions)[::5]:
        bot.last_search = None
        a = bot.step(s)
        if len(s.legal_actions()) > 1:
            assert bot.last_search is not None
            assert bot.last_search["action"] == a
            check_search(bot.last_search, s, 30)
        else:
            assert bot.last_search is None


@pytest.mark.parametrize("spec,cls,name", [
    ("random", PolicyBot, "random"),
    ("greedy", PolicyBot, "greedy"),
    ("heuristic", PolicyBot, "heuristic"),
    (" Greedy ", PolicyBot, "greedy"),
    ("ismcts", ISMCTSBot, "ismcts-1000"),
    ("ismcts:50", ISMCTSBot, "ismcts-50"),
    ("ISMCTS:7", ISMCTSBot, "ismcts-7"),
])
def test_make_bot_specs(spec, cls, name):
    bot = make_bot(spec, seed=3)
    assert isinstance(bot, cls)
    assert bot.name == name
    s = play_phase_state()
    assert bot.step(s) in s.legal_actions()
    if cls is ISMCTSBot:
        assert bot.iterations == int(name.split("-")[1])


def test_make_bot_seed_and_custom_objects():
    s = play_phase_state(min_legal=4)
    # make_bot's seed seeds the bot as the class's own seed does.
    a = [make_bot("random", seed=k).step(s) for k in range(30)]
    b = [RandomBot(k).step(s) for k in range(30)]
    assert a == b and len(set(a)) > 1

    class Lowest:
        name = "lowest"

        def step(self, state):
            return min(state.legal_actions())

    custom = Lowest()
    assert make_bot(custom) is custom
    spy = SpyBot()
    assert make_bot(spy) is spy
    g = GreedyBot()
    assert make_bot(g) is g


@pytest.mark.parametrize("spec", ["minimax", "", "random:5", "greedy:1", "ismcts:0", "ismcts:-3", "ismcts:x",
                                  "ismcts:1.5", "mcts"])
def test_make_bot_rejects_unknown_specs(spec):
    with pytest.raises(ValueError):
        make_bot(spec)


@pytest.mark.parametrize("spec", [object(), 42, None, ["random"], lambda s: 0])
def test_make_bot_rejects_objects_without_step(spec):
    with pytest.raises(TypeError):
        make_bot(spec)


@pytest.mark.parametrize("kwargs", [
    {"iterations": 0}, {"iterations": -1}, {"iterations": True}, {"iterations": False}, {"iterations": 1.5},
    {"iterations": "100"}, {"iterations": 2**32},
    {"time_limit": 0}, {"time_limit": 0.0}, {"time_limit": -1}, {"time_limit": -0.5}, {"time_limit": float("nan")},
    {"exploration": -0.1}, {"exploration": -1}, {"exploration": float("nan")}, {"exploration": float("inf")},
    {"time_limit": float("inf")},
    {"rollout_policy": "minimax"}, {"rollout_policy": "Random"}, {"rollout_policy": ""},
    {"max_nodes": 0}, {"max_nodes": -5},
])
def test_ismcts_rejects_bad_settings(kwargs):
    with pytest.raises(ValueError):
        ISMCTSBot(**kwargs)


def test_ismcts_accepts_good_settings():
    s = play_phase_state()
    for kwargs in ({"iterations": np.int64(20)}, {"exploration": 0}, {"time_limit": 5.0, "iterations": 20},
                   {"rollout_policy": "heuristic", "iterations": 20}, {"max_nodes": 3, "iterations": 20}):
        bot = ISMCTSBot(**kwargs)
        assert bot.step(s) in s.legal_actions()


def test_policy_bot_rejects_unknown_policy():
    with pytest.raises(ValueError):
        PolicyBot("minimax")
    for p in threes.POLICIES:
        assert PolicyBot(p).name == p


# --------------------------------------------------- 2. no hidden cards --


def test_bots_do_not_use_hidden_cards(positions):
    """Two positions the player to move cannot tell apart (s and a resample
    of s from its view) get the same action from every bot reset with the
    same seed."""
    factories = bot_factories()
    pairs = differ = 0
    for key in sorted(positions):
        for i, s in enumerate(positions[key][:3]):
            p = s.current_player()
            for k in (1, 2):
                t = s.resample_from_infostate(p, 1000 * i + k)
                assert t.information_state_string(p) == s.information_state_string(p)
                assert t.legal_actions() == s.legal_actions()
                pairs += 1
                differ += t != s
                for name, make in factories.items():
                    bot = make(0)
                    for seed in (11, 12):
                        bot.reset(seed)
                        a = bot.step(s)
                        bot.reset(seed)
                        b = bot.step(t)
                        assert a == b, (name, key, seed, s.action_to_string(a), s.action_to_string(b))
    # The check means something: the hidden cards were mostly dealt differently.
    assert differ >= 0.8 * pairs


def test_ismcts_search_does_not_use_hidden_cards(positions):
    """search() gives the identical root statistics on s and on a resample."""
    for key in sorted(positions):
        s = positions[key][0]
        p = s.current_player()
        t = s.resample_from_infostate(p, 77)
        assert t.information_state_string(p) == s.information_state_string(p)
        for kwargs in ({"iterations": 60}, {"iterations": 40, "rollout_policy": "heuristic"}):
            bot = ISMCTSBot(seed=5, **kwargs)
            rs = bot.search(s)
            bot.reset(5)
            rt = bot.search(t)
            assert rs == rt, key


def test_ismcts_is_deterministic_without_a_time_limit():
    s = play_phase_state(min_legal=4)
    bot = ISMCTSBot(150, seed=21)
    first = dict(bot.search(s))
    bot.reset(21)
    assert bot.search(s) == first
    assert ISMCTSBot(150, seed=21).search(s) == first
    # A fresh bot with the same seed makes the same moves in sequence.
    b1, b2 = ISMCTSBot(30, seed=8), ISMCTSBot(30, seed=8)
    for t in random_trace(threes.Game(3, "classic"), 4)[::40]:
        assert b1.step(t) == b2.step(t)


def test_ismcts_different_seeds_may_differ():
    s = play_phase_state(min_legal=4)
    results = {repr(ISMCTSBot(100, seed=k).search(s)["children"]) for k in range(8)}
    assert len(results) > 1


# ------------------------------------------------------ 3. search details --


@pytest.mark.parametrize("preset,n,seed", [("threes", 4, 3), ("classic", 2, 8), ("dutch", 5, 1), ("threes", 3, 9)])
@pytest.mark.parametrize("iterations", [1, 7, 120])
def test_ismcts_search_statistics(preset, n, seed, iterations):
    s = play_phase_state(preset, n, seed, min_legal=3)
    swap = threes.Game(n, preset).new_initial_state(seed)
    for state in (s, swap):
        before = state.to_dict()
        bot = ISMCTSBot(iterations, seed=seed)
        r = bot.search(state)
        assert r is bot.last_search
        check_search(r, state, iterations)
        assert state.to_dict() == before  # the search does not change its root


def test_ismcts_one_iteration_tries_one_action():
    s = play_phase_state(min_legal=3)
    r = ISMCTSBot(1, seed=1).search(s)
    assert r["nodes"] == 2
    assert len(r["children"]) == 1
    assert r["children"][0][1] == 1
    assert r["action"] == r["children"][0][0]


@pytest.mark.parametrize("max_nodes", [2, 3, 5, 8, 40])
def test_ismcts_small_node_budget(max_nodes):
    """With a full node array the search still runs every iteration and
    returns a legal action. The root's children are its first expansions:
    while the root has an untried action an iteration expands there, and
    once the array is full such an iteration adds no child and so credits
    no root child. So the children's visits add up to the iterations when
    the root's legal actions all fit (L <= max_nodes - 1); otherwise there
    are max_nodes - 1 children with one visit each."""
    for state in (play_phase_state(min_legal=3), threes.Game(4, "threes").new_initial_state(3)):
        legal = state.legal_actions()
        L = len(legal)
        bot = ISMCTSBot(200, max_nodes=max_nodes, seed=2)
        r = bot.search(state)
        assert r["iterations"] == 200
        assert r["nodes"] <= max_nodes
        children = r["children"]
        actions = [a for a, _, _ in children]
        assert len(actions) == len(set(actions)) and set(actions) <= set(legal)
        assert len(children) <= max_nodes - 1
        total = sum(v for _, v, _ in children)
        if L <= max_nodes - 1:
            assert total == 200
            assert set(actions) == set(legal)
        else:
            assert len(children) == max_nodes - 1
            assert [v for _, v, _ in children] == [1] * (max_nodes - 1)
            assert r["action"] == min(actions)
        assert r["action"] in legal
        assert bot.step(state) in legal


def test_ismcts_node_budget_of_one_still_gives_a_legal_action():
    """ISMCTSBot accepts max_nodes=1 (only max_nodes < 1 is rejected), so its
    step() must still return a legal action (Bot contract: step returns a
    legal action id for the player to move)."""
    for s in (play_phase_state(min_legal=3), threes.Game(4, "classic").new_initial_state(2)):
        bot = ISMCTSBot(50, max_nodes=1, seed=1)
        a = bot.step(s)
        assert a in s.legal_actions(), f"ISMCTSBot(50, max_nodes=1).step returned {a}, legal: {s.legal_actions()}"
        r = bot.last_search
        assert r["iterations"] == 50 and r["nodes"] == 1 and r["children"] == []
        # Still deterministic for a seed.
        assert ISMCTSBot(50, max_nodes=1, seed=1).step(s) == a


def test_ismcts_time_limit():
    s = threes.Game(4, "threes").new_initial_state(6)  # the longest rollouts: from the deal
    bot = ISMCTSBot(2**32 - 1, time_limit=0.05, max_nodes=200_000, seed=3)
    t0 = time.perf_counter()
    r = bot.search(s)
    elapsed = time.perf_counter() - t0
    assert elapsed < 0.8
    assert 1 <= r["iterations"] < 2**32 - 1
    assert r["nodes"] <= r["iterations"] + 1
    assert sum(v for _, v, _ in r["children"]) == r["iterations"]
    assert r["action"] in s.legal_actions()
    # step() too, in the play phase.
    p = play_phase_state(min_legal=3)
    t0 = time.perf_counter()
    assert bot.step(p) in p.legal_actions()
    assert time.perf_counter() - t0 < 0.8
    # A time limit longer than the iterations need: all iterations run.
    r = ISMCTSBot(50, time_limit=30.0, seed=1).search(p)
    assert r["iterations"] == 50


def test_ismcts_finished_game_raises():
    s = finished_state()
    assert s.is_terminal()
    bot = ISMCTSBot(20, seed=1)
    with pytest.raises(ValueError):
        bot.search(s)
    with pytest.raises(ValueError):
        bot.step(s)
    for b in (RandomBot(1), GreedyBot(1), HeuristicBot(1)):
        with pytest.raises(ValueError):
            b.step(s)


def test_ismcts_single_legal_action_is_returned_without_search():
    found = 0
    for seed in range(10):
        for s in random_trace(threes.Game(3, "classic"), seed):
            if len(s.legal_actions()) == 1:
                bot = ISMCTSBot(10**6, max_nodes=100, seed=1)  # a search would take many seconds
                t0 = time.perf_counter()
                assert bot.step(s) == s.legal_actions()[0]
                assert time.perf_counter() - t0 < 0.5
                assert bot.last_search is None
                found += 1
                if found >= 5:
                    return
    assert found, "no position with a single legal action found"


# ------------------------------------------------------- 4. not blind --


@pytest.mark.parametrize("preset", PRESETS)
def test_ismcts_goes_out_when_it_can(preset):
    s = go_out_now(preset)
    win = s.string_to_action("Kx3")
    assert sorted(s.legal_actions()) == sorted(s.string_to_action(m) for m in ("Kx1", "Kx2", "Kx3"))
    # Sanity of the position: Kx3 ends the game with seat 0 first.
    c = s.child(win)
    assert c.is_terminal() and c.finish_order()[0] == 0
    for seed in range(5):
        bot = ISMCTSBot(200, seed=seed)
        assert bot.step(s) == win
        values = {a: q for a, _, q in bot.last_search["children"]}
        assert values[win] == 1.0  # it wins in every determinization
        assert all(q < 1.0 for a, q in values.items() if a != win)


@pytest.mark.parametrize("preset", PRESETS)
def test_ismcts_burns_then_goes_out(preset):
    """Two plies deep and with hidden cards: Tx1 (burn, play again) then 9x2."""
    s = burn_then_go_out(preset)
    burn = s.string_to_action("Tx1")
    # Sanity of the position: the burn keeps seat 0 on move, then 9x2 wins.
    c = s.child(burn)
    assert c.current_player() == 0 and c.pile() == []
    c.apply_action(c.string_to_action("9x2"))
    assert c.finish_order() == [0]
    # The hidden cards are really unknown to seat 0.
    assert len({s.resample_from_infostate(0, k).hand(1)[0] for k in range(40)}) > 1
    for seed in range(6):
        assert ISMCTSBot(500, seed=seed).step(s) == burn, seed
        assert ISMCTSBot(300, rollout_policy="greedy", seed=seed).step(s) == burn, seed


# ------------------------------------------------------------ 5. play_game --


@pytest.mark.parametrize("preset,n", [("threes", 4), ("classic", 2), ("dutch", 5), ("threes", 3)])
def test_play_game_plays_to_the_end(preset, n):
    game = threes.Game(n, preset)
    state = game.new_initial_state(n)
    before = state.to_dict()
    makers = [RandomBot, GreedyBot, HeuristicBot]
    bots = [makers[q % 3](q) for q in range(n)]
    final = play_game(bots, state, seed=1)
    assert final is not state
    assert final.is_terminal()
    assert sorted(final.finish_order()) == list(range(n)) or final.is_truncated()
    assert state.to_dict() == before
    assert not state.is_terminal()
    # The final state is the input state played on with the recorded history.
    replay = state.clone()
    for a in final.history()[len(state.history()):]:
        replay.apply_action(a)
    assert replay == final


def test_play_game_with_ismcts():
    state = threes.Game(2, "classic").new_initial_state(12)
    final = play_game([ISMCTSBot(15, seed=1), RandomBot(2)], state, seed=3)
    assert final.is_terminal()
    assert not state.is_terminal()


def test_play_game_from_a_midgame_position():
    s = play_phase_state("dutch", 3, 2)
    before = s.to_dict()
    final = play_game([GreedyBot(1), GreedyBot(2), RandomBot(3)], s, seed=4)
    assert final.is_terminal()
    assert final.history()[: len(s.history())] == s.history()
    assert s.to_dict() == before


def test_play_game_wrong_number_of_bots():
    state = threes.Game(4, "threes").new_initial_state(1)
    for k in (0, 1, 3, 5):
        with pytest.raises(ValueError):
            play_game([RandomBot(q) for q in range(k)], state, seed=1)
    assert state.move_number() == 0


def test_play_game_is_reproducible():
    state = threes.Game(4, "threes").new_initial_state(33)

    def run(seed):
        bots = [RandomBot(1), HeuristicBot(2), ISMCTSBot(10, seed=3), GreedyBot(4)]
        return play_game(bots, state, seed=seed)

    a, b = run(5), run(5)
    assert a == b
    assert a.history() == b.history()
    assert a.finish_order() == b.finish_order()
    # Random bots: different bot seeds give different games.
    h = {tuple(play_game([RandomBot(k), RandomBot(k + 1)], threes.Game(2).new_initial_state(1), seed=1).history())
         for k in range(4)}
    assert len(h) > 1


def test_play_game_illegal_action_raises():
    state = threes.Game(3, "classic").new_initial_state(2)
    before = state.to_dict()

    class NotLegal:
        name = "not-legal"

        def step(self, s):
            legal = set(s.legal_actions())
            return next(a for a in range(s.num_distinct_actions()) if a not in legal)

    class OutOfRange:
        name = "out-of-range"

        def step(self, s):
            return s.num_distinct_actions() + 5

    class Negative:
        name = "negative"

        def step(self, s):
            return -1

    for bad in (NotLegal(), OutOfRange(), Negative()):
        with pytest.raises(IllegalActionError):
            play_game([RandomBot(1), bad, RandomBot(2)], state, seed=1)
    assert state.to_dict() == before
    # The bot at a later seat only plays once the earlier seats have moved.
    with pytest.raises(IllegalActionError):
        play_game([RandomBot(1), RandomBot(2), NotLegal()], state, seed=1)


@pytest.mark.parametrize("preset,n", [("threes", 4), ("classic", 3), ("dutch", 2)])
def test_play_game_hands_bots_only_resampled_views(preset, n):
    state = threes.Game(n, preset).new_initial_state(17)
    spies = [SpyBot(f"spy{q}") for q in range(n)]
    for q, spy in enumerate(spies):
        spy.reset(q)
    final = play_game(spies, state, seed=9)
    assert final.is_terminal()
    # Rebuild the true states in order and compare each with the view its
    # mover was handed.
    views = sorted(((v.move_number(), v) for spy in spies for v in spy.views), key=lambda x: x[0])
    moves = final.history()
    assert len(views) == len(moves)
    true = state.clone()
    ids = set()
    different = 0
    for k, (number, view) in enumerate(views):
        assert number == k
        assert isinstance(view, State)
        assert view is not state and view is not final
        assert id(view) not in ids  # a fresh object every time (the spies keep them alive)
        ids.add(id(view))
        p = true.current_player()
        assert view.current_player() == p
        assert view.information_state_string(p) == true.information_state_string(p)
        assert view.legal_actions() == true.legal_actions()
        assert view.history() == true.history()
        different += view != true
        true.apply_action(moves[k])
    assert true == final
    # The views are resampled: the hidden cards differ from the true ones in
    # most positions.
    assert different >= 0.7 * len(views)


def test_play_game_views_cannot_corrupt_the_game():
    """A bot that plays the move on the view it was given (as if it were the
    real state) changes nothing: the game is the same as with a bot that
    leaves the view alone."""
    state = threes.Game(3, "threes").new_initial_state(4)

    class Meddler(RandomBot):
        def step(self, s):
            a = super().step(s)
            s.apply_action(a)
            return a

    a = play_game([Meddler(1), RandomBot(2), Meddler(3)], state, seed=2)
    b = play_game([RandomBot(1), RandomBot(2), RandomBot(3)], state, seed=2)
    assert a == b and a.history() == b.history()


# ----------------------------------------------------------- 6. tournament --


def check_stats(result, n, games):
    assert result.num_players == n
    assert result.deals == games
    assert result.places.shape == (games, n, n)
    assert len(result.stats) == n
    assert [s["bot"] for s in result.stats] == result.bots
    assert len(set(result.bots)) == n
    for st in result.stats:
        mp = st["mean_place"]
        assert 0 <= mp["mean"] <= n - 1
        assert mp["low"] <= mp["mean"] <= mp["high"]
        for key in ("win_rate", "shithead_rate"):
            iv = st[key]
            assert 0 <= iv["mean"] <= 1
            assert iv["low"] <= iv["mean"] <= iv["high"]
    # Each game's places are 0..n-1 (truncated games share the open places,
    # which keeps the sum).
    assert np.allclose(result.places.sum(axis=2), n * (n - 1) / 2)
    assert np.isclose(sum(st["mean_place"]["mean"] for st in result.stats), n * (n - 1) / 2)
    if result.truncated == 0:
        for d in range(games):
            for r in range(n):
                assert sorted(result.places[d, r]) == list(range(n))
        assert np.isclose(sum(st["win_rate"]["mean"] for st in result.stats), 1.0)
        assert np.isclose(sum(st["shithead_rate"]["mean"] for st in result.stats), 1.0)


@pytest.mark.parametrize("bots", [["random", "greedy", "random", "greedy"], ["heuristic", "random", "greedy"]])
def test_tournament_small_run(bots):
    n = len(bots)
    result = threes.tournament(bots, games=3, seed=1)
    assert isinstance(result, threes.TournamentResult)
    check_stats(result, n, 3)
    assert result.rules == "threes"
    table = result.table()
    for name in result.bots:
        assert name in table
    assert str(result) == table
    for b in bots:
        assert any(name.startswith(b) for name in result.bots)


def test_tournament_rotates_seats_over_duplicate_deals():
    """Every bot plays every deal once from every seat, and the deal is the
    same in every rotation (each seat is dealt the same cards)."""
    n, games = 3, 4
    spies = [SpyBot(f"spy{b}") for b in range(n)]
    result = threes.tournament(spies, games=games, seed=5, rules="classic")
    check_stats(result, n, games)
    assert result.bots == ["spy0", "spy1", "spy2"]
    dealt = {}  # (deal, seat) -> (hand, face_up) as first seen
    for b, spy in enumerate(spies):
        assert len(spy.games) == games * n  # reset before every game
        assert len(set(spy.seeds)) == games * n  # with a fresh seed each time
        for d in range(games):
            seats = []
            for r in range(n):
                record = spy.games[d * n + r]
                assert record, "a bot made no move in a game (every seat decides in the swap phase)"
                seat = record[0][0]
                assert all(x[0] == seat for x in record)  # one seat per game
                assert seat == (b - r) % n
                seats.append(seat)
                first = record[0]
                assert first[3] is Phase.SWAP
                dealt.setdefault((d, seat), (first[1], first[2]))
                assert dealt[(d, seat)] == (first[1], first[2])
            assert sorted(seats) == list(range(n))
    # Different deals are different deals.
    assert len({dealt[(d, 0)] for d in range(games)}) == games


def test_tournament_spy_bots_see_only_views():
    spy = SpyBot("spy")
    threes.tournament([spy, "random"], games=2, seed=3, rules="dutch")
    assert spy.views
    assert len({id(v) for v in spy.views}) == len(spy.views)


def test_tournament_does_not_depend_on_workers():
    bots = ["random", "greedy", "ismcts:15"]
    r1 = threes.tournament(bots, games=4, seed=2, workers=1)
    r2 = threes.tournament(bots, games=4, seed=2, workers=2)
    assert np.array_equal(r1.places, r2.places)
    assert r1.truncated == r2.truncated
    assert r1.stats == r2.stats
    assert r1.bots == r2.bots
    check_stats(r1, 3, 4)
    # The same seed, the same tournament; another seed, other deals.
    r3 = threes.tournament(bots, games=4, seed=2)
    assert np.array_equal(r1.places, r3.places)
    r4 = threes.tournament(["random", "random", "random"], games=4, seed=2)
    r5 = threes.tournament(["random", "random", "random"], games=4, seed=3)
    assert not np.array_equal(r4.places, r5.places)


def test_tournament_with_bot_objects_is_reproducible():
    def run():
        return threes.tournament([RandomBot(), HeuristicBot(), GreedyBot()], games=3, seed=8, rules="dutch")

    a, b = run(), run()
    assert np.array_equal(a.places, b.places)
    assert a.bots == ["random", "heuristic", "greedy"]


def test_tournament_json_and_save(tmp_path):
    result = threes.tournament(["greedy", "random", "heuristic"], games=3, seed=4, rules="classic")
    data = result.to_json()
    text = json.dumps(data)
    back = json.loads(text)
    assert back["bots"] == result.bots
    assert back["games"] == 9 and back["deals"] == 3
    assert back["num_players"] == 3 and back["rules"] == "classic"
    assert len(back["stats"]) == 3
    path = tmp_path / "result.json"
    result.save(str(path))
    assert json.loads(path.read_text()) == back
    # json_path saves the same result.
    path2 = tmp_path / "direct.json"
    r2 = threes.tournament(["greedy", "random", "heuristic"], games=3, seed=4, rules="classic",
                           json_path=str(path2))
    saved = json.loads(path2.read_text())
    assert saved["stats"] == json.loads(json.dumps(r2.to_json()))["stats"] == back["stats"]


def test_tournament_truncated_games_share_the_open_places():
    """With a move cap that ends every game right after the swap decisions,
    nobody is out: every bot gets the mean place, no wins, no shitheads."""
    n = 4
    result = threes.tournament(["random", "greedy", "heuristic", "random"], games=2, seed=1, max_moves=n)
    assert result.truncated == 2 * n
    assert np.allclose(result.places, (n - 1) / 2)
    for st in result.stats:
        assert st["mean_place"]["mean"] == pytest.approx((n - 1) / 2)
        assert st["win_rate"]["mean"] == 0 and st["shithead_rate"]["mean"] == 0
    check_stats(result, n, 2)


@pytest.mark.parametrize("games", [0, -1, 1.5, True, "3", None])
def test_tournament_rejects_bad_games(games):
    with pytest.raises(ValueError):
        threes.tournament(["random", "greedy"], games=games, seed=1)


def test_tournament_rejects_bad_bots():
    with pytest.raises(ValueError):
        threes.tournament(["random", "minimax"], games=1, seed=1)
    with pytest.raises(TypeError):
        threes.tournament(["random", object()], games=1, seed=1)
    with pytest.raises(ValueError):  # 6 players: classic seats at most 5
        threes.tournament(["random"] * 6, games=1, seed=1, rules="classic")


def test_greedy_beats_random():
    result = threes.tournament(["greedy", "random"], games=30, seed=11)
    check_stats(result, 2, 30)
    greedy, rnd = result.stats
    assert greedy["bot"] == "greedy" and rnd["bot"] == "random"
    assert greedy["mean_place"]["mean"] < rnd["mean_place"]["mean"]
    assert greedy["mean_place"]["high"] < rnd["mean_place"]["low"]
    assert greedy["win_rate"]["mean"] > 0.6


# ------------------------------------------------- policies through the registry --
def _tt_state(n=3, seed=1):
    from threes import three_thirteen as tt

    return tt.Game(n).new_initial_state(seed)


def test_policy_bot_plays_every_registered_game():
    from threes import three_thirteen as tt

    bot = PolicyBot("greedy", seed=2)
    sh = play_phase_state()
    assert bot.step(sh) in sh.legal_actions()
    s = _tt_state()
    for _ in range(30):
        a = bot.step(s)
        assert a in s.legal_actions()
        s.apply_action(a)
    # the same id the game's own greedy policy gives: the C policy of that game
    assert PolicyBot("greedy", game="three_thirteen").policy == "greedy"
    assert tt.POLICIES.index("greedy") == 1


def test_a_policy_a_game_lacks_is_a_clear_value_error():
    s = _tt_state()
    bot = make_bot("heuristic")  # no game given: a policy of some registered game
    with pytest.raises(ValueError) as exc:
        bot.step(s)
    msg = str(exc.value)
    assert "Three Thirteen" in msg and "'heuristic'" in msg and "random, greedy" in msg
    assert "does not exist" not in msg
    # with a game, at make time
    for game in ("three_thirteen", "3-13", s, s.clone()):
        with pytest.raises(ValueError, match="Three Thirteen has no 'heuristic' policy: its policies are "
                                             "random, greedy"):
            make_bot("heuristic", game=game)
        with pytest.raises(ValueError, match="random, greedy"):
            PolicyBot("heuristic", game=game)
    assert make_bot("heuristic", game="shithead").step(play_phase_state()) in play_phase_state().legal_actions()


def test_unknown_policies_name_every_game_s_policies():
    with pytest.raises(ValueError) as exc:
        PolicyBot("minimax")
    assert "Shithead: random, greedy, heuristic" in str(exc.value)
    assert "Three Thirteen: random, greedy" in str(exc.value)
    with pytest.raises(ValueError, match="for Three Thirteen"):
        make_bot("minimax", game="three-thirteen")
    with pytest.raises(ValueError, match="unknown game"):
        make_bot("greedy", game="chess")
    with pytest.raises(TypeError):
        PolicyBot(3)


def test_make_bot_for_a_game_plays_it():
    s = _tt_state(2, 5)
    for spec in ("random", "greedy", "ismcts:20"):
        bot = make_bot(spec, seed=1, game=s)
        assert bot.step(s) in s.legal_actions()
    final = play_game([make_bot("greedy", game="3-13"), make_bot("random", game="3-13")], s, seed=3)
    assert final.is_terminal() and sorted(final.returns()) == [-1.0, 1.0]


def test_tournament_over_three_thirteen_uses_the_registry_labels():
    from threes import three_thirteen as tt

    res = threes.tournament(["greedy", "random"], games=2, seed=1, game=tt.Game(2))
    assert res.game == "three_thirteen" and res.rules == "three_thirteen"
    table = res.table()
    assert "| bot | mean place (0 = lowest total) | win rate | last place rate |" in table
    assert "Three Thirteen, 2 players" in table
    assert res.to_json()["game"] == "three_thirteen"
    sh = threes.tournament(["greedy", "random"], games=1, seed=1, rules="classic")
    assert sh.game == "shithead" and sh.rules == "classic"
    assert "| bot | mean place (0 = first out) | win rate | shithead rate |" in sh.table()
    assert "Shithead, classic rules" in sh.table()
    with pytest.raises(ValueError, match="Three Thirteen has no 'heuristic' policy"):
        threes.tournament(["heuristic", "random"], games=1, seed=1, game=tt.Game(2))
    with pytest.raises(TypeError, match="registered game"):
        threes.tournament(["greedy", "random"], games=1, seed=1, game=object())


def test_ismcts_checks_its_rollout_policy_against_the_searched_games_policies():
    """A policy some registered game has is accepted when the bot is made; a search of a game
    without it says so (Three Thirteen has no "heuristic"), and the core's shared facts
    (threes._engine) agree with each game's extension."""
    from threes import _engine, registry
    from threes import three_thirteen as tt

    bot = ISMCTSBot(20, rollout_policy="heuristic", seed=1)
    assert bot.step(threes.Game(3).new_initial_state(seed=2)) >= 0
    with pytest.raises(ValueError, match=r"Three Thirteen has no rollout policy 'heuristic': one of random, greedy"):
        bot.step(tt.Game(3).new_initial_state(seed=2))
    with pytest.raises(ValueError, match="unknown rollout policy 'nope'"):
        ISMCTSBot(20, rollout_policy="nope")
    assert ISMCTSBot(20, rollout_policy="greedy", seed=1).step(tt.Game(3).new_initial_state(seed=2)) >= 0
    copies = 0
    for name in registry.names():  # a game's extension that repeats the facts (a newer game reads threes._engine)
        core = registry.get(name).load()._core
        if hasattr(core, "MAX_THREADS"):
            copies += 1
            assert (core.MAX_THREADS, core.ISMCTS_NODE_BYTES) == (_engine.MAX_THREADS, _engine.ISMCTS_NODE_BYTES)
            assert core.batch_seed(7, 11) == _engine.batch_seed(7, 11)
    assert copies >= 2  # Shithead's and Three Thirteen's
