"""Three Thirteen's OpenSpiel adapter, registered with pyspiel as
``three_thirteen`` by ``import threes.openspiel`` (threes.adapters.openspiel,
through the registry's ``openspiel`` hook).

``ThreeThirteenGame``: parameters ``players`` (2..8, default 3),
``max_moves`` and every option the game declares
(threes.three_thirteen.OPTIONS, ``decks`` 0 = one per two players). Every
card dealt and every stock draw is an explicit chance node (see below);
``resample_from_infostate`` returns a state whose history is new chance
outcomes and the same player actions, as OpenSpiel's own games do.
``ThreeThirteenRolloutEvaluator`` values states for OpenSpiel's MCTS and
ISMCTS by C rollouts, as ``ISMCTSBot`` does.
"""
from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pyspiel

from threes.adapters._spiel import RESAMPLE_ATTEMPTS as _RESAMPLE_ATTEMPTS
from threes.adapters._spiel import EngineState, outcomes as _outcomes, resample_rng as _resample_rng
from threes.adapters._spiel import EngineObserver, field as _field, game_type as _game_type
from threes.adapters._spiel import int_param as _int_param, new_pos as _new_pos
from threes.args import MAX_GAMES, int_arg
from threes.three_thirteen import game as tt
from threes.three_thirteen.options import OPTIONS

__all__ = ["ThreeThirteenGame", "ThreeThirteenState", "ThreeThirteenRolloutEvaluator", "EngineObserver"]

# Registered with pyspiel as "three_thirteen". Chance is explicit: every card
# that leaves an unseen place is a chance node. Each round's deal is one chance
# node per card (one at a time round the table from the seat after the dealer,
# then the card turned up on the discard pile), drawn from the whole deck;
# every draw from the stock is a chance node drawn from the stock's cards (the
# stock is a multiset: its order is never seen, so a reshuffle of the discard
# pile, rule T-3, needs no chance node of its own). Outcome = card kind 0..53
# (4 * (rank - 1) + suit, ace low; jokers 52, 53), probability = copies left /
# cards left. Between chance nodes play continues on a three_thirteen.State.

# every option the game declares (OPTIONS, threes.options) is a parameter (an int option's "the engine
# decides" is 0)
_TT_DEFAULTS: Dict[str, Any] = {"players": 3, **{o.name: o.to_param(o.default) for o in OPTIONS},
                                "max_moves": 0}

_TT_GAME_TYPE = _game_type("three_thirteen", "Three Thirteen (rummy), threes-core engine", 2, 8, _TT_DEFAULTS)

class ThreeThirteenGame(pyspiel.Game):
    """pyspiel game over the engine's Three Thirteen. Parameters: players
    (2..8, default 3), max_moves (0 = the engine's default cap) and every option
    the game declares (threes.three_thirteen.OPTIONS: decks (0 = one per two
    players), jokers, ace, all_wild_melds, wild_penalty ("face" or "20"),
    rediscard_taken, go_out_first_turn)."""

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        p = dict(_TT_DEFAULTS)
        p.update(params or {})
        unknown = set(p) - set(_TT_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown three_thirteen parameters {sorted(unknown)}: the parameters are "
                             f"{', '.join(_TT_DEFAULTS)}")
        opts = {o.name: o.from_param(p[o.name], f"game parameter {o.name!r}") for o in OPTIONS}
        g = tt.Game(_int_param(p, "players", 2, 8), max_moves=_int_param(p, "max_moves", 0, 2**32 - 1) or None,
                    **opts)
        first = g.new_initial_state(0)
        opts = first._options()
        deck = [k for _ in range(opts["decks"]) for k in list(range(52)) + [52 + j for j in range(opts["jokers"])]]
        max_moves = first._fields()["max_moves"]
        n = g.num_players()
        deals = sum(n * (r + 2) + 1 for r in range(1, 12))
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(),
            max_chance_outcomes=54,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=2 * max_moves + deals,
        )
        super().__init__(_TT_GAME_TYPE, info, p)
        self.threes_game = g
        self.deck = deck
        self.first_state = first  # every state starts as a clone of it (the engine's deal, replaced by chance)

    def new_initial_state(self) -> "ThreeThirteenState":
        return ThreeThirteenState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "EngineObserver":
        """An EngineObserver (what ``open_spiel.python.observation.make_observation`` asks for);
        ``iig_obs_type`` defaults to ``IIGObservationType(perfect_recall=False)``, and ``params`` must be empty."""
        return EngineObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class _ThreeThirteenPos:
    """Everything a ThreeThirteenState holds, as its one attribute (see
    _ThreesPos: pyspiel's clone then makes one ``copy.deepcopy`` call)."""

    __slots__ = ("game", "deck", "inner", "dealing", "drawing", "round_start")

    def __deepcopy__(self, memo) -> "_ThreeThirteenPos":
        c = _ThreeThirteenPos.__new__(_ThreeThirteenPos)
        c.game, c.deck, c.drawing, c.round_start = self.game, self.deck, self.drawing, self.round_start
        c.inner = self.inner.clone()
        c.dealing = None if self.dealing is None else list(self.dealing)
        return c


