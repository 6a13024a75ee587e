"""A pure-Python reference model of the rules (RULES.md), for differential
testing of the C engine and as a readable statement of the rules in code.

This module is deliberately independent of the engine: it does not import
``threes.shithead._core`` or anything else of the package, and it was written from
RULES.md and the README (the action map and the ``to_dict`` format), not
from the C sources. Only the PRNG (``Xoshiro256``, documented in
``src/threes_core/common/rng.h``) and the action-id layout (``actions.h``, also in
the README) are shared definitions.

Cards are handled as *kinds*: ``kind = 4 * rank_index + suit_index``, with
rank indices 0..12 for 2..A and 13 for the joker, suits ``c d h s`` (0..3)
and joker colours ``r b`` (0..1), so the jokers are kinds 52 (``Xr``) and 53
(``Xb``). The canonical order of cards (RULES.md section 1) is the order of
kinds. With two decks two cards of the same kind are identical, so zones that
are multisets (hands, known cards, face-up cards, burned cards) are kept as
sorted lists of kinds; the pile, the draw pile and the face-down slots keep
their order.

Entry points: ``ModelState.deal(...)``, ``ModelState.from_dict(d)``,
``legal_actions()``, ``apply_action(a)``, ``to_dict()``, ``play_random``.
"""
from __future__ import annotations

import bisect
import itertools
import random
from typing import Any, Dict, List, Optional, Sequence, Tuple

# --------------------------------------------------------------- cards --

#: Rank characters by rank index; index 13 is the joker.
RANK_CHARS = "23456789TJQKAX"
JOKER_RANK = 13
NUM_RANKS = 14
SUIT_CHARS = "cdhs"
JOKER_COLOURS = "rb"
NUM_KINDS = 54

TERMINAL_PLAYER_ID = -4
DEFAULT_MAX_MOVES = 10_000
STATE_FORMAT = "threes.State/1"


def rank_of(kind: int) -> int:
    """Rank index of a card kind (0..12 for 2..A, 13 for a joker)."""
    return kind >> 2


def value_of_rank(rank: int) -> int:
    """RULES.md 1: 2=2 ... 10=10, J=11, Q=12, K=13, A=14, joker 15."""
    return rank + 2


def card_text(kind: int) -> str:
    """RULES.md 1: rank character then suit character (``Ah``, ``Xr``)."""
    rank, suit = divmod(kind, 4)
    if rank == JOKER_RANK:
        return "X" + JOKER_COLOURS[suit]
    return RANK_CHARS[rank] + SUIT_CHARS[suit]


def parse_card(text: str) -> int:
    """The kind of a card written as text (``"Ah"``, ``"10d"``, ``"Xb"``)."""
    if not isinstance(text, str):
        raise TypeError(f"a card is a string such as 'Ah', not {type(text).__name__}")
    t = text.strip()
    if t[:2] == "10":
        t = "T" + t[2:]
    if len(t) != 2:
        raise ValueError(f"not a card: {text!r}")
    r, s = t[0].upper(), t[1].lower()
    if r == "X":
        if s not in JOKER_COLOURS:
            raise ValueError(f"not a card: {text!r}")
        return 4 * JOKER_RANK + JOKER_COLOURS.index(s)
    if r not in RANK_CHARS or s not in SUIT_CHARS:
        raise ValueError(f"not a card: {text!r}")
    return 4 * RANK_CHARS.index(r) + SUIT_CHARS.index(s)


def _rank_index(text: Any) -> int:
    """Rank index of a rank character (``"7"``, ``"T"`` or ``"10"``, ``"X"``)."""
    t = str(text).strip().upper()
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in RANK_CHARS:
        raise ValueError(f"not a rank: {text!r}")
    return RANK_CHARS.index(t)


