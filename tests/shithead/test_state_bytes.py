"""The bytes of a Shithead state (State.nbytes, issue 40): a copy carries
the fields before the seats and the game's seats; the repetition ring only
when repetition_limit is on. Checked as behaviour: the sizes, and games
played through copies made into reused objects equal the games played
straight."""
from __future__ import annotations

import random

import threes
from threes.shithead.rules import Rules

# The C layout (state.h): sh_seat is 53 bytes; the 4-player figure is the one
# issue 40 sets a target for (at most 512, not met yet: docs/performance.md).
SEAT_BYTES = 53
FOUR_PLAYER_BYTES = 900


def test_nbytes_grows_by_one_seat_per_player_and_is_whole_with_the_repetition_rule():
    sizes = {n: threes.Game(n).new_initial_state(1).nbytes for n in range(2, 7)}
    assert sizes[4] == FOUR_PLAYER_BYTES
    for n in range(3, 7):
        assert sizes[n] - sizes[n - 1] == SEAT_BYTES
    on = threes.Game(4, Rules.preset("threes", repetition_limit=3)).new_initial_state(1)
    assert on.nbytes > 2 * sizes[4]  # the ring of remembered positions comes along
    assert threes.Game(12, Rules.preset("threes", decks=4)).new_initial_state(1).nbytes == sizes[2] + 10 * SEAT_BYTES


def _play_through_copies(game, seed, rng):
    """A random game where every move is made on a fresh copy (clone or
    child, alternately), with states of other tables freed in between so the
    copies land in reused objects; returns the final state."""
    other = [threes.Game(6, Rules.preset("threes", repetition_limit=2 + k % 2)).new_initial_state(k) for k in range(6)]
    s = game.new_initial_state(seed)
    k = 0
    while not s.is_terminal():
        a = rng.choice(s.legal_actions())
        junk = [o.clone() for o in other]
        del junk
        s = s.child(a) if k % 2 else s.clone()
        if not k % 2:
            s.apply_action(a)
        k += 1
    return s


def test_games_through_reused_copies_equal_games_played_straight():
    for limit in (0, 2, 3):
        game = threes.Game(3, Rules.preset("threes", repetition_limit=limit), max_moves=3000)
        for seed in range(4):
            straight = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not straight.is_terminal():
                straight.apply_action(rng.choice(straight.legal_actions()))
            copied = _play_through_copies(game, seed, random.Random(seed))
            assert copied == straight and copied.to_dict() == straight.to_dict()
            assert (copied.is_stalemate(), copied.returns()) == (straight.is_stalemate(), straight.returns())


def test_a_vector_env_keeps_its_states_their_bytes_in_use_apart():
    """threes.vector keeps each env's C state State.nbytes apart (rounded up
    to 8, th_game.state_bytes): every env's state read back is whole and
    valid after many steps (a game writing past its bytes in use would spoil
    the next env's), and a row too short to hold a state is refused."""
    import numpy as np
    import pytest

    from threes.three_thirteen import Game as TTGame

    for game, n, like in (("shithead", 4, threes.Game(4).new_initial_state(0)),
                          ("three_thirteen", 3, TTGame(3).new_initial_state(0))):
        env = threes.vector.VectorEnv(game, 16, num_players=n)
        env.reset(seed=3)
        rows = env._core.states
        assert rows.shape[1] == (like.nbytes + 7) // 8 * 8 < 2 * like.nbytes
        rng = np.random.default_rng(0)
        for _ in range(300):
            env.step(env.sample_actions(rng))
        for i in range(16):
            st = env.game_state(i)
            st._check()
            assert st.nbytes == like.nbytes
        with pytest.raises(ValueError, match="in use"):
            type(like)._from_bytes(bytes(rows[0][: like.nbytes - 1]))
