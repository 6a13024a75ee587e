"""The ``"net"`` bot: a policy network trained with PPO over threes.vector,
played in NumPy (no PyTorch needed).

The network (``net_ppo.npz`` beside this file) was trained by
``examples/ppo.py --opponents greedy --total-steps 3000000`` for 4-player
Shithead with the ``threes`` rules, at seat 0 against three greedy seats, and
exported with ``examples/ppo.py --export``. It reads the seat's own
``observation_tensor`` (nothing hidden: the same on every
``resample_from_infostate``), takes ``log1p`` of it, passes it through two
tanh layers of 256 and a linear layer over the 676 action ids, and plays the
legal id with the highest logit (the first of equal ones). It has no
randomness: a position always gets the same move.

It plays 4-player Shithead only (the observation's size depends on the
number of players); another rule set with 4 players is played legally, but the
network has only seen the ``threes`` rules.

The weights are checked when the bot is first made (``NetBot()``,
``make_bot("net")``), not at its first move: a missing, unreadable or
truncated file, arrays of the wrong shapes or dtype, or values that are not
finite raise :class:`WeightsError` (a ValueError) naming the file and the
problem. ``NetBot(weights=PATH)`` or the environment variable
``THREES_NET_WEIGHTS`` load another file of the same format (what
``examples/ppo.py --export`` writes); ``threes.bots.available_bots()`` lists
``"net"`` only when its weights load.

>>> import threes
>>> bot = threes.bots.make_bot("net")
>>> state = threes.Game(4).new_initial_state(seed=1)
>>> bot.step(state) in state.legal_actions()
True
"""
from __future__ import annotations

import json
import os
from importlib import resources
from typing import Any, Dict, Optional, Tuple, Union

import numpy as np

__all__ = ["NetBot", "WeightsError", "load_weights", "weights_path", "WEIGHTS", "WEIGHTS_ENV"]

#: The packaged weights, beside this file.
WEIGHTS = "net_ppo.npz"
#: The environment variable that names another weights file (when ``weights=`` is not given).
WEIGHTS_ENV = "THREES_NET_WEIGHTS"
#: The layers, as ``examples/ppo.py --export`` writes them: weights laid out (out, in), as in torch.
_LAYERS = ("w1", "b1", "w2", "b2", "w3", "b3")
#: meta's entries that the arrays' shapes and the game are checked against, and their types.
_META = {"game": str, "num_players": int, "obs_size": int, "num_actions": int, "hidden": int}

# the loaded networks (or the error of a broken file), by the file's path, size and modification time:
# a file is read once, and read again only when it changes
_CACHE: Dict[Tuple[str, int, int], Union[Dict[str, Any], "WeightsError"]] = {}


class WeightsError(ValueError):
    """The net bot's weights file is missing, unreadable, truncated, or not the network the bot
    plays (arrays missing, of the wrong shape or dtype, values that are not finite, a ``meta``
    that does not fit the game): raised when the bot is made, naming the file and the problem."""


def weights_path(weights: Optional[Union[str, os.PathLike]] = None) -> str:
    """The weights file the net bot loads: ``weights`` when given, else the file the environment
    variable ``THREES_NET_WEIGHTS`` names (when set and not empty), else the packaged
    ``net_ppo.npz``."""
    if weights is not None:
        if not isinstance(weights, (str, os.PathLike)):
            raise TypeError(f"weights must be a file path, not {type(weights).__name__}")
        return os.fspath(weights)
    env = os.environ.get(WEIGHTS_ENV)
    if env:
        return env
    return os.fspath(resources.files(__package__).joinpath(WEIGHTS))  # type: ignore[arg-type]


def load_weights(weights: Optional[Union[str, os.PathLike]] = None) -> Dict[str, Any]:
    """The network of a weights file (see :func:`weights_path`), checked: ``meta`` (what it was
    trained on, a dict) and the layers ``w1 b1 w2 b2 w3 b3`` (float32; weights stored as (in, out)
    here, for ``x @ w``). Loaded once per file and shared, read-only; a broken file raises
    :class:`WeightsError` (the same error again on the next call, without reading the file again,
    until the file changes)."""
    path = weights_path(weights)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise WeightsError(f"the net bot's weights file {path} does not exist{_where(weights)}") from None
    except OSError as exc:
        raise WeightsError(f"the net bot's weights file {path} cannot be read{_where(weights)}: "
                           f"{exc.strerror or exc}") from None
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    got = _CACHE.get(key)
    if got is None:
        try:
            got = _read(path)
        except WeightsError as exc:
            got = exc
        if len(_CACHE) >= 16:
            _CACHE.clear()
        _CACHE[key] = got
    if isinstance(got, WeightsError):
        raise WeightsError(f"{got}{_where(weights)}")
    return got


def _where(weights: Any) -> str:
    if weights is None and os.environ.get(WEIGHTS_ENV):
        return f" (named by {WEIGHTS_ENV})"
    return ""


