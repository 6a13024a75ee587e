"""Three Thirteen through the adapters: the pyspiel game "three_thirteen"
(OpenSpiel's random simulation test, chance nodes for every dealt card and
stock draw), the PettingZoo AEC environment (api_test) and the Gymnasium
environment (check_env), all the generic classes over the registry's game
contract."""
import gymnasium
import numpy as np
import pytest
import pyspiel
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import threes.gym
import threes.openspiel  # registers "threes" and "three_thirteen"
import threes.pettingzoo
from threes import three_thirteen as tt
from threes.bots import PolicyBot
from threes.three_thirteen._core import observation_layout as observation_tensor_layout
from threes.three_thirteen._core import observation_size as observation_tensor_size


# ------------------------------------------------------------------ OpenSpiel --
@pytest.mark.parametrize("params", [{"players": 2, "max_moves": 200}, {"players": 3, "max_moves": 300, "jokers": 2},
                                    {"players": 4, "max_moves": 300, "ace": "either"},
                                    {"players": 2, "decks": 2, "max_moves": 150}])
def test_openspiel_random_sim_test(params):
    game = pyspiel.load_game("three_thirteen", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_game_info():
    game = pyspiel.load_game("three_thirteen", {"players": 3})
    assert game.num_players() == 3
    assert game.num_distinct_actions() == tt.Game(3).num_distinct_actions()
    assert game.max_chance_outcomes() == 54
    assert game.observation_tensor_shape() == [observation_tensor_size(3)]
    t = game.get_type()
    assert t.short_name == "three_thirteen" and t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    with pytest.raises(Exception):
        pyspiel.load_game("three_thirteen", {"players": 1})
    with pytest.raises(Exception):
        pyspiel.load_game("three_thirteen", {"ace": "high"})


def _chance(state, rng):
    outcomes = state.chance_outcomes()
    actions, probs = zip(*outcomes)
    assert sum(probs) == pytest.approx(1.0)
    return int(rng.choice(actions, p=probs))


def test_a_whole_game_with_chance_deals_and_draws():
    """Greedy players to the end: every round is dealt by chance (one node
    per card, from the whole deck), every stock draw is a chance node over
    the stock's cards, and the engine's returns come out."""
    game = pyspiel.load_game("three_thirteen", {"players": 3})
    rng = np.random.default_rng(5)
    bot = PolicyBot("greedy", seed=1)
    state = game.new_initial_state()
    deals, draws, rounds = 0, 0, set()
    while not state.is_terminal():
        if state.is_chance_node():
            inner = state.inner
            if state._dealing is not None:
                deals += 1
                left = np.bincount(game.deck, minlength=54) - np.bincount(state._dealing, minlength=54)
                assert dict(state.chance_outcomes()) == pytest.approx(
                    {k: left[k] / left.sum() for k in np.flatnonzero(left)})
            else:
                draws += 1
                f = inner._fields()
                stock = f["stock"] or f["discard"][:-1]
                expected = {k: stock.count(k) / len(stock) for k in set(stock)}
                assert dict(state.chance_outcomes()) == pytest.approx(expected)
            before = None if state._dealing is not None else inner.hand(inner.current_player())
            a = _chance(state, rng)
            state.apply_action(a)
            if before is not None:  # the drawn card is in the drawer's hand
                after = state.inner.hand(state.inner.current_player())
                assert sorted(after) == sorted(before + [tt.kind_to_card(a)])
            continue
        rounds.add(state.inner.round())
        assert state.inner.round() >= 1 and len(state.inner.hand(state.current_player())) >= state.inner.round() + 2
        a = bot.step(state.inner)
        assert a in state.legal_actions()
        state.apply_action(a)
    assert rounds == set(range(1, 12))
    assert deals == sum(3 * (r + 2) + 1 for r in range(1, 12))
    assert draws > 0
    assert state.returns() == state.inner.returns() and sum(state.returns()) == pytest.approx(0.0)


def test_a_draw_from_an_empty_stock_draws_from_the_reshuffled_discards():
    game = pyspiel.load_game("three_thirteen", {"players": 2})
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(_chance(state, rng))
    # move the whole stock under the discard pile's top card
    d = state.inner.to_dict()
    d["discard"] = d["stock"] + d["discard"]
    d["stock"] = []
    state.inner = tt.State.from_dict(d)
    top, under = d["discard"][-1], d["discard"][:-1]
    state.apply_action(0)
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert outcomes == pytest.approx({tt.card_to_kind(c): under.count(c) / len(under) for c in set(under)})
    a = _chance(state, rng)
    p = state.inner.current_player()
    state.apply_action(a)
    assert not state.is_chance_node()
    assert str(tt.kind_to_card(a)) in state.inner.hand(p)
    assert state.inner.discard_pile() == [top] and state.inner.stock_size() == len(under) - 1
    # the reshuffle is the engine's (T-3): the stock is now a known pool (T-9) and the card drawn from it a
    # pool card of the drawer; the stock holds the rest of the pile
    f = state.inner._fields()
    assert f["pool_active"] and f["pool_hand"][p] == [a]
    rest = [tt.card_to_kind(c) for c in under]
    rest.remove(a)
    assert sorted(f["stock"]) == sorted(rest)


def test_a_stock_draw_is_made_in_place_and_a_card_not_in_the_stock_changes_nothing():
    """A chance draw puts the chosen card on top of the stock and draws it (the rest of the stock in its
    order); a kind not in the stock raises SpielError and leaves the state as it was."""
    game = pyspiel.load_game("three_thirteen", {"players": 3})
    rng = np.random.default_rng(4)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(_chance(state, rng))
    state.apply_action(0)
    assert state.is_chance_node()
    f = state.inner._fields()
    missing = next(k for k in range(54) if k not in f["stock"])
    for bad in (missing, 54, -1, 10**30):
        with pytest.raises(pyspiel.SpielError, match="no card of kind"):
            state.apply_action(bad) if bad >= 0 and bad < 2**63 else state._apply_action(bad)
        assert state.inner._fields() == f and state.is_chance_node()
    a = f["stock"][0]  # the bottom card
    p = state.inner.current_player()
    state.apply_action(a)
    g = state.inner._fields()
    assert g["stock"] == f["stock"][1:] and sorted(g["hands"][p]) == sorted(f["hands"][p] + [a])
    assert g["phase"] != f["phase"] and state.inner.history()[-1] == 0


def test_observer_and_resampling():
    game = pyspiel.load_game("three_thirteen", {"players": 3})
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    assert state.is_chance_node() and "dealing 0/" in state.observation_string(0)
    while state.is_chance_node():
        state.apply_action(_chance(state, rng))
    p = state.current_player()
    assert np.array_equal(np.asarray(state.observation_tensor(p)), state.inner.observation_tensor(p))
    assert state.observation_string(p) == state.inner.observation_string(p)
    assert state.information_state_string(p) == state.inner.information_state_string(p)
    other = state.resample_from_infostate(p, None)
    assert other.inner.hand(p) == state.inner.hand(p)
    assert other.information_state_string(p) == state.information_state_string(p)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()


def test_observation_tensor_layout():
    s = tt.Game(3).new_initial_state(4)
    lay = observation_tensor_layout(3)
    assert sum(size for _, size in lay.values()) == observation_tensor_size(3) == s.observation_tensor_shape()[0]
    t = s.observation_tensor(1)
    assert t.dtype == np.float32 and t.shape == (observation_tensor_size(3),)

    def block(name):
        o, size = lay[name]
        return t[o:o + size]

    assert block("own_hand").sum() == len(s.hand(1))
    assert block("discard").sum() == len(s.discard_pile())
    assert block("discard_top").sum() == 1
    assert block("piles")[0] == s.stock_size()
    assert block("round")[0] == 1 and block("phase")[0] == 1


# ----------------------------------------------------------------- PettingZoo --
def test_pettingzoo_api_test():
    api_test(threes.pettingzoo.env(game=tt.Game(3, max_moves=500)), num_cycles=400)
    api_test(threes.pettingzoo.env(2, game="three-thirteen"), num_cycles=200)


def test_pettingzoo_plays_a_game_to_the_end():
    e = threes.pettingzoo.env(game=tt.Game(2))
    assert e.unwrapped.metadata["name"] == "three_thirteen_v0"
    e.reset(seed=3)
    bot = PolicyBot("greedy", seed=0)
    assert e.unwrapped.game_state.to_dict() == tt.Game(2).new_initial_state(3).to_dict()
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        assert obs["observation"].shape == (observation_tensor_size(2),)
        if term or trunc:
            e.step(None)
            continue
        state = e.unwrapped.game_state
        a = bot.step(state)
        assert obs["action_mask"][a] == 1
        e.step(a)
    final = e.unwrapped.game_state
    assert final.is_terminal() and sorted(final.returns()) == [-1.0, 1.0]
    with pytest.raises(ValueError):
        threes.pettingzoo.env(2, rules="classic", game="three_thirteen")
    with pytest.raises(TypeError):
        threes.pettingzoo.env(game=object())


# ------------------------------------------------------------------ Gymnasium --
def test_gymnasium_check_env():
    check_env(threes.gym.GameEnv(tt.Game(3), opponents="greedy"))
    check_env(threes.gym.GameEnv("three_thirteen", num_players=2, seat=1, opponents=["random"]))
    env = gymnasium.make(threes.gym.THREE_THIRTEEN_ENV_ID, num_players=3, game_options={"jokers": 2})
    check_env(env.unwrapped)


def test_gymnasium_episode():
    env = gymnasium.make("threes/ThreeThirteen-v0", num_players=2, opponents="greedy")
    obs, info = env.reset(seed=4)
    assert obs.shape == (observation_tensor_size(2),) and env.observation_space.contains(obs)
    bot = PolicyBot("greedy", seed=1)
    done, reward, steps = False, 0.0, 0
    while not done:
        a = bot.step(env.unwrapped.game_state)
        assert info["action_mask"][a] == 1
        obs, reward, terminated, truncated, info = env.step(a)
        done = terminated or truncated
        steps += 1
    assert reward == info["returns"][0] and "finish_order" not in info
    with pytest.raises(ValueError, match="Three Thirteen has no 'heuristic' policy"):
        threes.gym.GameEnv("three_thirteen", num_players=2, opponents="heuristic")
    with pytest.raises(ValueError):
        threes.gym.GameEnv(tt.Game(3), num_players=2)


def test_observation_spaces_bound_three_thirteen_totals_above_255():
    """Running totals reach hundreds: the Box high is State.observation_high()
    (the most the options allow over 11 rounds), not a byte's 255, so a late
    observation stays in the space."""
    from threes.adapters.gym import GameEnv
    from threes.adapters.pettingzoo import observation_high
    from threes.three_thirteen import Game

    game = Game(3)
    high = game.new_initial_state(0).observation_high()
    assert high > 255
    env = GameEnv(game, opponents="greedy")
    assert env.observation_space.high.max() == high == observation_high(game)
    state = game.new_initial_state(3)
    while not state.is_terminal():  # random play to the end: its totals pass 255
        state.apply_action(state._policy_action(0, state.move_number()))
    obs = state.observation_tensor(0)
    assert obs.max() > 255
    assert env.observation_space.contains(obs)


def test_resampling_replays_only_the_current_round(monkeypatch):
    """resample_from_infostate starts from the state as this round's deal began (kept once per round):
    no action of an earlier round is applied again, so its time does not grow with the game's history.
    The resample's history still replays to it from new_initial_state(), keeps every earlier round's
    outcomes, and can itself be resampled."""
    from threes.adapters.openspiel import ThreeThirteenState

    game = pyspiel.load_game("three_thirteen", {"players": 3})
    rng = np.random.default_rng(8)
    bot = PolicyBot("greedy", seed=2)
    state = game.new_initial_state()
    while state.is_chance_node() or state.inner.round() < 4 or state.inner.phase != "draw":
        state.apply_action(_chance(state, rng) if state.is_chance_node() else bot.step(state.inner))
    state.apply_action(bot.step(state.inner))
    while state.is_chance_node():
        state.apply_action(_chance(state, rng))
    history = state.history()
    first = len(state._round_start.history())
    assert 0 < first < len(history) and history[:first] == state._round_start.history()
    applied = []
    original = ThreeThirteenState._apply_action

    def counting(self, action):
        applied.append(len(self.history()))
        return original(self, action)

    monkeypatch.setattr(ThreeThirteenState, "_apply_action", counting)
    p = state.current_player()
    r = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    monkeypatch.undo()
    assert applied and min(applied) >= first  # nothing before this round's deal was applied again
    assert r.history()[:first] == history[:first] and len(r.history()) == len(history)
    assert r.information_state_string(p) == state.information_state_string(p)
    replay = game.new_initial_state()
    for a in r.history():
        replay.apply_action(a)
    assert replay.information_state_string(p) == r.information_state_string(p)
    assert replay.inner._fields()["hands"] == r.inner._fields()["hands"]
    again = r.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert again.information_state_string(p) == state.information_state_string(p)
    assert again.history()[:first] == history[:first]


def test_the_rollout_evaluator_values_round_margins_as_ismcts_does():
    """ThreeThirteenRolloutEvaluator: a decision node is worth the mean round margins of its rollouts
    (tt.rollout(..., round_only=True), seeds from its own stream), a state dealing a new round the margins
    of the round just scored (zeros in the first deal), a terminal state its returns; values="game" plays
    to the end. OpenSpiel's MCTS runs with it."""
    import random

    from open_spiel.python.algorithms import mcts

    from threes.adapters.openspiel import ThreeThirteenRolloutEvaluator

    game = pyspiel.load_game("three_thirteen", {"players": 3})
    rng = np.random.default_rng(3)
    bot = PolicyBot("greedy", seed=5)
    state = game.new_initial_state()
    ev = ThreeThirteenRolloutEvaluator(n_rollouts=3, seed=9)
    assert ev.evaluate(state).tolist() == [0.0, 0.0, 0.0]  # the first deal: nothing scored yet
    while state.is_chance_node():
        state.apply_action(_chance(state, rng))
    seeds = random.Random(9)
    want = np.mean([tt.rollout(state.inner, "greedy", seeds.getrandbits(64), round_only=True) for _ in range(3)],
                   axis=0)
    assert np.allclose(ThreeThirteenRolloutEvaluator(n_rollouts=3, seed=9).evaluate(state), want)
    game_values = ThreeThirteenRolloutEvaluator(n_rollouts=2, seed=9, values="game").evaluate(state)
    seeds = random.Random(9)
    assert np.allclose(game_values, np.mean([tt.rollout(state.inner, "greedy", seeds.getrandbits(64))
                                             for _ in range(2)], axis=0))
    a = mcts.MCTSBot(game, 2.0, 50, ev, random_state=np.random.RandomState(1)).step(state)
    assert a in state.legal_actions()
    drawn = False
    while not state.is_terminal():
        if state.is_chance_node():
            if state._drawing and not drawn:
                drawn = True
                v = ev.evaluate(state)  # one card drawn as chance would, then the rollouts
                assert v.shape == (3,) and np.all(np.abs(v) <= 1.0) and state.is_chance_node()
            state.apply_action(_chance(state, rng))
            continue
        round_before = state.inner.round()
        state.apply_action(bot.step(state.inner))
        if state._dealing == [] and round_before == 1:
            assert ev.evaluate(state).tolist() == state.inner.round_margins(1)
            assert ev.evaluate(state).tolist() != [0.0, 0.0, 0.0]
    assert drawn and ev.evaluate(state).tolist() == state.returns()
    for bad in ({"n_rollouts": 0}, {"policy": "heuristic"}, {"values": "rounds"}):
        with pytest.raises(ValueError):
            ThreeThirteenRolloutEvaluator(**bad)
