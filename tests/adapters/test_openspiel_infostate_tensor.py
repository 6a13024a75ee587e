"""The OpenSpiel games declare no information state tensor, and provide none:
information_state_tensor is not the observation tensor in disguise, while
the information state string and the observation tensor stay."""
import numpy as np
import pytest
import pyspiel

import threes.adapters.openspiel  # noqa: F401  (registers the games)


def played(game, rng, moves):
    s = game.new_initial_state()
    while s.is_chance_node() or (moves > 0 and not s.is_terminal()):
        if s.is_chance_node():
            kinds, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(kinds, p=probs)))
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
            moves -= 1
    return s


@pytest.mark.parametrize("name,params", [("threes", {"players": 3}), ("threes", {"players": 2, "rules": "classic"}),
                                         ("three_thirteen", {"players": 3}), ("three_thirteen", {"players": 2})])
def test_no_information_state_tensor_is_offered(name, params):
    game = pyspiel.load_game(name, params)
    assert game.get_type().provides_information_state_tensor is False
    assert game.get_type().provides_observation_tensor is True
    rng = np.random.RandomState(2)
    for moves in (0, 5, 20):
        state = played(game, rng, moves)
        for p in range(game.num_players()):
            assert list(state.information_state_tensor(p)) == []
            obs = np.array(state.observation_tensor(p))
            assert obs.size > 0 and np.count_nonzero(obs) > 0
            assert state.information_state_string(p) and state.observation_string(p)