def _rank_groups(cards: Sequence[int]) -> List[Tuple[int, int]]:
    """(rank, number of cards) for each rank in a sorted list of kinds, ascending."""
    groups: List[Tuple[int, int]] = []
    last_rank = -1
    count = 0
    for kind in cards:
        rank = kind >> 2
        if rank != last_rank:
            if count:
                groups.append((last_rank, count))
            last_rank = rank
            count = 0
        count += 1
    if count:
        groups.append((last_rank, count))
    return groups


# ---------------------------------------------------------------- PRNG --

_MASK64 = (1 << 64) - 1


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK64


class Xoshiro256:
    """xoshiro256** (Blackman and Vigna), seeded by four outputs of
    splitmix64 from one 64-bit seed, as documented in src/threes_core/common/rng.h."""

    def __init__(self, seed: int):
        x = seed & _MASK64
        self.s = []
        for _ in range(4):
            # one step of splitmix64
            x = (x + 0x9E3779B97F4A7C15) & _MASK64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            self.s.append(z ^ (z >> 31))

    def next(self) -> int:
        """The next 64-bit output."""
        s0, s1, s2, s3 = self.s
        result = (_rotl((s1 * 5) & _MASK64, 7) * 9) & _MASK64
        t = (s1 << 17) & _MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return result

    def below(self, n: int) -> int:
        """A number in [0, n): multiply-shift on the high 32 bits of one output."""
        return ((self.next() >> 32) * n) >> 32


# --------------------------------------------------------------- rules --

#: The three presets of RULES.md section 3, in the format of Rules.to_dict().
PRESETS: Dict[str, Dict[str, Any]] = {
    "threes": {
        "decks": 2, "jokers": 2, "cards_per_zone": 3,
        "wild": ["2", "8", "X"], "lower": ["7"], "lower_strict": False,
        "invisible": ["8"], "burn": ["T", "X"], "run_to_burn": 4,
        "invisible_in_runs": "skip", "burner_plays_again": True,
        "pickup_then_play": True, "merge_hand_with_face_up": False,
        "start": "rank-from-dealer",
        "start_ranks": ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "X"],
        "start_suits": [],
    },
    "classic": {
        "decks": 1, "jokers": 0, "cards_per_zone": 3,
        "wild": ["2", "3", "T"], "lower": ["7"], "lower_strict": False,
        "invisible": ["3"], "burn": ["T"], "run_to_burn": 4,
        "invisible_in_runs": "break", "burner_plays_again": True,
        "pickup_then_play": False, "merge_hand_with_face_up": False,
        "start": "rank-suit",
        "start_ranks": ["4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "3"],
        "start_suits": ["h", "d", "c", "s"],
    },
    "dutch": {
        "decks": 1, "jokers": 0, "cards_per_zone": 3,
        "wild": ["2"], "lower": ["7"], "lower_strict": True,
        "invisible": ["9"], "burn": ["T"], "run_to_burn": 0,
        "invisible_in_runs": "break", "burner_plays_again": True,
        "pickup_then_play": True, "merge_hand_with_face_up": False,
        "start": "rank-suit",
        "start_ranks": ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"],
        "start_suits": ["c", "d", "h", "s"],
    },
}

_RANK_SET_FIELDS = ("wild", "lower", "invisible", "burn")


