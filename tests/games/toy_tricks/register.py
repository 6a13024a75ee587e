"""Registers Toy Tricks with threes.registry (after building it for the tests: tests/games/build.py).
The root conftest.py imports this: the one line a test-only game adds to shared files."""
from games import build

build.add("toy_tricks")

from threes import registry  # noqa: E402

INFO = registry.register(registry.GameInfo(
    "toy_tricks", "Toy Tricks", "toy_tricks", aliases=("toy-tricks",),
    first_place="most tricks", last_place="fewest tricks", svg="toy_tricks.svg:render",
    aim="win the most tricks in all; the game ends with the deal in which a seat reaches the target",
    narrate="toy_tricks.describe:describe_event", narrate_all="toy_tricks.describe:describe_events",
    explain="toy_tricks.describe:explain_moves", rules_text="toy_tricks.describe:rules_text", openspiel="toy_tricks.openspiel",
))


def _visible(s, p, know=None):
    """What seat p sees (toy_tricks.h, "What each seat sees"): its hand, the cards of the deal played and
    by whom, the current trick, the tricks won and every hand's size."""
    f = s.to_dict()
    n = f["num_players"]
    return {
        "own hand": [c for c, o in enumerate(f["owner"]) if o == p],
        "played": [o if o == -2 or o >= 100 else None for o in f["owner"]],
        "trick": f["trick"], "leader": f["leader"], "tricks": f["tricks"], "total": f["total"], "deal": f["deal"],
        "hand sizes": [f["owner"].count(q) for q in range(n)],
    }


import contract_hooks  # noqa: E402

contract_hooks.register("toy_tricks", _visible, steps=400)
