"""Every integer argument of the public API, at any size or sign, is a TypeError or a ValueError
naming its bounds (or its name), never an OverflowError from the C boundary, never a crash, and a
call that raises leaves the state it was asked about unchanged. Both games (Shithead, Three
Thirteen), the bots, tournaments, rollouts, the vector env and the Gymnasium adapter
(tests/adapters/test_adapter_int_arguments.py: OpenSpiel and PettingZoo).

The conventions (threes.args): an int argument is an int or a numpy integer, never a bool (a bool,
a float, a string or None where None means nothing is a TypeError); ids and counts out of range are
ValueErrors (IllegalActionError, a ValueError, for action ids); a seed is any int, taken modulo
2**64, so it is never out of range; ``is_legal(a)`` and ``legal_actions(player)`` answer False and
[] for an int out of range (they are questions, OpenSpiel's), and a TypeError for a non-int.
"""
import re

import numpy as np
import pytest

import threes
from threes import _engine
from threes import three_thirteen as tt
from threes.args import MAX_GAMES
from threes.bots import ISMCTSBot
from threes.shithead import _core as sh_core
from threes.three_thirteen import _core as tt_core

# ints out of range for every argument below (all of them are far outside any bound)
HUGE = [2**64, -2**64, 2**200, -2**200, 10**30, 2**63, -2**63 - 1, 2**64 - 1,
        np.int64(2**63 - 1), np.int64(-2**63), np.uint64(2**64 - 1)]
NOT_INTS = [1.5, float("nan"), "3", b"3", True, False, [1], (1,), object()]


def sh_state():
    return threes.Game(3, "threes").new_initial_state(7)


def sh_play_state():
    s = sh_state()
    for _ in range(3):  # past the swap decisions
        s.apply_action(s.legal_actions()[0])
    return s


def tt_state():
    return tt.Game(3).new_initial_state(7)


def tt_scored_state():
    s = tt_state()
    while s.round() == 1:
        s.apply_action(s._policy_action(1, 5))
    return s


def fingerprint(obj):
    """What must not change: a state's dict and fingerprint (or nothing, for a call on no state)."""
    if obj is None:
        return None
    return obj.to_dict(), obj.fingerprint()


class Case:
    """One integer argument: ``call(subject, v)`` with subject = ``make()``; ``bounds``: a regex
    the ValueError of an int out of range must match (its bounds, or the argument's name);
    ``none_ok``: None is a valid value; ``neg_ok``: -1 is valid (a special player id);
    ``type_errors``: the exceptions a non-int raises (TypeError, or a ValueError the API
    documented before); ``extra_bad``: more ints out of range for this argument; ``valid``: values
    of HUGE that are in range here (a 64-bit seed, a chunk up to 2**63-1); ``text_ok``: text is
    also this argument's type (a rank such as "3", a move's notation), a ValueError when it is not
    one."""

    def __init__(self, name, make, call, bounds, none_ok=False, neg_ok=False, type_errors=(TypeError,),
                 extra_bad=(), valid=(), text_ok=False):
        self.name, self.make, self.call, self.bounds = name, make, call, bounds
        self.none_ok, self.neg_ok, self.type_errors, self.extra_bad = none_ok, neg_ok, type_errors, extra_bad
        self.valid, self.text_ok = valid, text_ok

    def __repr__(self):
        return self.name


def no_subject():
    return None