class ModelRules:
    """The rule-set parameters of RULES.md section 3, with ranks as indices."""

    def __init__(self, spec: Any = "threes"):
        if isinstance(spec, ModelRules):
            spec = spec.to_dict()
        if isinstance(spec, str):
            spec = {"preset": spec}
        if not isinstance(spec, dict):
            raise TypeError(f"rules must be a dict or a preset name, not {type(spec).__name__}")
        spec = dict(spec)
        preset = str(spec.pop("preset", "threes")).strip().lower()
        if preset not in PRESETS:
            raise ValueError(f"unknown preset {preset!r}")
        params = dict(PRESETS[preset])
        for name, value in spec.items():
            if name == "repetition_limit":  # section 7's optional stalemate rule: the model plays without it
                if value:
                    raise NotImplementedError("the reference model has no repetition_limit")
                continue
            if name not in params:
                raise ValueError(f"unknown rule {name!r}")
            params[name] = value

        self.decks: int = int(params["decks"])
        self.jokers: int = int(params["jokers"])
        self.cards_per_zone: int = int(params["cards_per_zone"])
        self.wild = frozenset(_rank_index(r) for r in params["wild"])
        self.lower = frozenset(_rank_index(r) for r in params["lower"])
        self.lower_strict: bool = bool(params["lower_strict"])
        self.invisible = frozenset(_rank_index(r) for r in params["invisible"])
        self.burn = frozenset(_rank_index(r) for r in params["burn"])
        self.run_to_burn: int = int(params["run_to_burn"])
        self.invisible_in_runs: str = str(params["invisible_in_runs"]).strip().lower()
        self.burner_plays_again: bool = bool(params["burner_plays_again"])
        self.pickup_then_play: bool = bool(params["pickup_then_play"])
        self.merge_hand_with_face_up: bool = bool(params["merge_hand_with_face_up"])
        self.start: str = str(params["start"]).strip().lower()
        self.start_ranks: List[int] = [_rank_index(r) for r in params["start_ranks"]]
        self.start_suits: List[str] = [str(s).strip().lower() for s in params["start_suits"]]
        if self.invisible_in_runs not in ("skip", "break"):
            raise ValueError(f"invisible_in_runs must be 'skip' or 'break', not {self.invisible_in_runs!r}")
        if self.start not in ("rank-from-dealer", "rank-suit"):
            raise ValueError(f"unknown start rule {self.start!r}")
        if not 1 <= self.decks or not 0 <= self.jokers <= 2 or not 1 <= self.cards_per_zone:
            raise ValueError("decks, jokers or cards_per_zone out of range")

        # The action map (README "Action map", actions.h).
        self.copies_per_rank = 4 * self.decks  # C
        self.first_blind_action = NUM_RANKS * self.copies_per_rank
        self.pickup_action = self.first_blind_action + self.cards_per_zone
        self.first_swap_action = self.pickup_action + 1
        # Swap choices: every sorted K-multiset of the 14 ranks, lexicographic.
        self.swap_choices: List[Tuple[int, ...]] = list(
            itertools.combinations_with_replacement(range(NUM_RANKS), self.cards_per_zone))
        self.swap_index: Dict[Tuple[int, ...], int] = {c: i for i, c in enumerate(self.swap_choices)}
        self.num_distinct_actions = self.first_swap_action + len(self.swap_choices)

    def deck_size(self) -> int:
        return self.decks * (52 + self.jokers)

    def to_dict(self) -> Dict[str, Any]:
        """The same dict as ``threes.Rules.to_dict()``: rank sets in rank order."""
        def ranks(s):
            return [RANK_CHARS[r] for r in sorted(s)]
        return {
            "decks": self.decks,
            "jokers": self.jokers,
            "cards_per_zone": self.cards_per_zone,
            "wild": ranks(self.wild),
            "lower": ranks(self.lower),
            "lower_strict": self.lower_strict,
            "invisible": ranks(self.invisible),
            "burn": ranks(self.burn),
            "run_to_burn": self.run_to_burn,
            "invisible_in_runs": self.invisible_in_runs,
            "burner_plays_again": self.burner_plays_again,
            "pickup_then_play": self.pickup_then_play,
            "merge_hand_with_face_up": self.merge_hand_with_face_up,
            "start": self.start,
            "start_ranks": [RANK_CHARS[r] for r in self.start_ranks],
            "start_suits": list(self.start_suits),
            "repetition_limit": 0,
        }


# --------------------------------------------------------------- state --

_PHASES = ("swap", "play", "over")


