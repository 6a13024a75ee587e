"""The bitpacked Three Thirteen state (State.nbytes, issue 40): hands, known
cards and pool cards as card bitsets (one 64-bit word per deck: "unary
bit-planes"), the stock, discard pile, totals and round scores sized by the
table. Checked as behaviour: the sizes against the layout and the issue's
target, cards at every count a deck allows surviving to_dict and pickles,
and games played through copies equal the games played straight."""
from __future__ import annotations

import pickle
import random

from threes import three_thirteen as tt

HEADER = 88  # options, scalars, the chance generator, turns and hand lengths (state.h)


def layout_bytes(n: int, decks: int, jokers: int) -> int:
    """state.h, THE LAYOUT: 3 card sets a seat (a word per deck each), an
    int32 total and 11 int16 round scores a seat, the deck's cards."""
    return HEADER + n * 3 * decks * 8 + n * (4 + 11 * 2) + decks * (52 + jokers)


def test_four_players_fit_the_issues_512_bytes():
    assert tt.Game(4).new_initial_state(1).nbytes <= 512


def test_nbytes_follows_the_layout_for_every_table_and_deck():
    for n in range(2, 9):
        for decks in range(1, 5):
            for jokers in (0, 2):
                try:
                    game = tt.Game(n, decks=decks, jokers=jokers)
                except ValueError:
                    continue  # too few cards for round 11 at this table
                assert game.new_initial_state(3).nbytes == layout_bytes(n, decks, jokers), (n, decks, jokers)


def _deep_game(n, seed, **options):
    """A game played at random until the deck's every copy is likely to have
    met in hands (round 11), with its knowledge and pool fields in use."""
    s = tt.Game(n, **options).new_initial_state(seed)
    rng = random.Random(seed)
    states = []
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        if s.move_number() % 37 == 0:
            states.append(s.clone())
    return states + [s]


def test_every_count_a_deck_allows_round_trips_through_to_dict_and_pickle():
    """Four decks: up to four copies of a kind in one hand, known or pool
    (three planes past the first). The counts read back equal the hands in
    to_dict, which rebuild an equal state."""
    seen_max = 0
    for seed in range(3):
        for s in _deep_game(2, seed, decks=4, jokers=2):
            d = s.to_dict()
            for hand in d["hands"]:
                seen_max = max([seen_max] + [hand.count(k) for k in set(hand)])
            back = tt.State.from_dict(d)
            assert back == s and back.to_dict() == d
            assert pickle.loads(pickle.dumps(s)) == s
    assert seen_max >= 3  # more than two copies of a kind met in one hand


def test_more_copies_than_the_deck_has_are_refused_at_the_boundary():
    s = tt.Game(2).new_initial_state(5)  # one deck: at most one copy of a kind
    d = s.to_dict()
    k = d["hands"][0][0]
    # swap a card of hand 1 for a second copy of hand 0's first kind: the
    # totals still add up, but no deck holds two
    d["hands"][1][0] = k
    import pytest

    with pytest.raises(ValueError, match="more cards of kind|cards in the game"):
        tt.State.from_dict(d)


def test_games_through_copies_equal_games_played_straight():
    for n, options in ((2, {"decks": 1}), (4, {}), (5, {"decks": 3, "jokers": 2})):
        game = tt.Game(n, **options)
        for seed in range(3):
            straight = game.new_initial_state(seed)
            rng = random.Random(seed)
            while not straight.is_terminal():
                straight.apply_action(rng.choice(straight.legal_actions()))
            s, rng, k = game.new_initial_state(seed), random.Random(seed), 0
            other = [tt.Game(8, decks=4).new_initial_state(j) for j in range(3)]
            while not s.is_terminal():
                a = rng.choice(s.legal_actions())
                junk = [o.clone() for o in other]  # bigger tables' objects freed, then reused
                del junk
                s = s.child(a) if k % 2 else s.clone()
                if not k % 2:
                    s.apply_action(a)
                k += 1
            assert s == straight and s.to_dict() == straight.to_dict() and s.returns() == straight.returns()