def state_cases(label, make, ids, move):
    """The cases every game's State shares (both games' States take the same ints): action ids
    (``ids``: the ValueError's bounds), a player id (-4..2 with the special ids, or 0..2) and
    ``move``, a legal move's notation."""
    return [
        Case(f"{label}.apply_action", make, lambda s, v: s.apply_action(v), ids),
        Case(f"{label}.apply", make, lambda s, v: s.apply(v), ids, text_ok=True),
        Case(f"{label}.child", make, lambda s, v: s.child(v), ids),
        Case(f"{label}.action_to_string", make, lambda s, v: s.action_to_string(v), ids),
        Case(f"{label}.action_to_string(player, a)", make, lambda s, v: s.action_to_string(v, 0), r"-4\.\.2",
             neg_ok=True, extra_bad=[3, -5]),
        Case(f"{label}.string_to_action(player, text)", make, lambda s, v: s.string_to_action(v, move),
             r"-4\.\.2", neg_ok=True, extra_bad=[3, -5]),
        Case(f"{label}.decode_action", make, lambda s, v: s.decode_action(v), ids),
        Case(f"{label}.observation_tensor", make, lambda s, v: s.observation_tensor(v), r"0\.\.2", extra_bad=[3]),
        Case(f"{label}.observation", make, lambda s, v: s.observation(v), r"0\.\.2", extra_bad=[3]),
        Case(f"{label}.observation_string", make, lambda s, v: s.observation_string(v), r"0\.\.2"),
        Case(f"{label}.information_state_string", make, lambda s, v: s.information_state_string(v), r"0\.\.2"),
        Case(f"{label}.resample_from_infostate(player)", make, lambda s, v: s.resample_from_infostate(v, 1),
             r"0\.\.2"),
    ]


G3 = threes.Game(3, "threes")
TG3 = tt.Game(3)

