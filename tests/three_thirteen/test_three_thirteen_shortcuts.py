"""The engine's exact shortcuts give what the plain definitions give.

- Legal go-out actions: the C engine asks one drop-one search whether any
  discard leaves no deadwood before it solves each candidate; the set must
  equal the definition (T-2 and Going out: a card p may discard now, p may go
  out this turn, no deadwood without that card), checked here card by card
  with the plain solver (``tt.min_deadwood``).
- The greedy draw: take the discard exactly when the best discard afterwards
  leaves less deadwood than the hand has now; the engine answers without a
  search when the discard has no possible partner and no dearer card could
  go instead (``take_cannot_help`` in rollout.c). Checked against the
  definition with the plain solver.
- Greedy rollouts: a rollout memoises, per seat, its hand's deadwood and its
  best discard; the batch games must equal the same games played move by move
  with the memo-free policy (``State._policy_action``), under every option
  that changes what a seat may discard or how cards count.
"""
from __future__ import annotations

import random

import pytest
from threes import three_thirteen as tt

FIRST_DISCARD = 2
FIRST_OUT = 56
GREEDY, RANDOM = 1, 0

GAMES = [
    tt.Game(2),
    tt.Game(3, jokers=2),
    tt.Game(4, rediscard_taken=True),
    tt.Game(3, ace="either", wild_penalty=20, go_out_first_turn=False),
    tt.Game(2, all_wild_melds=False, jokers=2),
]
IDS = ["2p", "3p-jokers", "4p-rediscard", "3p-ace-either-w20-no-first-turn", "2p-no-all-wild-jokers"]


def _go_outs_by_definition(s: tt.State):
    d = s.to_dict()
    o = d["options"]
    p = s.current_player()
    if not o["go_out_first_turn"] and d["turns"][p] <= 1:
        return []
    hand = s.hand(p)
    out = []
    for a in s.legal_actions():
        if FIRST_DISCARD <= a < FIRST_OUT:  # a card p may discard now
            rest = list(hand)
            rest.remove(tt.kind_to_card(a - FIRST_DISCARD))
            value, _ = tt.min_deadwood(rest, s.wild_rank(), ace=o["ace"], all_wild_melds=o["all_wild_melds"],
                                       wild_penalty=o["wild_penalty"])
            if value == 0:
                out.append(a - FIRST_DISCARD + FIRST_OUT)
    return out


def _discard_positions(game, seed):
    """Every discard-phase position of one mostly greedy game (so that the
    moments before someone goes out, the case the shortcut must not miss,
    come up in every round)."""
    out, rng = [], random.Random(seed)
    s = game.new_initial_state(seed)
    while not s.is_terminal():
        if s.phase == "discard":
            out.append(s.clone())
        s.apply_action(s._policy_action(GREEDY if rng.random() < 0.9 else RANDOM, rng.getrandbits(64)))
    return out


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_go_out_actions_are_exactly_the_definition(game):
    seen = with_go_out = 0
    for seed in range(2):
        for s in _discard_positions(game, seed):
            go_outs = [a for a in s.legal_actions() if a >= FIRST_OUT]
            assert go_outs == _go_outs_by_definition(s), s.to_dict()
            assert [a for a in range(FIRST_OUT, FIRST_OUT + 54) if s.is_legal(a)] == go_outs
            seen += 1
            with_go_out += bool(go_outs)
    assert seen > 200 and with_go_out >= 10  # both answers were exercised


def _stepwise_greedy(s: tt.State) -> tt.State:
    s = s.clone()
    while not s.is_terminal():
        s.apply_action(s._policy_action(GREEDY, 0))
    return s


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_greedy_batch_games_equal_memo_free_play(game):
    for seed in range(3):
        s = game.new_initial_state(100 + seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 120)):  # start anywhere, even mid-turn
            s.apply_action(s._policy_action(RANDOM, rng.getrandbits(64)))
        end = _stepwise_greedy(s)
        batch = tt.rollouts(s, 2, policy="greedy", seed=seed, threads=1)
        # greedy play draws no random numbers: both batch games are the memo-free game
        for i in range(2):
            assert list(batch.totals[i]) == end.scores()
            assert int(batch.moves[i]) == end.to_dict()["move_count"] - s.to_dict()["move_count"]


def _dw(cards, s, o):
    return tt.min_deadwood(cards, s.wild_rank(), ace=o["ace"], all_wild_melds=o["all_wild_melds"],
                           wild_penalty=o["wild_penalty"])[0]


def _takes_by_definition(s: tt.State) -> bool:
    """The greedy draw's rule: take the top discard when some discard allowed
    afterwards (not the taken card, unless another copy is held or
    rediscard_taken) leaves less deadwood than the hand now."""
    o = s.to_dict()["options"]
    hand = s.hand(s.current_player())
    top = s.discard_pile()[-1]
    after = hand + [top]
    best = min(_dw(after[:i] + after[i + 1:], s, o) for i, c in enumerate(after)
               if c != top or o["rediscard_taken"] or hand.count(top) >= 1)
    return best < _dw(hand, s, o)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_greedy_draw_is_exactly_the_definition(game):
    seen, took = 0, 0
    for seed in range(6):
        rng = random.Random(seed)
        s = game.new_initial_state(200 + seed)
        while not s.is_terminal() and seen < 800:
            if s.phase == "draw" and s.discard_pile():
                takes = s._policy_action(GREEDY, 0) == 1
                assert takes == _takes_by_definition(s), s.to_dict()
                seen += 1
                took += takes
            s.apply_action(s._policy_action(GREEDY if rng.random() < 0.8 else RANDOM, rng.getrandbits(64)))
    assert seen > 300 and 10 <= took < seen - 10  # both answers were exercised
