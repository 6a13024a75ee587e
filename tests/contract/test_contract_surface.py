"""The registry finds every game, and every game's package offers the contract
that generic code (bots, tournaments, CLI, adapters) relies on
(threes/registry.py)."""
import pytest

from threes import registry

GAME_NAMES = ("Game", "State", "POLICIES", "rollouts")
GAME_METHODS = ("num_players", "new_initial_state", "num_distinct_actions")
STATE_METHODS = ("current_player", "legal_actions", "legal_actions_mask", "is_legal", "apply_action", "clone",
                 "returns", "is_terminal", "is_truncated", "is_stalemate", "num_players", "history", "to_dict", "from_dict",
                 "observation", "observation_string", "information_state_string", "observation_tensor",
                 "resample_from_infostate", "action_to_string", "string_to_action", "_check", "child", "move_number",
                 "max_game_length")


def test_registry_lists_both_games():
    assert {"shithead", "three_thirteen"} <= set(registry.names())


def test_registry_finds_each_game_by_name_alias_and_object(game_name, pkg):
    info = registry.get(game_name)
    assert info.name == game_name
    for alias in info.aliases:
        assert registry.get(alias.upper()) is info
    game = pkg.Game(2)
    state = game.new_initial_state(1)
    assert registry.game_of(game) is info
    assert registry.game_of(state) is info
    assert registry.game_of(state.clone()) is info


def test_package_offers_the_contract(game_name, pkg):
    missing = [n for n in GAME_NAMES if not hasattr(pkg, n)]
    missing += [f"Game.{n}" for n in GAME_METHODS if not callable(getattr(pkg.Game, n, None))]
    missing += [f"State.{n}" for n in STATE_METHODS if not callable(getattr(pkg.State, n, None))]
    assert not missing, f"{game_name} lacks {', '.join(missing)}"
    assert isinstance(pkg.POLICIES, tuple) and "random" in pkg.POLICIES


def test_unknown_names_raise():
    with pytest.raises(ValueError):
        registry.get("no such game")
    with pytest.raises(TypeError):
        registry.get(3)
    with pytest.raises(TypeError):
        registry.game_of(object())


def test_move_number_counts_the_actions_applied(game_name, pkg):
    """move_number() (OpenSpiel's name) is the number of actions applied since
    the deal, in every game, and max_game_length() the move cap."""
    import random

    state = pkg.Game(3).new_initial_state(2)
    r = random.Random(0)
    for k in range(40):
        assert state.move_number() == k == len(state.history())
        state.apply_action(r.choice(state.legal_actions()))
    assert state.clone().move_number() == 40
    assert pkg.State.from_dict(state.to_dict()).move_number() == 40
    assert state.max_game_length() == pkg.Game(3).new_initial_state(2).max_game_length() > 40
