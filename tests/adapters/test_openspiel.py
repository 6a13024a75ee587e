"""The OpenSpiel adapter (threes.openspiel): OpenSpiel's own random
simulation test, the chance deal against the engine's deal, observations and
resampling wired to the engine, and OpenSpiel's Python ISMCTS bot playing
full games."""
import numpy as np
import pytest

import pyspiel

import threes
import threes.openspiel  # registers "threes"
from threes.openspiel import ThreesRolloutEvaluator


def _deal_sequence(s: threes.State):
    """The chance outcomes (card kinds, top of the deck first) that give the
    engine's deal `s` (RULES.md 4.1: face down, face up, hand, one card at a
    time from the seat after the dealer; the rest is the draw pile)."""
    d = s.to_dict()
    n, K = d["num_players"], s.rules.cards_per_zone
    first = (d["dealer"] + 1) % n
    seq = []
    for zone in ("face_down", "face_up", "hands"):
        for i in range(K):
            for j in range(n):
                seq.append(threes.Card(d[zone][(first + j) % n][i]).kind)
    seq += [threes.Card(c).kind for c in reversed(d["draw_pile"])]
    return seq


def _dealt(game, rng):
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    return state


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3}, {"players": 4, "rules": "classic"},
                                    pytest.param({"players": 5, "rules": "dutch"}, marks=pytest.mark.full),  # 10 s
                                    {"players": 3, "max_moves": 60}])
def test_openspiel_random_sim_test(params):
    game = pyspiel.load_game("threes", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_game_info_matches_the_engine():
    game = pyspiel.load_game("threes", {"players": 4, "rules": "classic"})
    g = threes.Game(4, "classic")
    assert game.num_players() == 4
    assert game.num_distinct_actions() == g.num_distinct_actions() == 620
    assert game.max_chance_outcomes() == 54
    assert game.observation_tensor_shape() == [threes.shithead._core.observation_size(4)]
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.min_utility() == -1.0 and game.max_utility() == 1.0 and game.utility_sum() == 0.0
    with pytest.raises(Exception):
        pyspiel.load_game("threes", {"players": 13})
    with pytest.raises(Exception):
        pyspiel.load_game("threes", {"rules": "bogus"})


@pytest.mark.parametrize("preset,players,seed", [("threes", 4, 1), ("classic", 2, 2), ("dutch", 5, 3)])
def test_chance_deal_is_the_engines_deal(preset, players, seed):
    game = pyspiel.load_game("threes", {"players": players, "rules": preset})
    engine = threes.Game(players, preset).new_initial_state(seed)
    state = game.new_initial_state()
    seq = _deal_sequence(engine)
    assert len(seq) == threes.Rules.preset(preset).deck_size()
    left = {}
    for k in seq:
        left[k] = left.get(k, 0) + 1
    for k in seq:
        assert state.is_chance_node()
        outcomes = dict(state.chance_outcomes())
        total = sum(left.values())
        assert outcomes == pytest.approx({kk: c / total for kk, c in left.items() if c})
        state.apply_action(k)
        left[k] -= 1
    assert not state.is_chance_node()
    assert state.inner == engine
    assert state.current_player() == engine.current_player()
    assert state.legal_actions() == engine.legal_actions()


def test_a_card_that_is_not_left_cannot_be_dealt():
    game = pyspiel.load_game("threes", {"players": 2, "rules": "classic"})
    state = game.new_initial_state()
    state.apply_action(0)  # 2c: the only copy in one deck
    assert 0 not in dict(state.chance_outcomes())
    with pytest.raises(Exception):
        state.apply_action(0)
    with pytest.raises(Exception):
        state.apply_action(52)  # no jokers in classic


def test_observations_and_resampling_are_the_engines():
    game = pyspiel.load_game("threes", {"players": 3})
    rng = np.random.RandomState(4)
    state = _dealt(game, rng)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    inner = state.inner
    for p in range(3):
        assert np.array_equal(np.array(state.observation_tensor(p), dtype=np.float32), inner.observation_tensor(p))
        assert state.observation_string(p) == inner.observation_string(p)
        assert state.information_state_string(p) == inner.information_state_string(p)
        r = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert r.information_state_string(p) == state.information_state_string(p)
        assert r.inner.hand(p) == inner.hand(p)
    # during the deal a seat knows its own dealt hand cards and the face-up cards only
    s = game.new_initial_state()
    for _ in range(5):
        s.apply_action(int(rng.choice([a for a, _ in s.chance_outcomes()])))
    assert s.information_state_string(0).startswith("dealing 5/108")
    assert np.count_nonzero(s.observation_tensor(0)) == 0


def test_clone_is_independent():
    game = pyspiel.load_game("threes", {"players": 2})
    rng = np.random.RandomState(5)
    state = _dealt(game, rng)
    c = state.clone()
    c.apply_action(c.legal_actions()[0])
    assert c.history() != state.history()
    assert state.inner.move_number() == 0


@pytest.mark.full  # about 30 s of OpenSpiel's pure-Python ISMCTS
def test_openspiel_ismcts_plays_full_games_against_greedy():
    """OpenSpiel's own ISMCTS (the Python one: the C++ ISMCTSBot cannot call a
    Python game's resample_from_infostate) with the engine's C rollouts as
    its evaluator, against the greedy bot, to the end of the game."""
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game("threes", {"players": 2, "max_moves": 400})
    for seed in (1, 2):
        rng = np.random.RandomState(seed)
        bot = ismcts.ISMCTSBot(game, ThreesRolloutEvaluator(n_rollouts=1, seed=seed), uct_c=1.0,
                               max_simulations=20, random_state=rng)
        greedy = threes.bots.GreedyBot(seed=seed)
        state = _dealt(game, rng)
        while not state.is_terminal():
            p = state.current_player()
            if p == 0:
                a = bot.step(state)
            else:
                a = greedy.step(state.inner.resample_from_infostate(p, int(rng.randint(1 << 30))))
            assert a in state.legal_actions()
            state.apply_action(a)
        assert sorted(state.returns()) == [-1.0, 1.0] or state.inner.is_truncated()


def test_rollout_evaluator():
    game = pyspiel.load_game("threes", {"players": 3})
    rng = np.random.RandomState(6)
    state = _dealt(game, rng)
    ev = ThreesRolloutEvaluator(n_rollouts=50, seed=1)
    v = ev.evaluate(state)
    assert v.shape == (3,) and abs(v.sum()) < 1e-9 and np.all(np.abs(v) <= 1)
    prior = ev.prior(state)
    assert [a for a, _ in prior] == state.legal_actions()
    assert sum(p for _, p in prior) == pytest.approx(1.0)
