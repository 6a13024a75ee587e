"""threes.registry: the games by name and alias, the game of an object, and
the hooks generic code finds a game's parts by."""
import pytest

import threes
from threes import registry, shithead, three_thirteen


def test_names_in_registration_order():
    shipped = tuple(n for n in registry.names() if registry.get(n).module.startswith("threes."))
    assert shipped == ("shithead", "three_thirteen")
    assert registry.names()[:2] == shipped  # the test-only games of tests/games register after them


@pytest.mark.parametrize("name,expected", [
    ("shithead", "shithead"), ("threes", "shithead"), ("Shithead", "shithead"), (" THREES ", "shithead"),
    ("three_thirteen", "three_thirteen"), ("three-thirteen", "three_thirteen"), ("3-13", "three_thirteen"),
    ("Three-Thirteen", "three_thirteen"),
])
def test_get_by_name_and_alias(name, expected):
    info = registry.get(name)
    assert info.name == expected
    assert info is registry.get(expected)


def test_entries():
    sh, tt = registry.get("shithead"), registry.get("three_thirteen")
    assert (sh.title, sh.module, sh.aliases) == ("Shithead", "threes.shithead", ("threes",))
    assert (tt.title, tt.module, tt.aliases) == ("Three Thirteen", "threes.three_thirteen", ("three-thirteen", "3-13"))
    assert sh.load() is shithead and tt.load() is three_thirteen
    assert sh.policies == ("random", "greedy", "heuristic") == tuple(threes.POLICIES)
    assert tt.policies == ("random", "greedy") == tuple(three_thirteen.POLICIES)
    assert (sh.first_place, sh.last_place) == ("first out", "shithead")
    assert (tt.first_place, tt.last_place) == ("lowest total", "last place")


@pytest.mark.parametrize("name", ["chess", "", "three thirteen", "shithead2", "3_13"])
def test_unknown_names_are_a_clear_error(name):
    with pytest.raises(ValueError) as exc:
        registry.get(name)
    msg = str(exc.value)
    assert repr(name) in msg and "shithead" in msg and "three_thirteen" in msg


@pytest.mark.parametrize("bad", [None, 3, b"threes", ["threes"]])
def test_a_name_is_a_string(bad):
    with pytest.raises(TypeError):
        registry.get(bad)


def test_game_of_games_states_and_packages():
    g = shithead.Game(3, "classic")
    s = g.new_initial_state(1)
    tg = three_thirteen.Game(2)
    ts = tg.new_initial_state(1)
    for obj in (g, s, s.clone(), shithead, threes.Game(2)):
        assert registry.game_of(obj).name == "shithead"
    for obj in (tg, ts, ts.clone(), three_thirteen):
        assert registry.game_of(obj).name == "three_thirteen"
    info = registry.get("3-13")
    assert registry.game_of(info) is info


@pytest.mark.parametrize("obj", [object(), 3, "shithead", [1], threes.Card("Ah")])
def test_game_of_foreign_objects_is_a_type_error(obj):
    with pytest.raises(TypeError, match="registered game"):
        registry.game_of(obj)


def test_register_refuses_a_taken_name_and_changes_nothing():
    before = registry.names()
    with pytest.raises(ValueError, match="already taken"):
        registry.register(registry.GameInfo("rummy", "Rummy", "threes.three_thirteen", aliases=("threes",)))
    with pytest.raises(ValueError, match="already taken"):
        registry.register(registry.GameInfo("other", "Other", "threes.shithead", aliases=("3-13",)))
    assert registry.names() == before
    with pytest.raises(ValueError):
        registry.get("rummy")


def test_hooks_and_variant():
    from threes.ui import svg

    from threes.shithead import svg as sh_svg
    from threes.three_thirteen import svg as tt_svg

    assert registry.get("shithead").hook("svg") is sh_svg.render is svg.render_shithead  # (the old name)
    assert registry.get("three_thirteen").hook("svg") is tt_svg.render is svg.render_three_thirteen
    assert registry.GameInfo("x", "X", "threes.shithead").hook("svg") is None
    assert registry.get("shithead").variant(shithead.Game(3, "dutch")) == "dutch"
    assert registry.get("three_thirteen").variant(three_thirteen.Game(3)) == "three_thirteen"
