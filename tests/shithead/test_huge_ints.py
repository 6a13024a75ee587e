"""Every public Shithead method that takes a seat or an int answers an int of
any size with a ValueError or TypeError naming the problem, never an
OverflowError from the C conversion, and leaves the state unchanged."""
import numpy as np
import pytest

import threes
from threes.shithead.game import Game
from threes.shithead.rollouts import rollouts

HUGE = [2**31, 2**63, 2**64, 2**70, -2**31 - 1, -2**70, np.int64(2**62), np.uint64(2**64 - 1)]


def game():
    return Game(3, "threes")


def state():
    return game().new_initial_state(7)


SEAT_METHODS = ["observation_tensor", "observation", "observation_string", "information_state_string",
                "resample_from_infostate", "hand", "known_cards", "face_up", "face_down", "hand_size"]


@pytest.mark.parametrize("method", SEAT_METHODS)
@pytest.mark.parametrize("seat", HUGE, ids=str)
def test_a_huge_seat_is_a_value_error_naming_the_seats(method, seat):
    s = state()
    before = s.to_dict()
    with pytest.raises(ValueError, match=r"0\.\.2"):
        getattr(s, method)(seat)
    assert s.to_dict() == before


@pytest.mark.parametrize("method", ["observation_tensor", "resample_from_infostate"])
@pytest.mark.parametrize("seat", [1.0, "0", None, True, [0]], ids=repr)
def test_a_seat_that_is_not_an_int_is_a_type_error(method, seat):
    with pytest.raises(TypeError, match="must be an int"):
        getattr(state(), method)(seat)


def test_the_reported_case():
    with pytest.raises(ValueError, match=r"player must be a seat in 0\.\.2, not 1180591620717411303424"):
        state().observation_tensor(2**70)


@pytest.mark.parametrize("value", HUGE, ids=str)
def test_action_and_int_arguments_of_every_size(value):
    s, g = state(), game()
    before = s.to_dict()
    checks = [
        lambda: s.apply_action(value), lambda: s.child(value), lambda: s.action_to_string(value),
        lambda: s.action_to_string(0, value), lambda: s.decode_action(value), lambda: g.decode_action(value),
        lambda: s.is_playable(value), lambda: Game(value), lambda: Game(3, "threes", value),
        lambda: Game(3, "threes", dealer=value), lambda: g.encode_move(threes.Move.play("7", value)),
        lambda: g.encode_move(threes.Move.blind(value)),
        lambda: rollouts(s, 2, "random", 1, 1, observer=value), lambda: rollouts(g, 2, "random", 1, value),
    ]
    for i, call in enumerate(checks):
        with pytest.raises((ValueError, TypeError)):
            call()
        assert s.to_dict() == before, i
    assert s.legal_actions(value) == [] and s.is_legal(value) is False


@pytest.mark.parametrize("value", HUGE, ids=str)
def test_seeds_of_every_size_are_taken_or_refused_clearly(value):
    s = state()
    for call in (lambda: s.resample_from_infostate(0, value), lambda: game().new_initial_state(value)):
        try:
            out = call()
        except (ValueError, TypeError):
            continue
        assert out.num_players() == 3