CASES = [
    # ---------------------------------------------------------------- Shithead: Game, Rules, Move
    Case("Game(num_players)", no_subject, lambda _, v: threes.Game(v), r"between 2 and 12", extra_bad=[0, 13]),
    Case("Game(max_moves)", no_subject, lambda _, v: threes.Game(3, "threes", v), r"between 1 and \d+",
         none_ok=True, extra_bad=[0]),
    Case("Game(dealer)", no_subject, lambda _, v: threes.Game(3, "threes", None, v), r"0\.\.2", none_ok=True,
         extra_bad=[3]),
    Case("Game.decode_action", no_subject, lambda _, v: G3.decode_action(v), r"0\.\.\d+",
         extra_bad=[G3.num_distinct_actions()]),
    Case("Move.play count", no_subject, lambda _, v: G3.encode_move(threes.Move.play("7", v)), r"count is in 1\.\.8",
         extra_bad=[0, 9]),
    Case("Move.blind slot", no_subject, lambda _, v: G3.encode_move(threes.Move.blind(v)), r"slot is in 0\.\.2",
         extra_bad=[3]),
    Case("Rules(decks)", no_subject, lambda _, v: threes.Rules(decks=v), r"0\.\.255|between 1 and 4", extra_bad=[0, 5]),
    Case("Rules(jokers)", no_subject, lambda _, v: threes.Rules(jokers=v), r"0\.\.255|between \d+ and \d+"),
    Case("Rules(cards_per_zone)", no_subject, lambda _, v: threes.Rules(cards_per_zone=v), r"0\.\.255|between 1 and 5"),
    Case("Rules(run_to_burn)", no_subject, lambda _, v: threes.Rules(run_to_burn=v), r"0\.\.255|between"),
    Case("Rules(repetition_limit)", no_subject, lambda _, v: threes.Rules(repetition_limit=v), r"0\.\.255|between"),
    Case("Game.position(current_player)", no_subject,
         lambda _, v: G3.position(hands=["4c", "5c", "6c"], current_player=v), r"seat", none_ok=True,
         extra_bad=[3]),
    # ---------------------------------------------------------------- Shithead: State
    *state_cases("State", sh_state, r"ids are 0\.\.\d+", "pickup"),
    Case("State.hand", sh_state, lambda s, v: s.hand(v), r"0\.\.2"),
    Case("State.known_cards", sh_state, lambda s, v: s.known_cards(v), r"0\.\.2"),
    Case("State.face_up", sh_state, lambda s, v: s.face_up(v), r"0\.\.2"),
    Case("State.face_down", sh_state, lambda s, v: s.face_down(v), r"0\.\.2"),
    Case("State.hand_size", sh_state, lambda s, v: s.hand_size(v), r"0\.\.2"),
    Case("State.is_playable(rank)", sh_play_state, lambda s, v: s.is_playable(v), r"2\.\.15", text_ok=True),
    # ---------------------------------------------------------------- Shithead: rollouts
    Case("rollouts(n)", no_subject, lambda _, v: threes.rollouts(G3, v, "random", 1, 1), rf"n must be in 0\.\.{MAX_GAMES}",
         extra_bad=[MAX_GAMES + 1]),
    Case("rollouts(n) from a state", sh_state, lambda s, v: threes.rollouts(s, v, "random", 1, 1), r"0\.\.\d+"),
    Case("rollouts(first)", no_subject, lambda _, v: threes.rollouts(G3, 1, "random", 1, 1, first=v),
         r"first must be in 0\.\.\d+|first \+ n must be below 2\*\*63"),
    Case("rollouts(chunk)", no_subject,
         lambda _, v: threes.rollouts(G3, 1, "random", 1, 1, progress=lambda k: None, chunk=v),
         r"chunk must be in 1\.\.\d+", none_ok=True, extra_bad=[0], valid=[np.int64(2**63 - 1)]),
    Case("rollouts(threads)", no_subject, lambda _, v: threes.rollouts(G3, 1, "random", 1, v),
         r"threads must be between 1 and 256", none_ok=True, extra_bad=[0, 257]),
    Case("rollouts(observer)", sh_state, lambda s, v: threes.rollouts(s, 1, "random", 1, 1, observer=v), r"0\.\.2",
         none_ok=True, extra_bad=[3]),
    # ---------------------------------------------------------------- Shithead: the C bindings' ints
    Case("_core.observation_size", no_subject, lambda _, v: sh_core.observation_size(v), r"2\.\.12"),
    Case("_core.kind_text", no_subject, lambda _, v: sh_core.kind_text(v), r"0\.\.53", extra_bad=[54]),
    Case("_core.batch_seed(i)", no_subject, lambda _, v: sh_core.batch_seed(1, v), r"0\.\.18446744073709551615", valid=[2**64 - 1, np.int64(2**63 - 1), np.uint64(2**64 - 1), 2**63]),
    *[Case(f"_engine.batch_seed({arg})", no_subject, call, r"0\.\.18446744073709551615",
           valid=[2**64 - 1, np.int64(2**63 - 1), np.uint64(2**64 - 1), 2**63])
      for arg, call in (("seed", lambda _, v: _engine.batch_seed(v, 1)), ("i", lambda _, v: _engine.batch_seed(1, v)))],
    Case("_core.hidden_count", sh_state, lambda s, v: sh_core.hidden_count(s, v), r"0\.\.2"),
    Case("_core.rules_preset", no_subject, lambda _, v: sh_core.rules_preset(v), r"0\.\.2", extra_bad=[3]),
    # ---------------------------------------------------------------- bots and tournaments
    Case("ISMCTSBot(iterations)", no_subject, lambda _, v: ISMCTSBot(v), r"1\.\.2\*\*32-1",
         type_errors=(ValueError,), extra_bad=[0, 2**32]),
    Case("ISMCTSBot(max_nodes)", no_subject, lambda _, v: ISMCTSBot(10, max_nodes=v), r"1\.\.2\*\*32-1",
         none_ok=True, extra_bad=[0]),
    Case("tournament(games)", no_subject, lambda _, v: threes.tournament(["random"] * 3, v, seed=1),
         rf"games must be (an int )?in 1\.\.{MAX_GAMES}", type_errors=(ValueError,), extra_bad=[0, MAX_GAMES + 1]),
    Case("tournament(workers)", no_subject, lambda _, v: threes.tournament(["random"] * 3, 1, seed=1, workers=v),
         r"workers must be between 1 and 256", none_ok=True, extra_bad=[0, 257]),
    # ---------------------------------------------------------------- Three Thirteen: Game
    Case("tt.Game(num_players)", no_subject, lambda _, v: tt.Game(v), r"between 2 and 8", extra_bad=[1, 9]),
    Case("tt.Game(decks)", no_subject, lambda _, v: tt.Game(3, decks=v), r"0\.\.255", none_ok=True),
    Case("tt.Game(jokers)", no_subject, lambda _, v: tt.Game(3, jokers=v), r"0\.\.255"),
    Case("tt.Game(max_moves)", no_subject, lambda _, v: tt.Game(3, max_moves=v), r"1\.\.4294967295",
         none_ok=True, extra_bad=[0, 2**32]),
    Case("tt.kind_to_card", no_subject, lambda _, v: tt.kind_to_card(v), r"0\.\.53", extra_bad=[54]),
    Case("tt.card_value(wild_rank)", no_subject, lambda _, v: tt.card_value("Ah", v), r"1\.\.13", extra_bad=[0, 14],
         text_ok=True),
    Case("tt.min_deadwood(wild_rank)", no_subject, lambda _, v: tt.min_deadwood("Ah 2h", v), r"1\.\.13", text_ok=True),
    Case("tt _core.observation_layout", no_subject, lambda _, v: tt_core.observation_layout(v), r"2\.\.8"),
    Case("tt _core.observation_size", no_subject, lambda _, v: tt_core.observation_size(v), r"2\.\.8"),
    # ---------------------------------------------------------------- Three Thirteen: State
    *state_cases("tt State", tt_state, r"ids are 0\.\.109", "stock"),
    Case("tt State.hand", tt_state, lambda s, v: s.hand(v), r"0\.\.2"),
    Case("tt State.deadwood", tt_state, lambda s, v: s.deadwood(v), r"0\.\.2"),
    Case("tt State.round_margins(round)", tt_scored_state, lambda s, v: s.round_margins(v), r"1\.\.1[01]?\b",
         extra_bad=[0, 2, 12]),
    # ---------------------------------------------------------------- Three Thirteen: rollouts
    Case("tt.rollouts(n)", no_subject, lambda _, v: tt.rollouts(TG3, v, "random", 1, threads=1),
         rf"n must be in 0\.\.{MAX_GAMES}", extra_bad=[MAX_GAMES + 1]),
    Case("tt.rollouts(first)", no_subject, lambda _, v: tt.rollouts(TG3, 1, "random", 1, threads=1, first=v),
         r"first must be in 0\.\.\d+|first \+ n must be below 2\*\*63"),
    Case("tt.rollouts(chunk)", no_subject,
         lambda _, v: tt.rollouts(TG3, 1, "random", 1, threads=1, progress=lambda k: None, chunk=v),
         r"chunk must be in 1\.\.\d+", none_ok=True, extra_bad=[0], valid=[np.int64(2**63 - 1)]),
    Case("tt.rollouts(threads)", no_subject, lambda _, v: tt.rollouts(TG3, 1, "random", 1, threads=v),
         r"between 1 and 256", none_ok=True, extra_bad=[0]),
    Case("tt.rollouts(observer)", tt_state, lambda s, v: tt.rollouts(s, 1, "random", 1, observer=v, threads=1),
         r"0\.\.2", none_ok=True),
]


