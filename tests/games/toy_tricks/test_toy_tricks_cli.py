"""Toy Tricks through the command line's generic paths (issue 39): a game with no commands and no
rules words of its own gets its declared options explained, refuses presets, and its simulations say
when every game ended normally (tests/ui/test_cli_teaches.py holds the cases of every game)."""
from ui.test_cli_teaches import error, ok, rule_lines, run  # noqa: F401 (run is a fixture)


def test_rules_of_the_toy_game_are_its_declared_options(run):
    out = ok(run, "rules", "toy-tricks", "--set", "hand_size=5")
    rows = rule_lines(out)
    assert rows["hand_size"] == ("5", "cards dealt to each seat (default 13)")
    assert rows["low_wins"] == ("no", "off (yes would mean: the lowest card wins a trick instead of the highest)")
    assert rows["target"] == ("100", "tricks in all that end the game (at the end of a deal)")


def test_rules_of_a_game_without_presets_refuses_one(run):
    err = error(run, "rules", "dutch", "--game", "toy_tricks")
    assert "Toy Tricks has no presets (dutch)" in err


def test_simulate_says_when_every_game_ended_normally(run):
    out = ok(run, "simulate", "--game", "toy_tricks", "--games", "200", "--players", "3", "--set", "target=5")
    assert "every game ended normally: none was cut at the move cap, none ended by repetition" in out
    assert "truncated games:" not in out and "stalemates:" not in out
