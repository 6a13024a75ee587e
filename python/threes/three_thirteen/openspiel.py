"""Three Thirteen's OpenSpiel adapter, registered with pyspiel as
``three_thirteen`` by ``import threes.openspiel`` (threes.adapters.openspiel,
through the registry's ``openspiel`` hook). The game, state and observer
classes are the generic ones of threes.adapters._spiel; what is Three
Thirteen's own is here: its chance model (``ThreeThirteenChance``: the
deals and the stock draws), its names and its rollout evaluator.

``ThreeThirteenGame``: parameters ``players`` (2..8, default 3),
``max_moves`` and every option the game declares
(threes.three_thirteen.OPTIONS, ``decks`` 0 = one per two players). Every
card dealt and every stock draw is an explicit chance node (see below);
``resample_from_infostate`` returns a state whose history is new chance
outcomes and the same player actions, as OpenSpiel's own games do.
``ThreeThirteenRolloutEvaluator`` values states for OpenSpiel's MCTS and
ISMCTS by C rollouts, as ``ISMCTSBot`` does.

Chance is explicit: every card that leaves an unseen place is a chance node.
Each round's deal is one chance node per card (one at a time round the table
from the seat after the dealer, then the card turned up on the discard pile),
drawn from the whole deck; every draw from the stock is a chance node drawn
from the stock's cards (the stock is a multiset: its order is never seen, so
a reshuffle of the discard pile, rule T-3, needs no chance node of its own).
Outcome = card kind 0..53 (4 * (rank - 1) + suit, ace low; jokers 52, 53),
probability = copies left / cards left. Between chance nodes play continues
on a three_thirteen.State.
"""
from __future__ import annotations

import random
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np
import pyspiel

from threes.adapters._spiel import ALL_SEATS, DealPos, DeckDeal, EngineObserver, SpielGame, SpielState
from threes.adapters._spiel import outcomes as _outcomes
from threes.args import MAX_GAMES, int_arg
from threes.three_thirteen import game as tt

__all__ = ["ThreeThirteenGame", "ThreeThirteenState", "ThreeThirteenRolloutEvaluator", "EngineObserver"]

#: the deals of a game of n players: round r deals r + 2 cards a seat and turns one up
_ROUNDS = range(1, 12)


class _DrawPos(DealPos):
    """A Three Thirteen state's position: DealPos, ``drawing`` (the player
    to move drew from the stock: chance picks the card) and ``stock`` (copies
    of each kind in the stock, a read-only array replaced at each draw, or
    None when not known: then read from the engine's state, a reshuffle
    included)."""

    __slots__ = ("drawing", "stock")
    _derived = DealPos._derived + ("stock",)

    def _copy_into(self, c: "_DrawPos") -> None:
        DealPos._copy_into(self, c)
        c.drawing, c.stock = self.drawing, self.stock


