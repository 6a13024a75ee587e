"""Imperfect information: resample_from_infostate(p, seed) deals again only
what p cannot see (p's information state string, observation and everything
p sees by the game's rules stay), and no hidden card reaches p's observation
(string, value or tensor): two states that differ only in cards hidden from
p, built by resampling, look the same to p."""
import copy
import random

import numpy as np
import pytest

import contract_hooks

#: How often a position is resampled (the moves per game: each game's contract_hooks.STEPS; bounded: fast).
EVERY = 23


def _positions(ct, game_name, pkg, num_players, seed):
    """(state, knowledge) at every EVERY-th move of a random game, live states only."""
    state = pkg.Game(num_players).new_initial_state(seed)
    know = ct.Knowledge(game_name, state)
    rng = random.Random(seed)
    out = []
    for i in range(contract_hooks.STEPS[game_name]):
        if state.is_terminal():
            break
        if i % EVERY == 0 or know.out is not None:  # and every move of a round's final turns
            if game_name == "three_thirteen":  # the knowledge follows the true state (checks the helper)
                for q in range(num_players):
                    assert ct.cards(state.hand(q)) & know.taken[q] == know.taken[q]
            out.append((state.clone(), copy.deepcopy(know)))
        a = rng.choice(state.legal_actions())
        mover = state.current_player()
        know.before(state)
        state.apply_action(a)
        know.after(state, a, mover)
    assert len(out) >= 10
    return out


def _observers(state, i):
    n = state.num_players()
    return sorted({state.current_player(), (state.current_player() + 1 + i) % n})


def test_resampling_keeps_what_the_observer_sees(ct, game_name, pkg, num_players, seed):
    changed = total = 0
    for i, (s, know) in enumerate(_positions(ct, game_name, pkg, num_players, seed)):
        d = s.to_dict()
        for p in _observers(s, i):
            r = s.resample_from_infostate(p, seed * 7919 + i)
            assert s.to_dict() == d, "resampling changed the state it was asked of"
            assert type(r) is type(s) and r is not s
            r._check()
            assert r.information_state_string(p) == s.information_state_string(p)
            assert r.observation_string(p) == s.observation_string(p)
            assert r.observation(p) == s.observation(p)
            assert ct.visible(game_name, r, p, know) == ct.visible(game_name, s, p, know)
            # the same seed, the same deal; the resampled state plays on
            assert r.to_dict() == s.resample_from_infostate(p, seed * 7919 + i).to_dict()
            ct.play_out(r.clone(), random.Random(i), 30)._check()
            total += 1
            changed += r.to_dict() != d
    # the hidden cards were dealt again (late in a game little may be hidden)
    assert changed >= 0.6 * total, f"only {changed} of {total} resamplings changed a hidden card"


def test_hidden_cards_do_not_reach_the_observation_string(ct, game_name, pkg, num_players, seed):
    shown = 0
    for i, (s, _) in enumerate(_positions(ct, game_name, pkg, num_players, seed)):
        n = s.num_players()
        for p in _observers(s, i):
            r = s.resample_from_infostate(p, 1000 + i)
            assert r.observation_string(p) == s.observation_string(p)
            assert r.observation(p) == s.observation(p)
            for q in range(n):
                if q != p and ct.cards(r.hand(q)) != ct.cards(s.hand(q)):
                    # q's own hand differs: q's own observation shows it
                    assert r.observation_string(q) != s.observation_string(q)
                    assert r.observation(q) != s.observation(q)
                    shown += 1
    assert shown > 0


def test_hidden_cards_do_not_reach_the_observation_tensor(ct, game_name, pkg, num_players, seed):
    shapes = set()
    shown = 0
    for i, (s, _) in enumerate(_positions(ct, game_name, pkg, num_players, seed)):
        n = s.num_players()
        for p in _observers(s, i):
            r = s.resample_from_infostate(p, 2000 + i)
            t, u = s.observation_tensor(p), r.observation_tensor(p)
            assert isinstance(t, np.ndarray) and t.dtype == np.float32 and t.ndim == 1
            shapes.add(t.shape)
            assert np.array_equal(t, u), f"seat {p}'s tensor shows a card hidden from it"
            # the tensor is not blind: another seat's (resampled) hand shows in that seat's own
            # tensor, at least sometimes (a tensor may count ranks only, so not at every change)
            shown += any(not np.array_equal(r.observation_tensor(q), s.observation_tensor(q))
                         for q in range(n) if q != p)
    assert len(shapes) == 1, f"the tensor changes shape during a game: {shapes}"
    assert shown > 0, "no resampled hand ever showed in its holder's tensor"


@pytest.mark.parametrize("num_players", [3])
def test_states_told_apart_only_by_hidden_cards_look_alike(ct, game_name, pkg, num_players):
    """Two resamplings for p of the same position differ between them only in
    what p cannot see: p's views of them are equal too."""
    for i, (s, know) in enumerate(_positions(ct, game_name, pkg, num_players, 9)):
        p = s.current_player()
        a, b = s.resample_from_infostate(p, 1), s.resample_from_infostate(p, 2)
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.observation_string(p) == b.observation_string(p)
        assert ct.visible(game_name, a, p, know) == ct.visible(game_name, b, p, know)
        assert a.legal_actions() == b.legal_actions() == s.legal_actions()
