"""The packaged "net" bot (threes/shithead/net.py): legal, deterministic,
blind to hidden cards, checked at the boundary, and stronger than random."""
import numpy as np
import pytest

import threes
from threes.bots import make_bot, play_game
from threes.shithead.net import NetBot, load_weights


def test_weights_fit_the_game_they_were_trained_for():
    net = load_weights()
    meta = net["meta"]
    game = threes.Game(meta["num_players"])
    s = game.new_initial_state(seed=1)
    assert meta["game"] == "shithead"
    assert net["w1"].shape == (len(s.observation_tensor(0)), meta["hidden"])
    assert net["w3"].shape == (meta["hidden"], game.num_distinct_actions())
    assert not net["w1"].flags.writeable


def test_make_bot_builds_it_and_other_games_refuse_it():
    bot = make_bot("net")
    assert isinstance(bot, NetBot) and bot.name == "net"
    assert isinstance(make_bot("NET", game="shithead"), NetBot)
    with pytest.raises(ValueError, match="unknown bot 'net' for Three Thirteen"):
        make_bot("net", game="three_thirteen")
    with pytest.raises(ValueError, match="Shithead: random, greedy, heuristic, net"):
        make_bot("nett")


def test_plays_whole_games_legally_and_deterministically():
    bot = NetBot()
    game = threes.Game(4)
    for seed in range(5):
        s = game.new_initial_state(seed=seed)
        moves = 0
        while not s.is_terminal():
            a = bot.step(s)
            assert a in s.legal_actions()
            assert bot.step(s) == a  # no randomness
            s.apply_action(a)
            moves += 1
        assert moves > 0
    final = play_game([bot, bot, bot, make_bot("random")], game.new_initial_state(seed=9), seed=9)
    assert final.is_terminal()


def test_blind_to_hidden_cards():
    bot = NetBot()
    s = threes.Game(4).new_initial_state(seed=3)
    for _ in range(40):
        if s.is_terminal():
            break
        p = s.current_player()
        views = [s.resample_from_infostate(p, k) for k in range(3)]
        assert all(np.array_equal(bot.logits(v), bot.logits(s)) for v in views)
        s.apply_action(bot.step(s))


def test_bad_states_raise_and_change_nothing():
    bot = NetBot()
    s3 = threes.Game(3).new_initial_state(seed=1)
    before = s3.to_dict()
    with pytest.raises(ValueError, match="4-player Shithead; this state seats 3"):
        bot.step(s3)
    assert s3.to_dict() == before
    tt = threes.three_thirteen.Game(4).new_initial_state(seed=1)
    with pytest.raises(ValueError, match="plays shithead, not Three Thirteen"):
        bot.step(tt)
    with pytest.raises(TypeError):
        bot.step(object())


def test_beats_random_in_a_duplicate_tournament():
    r = threes.tournament(["net", "random", "random", "random"], games=20, seed=5, workers=1)
    places = r.places.mean(axis=(0, 1))  # per bot, over deals and rotations
    assert places[0] < 0.8 and all(places[0] < p for p in places[1:])