class ThreeThirteenChance(DeckDeal):
    """Three Thirteen's chance model: a DeckDeal whose deals are the rounds
    (``deal_number`` = the round; round r deals r + 2 cards a seat from the
    seat after the dealer, then one turned up, from the whole deck: the rest
    is the stock), and whose stock draws are chance nodes too (``drawing``:
    the card drawn is one of the stock's, or of the discard pile less its top
    when the stock is empty, T-3). Until the first deal is placed the engine
    state is the engine's own deal of seed 0 (``first``), hidden. Resampling
    redeals this round's outcomes hidden from the seat (``_tt_stocks``)."""

    name = "three_thirteen"
    long_name = "Three Thirteen (rummy), threes-core engine"
    players = (2, 8, 3)
    chance_nodes = "a deal or a stock draw"
    Pos = _DrawPos

    def deck_kinds(self) -> List[int]:
        """The deck: ``decks`` 52-card decks with ``jokers`` jokers each (the options resolved)."""
        opts = self.first._options()
        #: the deck, one kind per card (ThreeThirteenGame.deck)
        self.deck = [k for _ in range(opts["decks"]) for k in list(range(52)) + [52 + j for j in range(opts["jokers"])]]
        return self.deck

    def max_chance_nodes(self) -> int:
        """Every card of every round's deal, and at most one stock draw a move."""
        n = self.game.num_players()
        return self.max_moves() + sum(n * (r + 2) + 1 for r in _ROUNDS)

    def max_moves(self) -> int:
        """The engine's move cap."""
        return self.first.max_game_length()

    # -- the deals ----------------------------------------------------------------------
    def initial(self) -> _DrawPos:
        """A new game: round 1's deal under way."""
        p = DeckDeal.initial(self)
        p.drawing, p.stock = False, None
        return p

    def deal_number(self, inner: tt.State) -> int:
        """The round."""
        return inner.round()

    def deal_size(self, st: SpielState) -> int:
        """r + 2 cards a seat and the card turned up."""
        inner = st._p.inner
        return inner.num_players() * (inner.round() + 2) + 1

    def deal_seat(self, st: SpielState, i: int) -> Optional[int]:
        """Round the table from the seat after the dealer; the last card is turned up."""
        f = st._p.inner._fields()
        n = f["num_players"]
        return (f["dealer"] + 1 + i % n) % n if i < n * (f["round"] + 2) else ALL_SEATS

    def place(self, st: SpielState, dealt: bytes) -> tt.State:
        """The round's position: the hands dealt, the last card turned up, the rest of the deck the stock."""
        inner = st._p.inner
        d = inner.to_dict()
        n, per, dealer = inner.num_players(), inner.round() + 2, d["dealer"]
        hands: List[List[int]] = [[] for _ in range(n)]
        for i, k in enumerate(dealt[:n * per]):
            hands[(dealer + 1 + i % n) % n].append(k)
        left = st._p.left  # the deck less every card dealt (the turned-up card included): the stock
        st._p.stock = _frozen(left)
        d["hands"] = [sorted((str(tt.kind_to_card(k)) for k in h), key=tt.card_to_kind) for h in hands]
        d["stock"] = [str(tt.kind_to_card(k)) for k in range(len(left)) for _ in range(int(left[k]))]
        d["discard"] = [str(tt.kind_to_card(dealt[-1]))]
        return tt.State.from_dict(d)

    def card(self, kind: int) -> str:
        """The card's text (``Ah``)."""
        return str(tt.kind_to_card(int(kind)))

    def deal_view(self, st: SpielState, player: int) -> str:
        """The round, the deal so far, the totals and the cards dealt to the player."""
        f = st._p.inner._fields()
        dealt = st._p.dealt
        n = f["num_players"]
        mine = [self.card(k) for i, k in enumerate(dealt[:n * (f["round"] + 2)])
                if (f["dealer"] + 1 + i % n) % n == player]
        return (f"round {f['round']}, dealing {len(dealt)}/{self.deal_size(st)}; totals {f['totals']}; "
                f"dealt to you: {' '.join(mine) or '-'}")

    def deal_text(self, st: SpielState) -> str:
        """``dealing round r: k of N cards dealt``."""
        return f"dealing round {st._p.inner.round()}: {len(st._p.dealt)} of {self.deal_size(st)} cards dealt"

    # -- the stock draws ------------------------------------------------------------------
    def is_chance(self, st: SpielState) -> bool:
        """A deal under way or a stock draw."""
        p = st._p
        return p.left is not None or p.drawing

    def note(self, st: SpielState) -> str:
        """``drawing from the stock`` while a stock draw waits for chance."""
        return "drawing from the stock" if st._p.drawing else ""

    def outcomes(self, st: SpielState) -> List[Tuple[int, float]]:
        """The deal's kinds left, or the stock's kinds (the discard pile less its top when the stock is
        empty), each with copies / cards."""
        p = st._p
        if p.left is not None:
            return _outcomes(p.left)
        if p.stock is None or not p.stock.any():  # not known, or a reshuffle: the engine's state tells
            f = p.inner._fields()  # (the whole position: the stock is followed between draws instead)
            if f["stock"]:
                p.stock = _frozen(np.bincount(np.asarray(f["stock"], dtype=np.int64), minlength=54))
                return _outcomes(p.stock)
            return _outcomes(np.bincount(np.asarray(f["discard"][:-1], dtype=np.int64), minlength=54))
        return _outcomes(p.stock)

    def apply_outcome(self, st: SpielState, kind: int) -> None:
        """A card dealt, or the card drawn from the stock: in C, the card chosen put on top of the stock
        and drawn (after T-3's reshuffle of the discard pile when the stock is empty, which makes the pool
        of T-9); a card not there changes nothing."""
        p = st._p
        if p.left is not None:
            DeckDeal.apply_outcome(self, st, kind)
            return
        try:
            p.inner._apply_stock_draw(kind)
        except ValueError:
            raise pyspiel.SpielError(f"no card of kind {kind} is in the stock") from None
        p.drawing = False
        stock = p.stock
        if stock is not None and stock[kind] > 0:
            stock = stock.copy()
            stock[kind] -= 1
            p.stock = _frozen(stock)
        else:  # a reshuffle, or not followed: read again when needed
            p.stock = None

    def outcome_string(self, st: SpielState, kind: int) -> str:
        """``deal <card>`` or ``draw <card>``."""
        return f"{'deal' if st._p.left is not None else 'draw'} {self.card_names[kind]}"

    def apply_action(self, st: SpielState, action: int) -> None:
        """A draw from the stock waits for chance (``drawing``); any other action is the engine's, and a
        round's end deals the next by chance."""
        p = st._p
        inner = p.inner  # (its counts only: _fields() builds the whole position)
        if action == 0 and inner.is_legal(0) and (inner.stock_size() or len(inner.discard_pile()) > 1):
            p.drawing = True  # the card comes from chance
            return
        DeckDeal.apply_action(self, st, action)

    # -- resampling ---------------------------------------------------------------------------
    def resample(self, st: SpielState, player: int, seed: int, rng: random.Random
                 ) -> Iterator[Optional[SpielState]]:
        """The same history with new chance outcomes where this round's
        cards hidden from the player now were dealt or drawn. Each stock of
        the round (the deck at the deal, then each reshuffled discard pile,
        T-3) keeps its cards: the outcomes drawn from it that the player
        never saw get its cards the player has not seen either, in a
        uniformly random order (``_tt_stocks``). Earlier rounds keep their
        outcomes: every card of a scored round was shown. The replay starts
        from the state as this round's deal began (``start``), so its time
        follows the round, not the game."""
        history = list(st.history())
        start = st._p.start
        first = len(start.history()) if start is not None else 0  # this round's deal starts at history[first]
        stocks = _tt_stocks(_start_of_round(st), history, first, player)
        while True:
            h = history[first:]
            for where, cards in stocks:
                cards = list(cards)
                rng.shuffle(cards)
                for i, kind in zip(where, cards):
                    h[i - first] = kind
            out = _start_of_round(st)  # the history before this round is kept: its cards were all shown
            try:
                for a in h:
                    out.apply_action(a)
            except (pyspiel.SpielError, ValueError):  # an outcome or an action the new cards make illegal
                yield None
                continue
            out._p.start = start
            yield out


