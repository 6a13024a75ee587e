"""threes.pettingzoo's parallel env (GameParallel) passes PettingZoo's own
parallel checks and plays the engine's game; state() is the documented
privileged global state, for the parallel and the AEC env."""
import random

import numpy as np
import pytest

from pettingzoo import ParallelEnv
from pettingzoo.test import parallel_api_test

import threes
from threes import registry
from threes import three_thirteen
from threes.errors import IllegalActionError
from threes.pettingzoo import GameParallel, env, parallel_env, state_layout

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

CASES = [dict(num_players=2), dict(num_players=4, rules="classic"), dict(num_players=3, max_moves=40),
         dict(num_players=3, game="three_thirteen", max_moves=300)]


@pytest.mark.parametrize("kwargs", CASES, ids=lambda k: "-".join(f"{a}={b}" for a, b in k.items()))
def test_parallel_api_test(kwargs):
    p = parallel_env(**kwargs)
    assert isinstance(p, ParallelEnv) and isinstance(p, GameParallel)
    parallel_api_test(p, num_cycles=2000)


def _masked_run(p, seed):
    """A seeded game, the actions sampled from the masks with the action spaces seeded (as
    parallel_seed_test seeds them; it samples unmasked actions, which a card game refuses)."""
    obs, infos = p.reset(seed=seed)
    for i, a in enumerate(p.agents):
        p.action_space(a).seed(42 + i)
    out = [obs]
    while p.agents and len(out) < 300:
        actions = {a: p.action_space(a).sample(mask=obs[a]["action_mask"]) for a in p.agents}
        obs, rewards, terms, truncs, infos = p.step(actions)
        out += [obs, rewards, terms, truncs, infos]
    return out


def test_a_seeded_game_is_reproducible():
    from pettingzoo.utils.env import ParallelEnv as _  # noqa: F401  (the same class as pettingzoo.ParallelEnv)
    from pettingzoo.test.seed_test import data_equivalence

    a, b = _masked_run(parallel_env(num_players=3), 42), _masked_run(parallel_env(num_players=3), 42)
    assert len(a) > 10 and data_equivalence(a, b)
    c = _masked_run(parallel_env(num_players=3), 43)
    assert not data_equivalence(a[:1], c[:1])
    p = parallel_env(num_players=3)
    p.reset(seed=42)
    first = p.game_state.to_dict()
    p.reset()  # a seed drawn from the generator that seed 42 seeded: the same on every run
    q = parallel_env(num_players=3)
    q.reset(seed=42)
    q.reset()
    assert p.game_state == q.game_state and p.game_state.to_dict() != first


def _mover(infos, agents):
    movers = [a for a in agents if infos[a]["to_move"]]
    assert len(movers) == 1, movers
    return movers[0]


@pytest.mark.parametrize("kwargs", CASES[:1] + CASES[2:], ids=["shithead", "capped", "three_thirteen"])
def test_a_parallel_game_is_the_engines_game(kwargs):
    p = parallel_env(**kwargs)
    obs, infos = p.reset(seed=5)
    state = p.game.new_initial_state(5)
    rng = random.Random(1)
    steps = 0
    while p.agents:
        mover = _mover(infos, p.agents)
        seat = p.possible_agents.index(mover)
        assert state.current_player() == seat
        for a in p.agents:
            q = p.possible_agents.index(a)
            np.testing.assert_array_equal(obs[a]["observation"], state.observation_tensor(q))
            assert obs[a]["action_mask"].any() == (a == mover)
        assert sorted(np.flatnonzero(obs[mover]["action_mask"])) == sorted(state.legal_actions())
        action = rng.choice(state.legal_actions())
        others = {a: 0 for a in p.agents if a != mover}  # ignored, whatever they are
        obs, rewards, terms, truncs, infos = p.step({mover: action, **others})
        state.apply_action(action)
        steps += 1
        if state.is_terminal():
            assert p.agents == []
            assert rewards == {a: float(r) for a, r in zip(p.possible_agents, state.returns())}
            assert all(truncs.values()) == state.is_truncated() and all(terms.values()) != state.is_truncated()
            if state.is_truncated():
                assert all(i["truncation_reason"] == "move_cap" for i in infos.values())
        else:
            assert set(rewards.values()) == {0.0} and not any(terms.values()) and not any(truncs.values())
    assert steps > 3
    with pytest.raises(RuntimeError, match="reset"):
        p.step({})


def test_a_step_without_the_movers_action_or_with_an_illegal_one_changes_nothing():
    p = parallel_env(num_players=3)
    obs, infos = p.reset(seed=2)
    mover = _mover(infos, p.agents)
    before = p.game_state.to_dict()
    illegal = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[0])
    others = {a: 0 for a in p.agents if a != mover}
    for actions, error in [(others, IllegalActionError), ({mover: illegal}, IllegalActionError),
                           ({mover: 10**6}, IllegalActionError), ({mover: "x"}, IllegalActionError),
                           ([0, 1, 2], TypeError)]:
        with pytest.raises(error):
            p.step(actions)
        assert p.game_state.to_dict() == before
    assert issubclass(IllegalActionError, ValueError)


def test_metadata_and_constructor_checks():
    assert parallel_env(num_players=2).metadata["name"] == "threes_v0"
    assert GameParallel(three_thirteen.Game(3)).metadata["name"] == "three_thirteen_v0"
    with pytest.raises(TypeError):
        GameParallel(object())
    with pytest.raises(ValueError, match="render_mode"):
        GameParallel(threes.Game(2), render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="reset"):
        GameParallel(threes.Game(2)).state()


# ------------------------------------------------------------------ state() --

@pytest.mark.parametrize("api", ["parallel", "aec"])
def test_shithead_state_is_every_seats_observation(api):
    if api == "parallel":
        e = parallel_env(num_players=3)
        e.reset(seed=4)
        base = e
    else:
        e = env(num_players=3)
        e.reset(seed=4)
        base = e.unwrapped
    st = base.game_state
    s = base.state()
    layout = state_layout(base.game)
    assert s.shape == base.state_space.shape and s.dtype == np.float32 and base.state_space.contains(s)
    assert list(layout) == ["obs_0", "obs_1", "obs_2"]
    for q in range(3):
        off, size = layout[f"obs_{q}"]
        np.testing.assert_array_equal(s[off:off + size], st.observation_tensor(q))
    assert sum(size for _, size in layout.values()) == s.size
    assert base.state() is not s and np.array_equal(base.state(), s)  # a new array, the same state


@pytest.mark.parametrize("name", registry.names())
def test_every_registered_game_has_a_state(name):
    """Generic over the registry (the toy game too): a state of the right shape that follows the game."""
    p = parallel_env(num_players=2, game=name)
    obs, infos = p.reset(seed=3)
    s0 = p.state()
    assert s0.shape == p.state_space.shape and p.state_space.contains(s0)
    for q in range(2):
        off, size = state_layout(p.game)[f"obs_{q}"]
        np.testing.assert_array_equal(s0[off:off + size], p.game_state.observation_tensor(q))


def test_three_thirteen_state_changes_with_the_game():
    p = parallel_env(num_players=3, game="three_thirteen")
    obs, infos = p.reset(seed=6)
    assert len(state_layout(p.game)) == 3
    s0 = p.state()
    mover = _mover(infos, p.agents)
    p.step({mover: int(np.flatnonzero(obs[mover]["action_mask"])[0])})
    assert not np.array_equal(p.state(), s0)
