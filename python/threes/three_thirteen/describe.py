"""Three Thirteen for people: what a move did, in words, and why moves are
or are not available (the registry hooks ``narrate``, ``narrate_all``,
``explain`` and ``rules_text`` of the Three Thirteen entry; ``threes play``
and the web table use them, never asking which game they hold).

``describe_event(event, viewer=None, names=None)`` narrates one
:class:`threes.events.Event` from ``viewer``'s point of view (the seat
reading it; None for a spectator): "you" for the viewer's seat, the seat's
name otherwise (``names[seat]``, by default ``"seat 2"``). It reads the
event as the viewer sees it (``event.view(viewer)``), so a card drawn from
the stock is named to its taker only::

    >>> from threes.events import Event
    >>> from threes.cards import Card
    >>> draw = Event("draw", seat=1, cards=(Card("7h"),), count=1, source="stock", private=True)
    >>> describe_event(draw, viewer=1)
    'you draw 7\u2665 from the stock'
    >>> describe_event(draw, viewer=0)
    'seat 1 draws from the stock'

``describe_events(events, viewer=None, names=None)`` narrates a move's
events as sentences: going out and its discard as one, and after a round's
scores a line of every seat's score labelled with its name ("round 3
scores: you 0, seat 1 (greedy) 12").

``explain_moves(state, seat)`` says, as a list of lines, why each move is
or is not available to ``seat`` now: the draw (stock or discard pile), the
card taken from the discard pile that may not be discarded again (T-2),
why going out is available or not (the first turn of a round with
``go_out_first_turn`` off; the deadwood the best discard leaves). The
answers come from the engine (``state.legal_actions()``, the meld solver
``min_deadwood``) and the options of the state.

``hand_melds(state, seat)`` is the best arrangement of a hand in words, and
``rules_text(state)`` the rules and options of a table, one line each, every
option as what its value means at this table, ending with where the rules
are (:data:`SPEC`).
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

from threes.ui.text import _cards_count, _verb, _who, card_face, cards_face, rank_name

__all__ = ["describe_event", "describe_events", "explain_moves", "hand_melds", "rules_text"]

#: Three Thirteen's ranks, A low (round k's wild rank is RANKS[k + 1]).
_RANKS = "A23456789TJQK"

def _melds_text(melds: Sequence[Any]) -> str:
    """``run 3♣ 4♣ 5♣ · set 7♥ 7♦ 7♠``."""
    return " \u00b7 ".join(f"{t} {cards_face(cs)}" for t, cs in melds)


def _wild_name(round_: int) -> str:
    return rank_name(_RANKS[round_ + 1], True)


def describe_event(event: Any, viewer: Optional[int] = None, names: Optional[Sequence[str]] = None) -> str:
    """One sentence narrating a Three Thirteen Event as seat ``viewer`` sees
    it (None: a spectator): "you" for the viewer's seat, ``names[seat]`` (by
    default ``"seat N"``) for the others. A card drawn from the stock is
    named to its taker only (``event.view(viewer)``)."""
    e = event.view(viewer)
    who, you = _who(e.seat, viewer, names)
    kind = e.kind
    if kind == "draw":
        if e.source == "discard":
            card = f" {cards_face(e.cards)}" if e.cards else ""
            return f"{who} {_verb(you, 'take')}{card} from the discard pile"
        if e.cards:
            return f"{who} {_verb(you, 'draw')} {cards_face(e.cards)} from the stock"
        return f"{who} {_verb(you, 'draw')} from the stock"
    if kind == "reshuffle":
        return (f"the stock is empty: the discard pile but its top card ({_cards_count(e.count)}) is shuffled "
                "into a new stock")
    if kind == "discard":
        return f"{who} {_verb(you, 'discard')} {cards_face(e.cards)}"
    if kind == "go_out":
        melds = f" with {_melds_text(e.melds)}" if e.melds else ""
        return f"{who} {_verb(you, 'go')} out{melds}"
    if kind == "last_turns":
        n = e.value if isinstance(e.value, int) else e.count
        turns = f" ({n} turn{'s' if n != 1 else ''})" if n else ""
        but = "you" if you else who
        return f"last turn: everyone but {but} plays one more turn{turns}"
    if kind == "round_end":
        r = f"round {e.value}" if isinstance(e.value, int) else "the round"
        why = ": the stock ran out" if e.detail == "stock_empty" else ""
        return f"{r} is over{why}"
    if kind == "score":
        points = e.value if isinstance(e.value, int) else 0
        used = sum(len(cs) for _, cs in e.melds)
        left = list(e.cards[used:])
        parts = []
        if e.melds:
            parts.append(_melds_text(e.melds))
        if left:
            parts.append(f"left over {cards_face(left)}")
        shown = f": {'; '.join(parts)}" if parts else ""
        out = " (went out)" if e.detail == "out" else ""
        return f"{who} {_verb(you, 'score')} {points}{out}{shown}"
    if kind == "round":
        r = e.value if isinstance(e.value, int) else 0
        first = f"; the discard pile starts with {card_face(e.cards[0])}" if e.cards else ""
        dealer = f"; {who} {_verb(you, 'deal')}" if e.seat is not None else ""
        return f"round {r}: {r + 2} cards each, {_wild_name(r)} wild{dealer}{first}"
    if kind == "truncated":
        return "the game is cut at the move cap: the round in play is not scored"
    if kind == "over":
        return "the game is over"
    return f"{who} {kind}" if e.seat is not None else kind


def describe_events(events: Sequence[Any], viewer: Optional[int] = None,
                    names: Optional[Sequence[str]] = None) -> List[str]:
    """The events of a move as sentences (describe_event): going out and the
    discard with it as one sentence, and after a round's score events a line
    of every seat's score labelled with its name ("round 3 scores: you 0,
    seat 1 (greedy) 12, seat 2 (random) 22")."""
    out: List[str] = []
    prev: Optional[Any] = None
    round_no: Optional[int] = None
    scores: List[str] = []

    def flush() -> None:
        if scores:
            label = f"round {round_no} scores" if round_no is not None else "round scores"
            out.append(f"{label}: {', '.join(scores)}")
            scores.clear()

    for ev in events:
        if ev.kind != "score":
            flush()
        text = describe_event(ev, viewer, names)
        if ev.kind == "round_end" and isinstance(ev.value, int):
            round_no = ev.value
        if ev.kind == "score":
            who, _ = _who(ev.seat, viewer, names)
            scores.append(f"{who} {ev.value if isinstance(ev.value, int) else 0}")
        if ev.kind == "discard" and prev is not None and prev.kind == "go_out" and ev.seat == prev.seat:
            out[-1] += f", discarding {cards_face(ev.cards)}"
        else:
            out.append(text)
        prev = ev
    flush()
    return out


