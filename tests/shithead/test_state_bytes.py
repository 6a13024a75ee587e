"""The bytes of a Shithead state (State.nbytes, issue 40): a copy carries
the fields before the seats and the game's seats; the repetition ring only
when repetition_limit is on. Checked as behaviour: the sizes, and games
played through copies made into reused objects equal the games played
straight."""
from __future__ import annotations

import random

import threes
from threes.shithead.rules import Rules

# The C layout (state.h, THE BODY): a header, then the game's seats (41
# bytes each), where each card is (64 ids a deck) and the piles' order (the
# deck's cards). The 4-player, 2-deck threes figure is the one issue 40 sets
# a target for (at most 512).
HEADER = 91
SEAT_BYTES = 41
IDS_PER_DECK = 64
TARGET_4P = 512


def layout_bytes(n: int, decks: int, jokers: int) -> int:
    return HEADER + n * SEAT_BYTES + decks * IDS_PER_DECK + decks * (52 + jokers)


def test_four_players_with_two_decks_fit_the_issues_512_bytes():
    assert threes.Game(4).new_initial_state(1).nbytes <= TARGET_4P


def test_nbytes_follows_the_layout_and_is_whole_with_the_repetition_rule():
    for n in range(2, 7):
        for preset in ("threes", "classic", "dutch"):
            rules = Rules.preset(preset)
            if n > rules.max_players():
                continue  # a deck too small for the table
            s = threes.Game(n, rules).new_initial_state(1)
            assert s.nbytes == layout_bytes(n, rules.decks, rules.jokers), (n, preset)
    big = Rules.preset("threes", decks=4)
    assert threes.Game(12, big).new_initial_state(1).nbytes == layout_bytes(12, 4, big.jokers)
    on = threes.Game(4, Rules.preset("threes", repetition_limit=3)).new_initial_state(1)
    assert on.nbytes == threes.STATE_SIZE_BYTES > 3 * threes.Game(4).new_initial_state(1).nbytes  # the ring comes along


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
