"""What the contract suite (tests/contract) needs of a game beyond its package, registered by the
game's tests: ``visible(state, p, know)``, what seat p sees of a state by the game's rules (an oracle
written from the rules, independent of the engine: the resampling and hidden-card tests compare
it), and ``steps``, how many moves of a random game the information tests sample. The built-in
games register theirs in tests/contract/conftest.py; a test-only game in its ``register.py``
(tests/games/<name>/register.py)."""
from typing import Any, Callable, Dict

#: registry name -> visible(state, p, know) -> dict
VISIBLE: Dict[str, Callable[..., Dict[str, Any]]] = {}
#: registry name -> moves of a random game the information tests sample
STEPS: Dict[str, int] = {}


def register(name: str, visible: Callable[..., Dict[str, Any]], steps: int) -> None:
    """Registers a game's oracle of what a seat sees and its sampling length."""
    VISIBLE[name] = visible
    STEPS[name] = steps
