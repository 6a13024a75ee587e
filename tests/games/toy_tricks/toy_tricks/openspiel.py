"""Toy Tricks' OpenSpiel adapter (the registry's ``openspiel`` hook), registered with pyspiel as
``toy_tricks`` by ``import threes.openspiel``: only its chance model. The game, state and observer
are the generic ones (threes.adapters._spiel); the parameters are ``players``, the declared options
(``hand_size``, ``low_wins``, ``target``) and ``max_moves``.

Each deal is one chance node per card dealt, drawn from the 52-card deck (outcome = the card's id),
``hand_size`` cards a seat, round the table from seat 0; the undealt cards stay unseen. Every card
played is seen by the table, so the default resampling (DeckDeal's) deals again only the cards of
the other hands not yet played.
"""
from __future__ import annotations

from typing import Any, Optional

from threes.adapters._spiel import DeckDeal, spiel_game

from toy_tricks import _core
from toy_tricks.game import State, card_text

__all__: list = []  # a test-only game: nothing joins threes.openspiel's public names


class ToyTricksDeal(DeckDeal):
    """Toy Tricks' deals as chance nodes (a DeckDeal): ``deal_size`` cards from the 52-card deck,
    card i to seat i mod players."""

    name = "toy_tricks"
    players = (_core.MIN_PLAYERS, _core.MAX_PLAYERS, 2)
    max_moves_high = 0xFFFF
    max_chance_outcomes = _core.NUM_CARDS

    def deck_kinds(self):
        """One card of each id."""
        return range(_core.NUM_CARDS)

    def deal_size(self, st: Any) -> int:
        """``hand_size`` cards a seat."""
        return self.game.num_players() * self.game.options()["hand_size"]

    def max_chance_nodes(self) -> int:
        """Each deal deals as many cards as it has moves; the last may be cut by the move cap."""
        return self.max_moves() + self.deal_size(None)

    def deal_number(self, inner: State) -> int:
        """The deals before this one."""
        return inner._fields()["deal"]

    def place(self, st: Any, dealt: bytes) -> State:
        """The engine's state of the deal with the dealt cards in the hands."""
        d = st._p.inner.to_dict()
        owner = [-1] * _core.NUM_CARDS
        for i, card in enumerate(dealt):
            owner[card] = i % d["num_players"]
        d["owner"] = owner
        return State.from_dict(d)

    def shown(self, st: Any, kind: int) -> bool:
        """A card played (in the trick or an earlier one)."""
        return st._p.inner._fields()["owner"][kind] not in range(self.game.num_players())

    def card(self, kind: int) -> str:
        """The card's text (``Ah``)."""
        return card_text(kind)

    def deal_seat(self, st: Any, i: int) -> Optional[int]:
        """Round the table from seat 0."""
        return i % self.game.num_players()


#: what threes.adapters.openspiel registers with pyspiel
GAME_TYPE, GAME_CLASS = spiel_game(ToyTricksDeal)