# ----------------------------------------------------------------- explain --
def _options(state: Any) -> dict:
    from threes.three_thirteen.game import _options_out

    return _options_out(state._options())


def _solver_args(state: Any) -> dict:
    o = _options(state)
    return {"ace": o["ace"], "all_wild_melds": o["all_wild_melds"], "wild_penalty": o["wild_penalty"]}


def hand_melds(state: Any, seat: int, cards: Optional[Sequence[Any]] = None) -> str:
    """The best arrangement of a seat's hand (or of ``cards``) in words, from
    the meld solver: ``melds: run 3♣ 4♣ 5♣ · set 7♥ 7♦ 7♠; left over 9♦ 3♠
    (deadwood 12)``."""
    from threes.three_thirteen.game import min_deadwood

    hand = list(state.hand(seat)) if cards is None else list(cards)
    value, arrangement = min_deadwood(hand, state.wild_rank(), **_solver_args(state))
    melds = arrangement["melds"]
    parts = [f"melds: {_melds_text(melds)}" if melds else "no melds"]
    if arrangement["deadwood"]:
        parts.append(f"left over {cards_face(arrangement['deadwood'])} (deadwood {value})")
    else:
        parts.append("nothing left over (deadwood 0)")
    return "; ".join(parts)


def explain_moves(state: Any, seat: int) -> List[str]:
    """Why each move is or is not available to ``seat`` now, in lines: the
    draw; the card taken from the discard pile (T-2); going out (available,
    or why not: the first turn of a round with go_out_first_turn off, or the
    deadwood the best discard leaves). From the engine's legal actions and
    its meld solver; an empty list when the game is over."""
    from threes.three_thirteen.game import _core, min_deadwood

    if state.is_terminal():
        return []
    opts = _options(state)
    obs = state.observation(seat)
    wild = _wild_name(state.round())
    jokers = " and jokers" if opts["jokers"] else ""
    lines = [f"round {state.round()}: {state.round() + 2} cards, {wild}{jokers} wild"]
    cp = state.current_player()
    if obs.out_seat is not None and cp == seat:
        lines.append(f"seat {obs.out_seat} went out: this is your last turn of the round")
    if cp != seat:
        lines.append(f"seat {cp} is to move")
        return lines
    legal = state.legal_actions()
    if state.phase == "draw":
        pile = state.discard_pile()
        stock = state.stock_size()
        if stock:
            draw = f"draw the top card of the stock ({_cards_count(stock)}; only you see it)"
        else:
            draw = "draw from the stock (empty: the discard pile but its top card is shuffled into a new stock)"
        if pile and 1 in legal:
            line = f"{draw}, or take the top discard, {card_face(pile[-1])} (everyone sees it)"
            if not opts["rediscard_taken"]:
                line += ": a card taken from the discard pile can't be discarded again this turn"
            lines.append(line)
        else:
            lines.append(f"{draw}: the discard pile is empty")
        return lines
    hand = list(state.hand(seat))
    discards = [state.action_to_string(a).split()[1] for a in legal if _core.FIRST_DISCARD <= a < _core.FIRST_GO_OUT]
    outs = [state.action_to_string(a).split()[1] for a in legal if a >= _core.FIRST_GO_OUT]
    taken = obs.taken
    if taken is not None:
        if str(taken) not in discards:
            lines.append(f"you took {card_face(taken)} from the discard pile: it can't be discarded again this "
                         "turn (T-2)")
        elif opts["rediscard_taken"]:
            lines.append(f"you took {card_face(taken)} from the discard pile; you may discard it again "
                         "(rediscard_taken is on)")
        else:
            lines.append(f"you took {card_face(taken)} from the discard pile; you hold another "
                         f"{card_face(taken)}, which you may discard")
    lines.append("discard one card, or go out if every other card of your hand forms melds")
    if outs:
        best = outs[0]
        rest = list(hand)
        rest.remove(next(c for c in rest if str(c) == best))
        _, arr = min_deadwood(rest, state.wild_rank(), **_solver_args(state))
        others = f" (or {', '.join(card_face(c) for c in outs[1:])})" if len(outs) > 1 else ""
        lines.append(f"you can go out: discard {card_face(best)}{others} and lay down {_melds_text(arr['melds'])}")
        return lines
    first_turn = obs.turns[seat] <= 1 and not opts["go_out_first_turn"]
    best_value, best_card, best_left = None, None, []
    for text in dict.fromkeys(discards):
        rest = list(hand)
        rest.remove(next(c for c in rest if str(c) == text))
        value, arr = min_deadwood(rest, state.wild_rank(), **_solver_args(state))
        if best_value is None or value < best_value:
            best_value, best_card, best_left = value, text, arr["deadwood"]
    if first_turn:
        could = " (your melds would allow it)" if best_value == 0 else ""
        lines.append(f"you may not go out on your first turn of a round: go_out_first_turn is off{could}")
    elif best_value is not None and best_card is not None:
        lines.append(f"you can't go out yet: the best discard, {card_face(best_card)}, leaves deadwood "
                     f"{best_value} ({cards_face(best_left)})")
    return lines