def _frozen(counts: np.ndarray) -> np.ndarray:
    """``counts`` made read-only (shared by clones)."""
    counts.setflags(write=False)
    return counts


def _start_of_round(st: SpielState) -> SpielState:
    """A new state as this round's deal began (its history, that of ``st`` up to there)."""
    start = st._p.start
    return st.get_game().new_initial_state() if start is None else start.clone()


class ThreeThirteenState(SpielState):
    """Chance nodes for the deals and the stock draws, play on a
    three_thirteen.State (``inner``, the true position: with the engine's own
    deal until the first deal's chance nodes are done)."""

    @property
    def _dealing(self) -> Optional[List[int]]:
        """The cards dealt so far this round while dealing (kinds); None in play."""
        p = self._p
        return None if p.left is None else list(p.dealt)

    @property
    def _drawing(self) -> bool:
        """The player to move drew from the stock: chance picks the card."""
        return self._p.drawing

    @property
    def _round_start(self) -> Optional["ThreeThirteenState"]:
        """The state as this round's deal began (shared by clones, never changed; None in round 1):
        resampling and its trace start there."""
        return self._p.start

    def _fields(self) -> Dict[str, Any]:
        return self._p.inner._fields()


class ThreeThirteenGame(SpielGame):
    """pyspiel game over the engine's Three Thirteen. Parameters: players
    (2..8, default 3), max_moves (0 = the engine's default cap) and every option
    the game declares (threes.three_thirteen.OPTIONS: decks (0 = one per two
    players), jokers, ace, all_wild_melds, wild_penalty ("face" or "20"),
    rediscard_taken, go_out_first_turn). ``deck`` is its deck, one kind per
    card."""

    model_class = ThreeThirteenChance
    state_class = ThreeThirteenState

    @property
    def deck(self) -> List[int]:
        """The deck, one kind per card."""
        return self.model.deck

    @property
    def first_state(self) -> tt.State:
        """The engine state every new state starts from (the engine's deal, replaced by chance; never changed)."""
        return self.model.first


class ThreeThirteenRolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots on ``three_thirteen``
    (``open_spiel.python.algorithms.mcts.Evaluator`` interface) that values a
    state as ``threes.bots.ISMCTSBot`` values a Three Thirteen iteration: the
    mean, over ``n_rollouts`` C rollouts with ``policy`` for every seat
    (default greedy), of the score margins of the state's round played to its
    end (``rollout(..., round_only=True)``, each seat's margin in [-1, 1]).
    Whole-game returns hide the worth of going out in the noise of the rounds
    still to come; ``values="game"`` plays to the end and uses them anyway.

    A state dealing a new round is valued by the margins of the round just
    scored (``"round"``; zeros during the first deal); a stock draw at a chance
    node first draws one card as chance would (``seed``'s stream); a terminal
    state by its returns. Priors are uniform."""

    def __init__(self, n_rollouts: int = 1, policy: str = "greedy", seed: Optional[int] = None,
                 values: str = "round"):
        from threes.three_thirteen import POLICIES

        self.n_rollouts = int_arg(n_rollouts, "n_rollouts", 1, MAX_GAMES)
        if not isinstance(policy, str) or policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
        if values not in ("round", "game"):
            raise ValueError(f"values must be 'round' or 'game', not {values!r}")
        self.policy, self.values = policy, values
        self._rng = random.Random(seed)

    def evaluate(self, state: "ThreeThirteenState") -> np.ndarray:
        """The value of ``state`` for every seat (an array of floats), as the class says."""
        from threes.three_thirteen import rollout as tt_rollout

        if state.is_terminal():
            return np.array(state.returns())
        if state._drawing:
            outcomes, probs = zip(*state.chance_outcomes())
            state = state.child(self._rng.choices(outcomes, probs)[0])
        inner, n = state.inner, state.num_players()
        if state._dealing is not None and self.values == "round":
            scored = inner.round() - 1
            return np.array(inner.round_margins(scored) if scored >= 1 else [0.0] * n)
        total = np.zeros(n)
        for _ in range(self.n_rollouts):
            total += tt_rollout(inner, self.policy, self._rng.getrandbits(64), round_only=self.values == "round")
        return total / self.n_rollouts

    def prior(self, state: "ThreeThirteenState"):
        """Uniform priors: ``(action, 1 / number of legal actions)`` for each legal action of the player to move."""
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _tt_stocks(first: "ThreeThirteenState", history: List[int], start: int,
               observer: int) -> List[Tuple[List[int], List[int]]]:
    """This round's stocks as `observer` may know them: for the deal with
    the stock it leaves (the deck) and for each reshuffled stock (T-3), the
    indexes into `history` of the chance outcomes drawn from it that gave
    another seat a card it holds hidden now, and the cards they and what is
    left of that stock share: the stock's cards less every outcome drawn from
    it that is not hidden now (an own card, a card since discarded or
    shown). The history is replayed and each hand followed card by card
    (copies of a kind are interchangeable): a card leaving a hand is a known
    one when the known cards lose that kind, one drawn from a reshuffled
    stock when the engine's pool cards do (T-9); a card the table comes to
    know (a player going out shows the melds) is hidden no more, nor is
    the other copy of a card just taken and discarded at once (without
    rediscard_taken that copy had to be in the hand). `first` is a new state
    as this round's deal began, at history[start]: the trace starts there."""
    from collections import Counter

    game = first.get_game()
    st = first
    n = game.num_players()
    # hand entries [kind, history index or None (known), from a pool, its kind told by the history]
    hands: List[List[list]] = [[] for _ in range(n)]
    rediscard = bool(st.inner._options()["rediscard_taken"])
    stocks: List[Tuple[Counter, List[int]]] = []  # per stock: its cards, the outcomes drawn from it
    after = st._fields()
    for i in range(start, len(history)):
        a, before = history[i], after
        dealing, drawing = st._dealing is not None, st._drawing
        if dealing and not st._dealing:  # a round's deal starts: the hands are dealt afresh
            hands, stocks = [[] for _ in range(n)], [(Counter(game.deck), [])]
        if drawing and not before["stock"]:
            stocks.append((Counter(before["discard"][:-1]), []))  # T-3: the discard pile less its top
        if dealing or drawing:
            stocks[-1][1].append(i)
        j = len(st._dealing) if dealing else 0  # the j-th card of the deal: round the table, then turned up
        st.apply_action(a)
        after = st._fields()
        if dealing:
            if j < n * (before["round"] + 2):
                hands[(before["dealer"] + 1 + j % n) % n].append([a, i, False, False])
            continue
        if st._dealing is not None or after["round"] != before["round"]:
            continue  # the round is over: its hands were shown
        for q in range(n):
            if (before["hands"][q] == after["hands"][q] and before["known"][q] == after["known"][q]
                    and before["pool_hand"][q] == after["pool_hand"][q]):
                continue  # a seat the action left alone (most actions change the mover's hand only)
            gone = Counter(before["hands"][q]) - Counter(after["hands"][q])
            came = Counter(after["hands"][q]) - Counter(before["hands"][q])
            known_gone = Counter(before["known"][q]) - Counter(after["known"][q])
            pool_gone = Counter(before["pool_hand"][q]) - Counter(after["pool_hand"][q])
            for kind, c in gone.items():
                for _ in range(c):
                    if known_gone[kind]:
                        known_gone[kind] -= 1
                        e = next(e for e in hands[q] if e[0] == kind and e[1] is None)
                    else:
                        pool = pool_gone[kind] > 0
                        pool_gone[kind] -= pool
                        e = next(e for e in hands[q] if e[0] == kind and e[1] is not None and e[2] == pool)
                    hands[q].remove(e)
                if kind == before["taken_kind"] and q == before["current"] and not rediscard:
                    # the card just taken may not be discarded again: another copy was in the hand, and is
                    for e in [e for e in hands[q] if e[0] == kind and e[1] is not None][:1]:
                        e[3] = True
            pool_came = Counter(after["pool_hand"][q]) - Counter(before["pool_hand"][q])
            for kind, c in came.items():
                for _ in range(c):
                    hands[q].append([kind, i if drawing else None, pool_came[kind] > 0, False])
                    pool_came[kind] -= 1
            for kind, c in (Counter(after["known"][q]) - Counter(e[0] for e in hands[q] if e[1] is None)).items():
                for e in [e for e in hands[q] if e[0] == kind and e[1] is not None][:c]:
                    e[1] = None  # shown (the melds of a player who goes out)
            for kind, c in (Counter(e[0] for e in hands[q] if e[2]) - Counter(after["pool_hand"][q])).items():
                for e in [e for e in hands[q] if e[0] == kind and e[2]][:c]:
                    e[2] = False  # the pool dissolved
    hidden = {e[1] for q in range(n) if q != observer for e in hands[q] if e[1] is not None and not e[3]}
    out = []
    for cards, drawn in stocks:
        seen = Counter(history[i] for i in drawn if i not in hidden)
        out.append(([i for i in drawn if i in hidden], sorted((cards - seen).elements())))
    return out


#: what threes.adapters.openspiel registers with pyspiel
GAME_TYPE, GAME_CLASS = ThreeThirteenChance.game_type(), ThreeThirteenGame
