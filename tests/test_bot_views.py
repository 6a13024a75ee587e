"""threes.bots.bot_view: the engine's own C policies are handed the true
state (no resample per move) because their choice reads only what the player
to move can see. Checked here: on thousands of positions of every game, each
policy picks the same action on the state and on resamples of the player's
information set, and leaves the state as it was; every other bot gets a
resample."""
from __future__ import annotations

import random

import pytest

import threes
from threes import three_thirteen as tt
from threes.bots import ISMCTSBot, PolicyBot, bot_view, play_game


def _positions(game, seed, count=150):
    s = game.new_initial_state(seed)
    r = random.Random(seed)
    out = []
    while not s.is_terminal() and len(out) < count:
        out.append(s.clone())
        for _ in range(r.randrange(1, 6)):
            if s.is_terminal():
                break
            s.apply_action(r.choice(s.legal_actions()))
    return out


GAMES = [("threes", lambda: threes.Game(4, "threes")), ("classic", lambda: threes.Game(3, "classic")),
         ("dutch", lambda: threes.Game(5, "dutch")), ("threes-2p", lambda: threes.Game(2, "threes")),
         ("three_thirteen", lambda: tt.Game(3)), ("three_thirteen-jokers", lambda: tt.Game(2, jokers=2, ace="either"))]


@pytest.mark.parametrize("name,make", GAMES, ids=[g[0] for g in GAMES])
def test_policies_choose_the_same_on_the_state_and_on_its_resamples(name, make):
    game = make()
    policies = threes.registry.game_of(game.new_initial_state(0)).policies
    compared = 0
    for seed in range(6):
        for s in _positions(game, seed):
            p = s.current_player()
            before = s.to_dict()
            for k, policy in enumerate(policies):
                bot_seed = seed * 1000 + k
                on_state = PolicyBot(policy, seed=bot_seed).step(s)
                for j in range(3):
                    view = s.resample_from_infostate(p, 7 * j + seed)
                    assert PolicyBot(policy, seed=bot_seed).step(view) == on_state, (name, policy, s.history())
                    compared += 1
            assert s.to_dict() == before
    assert compared > 1000


def test_bot_view_gives_a_resample_to_every_other_bot():
    s = threes.Game(4).new_initial_state(3)
    for _ in range(30):
        s.apply_action(s.legal_actions()[0])
    p = s.current_player()

    class Peeking(PolicyBot):  # step overridden: it could read hidden cards
        def step(self, state):
            return super().step(state)

    assert bot_view(PolicyBot("greedy"), s, p, 5) is s
    assert bot_view(threes.bots.GreedyBot(), s, p, 5) is s
    for bot in (Peeking("greedy"), ISMCTSBot(10, seed=1), object()):
        view = bot_view(bot, s, p, 5)
        assert view is not s
        assert view.to_dict() == s.resample_from_infostate(p, 5).to_dict()


def test_play_game_with_policy_bots_is_unchanged_by_the_shortcut():
    """The same game as handing every bot a resample (the general path)."""
    game = threes.Game(4, "threes")
    bots = [threes.bots.make_bot(b, seed=i) for i, b in enumerate(["greedy", "random", "heuristic", "random"])]
    fast = play_game(bots, game.new_initial_state(9), seed=4)
    for i, b in enumerate(bots):
        b.reset(i)  # make_bot(b, seed=i) seeded each bot with i
    rng = random.Random(threes.args.seed64(4))
    s = game.new_initial_state(9)
    while not s.is_terminal():
        p = s.current_player()
        s.apply_action(bots[p].step(s.resample_from_infostate(p, rng.getrandbits(64))))
    assert s.history() == fast.history()