def _bad_ints(case):
    huge = [v for v in HUGE if not any(type(v) is type(w) and v == w for w in case.valid)]
    return huge + list(case.extra_bad) + ([] if case.neg_ok else [-1])


def _check_rejects(case, v, exceptions):
    subject = case.make()
    before = fingerprint(subject)
    with pytest.raises(exceptions) as info:
        case.call(subject, v)
    assert not isinstance(info.value, OverflowError)
    assert fingerprint(subject) == before, "a call that raises changes nothing"
    return info.value


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_ints_out_of_range_are_value_errors_naming_the_bounds(case):
    for v in _bad_ints(case):
        exc = _check_rejects(case, v, (TypeError, ValueError))
        if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            assert type(exc) is not TypeError, (v, exc)  # an int is the right type: its value is wrong
            assert re.search(case.bounds, str(exc)), (v, str(exc))
            assert len(str(exc)) < 400, "a huge int is not spelled out in full"


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_values_that_are_not_ints_are_type_errors(case):
    values = NOT_INTS + ([] if case.none_ok else [None])
    for v in values:
        if case.text_ok and isinstance(v, str):
            _check_rejects(case, "not " + v, ValueError)
            continue
        exc = _check_rejects(case, v, case.type_errors)
        assert isinstance(exc, case.type_errors), (v, exc)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_numpy_ints_in_range_work_like_python_ints(case):
    """The convention's other half: an argument that takes an int takes a numpy int of the same value."""
    if case.name in ("State.is_playable(rank)",):
        return  # a rank is text or a value: numpy values are refused (threes.cards.rank_index)
    ok = {"Game(num_players)": 3, "Game(max_moves)": 100, "Game(dealer)": 1, "Game.decode_action": 5,
          "tt.Game(num_players)": 3, "tt.Game(jokers)": 2, "tt.Game(max_moves)": 100, "tt.Game(decks)": 2,
          "ISMCTSBot(iterations)": 5, "ISMCTSBot(max_nodes)": 9, "rollouts(n)": 2, "tt.rollouts(n)": 1,
          "rollouts(threads)": 1, "tt.rollouts(threads)": 1, "State.observation_tensor": 1,
          "tt State.observation_tensor": 1, "State.hand": 2, "tt State.hand": 2, "Rules(decks)": 2,
          "_core.kind_text": 10, "tt.kind_to_card": 10}
    if case.name not in ok:
        return
    v = ok[case.name]
    a, b = case.call(case.make(), v), case.call(case.make(), np.int64(v))
    if isinstance(a, np.ndarray):
        assert np.array_equal(a, b)
    elif hasattr(a, "num_games"):
        assert np.array_equal(a.moves, b.moves)
    elif isinstance(a, ISMCTSBot):
        assert (a.iterations, a.max_nodes) == (b.iterations, b.max_nodes)
    else:
        assert a == b


