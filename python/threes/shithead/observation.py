"""What one seat can know: observations and information states.

``state.observation(p)`` collects everything seat ``p`` can know under the
rules' knowledge model (RULES.md section 2) and nothing else: its own hand,
every face-up card, the pile (bottom first), the burned cards, the size of
every hand, face-down zone and the draw pile, which face-down slots are still
full, the cards publicly known to be in each hand, who is out, the phase and
whose turn it is. Seats are relative to the observer: relative seat ``j`` is
seat ``(p + j) % N``, so the observer is always 0 and 1 plays after it.

The observation tensor (``state.observation_tensor(p)``) is computed in C;
its layout is documented in ``src/threes_core/shithead/observation.h`` and in the
README, and ``observation_tensor_layout(num_players)`` gives its blocks.
"""
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import numpy as np

from threes.cards import Card, RANKS
from threes.shithead import _core

# The blocks of the tensor in order, (name, size for n players), as in observation.h.
_BLOCKS = (
    ("own_hand", lambda n: _core.NUM_RANKS),
    ("face_up", lambda n: n * _core.NUM_RANKS),
    ("known_in_hand", lambda n: n * _core.NUM_RANKS),
    ("seat_sizes", lambda n: 3 * n),
    ("pile", lambda n: _core.NUM_RANKS),
    ("effective_top", lambda n: _core.NUM_RANKS + 1),
    ("run_rank", lambda n: _core.NUM_RANKS + 1),
    ("pile_sizes", lambda n: 2),
    ("burned", lambda n: _core.NUM_RANKS),
    ("draw_pile", lambda n: 1),
    ("to_move", lambda n: n),
    ("phase", lambda n: 3),
)


def observation_tensor_layout(num_players: int) -> Dict[str, Tuple[int, int]]:
    """The tensor's blocks for num_players: name -> (offset, size)."""
    out, offset = {}, 0
    for name, size in _BLOCKS:
        out[name] = (offset, size(num_players))
        offset += size(num_players)
    assert offset == _core.observation_size(num_players)
    return out


@dataclass(frozen=True)
class Observation:
    """What seat ``observer`` can know. Lists indexed by seat are relative to
    the observer (index j is seat ``(observer + j) % num_players``)."""

    observer: int
    num_players: int
    phase: str
    to_move: Optional[int]           # relative seat of the player to move; None when over
    move_number: int
    hand: Tuple[Card, ...]           # the observer's own hand
    face_up: Tuple[Tuple[Card, ...], ...]
    known_in_hand: Tuple[Tuple[Card, ...], ...]  # publicly known cards of each hand
    hand_sizes: Tuple[int, ...]
    face_down_slots: Tuple[Tuple[int, ...], ...]  # the slots that still hold a card
    draw_pile_size: int
    pile: Tuple[Card, ...]           # bottom first
    effective_top: Optional[str]
    top_run: Tuple[Optional[str], int]
    burned: Tuple[Card, ...]
    finish_order: Tuple[int, ...]    # relative seats, in the order they went out

    def seat(self, relative: int) -> int:
        """The absolute seat of a relative seat."""
        return (self.observer + relative) % self.num_players

    def __str__(self) -> str:
        return observation_string(self)


def _cards(cards) -> str:
    return " ".join(str(c) for c in cards) or "-"


def observe(state, player: int) -> Observation:
    """The observation of ``player`` in ``state`` (see the module docstring)."""
    n = state.num_players()
    if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)):
        raise TypeError(f"player must be an int seat, not {type(player).__name__}")
    player = int(player)
    if not 0 <= player < n:
        raise ValueError(f"player must be a seat in 0..{n - 1}, not {player}")
    seats = [(player + j) % n for j in range(n)]
    cp = state.current_player()
    return Observation(
        observer=player,
        num_players=n,
        phase=state.phase.value,
        to_move=None if cp < 0 else (cp - player) % n,
        move_number=state.move_number(),
        hand=tuple(state.hand(player)),
        face_up=tuple(tuple(state.face_up(q)) for q in seats),
        known_in_hand=tuple(tuple(state.known_cards(q)) for q in seats),
        hand_sizes=tuple(state.hand_size(q) for q in seats),
        face_down_slots=tuple(tuple(k for k, c in enumerate(state.face_down(q)) if c is not None) for q in seats),
        draw_pile_size=state.draw_pile_size(),
        pile=tuple(state.pile()),
        effective_top=state.effective_top(),
        top_run=state.top_run(),
        burned=tuple(sorted(state.burned(), key=lambda c: c.kind)),
        finish_order=tuple((q - player) % n for q in state.finish_order()),
    )


def observation_string(obs: Observation) -> str:
    """A readable, deterministic text of an observation: equal texts, equal observations."""
    lines = [
        f"observer {obs.observer} of {obs.num_players}, {obs.phase}, move {obs.move_number}, "
        f"to move: {'-' if obs.to_move is None else '+' + str(obs.to_move)}",
        f"hand: {_cards(obs.hand)}",
    ]
    for j in range(obs.num_players):
        lines.append(
            f"+{j}: hand {obs.hand_sizes[j]} (known {_cards(obs.known_in_hand[j])}), "
            f"up {_cards(obs.face_up[j])}, down slots {list(obs.face_down_slots[j])}"
        )
    run_rank, run_len = obs.top_run
    lines.append(f"pile: {_cards(obs.pile)} (top {obs.effective_top or 'open'}, run {run_rank or '-'}x{run_len})")
    lines.append(f"burned: {_cards(obs.burned)}; draw pile: {obs.draw_pile_size}")
    lines.append(f"out: {' '.join('+' + str(j) for j in obs.finish_order) or '-'}")
    return "\n".join(lines)


def information_state_string(state, player: int) -> str:
    """The observation of ``player`` and the public history: every action is
    public in this game, so two states give the same string exactly when the
    player cannot tell them apart under the rules' knowledge model."""
    obs = observe(state, player)
    return observation_string(obs) + "\nhistory: " + " ".join(str(a) for a in state.history())
