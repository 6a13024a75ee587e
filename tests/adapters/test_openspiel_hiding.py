"""The OpenSpiel adapter's resample_from_infostate hides what it must (issue
13): a resampled Threes state is a new deal consistent with what the
observer saw, followed by the same player actions, as OpenSpiel's own games
make it. Its history has the full length and replays to it; the observer's
information state is unchanged; and the true hidden cards are nowhere in it:
not in its attributes, serialize(), pickle, history or str."""
import pickle
from collections import Counter

import numpy as np
import pytest
import pyspiel

import threes.openspiel  # noqa: F401  (registers the games)

CASES = [({"players": 2}, 0), ({"players": 3}, 1), ({"players": 4, "rules": "classic"}, 2),
         ({"players": 3, "rules": "dutch"}, 3), ({"players": 5}, 4), ({"players": 6}, 5),
         ({"players": 2, "rules": "classic"}, 6), ({"players": 5, "rules": "dutch"}, 7)]


def dealt(game, rng):
    s = game.new_initial_state()
    while s.is_chance_node():
        kinds, probs = zip(*s.chance_outcomes())
        s.apply_action(int(rng.choice(kinds, p=probs)))
    return s


def replay(game, history):
    s = game.new_initial_state()
    for a in history:
        s.apply_action(a)
    return s


def hidden_deal_positions(state):
    """Deal positions (indexes into the chance outcomes, the deck from the
    top, RULES.md 4.1) whose card is still hidden from every seat: the
    face-down slots still occupied and the draw pile."""
    g = state.inner
    n, K = g.num_players(), g.rules.cards_per_zone
    first = (g.dealer + 1) % n
    size = len(state.history()) - len(g.history())
    out = [k * n + (q - first) % n for q in range(n) for k in range(K) if g.face_down(q)[k] is not None]
    return out + [size - 1 - i for i in range(g.draw_pile_size())]


def unknown_hand(state, q):
    return sorted((Counter(map(str, state.inner.hand(q))) - Counter(map(str, state.inner.known_cards(q)))).elements())


def deal_lists(r, deck):
    """Every list of deck-many chance outcomes the resampled state carries:
    its history's, and any list attribute of its pickle and of the state
    serialize() rebuilds."""
    out = [list(r.history()[:deck])]
    for s in (pickle.loads(pickle.dumps(r)), r.get_game().deserialize_state(r.serialize())):
        out.append(list(s.history()[:deck]))
        out += [list(v) for v in vars(s).values() if isinstance(v, list) and len(v) == deck]
    return out


@pytest.mark.parametrize("params,seed", CASES, ids=str)
def test_a_resampled_state_is_its_history_and_keeps_the_observers_view(params, seed):
    game = pyspiel.load_game("threes", params)
    n, deck = game.num_players(), game.deck_size
    rng = np.random.RandomState(seed)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = dealt(game, rng)
    checked = 0
    for depth in range(150):
        if state.is_terminal():
            break
        if depth % 13 == 0:
            for obs in range(n):
                r = state.resample_from_infostate(obs, sampler)
                h = r.history()
                # OpenSpiel's convention: the full history, new chance outcomes then the same player actions
                assert len(h) == len(state.history()) and h[deck:] == state.history()[deck:]
                assert sorted(h[:deck]) == sorted(state.history()[:deck])  # the same deck, dealt again
                assert r.information_state_string(obs) == state.information_state_string(obs)
                assert r.observation_tensor(obs) == state.observation_tensor(obs)
                assert r.current_player() == state.current_player()
                if state.current_player() == obs:
                    assert r.legal_actions() == state.legal_actions()
                # the state is exactly what its history replays to: attributes, serialize(), pickle, str
                again = replay(game, h)
                assert again.inner.to_dict() == r.inner.to_dict() and again.history() == h and str(again) == str(r)
                assert again.inner == r.inner  # the same position key (no stray bytes in it)
                assert again.serialize() == r.serialize()
                back = game.deserialize_state(r.serialize())
                assert back.inner.to_dict() == r.inner.to_dict() and back.history() == h
                un = pickle.loads(pickle.dumps(r))
                assert un.inner.to_dict() == r.inner.to_dict() and un.history() == h
                assert all(d == list(h[:deck]) for d in deal_lists(r, deck))
                checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked >= 3 * n