def test_is_legal_and_legal_actions_answer_for_any_int_and_refuse_other_types():
    for s in (sh_state(), tt_state()):
        before = s.to_dict()
        for v in HUGE + [-1, s.legal_actions_mask().size]:
            assert s.is_legal(v) is False
        for v in NOT_INTS + [None]:
            with pytest.raises(TypeError):
                s.is_legal(v)
        assert s.to_dict() == before
    s = sh_state()
    for v in HUGE + [-1, 3]:
        assert s.legal_actions(v) == []
    for v in (1.5, "0", True, [0]):
        with pytest.raises(TypeError):
            s.legal_actions(v)
    assert s.legal_actions(s.current_player()) == s.legal_actions() != []


SEED_CALLS = {
    "Game.new_initial_state": lambda v: threes.Game(3).new_initial_state(v).to_dict(),
    "tt.Game.new_initial_state": lambda v: tt.Game(3).new_initial_state(v).to_dict(),
    "State.resample_from_infostate": lambda v: sh_state().resample_from_infostate(1, v).to_dict(),
    "tt State.resample_from_infostate": lambda v: tt_state().resample_from_infostate(1, v).to_dict(),
    "rollouts": lambda v: threes.rollouts(G3, 3, "random", v, 1).moves.tolist(),
    "rollout": lambda v: threes.rollout(sh_play_state(), "random", v),
    "tt.rollouts": lambda v: tt.rollouts(TG3, 2, "random", v, threads=1).moves.tolist(),
    "tt.rollout": lambda v: tt.rollout(tt_state(), "random", v),
    "make_bot": lambda v: threes.bots.play_game([threes.bots.make_bot("random", seed=v)] * 3, sh_state(),
                                                seed=1).to_dict(),
    "play_game": lambda v: threes.bots.play_game([threes.bots.make_bot("random", seed=1)] * 3, sh_state(),
                                                 seed=v).to_dict(),
    "Game.position": lambda v: G3.position(hands=["4c 4d 4h", "5c 5d 5h", "6c 6d 6h"], rest="draw",
                                           seed=v).to_dict(),
}


