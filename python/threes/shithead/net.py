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

>>> import threes
>>> bot = threes.bots.make_bot("net")
>>> state = threes.Game(4).new_initial_state(seed=1)
>>> bot.step(state) in state.legal_actions()
True
"""
from __future__ import annotations

import json
from importlib import resources
from typing import Any, Dict, Optional

import numpy as np

__all__ = ["NetBot", "load_weights"]

WEIGHTS = "net_ppo.npz"
_CACHE: Dict[str, Any] = {}


def load_weights() -> Dict[str, Any]:
    """The packaged network: ``meta`` (what it was trained on, a dict) and
    the layers ``w1 b1 w2 b2 w3 b3`` (float32; weights stored as (in, out)
    here, for ``x @ w``). Loaded once and shared, read-only."""
    if not _CACHE:
        with resources.files(__package__).joinpath(WEIGHTS).open("rb") as f, np.load(f) as z:
            arrays = {k: z[k] for k in z.files}
        net: Dict[str, Any] = {"meta": json.loads(str(arrays.pop("meta")))}
        for k, a in arrays.items():
            a = np.ascontiguousarray(a.T if k.startswith("w") else a, dtype=np.float32)
            a.setflags(write=False)
            net[k] = a
        _CACHE.update(net)
    return _CACHE


class NetBot:
    """The packaged PPO policy as a bot (spec ``"net"``): the legal action
    with the highest logit for the seat to move. A state with another number
    of players than the network's (4) raises ValueError."""

    name = "net"

    def __init__(self, seed: Optional[int] = None):
        net = load_weights()
        self.meta = net["meta"]
        self._layers = tuple(net[k] for k in ("w1", "b1", "w2", "b2", "w3", "b3"))

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
        return (f"<NetBot: PPO, {m['num_players']}-player {m['game']}, trained {m['learner_steps']:,} steps "
                f"against {m['opponents']}>")