class ModelState:
    """A position of a game, with the rules of RULES.md applied in plain Python.

    Zones (all as card kinds):
      hands[p], known[p], face_up[p]  sorted lists (multisets);
      face_down[p]                    one entry per slot: a kind or None;
      pile, draw                      bottom first (the next card drawn is draw[-1]);
      burned                          sorted list.
    """

    def __init__(self, rules: ModelRules, num_players: int, dealer: int, max_moves: int):
        self.rules = rules
        self.num_players = num_players
        self.dealer = dealer
        self.max_moves = max_moves
        self.phase = "swap"
        self.current = (dealer + 1) % num_players
        self.move_count = 0
        self.truncated = False
        self.finished: List[int] = []  # the finishing order so far
        self.hands: List[List[int]] = [[] for _ in range(num_players)]
        self.known: List[List[int]] = [[] for _ in range(num_players)]
        self.face_up: List[List[int]] = [[] for _ in range(num_players)]
        self.face_down: List[List[Optional[int]]] = [[] for _ in range(num_players)]
        self.pile: List[int] = []
        self.draw: List[int] = []
        self.burned: List[int] = []
        self.history: List[int] = []
        self._legal: Optional[List[int]] = None  # legal actions of this position, once computed

    # ------------------------------------------------------- creation --

    @classmethod
    def deal(cls, rules: Any = "threes", num_players: int = 4, seed: int = 0,
             dealer: Optional[int] = None, max_moves: int = DEFAULT_MAX_MOVES) -> "ModelState":
        """A new game dealt as the engine deals it (RULES.md 4.1)."""
        r = ModelRules(rules)
        n = num_players
        if not 2 <= n <= 12:
            raise ValueError(f"num_players must be between 2 and 12, not {n}")
        if n * 3 * r.cards_per_zone > r.deck_size():
            raise ValueError(f"a deal for {n} players does not fit in {r.deck_size()} cards")
        if dealer is None:
            dealer = n - 1  # D-13
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat, not {dealer}")
        state = cls(r, n, dealer, max_moves)

        # Canonical order per deck: 52 cards by rank then suit, then its jokers.
        deck: List[int] = []
        for _ in range(r.decks):
            deck.extend(range(52))
            deck.extend([52, 53][:r.jokers])
        # Fisher-Yates with the engine's PRNG.
        rng = Xoshiro256(seed)
        for i in range(len(deck) - 1, 0, -1):
            j = rng.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]

        # Cards come off the end of the list, one at a time, from the seat after the dealer.
        seats = [(dealer + 1 + i) % n for i in range(n)]
        k = r.cards_per_zone
        for _slot in range(k):
            for seat in seats:
                state.face_down[seat].append(deck.pop())
        for _ in range(k):
            for seat in seats:
                state.face_up[seat].append(deck.pop())
        for _ in range(k):
            for seat in seats:
                state.hands[seat].append(deck.pop())
        for seat in seats:
            state.face_up[seat].sort()
            state.hands[seat].sort()
        state.draw = deck  # the rest, the next card drawn last
        state.current = seats[0]  # the swap phase starts after the dealer (4.2)
        return state

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "ModelState":
        """A position in the ``to_dict`` format of the README."""
        if not isinstance(d, dict):
            raise TypeError("a position is a dict")
        rules = ModelRules(d.get("rules", "threes"))
        n = int(d["num_players"])
        dealer = d.get("dealer")
        dealer = n - 1 if dealer is None else int(dealer)
        state = cls(rules, n, dealer, int(d.get("max_moves", DEFAULT_MAX_MOVES)))
        state.phase = d.get("phase", "play")
        if state.phase not in _PHASES:
            raise ValueError(f"unknown phase {state.phase!r}")
        state.current = int(d["current_player"])
        state.move_count = int(d.get("move_count", 0))
        state.truncated = bool(d.get("truncated", False))
        state.finished = [int(p) for p in d.get("finish_order", [])]

        def cards(texts):
            return [parse_card(t) for t in texts]

        k = rules.cards_per_zone
        for p in range(n):
            state.hands[p] = sorted(cards(d["hands"][p]))
            state.known[p] = sorted(cards(d.get("known", [[]] * n)[p]))
            state.face_up[p] = sorted(cards(d["face_up"][p]))
            slots = [None if c is None else parse_card(c) for c in d["face_down"][p]]
            state.face_down[p] = slots + [None] * (k - len(slots))
            rest = list(state.hands[p])
            for c in state.known[p]:
                if c not in rest:
                    raise ValueError(f"known card {card_text(c)} is not in seat {p}'s hand")
                rest.remove(c)
        state.pile = cards(d.get("pile", []))
        state.draw = cards(d.get("draw_pile", []))
        state.burned = sorted(cards(d.get("burned", [])))
        state.history = [int(a) for a in d.get("history", [])]

        # Every card of the deck is placed exactly once (README).
        placed = sorted(state.pile + state.draw + state.burned + [
            k for p in range(n)
            for k in state.hands[p] + state.face_up[p] + state.face_down[p] if k is not None])
        deck = sorted(list(range(52)) * rules.decks + [52, 53][:rules.jokers] * rules.decks)
        if placed != deck:
            raise ValueError("the position does not hold every card of the deck exactly once")
        return state

    def to_dict(self) -> Dict[str, Any]:
        """The same dict as the engine's ``State.to_dict()``."""
        def texts(kinds):
            return [card_text(k) for k in kinds]
        return {
            "format": STATE_FORMAT,
            "rules": self.rules.to_dict(),
            "num_players": self.num_players,
            "dealer": self.dealer,
            "max_moves": self.max_moves,
            "phase": self.phase,
            "current_player": self.current_player(),
            "move_count": self.move_count,
            "truncated": self.truncated,
            "finish_order": list(self.finished),
            "hands": [texts(h) for h in self.hands],
            "known": [texts(h) for h in self.known],
            "face_up": [texts(h) for h in self.face_up],
            "face_down": [[None if k is None else card_text(k) for k in slots]
                          for slots in self.face_down],
            "pile": texts(self.pile),
            "draw_pile": texts(self.draw),
            "burned": texts(self.burned),
            "history": list(self.history),
            "stalemate": False,
            "repetitions": [],
        }

    def clone(self) -> "ModelState":
        c = ModelState(self.rules, self.num_players, self.dealer, self.max_moves)
        c.phase = self.phase
        c.current = self.current
        c.move_count = self.move_count
        c.truncated = self.truncated
        c.finished = list(self.finished)
        c.hands = [list(h) for h in self.hands]
        c.known = [list(h) for h in self.known]
        c.face_up = [list(h) for h in self.face_up]
        c.face_down = [list(h) for h in self.face_down]
        c.pile = list(self.pile)
        c.draw = list(self.draw)
        c.burned = list(self.burned)
        c.history = list(self.history)
        c._legal = self._legal
        return c

    def snapshot(self):
        """(hands, known, face_up, face_down, pile, draw, burned) as lists of
        kinds, in the layout of the engine's ``State._snapshot()``. The lists
        are the model's own: read them, do not change them."""
        return (self.hands, self.known, self.face_up, self.face_down,
                self.pile, self.draw, self.burned)

    # ---------------------------------------------------------- queries --

    def current_player(self) -> int:
        return TERMINAL_PLAYER_ID if self.phase == "over" else self.current

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_truncated(self) -> bool:
        return self.truncated

    def finish_order(self) -> List[int]:
        return list(self.finished)

    def returns(self) -> List[float]:
        """RULES.md 7: place k is worth (N-1-2k)/(N-1); in a truncated game the
        players still in share the mean value of the open places. Zeros while
        the game is on."""
        n = self.num_players
        out = [0.0] * n
        if self.phase != "over":
            return out

        def value(place):
            return (n - 1 - 2 * place) / (n - 1)

        for place, seat in enumerate(self.finished):
            out[seat] = value(place)
        still_in = [p for p in range(n) if p not in self.finished]
        if still_in:
            open_places = range(len(self.finished), n)
            mean = sum(value(k) for k in open_places) / len(open_places)
            for p in still_in:
                out[p] = mean
        return out

    def effective_top_rank(self) -> Optional[int]:
        """RULES.md 6.1: the rank of the first card from the top of the pile
        that is not invisible; None when the pile is open."""
        invisible = self.rules.invisible
        for kind in reversed(self.pile):
            rank = kind >> 2
            if rank not in invisible:
                return rank
        return None

    def top_run(self) -> int:
        """RULES.md 6.3 step 1: cards of one rank lying together at the top of
        the pile. ``skip``: invisible cards are left out first (D-5); ``break``:
        every card counts as its own rank."""
        skip = self.rules.invisible_in_runs == "skip"
        invisible = self.rules.invisible
        run_rank = -1
        run = 0
        for kind in reversed(self.pile):
            rank = kind >> 2
            if skip and rank in invisible:
                continue
            if run == 0:
                run_rank = rank
            elif rank != run_rank:
                break
            run += 1
        return run

    def can_play(self, rank: int, top: Optional[int]) -> bool:
        """RULES.md 6.1: whether a card of ``rank`` may be played on a pile
        whose effective top has rank ``top`` (None: the pile is open)."""
        r = self.rules
        if top is None or rank in r.wild:  # open pile, or a wild card: always
            return True
        if top in r.lower:  # after a lower card: equal or lower (strictly lower)
            if r.lower_strict:
                return value_of_rank(rank) < value_of_rank(top)
            return value_of_rank(rank) <= value_of_rank(top)
        return value_of_rank(rank) >= value_of_rank(top)  # otherwise: equal or higher

    def _source(self, p: int) -> str:
        """RULES.md 6: the first non-empty source of hand, face-up, face-down."""
        if self.hands[p]:
            return "hand"
        if self.face_up[p]:
            return "face_up"
        return "face_down"

    def legal_actions(self) -> List[int]:
        """Sorted legal action ids (README "Action map")."""
        if self._legal is None:
            self._legal = self._compute_legal_actions()
        return list(self._legal)

    def _compute_legal_actions(self) -> List[int]:
        r = self.rules
        if self.phase == "over":
            return []
        p = self.current
        if self.phase == "swap":
            # RULES.md 4.2: every multiset of K ranks drawn from the hand and face-up cards.
            ranks = sorted(k >> 2 for k in self.hands[p] + self.face_up[p])
            choices = set(itertools.combinations(ranks, r.cards_per_zone))
            return sorted(r.first_swap_action + r.swap_index[c] for c in choices)

        source = self._source(p)
        if source == "face_down":
            # RULES.md 6.2: exactly the occupied slots, whatever the cards are.
            return [r.first_blind_action + s for s, kind in enumerate(self.face_down[p]) if kind is not None]

        top = self.effective_top_rank()
        C = r.copies_per_rank
        actions: List[int] = []
        cards = self.hands[p] if source == "hand" else self.face_up[p]
        groups = _rank_groups(cards)
        for rank, count in groups:
            if self.can_play(rank, top):
                # every count from 1 to the copies held (6.2)
                actions.extend(range(rank * C, rank * C + count))
        # merge_hand_with_face_up (6.2): draw pile empty and the hand all of one rank:
        # all of the hand plus 1 or more face-up cards of that rank.
        if (source == "hand" and r.merge_hand_with_face_up and not self.draw
                and len(groups) == 1 and self.can_play(groups[0][0], top)):
            rank, count = groups[0]
            extra = sum(1 for k in self.face_up[p] if k >> 2 == rank)
            actions.extend(range(rank * C + count, rank * C + count + extra))
        if not actions:
            # D-3: pick up only when nothing can be played
            actions.append(r.pickup_action)
        return actions

    # ----------------------------------------------------------- moves --

    def apply_action(self, action: int) -> None:
        """Applies a legal action; raises ValueError (state unchanged) otherwise."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise TypeError(f"an action is an int, not {type(action).__name__}")
        legal = self._legal if self._legal is not None else self._compute_legal_actions()
        if action not in legal:
            raise ValueError(f"illegal action {action}")
        r = self.rules
        self._legal = None
        if self.phase == "swap":
            self._apply_swap(r.swap_choices[action - r.first_swap_action])
        elif action == r.pickup_action:
            self._pick_up(self.current, [])
        elif action >= r.first_blind_action:
            self._apply_blind(action - r.first_blind_action)
        else:
            rank, count_minus_one = divmod(action, r.copies_per_rank)
            self._apply_play(rank, count_minus_one + 1)
        self.history.append(action)
        # RULES.md 7: the move cap counts every action; reaching it unfinished truncates.
        self.move_count += 1
        if self.phase != "over" and self.move_count >= self.max_moves:
            self.phase = "over"
            self.truncated = True

    # RULES.md 4.2 ------------------------------------------------------
    def _apply_swap(self, choice: Tuple[int, ...]) -> None:
        p = self.current
        hand, up = self.hands[p], self.face_up[p]
        new_up: List[int] = []
        staying_up: List[int] = []
        taken_from_hand: List[int] = []
        for rank in sorted(set(choice)):
            wanted = choice.count(rank)
            # cards already face up stay there, in canonical order ...
            staying = [k for k in up if k >> 2 == rank][:wanted]
            # ... extra copies come from the hand, in canonical order
            extra = [k for k in hand if k >> 2 == rank][:wanted - len(staying)]
            new_up += staying + extra
            staying_up += staying
            taken_from_hand += extra
        # every other card goes to the hand; face-up cards taken into it are known (D-15)
        to_hand = _multiset_minus(up, staying_up)
        self.hands[p] = sorted(_multiset_minus(hand, taken_from_hand) + to_hand)
        self.known[p] = sorted(_sub_multiset(self.known[p], self.hands[p]) + to_hand)
        self.face_up[p] = sorted(new_up)

        # the next seat decides; after the dealer, play begins (section 5)
        if p == self.dealer:
            self.phase = "play"
            self.current = self._find_starter()
        else:
            self.current = (p + 1) % self.num_players

    # RULES.md 5 ---------------------------------------------------------
    def _find_starter(self) -> int:
        r = self.rules
        n = self.num_players
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        if r.start == "rank-from-dealer":
            for rank in r.start_ranks:
                for seat in order:
                    if any(k >> 2 == rank for k in self.hands[seat]):
                        return seat
        else:  # rank-suit
            for rank in r.start_ranks:
                if rank == JOKER_RANK:
                    suits = [0, 1]  # jokers: r then b (no listed suit applies)
                else:
                    listed = [SUIT_CHARS.index(s) for s in r.start_suits]
                    suits = listed + [s for s in range(4) if s not in listed]
                for suit in suits:
                    kind = 4 * rank + suit
                    for seat in order:
                        if kind in self.hands[seat]:
                            return seat
        return order[0]  # nobody holds a start rank: the seat after the dealer

    # RULES.md 6.2 --------------------------------------------------------
    def _apply_play(self, rank: int, count: int) -> None:
        p = self.current
        played: List[int] = []
        if self.hands[p]:
            in_hand = sum(1 for k in self.hands[p] if k >> 2 == rank)
            from_hand = min(count, in_hand)
            played += self._take_from_hand(p, rank, from_hand)
            if count > from_hand:  # merge_hand_with_face_up
                played += self._take_from_face_up(p, rank, count - from_hand)
        else:
            played += self._take_from_face_up(p, rank, count)
        self.pile.extend(played)
        self._after_play(p, rank)

    def _take_from_hand(self, p: int, rank: int, count: int) -> List[int]:
        """Section 2: known copies leave the hand first, then the others in
        canonical order. Returns the cards in the order they leave."""
        hand, known = self.hands[p], self.known[p]
        taken = [k for k in known if k >> 2 == rank][:count]
        for k in taken:
            known.remove(k)
            hand.remove(k)
        rest = [k for k in hand if k >> 2 == rank][:count - len(taken)]
        for k in rest:
            hand.remove(k)
        return taken + rest

    def _take_from_face_up(self, p: int, rank: int, count: int) -> List[int]:
        """Face-up copies of a rank leave in canonical order."""
        up = self.face_up[p]
        taken = [k for k in up if k >> 2 == rank][:count]
        for k in taken:
            up.remove(k)
        return taken

    def _apply_blind(self, slot: int) -> None:
        """6.2: the card is turned over; played if it may be, else picked up with the pile."""
        p = self.current
        kind = self.face_down[p][slot]
        assert kind is not None  # only occupied slots are legal
        self.face_down[p][slot] = None
        rank = kind >> 2
        if self.can_play(rank, self.effective_top_rank()):
            self.pile.append(kind)
            self._after_play(p, rank)  # D-7: with every effect
        else:
            self._pick_up(p, [kind])

    def _pick_up(self, p: int, extra: List[int]) -> None:
        """6.2 / 6.3 step 4: the pile (and a turned face-down card) into the
        hand, all known; then the same player again with pickup_then_play."""
        cards = self.pile + extra
        self.pile = []
        for k in cards:
            bisect.insort(self.hands[p], k)
            bisect.insort(self.known[p], k)
        if not self.rules.pickup_then_play:
            self.current = self._next_seat(p)

    # RULES.md 6.3 --------------------------------------------------------
    def _after_play(self, p: int, rank: int) -> None:
        r = self.rules
        # 1. burn check
        burned = rank in r.burn or (r.run_to_burn > 0 and self.top_run() >= r.run_to_burn)
        if burned:
            for k in self.pile:
                bisect.insort(self.burned, k)
            self.pile = []
        # 2. refill from the end of the draw pile
        hand = self.hands[p]
        while len(hand) < r.cards_per_zone and self.draw:
            bisect.insort(hand, self.draw.pop())
        # 3. out
        is_out = not hand and not self.face_up[p] and all(k is None for k in self.face_down[p])
        if is_out:
            self.finished.append(p)
            still_in = [q for q in range(self.num_players) if q not in self.finished]
            if len(still_in) == 1:  # section 7: the shithead
                self.finished.append(still_in[0])
                self.phase = "over"
                return
        # 4. who moves next
        if burned and not is_out and r.burner_plays_again:
            return
        self.current = self._next_seat(p)

    def _next_seat(self, p: int) -> int:
        """Clockwise, the next player who is not out."""
        n = self.num_players
        q = (p + 1) % n
        while q in self.finished:
            q = (q + 1) % n
        return q

    # ---------------------------------------------------------- display --

    def __repr__(self) -> str:
        return (f"<ModelState {self.num_players}p {self.phase} move {self.move_count}, "
                f"player {self.current_player()}>")


def _multiset_minus(a: Sequence[int], b: Sequence[int]) -> List[int]:
    """a without the cards of b (each copy removed once)."""
    out = list(a)
    for k in b:
        out.remove(k)
    return out


def _sub_multiset(a: Sequence[int], b: Sequence[int]) -> List[int]:
    """The cards of a that b still holds (each copy of b matched once)."""
    rest = list(b)
    out = []
    for k in a:
        if k in rest:
            rest.remove(k)
            out.append(k)
    return out


def play_random(state: ModelState, rng: random.Random) -> ModelState:
    """Plays uniformly random legal actions until the game is over (in place)."""
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    return state