def _read(path: str) -> Dict[str, Any]:
    """Reads and checks a weights file (WeightsError naming the problem)."""
    what = f"the net bot's weights file {path}"
    if os.path.isdir(path):
        raise WeightsError(f"{what} is a directory")
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except Exception as exc:  # noqa: BLE001 - whatever a damaged archive raises (BadZipFile, zlib.error, EOFError...)
        raise WeightsError(f"{what} cannot be read as a .npz archive (missing, truncated or damaged?): "
                           f"{type(exc).__name__}: {exc}") from None
    missing = [k for k in ("meta",) + _LAYERS if k not in arrays]
    if missing:
        raise WeightsError(f"{what} lacks {', '.join(missing)}: it holds {', '.join(sorted(arrays)) or 'nothing'}")
    extra = sorted(set(arrays) - {"meta", *_LAYERS})
    if extra:
        raise WeightsError(f"{what} holds unknown arrays {', '.join(extra)}: a net is meta and {' '.join(_LAYERS)}")
    meta_array = arrays.pop("meta")
    try:
        if meta_array.shape != () or meta_array.dtype.kind != "U":
            raise ValueError("not one text")
        meta = json.loads(str(meta_array))
        if not isinstance(meta, dict):
            raise ValueError("not a JSON object")
    except ValueError as exc:
        raise WeightsError(f"{what}: meta must be a JSON object as text ({exc})") from None
    for k, t in _META.items():
        v = meta.get(k)
        if not isinstance(v, t) or isinstance(v, bool) or (t is int and not 1 <= v <= 1 << 20):
            raise WeightsError(f"{what}: meta's {k} must be {'a positive int' if t is int else 'text'}, not {v!r}")
    from threes.shithead import _core
    from threes.shithead.rules import Rules

    if meta["game"] != "shithead":
        raise WeightsError(f"{what}: a network for {meta['game']!r}; the net bot plays shithead")
    n = meta["num_players"]
    if not _core.MIN_PLAYERS <= n <= _core.MAX_PLAYERS:
        raise WeightsError(f"{what}: meta's num_players {n} is not a Shithead table (2..{_core.MAX_PLAYERS})")
    obs, actions, hidden = meta["obs_size"], meta["num_actions"], meta["hidden"]
    if obs != _core.observation_size(n):
        raise WeightsError(f"{what}: meta's obs_size {obs} is not the {_core.observation_size(n)} values of a "
                           f"{n}-player observation")
    if actions != _core.num_distinct_actions(Rules()._raw()):
        raise WeightsError(f"{what}: meta's num_actions {actions} is not the "
                           f"{_core.num_distinct_actions(Rules()._raw())} action ids of the threes rules")
    shapes = {"w1": (hidden, obs), "b1": (hidden,), "w2": (hidden, hidden), "b2": (hidden,),
              "w3": (actions, hidden), "b3": (actions,)}
    net: Dict[str, Any] = {"meta": meta}
    for k in _LAYERS:
        a = arrays[k]
        if a.dtype != np.float32:
            raise WeightsError(f"{what}: {k} is {a.dtype}, not float32")
        if a.shape != shapes[k]:
            raise WeightsError(f"{what}: {k} has shape {a.shape}, not {shapes[k]} (obs_size {obs}, hidden "
                               f"{hidden}, num_actions {actions} in meta)")
        if not np.isfinite(a).all():
            bad = int(np.size(a) - np.count_nonzero(np.isfinite(a)))
            raise WeightsError(f"{what}: {k} holds {bad} value(s) that are not finite (NaN or infinite)")
        a = np.ascontiguousarray(a.T if k.startswith("w") else a, dtype=np.float32)
        a.setflags(write=False)
        net[k] = a
    return net


class NetBot:
    """The packaged PPO policy as a bot (spec ``"net"``): the legal action
    with the highest logit for the seat to move. ``weights``: another file
    of the same format (default: ``THREES_NET_WEIGHTS``, else the packaged
    one), checked now (:class:`WeightsError`). A state with another number
    of players than the network's (``num_players``, 4) raises ValueError."""

    name = "net"

    def __init__(self, seed: Optional[int] = None, weights: Optional[Union[str, os.PathLike]] = None):
        net = load_weights(weights)
        self.meta = net["meta"]
        #: the number of players the network plays (a table of another size is refused)
        self.num_players: int = self.meta["num_players"]
        self._layers = tuple(net[k] for k in _LAYERS)

    def reset(self, seed: Optional[int] = None) -> None:
        """Nothing to reset: the bot has no randomness and no memory."""

    def __deepcopy__(self, memo):  # tournament workers copy bots; the weights are read-only and shared
        return self

    def _check(self, state) -> None:
        from threes import registry

        meta = self.meta
        info = registry.game_of(state)  # a TypeError for an object of no registered game
        if info.name != meta["game"]:
            raise ValueError(f"the net bot plays {meta['game']}, not {info.title}")
        if state.num_players() != meta["num_players"]:
            raise ValueError(f"the net bot plays {meta['num_players']}-player Shithead; this state seats "
                             f"{state.num_players()}")

    def logits(self, state) -> np.ndarray:
        """The network's logits over every action id (illegal ones included)
        for the seat to move in ``state``."""
        self._check(state)
        return self._logits(state)

    def _logits(self, state) -> np.ndarray:
        meta = self.meta
        x = np.asarray(state.observation_tensor(state.current_player()), dtype=np.float32)
        if x.shape != (meta["obs_size"],):
            raise ValueError(f"the net bot reads {meta['obs_size']} observation values, this state gives {x.size}")
        w1, b1, w2, b2, w3, b3 = self._layers
        h = np.tanh(np.log1p(x) @ w1 + b1)
        h = np.tanh(h @ w2 + b2)
        return h @ w3 + b3

    def step(self, state) -> int:
        """The legal action with the highest logit (the first of equal ones)."""
        self._check(state)
        legal = np.asarray(state.legal_actions(), dtype=np.intp)
        if legal.size == 0:
            raise ValueError("the game is over: no seat is to move")
        if legal.size == 1:
            return int(legal[0])
        z = self._logits(state)
        return int(legal[int(np.argmax(z[legal]))])

    def __repr__(self) -> str:
        m = self.meta
        steps = m.get("learner_steps")
        trained = f", trained {steps:,} steps" if isinstance(steps, int) else ""
        against = f" against {m['opponents']}" if m.get("opponents") else ""
        return f"<NetBot: PPO, {m['num_players']}-player {m['game']}{trained}{against}>"
