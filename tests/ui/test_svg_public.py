"""render(state, observer="public"): the spectators' picture shows only what every player sees. Two states that
differ only in cards some seat cannot see (a resample for that seat) draw the same public picture, and every
face-up card drawn is a public one."""
import collections
import random
import re

import pytest

import threes
from threes import svg
from threes import three_thirteen as tt

CARD = re.compile(r'class="card[^"]*" data-card="([^"]+)"')


def drawn(picture):
    return collections.Counter(CARD.findall(picture))


@pytest.mark.parametrize("preset", ["threes", "classic"])
def test_shithead_public_view_shows_only_public_cards(preset):
    for seed in range(4):
        s = threes.Game(3, preset).new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            pic = svg.render(s, observer="public")
            public = collections.Counter(str(c) for q in range(3) for c in s.face_up(q) + s.known_cards(q))
            public.update(str(c) for c in s.pile())
            assert not drawn(pic) - public
            for q in range(3):
                assert svg.render(s.resample_from_infostate(q, seed=rng.randrange(2**32)), observer="public") == pic
            s.apply_action(rng.choice(s.legal_actions()))


def test_three_thirteen_public_view_shows_only_public_cards():
    for seed in range(3):
        s = tt.Game(3).new_initial_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(150):
            if s.is_terminal():
                break
            pic = svg.render(s, observer="public")
            o = s.observation(0)
            public = collections.Counter(str(c) for c in o.discard_pile)
            public.update(str(c) for h in o.known for c in h)
            assert not drawn(pic) - public
            for q in range(3):
                assert svg.render(s.resample_from_infostate(q, seed=rng.randrange(2**32)), observer="public") == pic
            s.apply_action(rng.choice(s.legal_actions()))


def test_public_is_the_only_word_accepted():
    s = threes.Game(2).new_initial_state(seed=1)
    with pytest.raises(TypeError, match="'public'"):
        svg.render(s, observer="everyone")
    assert "public view" in svg.render(s, observer="public")