@pytest.mark.parametrize("params,seed", CASES, ids=str)
def test_the_true_hidden_cards_leave_no_trace(params, seed):
    """Where the true deal had a card still hidden (a face-down slot, the draw
    pile), a resampled state's chance outcomes (history, pickle, serialize)
    mostly hold another; the other seats' unknown hand cards change too. With
    the true deal kept (as before this fix) every such position matches."""
    game = pyspiel.load_game("threes", params)
    n, deck = game.num_players(), game.deck_size
    rng = np.random.RandomState(100 + seed)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = dealt(game, rng)
    for _ in range(12 + 3 * seed):
        state.apply_action(int(rng.choice(state.legal_actions())))
    truth = state.history()[:deck]
    hidden = hidden_deal_positions(state)
    assert len(set(truth[p] for p in hidden)) > 3  # enough to tell a redeal from the truth
    for obs in range(n):
        same = total = 0
        hands_differ = 0
        for _ in range(6):
            r = state.resample_from_infostate(obs, sampler)
            for d in deal_lists(r, deck):
                if len(d) < deck:
                    continue  # an empty history: test_a_resampled_state_is_its_history_... says so
                same += sum(d[p] == truth[p] for p in hidden)
                total += len(hidden)
            hands_differ += any(unknown_hand(r, q) != unknown_hand(state, q) for q in range(n) if q != obs)
            assert unknown_hand(r, obs) == unknown_hand(state, obs)  # its own hand stays
        assert total > 0 and same < 0.5 * total, f"seat {obs}: {same} of {total} hidden deal positions kept the true card"
        assert hands_differ > 0, f"seat {obs}: the other hands were never dealt again"


def test_resampling_during_the_swap_and_at_the_start_of_play():
    """Before any play and at the start of play the new deal replays too: the
    start rule (RULES.md 5) picks the same first player on it."""
    for params in ({"players": 4}, {"players": 3, "rules": "classic"}, {"players": 5, "rules": "dutch"}):
        game = pyspiel.load_game("threes", params)
        n = game.num_players()
        for seed in range(6):
            rng = np.random.RandomState(seed)
            state = dealt(game, rng)
            for step in range(n + 1):
                for obs in range(n):
                    r = state.resample_from_infostate(obs, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                    assert replay(game, r.history()).inner.to_dict() == r.inner.to_dict()
                    assert r.information_state_string(obs) == state.information_state_string(obs)
                    assert r.current_player() == state.current_player()
                state.apply_action(int(rng.choice(state.legal_actions())))


def test_a_bad_seat_is_refused():
    game = pyspiel.load_game("threes", {"players": 3})
    state = dealt(game, np.random.RandomState(0))
    for bad in (-1, 3, True, "0"):
        with pytest.raises(pyspiel.SpielError):
            state.resample_from_infostate(bad, pyspiel.UniformProbabilitySampler(0.0, 1.0))


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3, "rules": "classic"}, {"players": 4, "rules": "dutch"}])
def test_random_sim_test_still_passes(params):
    pyspiel.random_sim_test(pyspiel.load_game("threes", params), num_sims=2, serialize=True, verbose=False)


# ------------------------------------------------------------ Three Thirteen --
def tt_unknown(state, q):
    f = state._fields()
    return sorted((Counter(f["hands"][q]) - Counter(f["known"][q])).elements())


def tt_play(game, rng, steps):
    s = game.new_initial_state()
    for _ in range(steps):
        if s.is_terminal():
            break
        if s.is_chance_node():
            kinds, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(kinds, p=probs)))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    while s.is_chance_node():
        kinds, probs = zip(*s.chance_outcomes())
        s.apply_action(int(rng.choice(kinds, p=probs)))
    return s


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2), (5, 3)])
def test_three_thirteen_resampled_state_is_its_history(players, seed):
    """The Three Thirteen state too: this round's hidden outcomes dealt again
    (after reshuffles from that stock, T-3), the rest of the history kept; it
    replays to the resampled state, the observer's information state stays,
    the other hands' unknown cards change."""
    game = pyspiel.load_game("three_thirteen", {"players": players})
    rng = np.random.RandomState(seed)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for steps in (30, 150, 330):
        state = tt_play(game, rng, steps)
        if state.is_terminal():
            continue
        hist = state.history()
        for obs in range(players):
            differ = 0
            for _ in range(4):
                r = state.resample_from_infostate(obs, sampler)
                h = r.history()
                assert len(h) == len(hist) and sorted(h) != [] and r.current_player() == state.current_player()
                # player actions are the same, only chance outcomes change
                again = replay(game, h)
                assert [again.is_chance_node()] == [r.is_chance_node()]
                assert again.inner.to_dict() == r.inner.to_dict() and str(again) == str(r)
                assert again.serialize() == r.serialize()
                assert game.deserialize_state(r.serialize()).inner.to_dict() == r.inner.to_dict()
                assert pickle.loads(pickle.dumps(r)).inner.to_dict() == r.inner.to_dict()
                assert r.information_state_string(obs) == state.information_state_string(obs)
                assert r.observation_tensor(obs) == state.observation_tensor(obs)
                if state.current_player() == obs:
                    assert r.legal_actions() == state.legal_actions()
                assert tt_unknown(r, obs) == tt_unknown(state, obs)
                differ += any(tt_unknown(r, q) != tt_unknown(state, q) for q in range(players) if q != obs)
            if any(tt_unknown(state, q) for q in range(players) if q != obs):
                assert differ > 0, f"seat {obs}: the other hands were never dealt again"


def test_three_thirteen_random_sim_test_still_passes():
    pyspiel.random_sim_test(pyspiel.load_game("three_thirteen", {"players": 3}), num_sims=1, serialize=True,
                            verbose=False)