_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

#: Where the rules' full text is, for a reader of an installed wheel as well as of the source.
SPEC = ("the full rules (cited above as \"the rules, T-n\", its decisions): the Rules pages of the docs site, or "
        "docs/three_thirteen/RULES.md in the source")


def _count(n: int, what: str) -> str:
    word = _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)
    return f"{word} {what}{'' if n == 1 else 's'}"


def _option_words(name: str, v: Any, o: dict, players: int) -> str:
    """What the value of one option means at a table of ``players``, in words (the rules, Options)."""
    if name == "decks":
        text = "one 52-card deck" if v == 1 else f"{_count(v, '52-card deck')} shuffled together"
        default = (players + 1) // 2
        if v == default:
            return text + f" (the default for {players} players: one per two players, rounded up)"
        return text + f" (the default for {players} players would be {default})"
    if name == "jokers":
        if not v:
            return "no jokers"
        return (f"{_count(v, 'joker')} per deck ({v * o['decks']} in all), always wild; one left out of melds "
                "scores 20")
    if name == "ace":
        if v == "either":
            return "aces are low or high: runs may also end Q-K-A (never K-A-2), and a leftover ace scores 15"
        return "aces are low: A-2-3 is a run, Q-K-A is not, and a leftover ace scores 1 (the rules, T-5)"
    if name == "all_wild_melds":
        return ("a meld may be made of wild cards only (the rules, T-6)" if v
                else "a meld needs a card that is not wild: wild cards alone form no meld (the rules, T-6)")
    if name == "wild_penalty":
        return ("a wild card left out of melds scores 20 (the rules, T-8)" if v == 20
                else "a wild card left out of melds scores its face value (the rules, T-8)")
    if name == "rediscard_taken":
        if v:
            return "the card you take from the discard pile may be discarded again in the same turn"
        return "the card you take from the discard pile may not be discarded in the same turn (the rules, T-2)"
    if name == "go_out_first_turn":
        return ("a player may go out on their very first turn of a round" if v
                else "a player may not go out on their first turn of a round")
    return name  # pragma: no cover - an option added without words here


def _value_text(v: Any) -> str:
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)


def rules_text(state: Any) -> List[str]:
    """The rules of a Three Thirteen table in words, one line each: the
    rounds and wild ranks, a turn, melds, scoring, then every option as
    ``name = value: what that value means here``, and last where the full
    rules are (:data:`SPEC`)."""
    o = _options(state)
    players = state.num_players()
    ace = "ace low or high" if o["ace"] == "either" else "ace low"
    lines = [
        f"Three Thirteen, {players} players: 11 rounds; round k deals k + 2 cards and that rank is "
        "wild (3s in round 1 .. Kings in round 11)",
        "a turn: draw the top card of the stock or of the discard pile, then discard one card or go out",
        f"melds: a set (3 or more of one rank) or a run (3 or more of one suit in a row, {ace}); wild cards "
        "stand for any card",
        "going out: every card but the discard in melds; every other player then has one more turn",
        "scoring: each hand's least deadwood (A=1, 2-10 face value, J Q K 10); the lowest total wins",
    ]
    from threes.three_thirteen.options import OPTIONS

    for opt in OPTIONS:
        v = o[opt.name]
        lines.append(f"{opt.name} = {_value_text(v)}: {_option_words(opt.name, v, o, players)}")
    lines.append(SPEC)
    return lines
