"""The public API of threes-core, listed once: the modules a user imports,
each with an ``__all__`` naming its public names. tests/test_docstrings.py
checks every public function, class and method among them has a docstring,
and docs/check_api.py that the API reference built from docs/api/ documents
every one of them."""

#: The public modules, in the order of the API reference.
PUBLIC_MODULES = (
    "threes",
    "threes.shithead",
    "threes.three_thirteen",
    "threes.shithead.describe",
    "threes.three_thirteen.describe",
    "threes.cards",
    "threes.events",
    "threes.phases",
    "threes.errors",
    "threes.batches",
    "threes.results",
    "threes.bots",
    "threes.tournament",
    "threes.vector",
    "threes.cluster",
    "threes.registry",
    "threes.options",
    "threes.svg",
    "threes.shithead.svg",
    "threes.three_thirteen.svg",
    "threes.adapters.gym",
    "threes.adapters.pettingzoo",
    "threes.adapters.openspiel",
    "threes.shithead.openspiel",
    "threes.three_thirteen.openspiel",
)