@pytest.mark.parametrize("name", SEED_CALLS)
def test_seeds_are_any_int_modulo_2_64(name):
    """A seed is never out of range: any int of any size or sign is taken modulo 2**64 (the seeds are
    0..2**64-1), numpy ints too; anything else is a TypeError naming the convention."""
    call = SEED_CALLS[name]
    for v in (2**64 + 5, -(2**64) + 5, 5 + 7 * 2**64, np.uint64(5), np.int64(5)):
        assert call(v) == call(5), v
    assert call(-1) == call(2**64 - 1)
    assert call(2**200) == call(0)
    for v in (1.5, "5", True, b"5", [5]):
        with pytest.raises(TypeError, match=r"seed must be an int or None \(any int, taken modulo 2\*\*64"):
            call(v)


def test_the_seed_range_of_a_result_is_0_to_2_64_minus_1():
    assert threes.rollouts(G3, 1, "random", -1, 1).seed == 2**64 - 1
    assert tt.rollouts(TG3, 1, "random", 2**64 + 3, threads=1).seed == 3
    assert threes.tournament(["random"] * 3, 1, seed=-2, workers=1).seed == 2**64 - 2


# ------------------------------------------------------------ threes.vector and the Gymnasium adapter --
import threes.vector as vector  # noqa: E402  (gymnasium>=1.1, in the wheels' test requirements)
from threes.adapters import gym as threes_gym  # noqa: E402


def vec_env():
    return vector.VectorEnv("shithead", 2, num_players=3, seed=1)


class VecSubject:
    """A vector env as a subject: what must not change is its seed and the current observations."""

    def __init__(self):
        self.env = vec_env()
        self.env.reset()

    def to_dict(self):
        return {"seed": self.env.seed, "obs": self.env._obs.tolist(), "episodes": self.env.episodes.tolist()}

    def fingerprint(self):
        return self.env.game_state(0).fingerprint()


class GymSubject:
    def __init__(self):
        self.env = threes_gym.ThreesEnv(num_players=3, seat=0)
        self.env.reset(seed=3)

    def to_dict(self):
        return self.env.game_state.to_dict()

    def fingerprint(self):
        return self.env.game_state.fingerprint()