class ThreeThirteenState(EngineState):
    """Chance nodes for the deals and the stock draws, play on a
    three_thirteen.State (``inner``, the true position: with the engine's own
    deal until the first deal's chance nodes are done)."""

    _game = _field("game")
    _deck = _field("deck")
    inner = _field("inner")
    _dealing = _field("dealing")  # the cards dealt so far this round, while dealing; None in play
    _drawing = _field("drawing")  # the player to move drew from the stock: chance picks the card
    # the state as this round's deal began (never changed: shared by clones; None before the first card of
    # the game is dealt): resampling and its trace start there, so their time does not grow with the history
    _round_start = _field("round_start")

    def __init__(self, game: ThreeThirteenGame):
        pyspiel.State.__init__(self, game)  # (not super(): this runs on every pyspiel clone too)
        p = self._p = _new_pos(_ThreeThirteenPos)
        p.game = game.threes_game
        p.deck = game.deck
        p.inner = game.first_state.clone()
        p.dealing = []
        p.drawing = False
        p.round_start = None

    # -- helpers --------------------------------------------------------------
    def _fields(self) -> Dict[str, Any]:
        return self.inner._fields()

    def _deal_size(self) -> int:
        f = self._fields()
        return f["num_players"] * (f["round"] + 2) + 1

    def _unseen(self) -> np.ndarray:
        """Copies of each kind the next chance node draws from."""
        if self._dealing is not None:
            left = np.bincount(self._deck, minlength=54)
            for k in self._dealing:
                left[k] -= 1
            return left
        f = self._fields()
        stock = f["stock"] if f["stock"] else f["discard"][:-1]
        return np.bincount(np.asarray(stock, dtype=np.int64), minlength=54)

    def _rebuild(self, hands=None, stock=None, discard=None) -> None:
        d = self.inner.to_dict()
        if hands is not None:
            d["hands"] = [sorted((str(tt.kind_to_card(k)) for k in h), key=tt.card_to_kind) for h in hands]
        if stock is not None:
            d["stock"] = [str(tt.kind_to_card(k)) for k in stock]
        if discard is not None:
            d["discard"] = [str(tt.kind_to_card(k)) for k in discard]
        self.inner = tt.State.from_dict(d)

    def _finish_deal(self) -> None:
        f = self._fields()
        n, per = f["num_players"], f["round"] + 2
        hands: List[List[int]] = [[] for _ in range(n)]
        for i, k in enumerate(self._dealing[:n * per]):
            hands[(f["dealer"] + 1 + i % n) % n].append(k)
        left = self._unseen()  # the deck less every card dealt (the turned-up card included)
        stock = [k for k in range(54) for _ in range(int(left[k]))]
        self._rebuild(hands, stock, [self._dealing[-1]])
        self._dealing = None

    # -- pyspiel API --------------------------------------------------------------
    def current_player(self) -> int:
        if self._dealing is not None or self._drawing:
            return pyspiel.PlayerId.CHANCE
        cp = self.inner.current_player()
        return pyspiel.PlayerId.TERMINAL if cp < 0 else cp

    def chance_outcomes(self):
        if not (self._dealing is not None or self._drawing):
            raise pyspiel.SpielError("chance_outcomes is for chance nodes (a deal or a stock draw); "
                                     "this is a decision or terminal node")
        left = self._unseen()
        return _outcomes(left)

    def _apply_action(self, action: int) -> None:
        a = int(action)
        if self._dealing is not None:
            if not (0 <= a < 54 and self._unseen()[a] > 0):
                raise pyspiel.SpielError(f"no card of kind {a} is left to deal")
            if not self._dealing:  # the round's first card: keep the state as the deal begins (its history
                self._round_start = None  # complete: pyspiel adds an action to it after _apply_action)
                self._round_start = self.clone()
            self._dealing.append(a)
            if len(self._dealing) == self._deal_size():
                self._finish_deal()
            return
        if self._drawing:
            # in C: the card chosen put on top of the stock and drawn (after T-3's reshuffle of the discard
            # pile when the stock is empty, which makes the pool of T-9); a card not there changes nothing
            try:
                self.inner._apply_stock_draw(a)
            except ValueError:
                raise pyspiel.SpielError(f"no card of kind {a} is in the stock") from None
            self._drawing = False
            return
        inner = self.inner  # (its counts only: _fields() builds the whole position)
        if a == 0 and inner.is_legal(0) and (inner.stock_size() or len(inner.discard_pile()) > 1):
            self._drawing = True  # the card comes from chance
            return
        round_before = inner.round()
        inner.apply_action(a)
        if not self.inner.is_terminal() and self.inner.round() != round_before:
            self._dealing = []  # a new round: deal it by chance

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{'deal' if self._dealing is not None else 'draw'} {str(tt.kind_to_card(int(action)))}"
        return self.inner.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._dealing is None and not self._drawing and self.inner.is_terminal()

    def returns(self) -> List[float]:
        if not self.is_terminal():
            return [0.0] * self._game.num_players()
        return list(self.inner.returns())

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> "ThreeThirteenState":
        """A state ``player_id`` cannot tell from this one, made as
        OpenSpiel's own games make it: the same history with new chance
        outcomes where this round's cards hidden from the player now were
        dealt or drawn. Each stock of the round (the deck at the deal, then
        each reshuffled discard pile, T-3) keeps its cards: the outcomes
        drawn from it that the player never saw get its cards the player
        has not seen either, in a uniformly random order (``_tt_stocks``).
        Its ``history()`` replays to it from ``new_initial_state()`` and the
        true hidden cards are nowhere in it. Earlier rounds keep their
        outcomes: every card of a scored round was shown."""
        if self._dealing is not None or self._drawing:
            raise pyspiel.SpielError("resample_from_infostate at a chance node is not supported")
        player_id, _, rng = _resample_rng(self, player_id, probability_sampler)
        history = list(self.history())
        start = self._round_start
        first = len(start.history()) if start is not None else 0  # this round's deal starts at history[first]
        stocks = _tt_stocks(self._start_of_round(), history, first, int(player_id))
        want = self.information_state_string(player_id)
        for _ in range(_RESAMPLE_ATTEMPTS):
            h = history[first:]
            for where, cards in stocks:
                cards = list(cards)
                rng.shuffle(cards)
                for i, kind in zip(where, cards):
                    h[i - first] = kind
            out = self._start_of_round()  # the history before this round is kept: its cards were all shown
            try:
                for a in h:
                    out.apply_action(a)
            except (pyspiel.SpielError, ValueError):  # an outcome or an action the new cards make illegal
                continue
            if out.information_state_string(player_id) == want:
                out._round_start = start
                return out
        raise pyspiel.SpielError(f"resample_from_infostate: no redeal consistent with the history in "
                                 f"{_RESAMPLE_ATTEMPTS} attempts")

    def _start_of_round(self) -> "ThreeThirteenState":
        """A new state as this round's deal began (its history, that of this state up to there)."""
        start = self._round_start
        return self.get_game().new_initial_state() if start is None else start.clone()

    def __deepcopy__(self, memo) -> "ThreeThirteenState":
        """pyspiel's clone (the history kept), which deep-copies ``_p``."""
        return self.clone()

    def __str__(self) -> str:
        if self._dealing is not None:
            return f"dealing round {self._fields()['round']}: {len(self._dealing)} of {self._deal_size()} cards dealt"
        return str(self.inner) + ("\ndrawing from the stock" if self._drawing else "")

    # -- what a seat knows, for the observer --------------------------------------
    def _deal_string(self, player: int) -> str:
        f = self._fields()
        n = f["num_players"]
        mine = [str(tt.kind_to_card(k)) for i, k in enumerate(self._dealing[:n * (f["round"] + 2)])
                if (f["dealer"] + 1 + i % n) % n == player]
        return (f"round {f['round']}, dealing {len(self._dealing)}/{self._deal_size()}; totals {f['totals']}; "
                f"dealt to you: {' '.join(mine) or '-'}")

    def _observation_string(self, player: int, perfect_recall: bool) -> str:
        if self._dealing is not None:
            return self._deal_string(player)
        text = self.inner.information_state_string(player) if perfect_recall else self.inner.observation_string(player)
        return text + ("\ndrawing from the stock" if self._drawing else "")

    def _observation_tensor(self, player: int, out: np.ndarray) -> None:
        if self._dealing is not None:
            out.fill(0)
            return
        if out.dtype == np.float32 and out.flags.c_contiguous and out.flags.writeable:
            self.inner.observation_tensor(player, out=out)
        else:
            out[:] = self.inner.observation_tensor(player)


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
GAME_TYPE, GAME_CLASS = _TT_GAME_TYPE, ThreeThirteenGame