VECTOR_CASES = [
    Case("VectorEnv(num_envs)", no_subject, lambda _, v: vector.VectorEnv("shithead", v, num_players=3),
         r"num_envs must be in 1\.\.1048576", extra_bad=[0, vector.MAX_ENVS + 1]),
    Case("SelfPlayVectorEnv(num_envs)", no_subject,
         lambda _, v: vector.SelfPlayVectorEnv("three_thirteen", v, num_players=3), r"num_envs must be in 1\.\.\d+"),
    Case("VectorEnv(threads)", no_subject, lambda _, v: vector.VectorEnv("shithead", 2, num_players=3, threads=v),
         r"threads must be between 1 and 256", extra_bad=[0, 257]),
    Case("VectorEnv(seat)", no_subject, lambda _, v: vector.VectorEnv("shithead", 2, num_players=3, seat=v),
         r"seat must be in 0\.\.2", extra_bad=[3]),
    Case("VectorEnv(num_players)", no_subject, lambda _, v: vector.VectorEnv("shithead", 2, num_players=v),
         r"between 2 and 12", none_ok=True),
    Case("VectorEnv.game_state(env)", VecSubject, lambda s, v: s.env.game_state(v), r"env must be in 0\.\.1",
         extra_bad=[2]),
    Case("episode_seed(env)", no_subject, lambda _, v: vector.episode_seed(1, v, 0), r"env must be in 0\.\.\d+", valid=[np.int64(2**63 - 1)]),
    Case("episode_seed(episode)", no_subject, lambda _, v: vector.episode_seed(1, 0, v),
         r"episode must be in 0\.\.18446744073709551615", extra_bad=[2**64], valid=[2**64 - 1, np.int64(2**63 - 1), np.uint64(2**64 - 1), 2**63]),
    Case("sampler_seed(sampler)", no_subject, lambda _, v: vector.sampler_seed(1, v), r"sampler must be in 0\.\.\d+", valid=[np.int64(2**63 - 1)]),
    Case("collect(steps)", VecSubject, lambda s, v: vector.collect(s.env, v), rf"steps must be in 1\.\.{MAX_GAMES}",
         extra_bad=[0]),
    Case("Samplers(num_samplers)", no_subject, lambda _, v: vector.Samplers(v, seed=1, num_envs=2, num_players=3),
         r"num_samplers must be in 1\.\.4096", extra_bad=[0, vector.MAX_SAMPLERS + 1]),
    Case("gym GameEnv(seat)", no_subject, lambda _, v: threes_gym.GameEnv("shithead", num_players=3, seat=v),
         r"seat must be in 0\.\.2", extra_bad=[3]),
    Case("gym ThreesEnv(num_players)", no_subject, lambda _, v: threes_gym.ThreesEnv(num_players=v),
         r"between 2 and 12"),
    Case("gym ThreesEnv(max_moves)", no_subject, lambda _, v: threes_gym.ThreesEnv(num_players=3, max_moves=v),
         r"between 1 and \d+", none_ok=True),
    Case("gym GameEnv(num_players) Three Thirteen", no_subject,
         lambda _, v: threes_gym.GameEnv("three_thirteen", num_players=v), r"between 2 and 8", none_ok=True),
    Case("gym step(action)", GymSubject, lambda s, v: s.env.step(v), r"0\.\.675",
         type_errors=(TypeError, ValueError)),
]


@pytest.mark.parametrize("case", VECTOR_CASES, ids=repr)
def test_vector_and_gym_ints_out_of_range(case):
    test_ints_out_of_range_are_value_errors_naming_the_bounds(case)


@pytest.mark.parametrize("case", VECTOR_CASES, ids=repr)
def test_vector_and_gym_non_ints(case):
    test_values_that_are_not_ints_are_type_errors(case)


def test_an_env_index_out_of_range_is_an_index_error_too():
    env = vec_env()
    env.reset()
    for v in (2, -1, 2**64):
        with pytest.raises(IndexError):
            env.game_state(v)
        with pytest.raises(ValueError):
            env.game_state(v)


@pytest.mark.parametrize("make", [lambda: threes_gym.ThreesEnv(num_players=3),
                                  lambda: vector.VectorEnv("shithead", 2, num_players=3)])
def test_reset_takes_every_seed_int_modulo_2_64(make):
    """Gymnasium's own seeding refuses negative and numpy seeds (gymnasium.error.Error, not a
    ValueError); the adapters take any int, modulo 2**64, as every seed of threes."""
    env = make()
    first = env.reset(seed=5)[0].copy()
    for v in (2**64 + 5, np.int64(5), np.uint64(5)):
        assert np.array_equal(env.reset(seed=v)[0], first), v
    minus_one = env.reset(seed=-1)[0].copy()
    assert np.array_equal(env.reset(seed=2**64 - 1)[0], minus_one)
    for v in (1.5, "5", True):
        with pytest.raises(TypeError):
            env.reset(seed=v)
