"""Shithead for people: what a move did, in words, and why moves are or are
not available (the registry hooks ``narrate``, ``narrate_all`` and
``explain`` of the Shithead entry; ``threes play`` and the web table use
them, never asking which game they hold).

``describe_event(event, viewer=None, names=None)`` narrates one
:class:`threes.events.Event` from ``viewer``'s point of view (the seat
reading it; None for a spectator): "you" for the viewer's seat, the seat's
name otherwise (``names[seat]``, by default ``"seat 2"``). It reads the
event as the viewer sees it (``event.view(viewer)``), so a card drawn from
the draw pile is named to its taker only::

    >>> from threes.events import Event
    >>> from threes.cards import Card
    >>> draw = Event("draw", seat=0, cards=(Card("5c"), Card("9d")), count=2, private=True)
    >>> describe_event(draw, viewer=0)
    'you draw 5\u2663 9\u2666'
    >>> describe_event(draw, viewer=1)
    'seat 0 draws 2 cards'

``describe_events(events, viewer=None, names=None)`` narrates a move's
events as sentences, joining those that read as one ("the pile burns (a
10): you play again"; a face-down card that cannot be played and the pile
picked up with it).

``explain_moves(state, seat)`` says, as a list of lines, why each move is or
is not available to ``seat`` now: the rule on the current top in words ("7
on top: play 7 or lower (2 3 4 5 6 7), or a wild 2/8/joker"), which source
the cards come from, why a card held cannot be played ("a 10 can't be
played on a King here: ..."), why the only move is to pick up. Every answer
comes from the engine (``state.is_playable``, ``state.legal_moves()``) and
the words from the state's own rules (preset or house rules: the fields of
``threes.Rules``), never from a table of its own.

``rules_text(state)`` is the rule set of a table in words, one line per rule, each saying
what its value means at this table (``threes rules``, and ``rules`` at the ``threes play``
prompt); it cites the rules as "the rules, section N" and ends with where they are
(:data:`SPEC`: the docs site's Rules pages, docs/shithead/RULES.md in the source).
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

from threes.cards import RANKS
from threes.ui.text import _cards_count, _place, _verb, _who, a_rank, card_face, cards_face, rank_face, rank_name

__all__ = ["describe_event", "describe_events", "explain_moves", "rules_text", "top_rule"]

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
#: How many picked-up cards a sentence names before "and N more".
_PICKUP_NAMED = 12

def _number(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)



def _list(words: Sequence[str], last: str = "and") -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def _pickup_cards(cards: Sequence[Any]) -> str:
    shown = cards_face(list(cards)[:_PICKUP_NAMED], "")
    more = len(cards) - _PICKUP_NAMED
    return shown + (f" and {more} more" if more > 0 else "")


def describe_event(event: Any, viewer: Optional[int] = None, names: Optional[Sequence[str]] = None) -> str:
    """One sentence narrating a Shithead Event as seat ``viewer`` sees it
    (None: a spectator): "you" for the viewer's seat, ``names[seat]`` (by
    default ``"seat N"``) for the others. A private event's cards are named
    to its own seat only (``event.view(viewer)``)."""
    e = event.view(viewer)
    who, you = _who(e.seat, viewer, names)
    kind = e.kind
    if kind == "swap":
        return f"{who} {_verb(you, 'keep')} face up: {cards_face(e.cards)}"
    if kind == "start":
        return f"{who} {_verb(you, 'play')} first"
    if kind == "play":
        where = {"face_up": " from face up", "hand+face_up": " from hand and face up"}.get(e.source or "", "")
        return f"{who} {_verb(you, 'play')} {cards_face(e.cards)}{where}"
    if kind == "blind":
        card = card_face(e.cards[0]) if e.cards else "a card"
        if e.detail == "picked_up":
            return f"{who} {_verb(you, 'turn')} over {card} from face down: it cannot be played"
        return f"{who} {_verb(you, 'turn')} over {card} from face down and {_verb(you, 'play')} it"
    if kind == "burn":
        return _burn_text(e, None)
    if kind == "draw":
        if e.cards:
            return f"{who} {_verb(you, 'draw')} {cards_face(e.cards)}"
        return f"{who} {_verb(you, 'draw')} {_cards_count(e.count)}"
    if kind == "pickup":
        n = len(e.cards) or e.count
        listed = f": {_pickup_cards(e.cards)}" if e.cards else ""
        return f"{who} {_verb(you, 'pick')} up the pile ({_cards_count(n)}{listed})"
    if kind == "again":
        return f"{who} {_verb(you, 'play')} again"
    if kind == "out":
        if e.detail == "last":
            return f"{who} {_verb(you, 'are')} the shithead"
        place = f" ({_place(e.value - 1)})" if isinstance(e.value, int) and e.value > 0 else ""
        return f"{who} {_verb(you, 'are')} out{place}"
    if kind == "stalemate":
        return "the game ends in a stalemate: the same position came back too often (the repetition limit)"
    if kind == "truncated":
        return "the game is cut at the move cap: the players still in share the places left"
    if kind == "over":
        return "the game is over"
    return f"{who} {kind}" if e.seat is not None else kind


def _burn_text(e: Any, rank: Optional[str]) -> str:
    """A burn, with the rank that burned the pile when it is known (the
    rank of the play before it: the event lists the burned cards in
    canonical order)."""
    n = f"{_cards_count(len(e.cards))}" if e.cards else ""
    if e.detail == "run":
        if isinstance(e.value, int) and e.value > 1 and rank:
            return f"{_number(e.value)} {rank_name(rank, True)} in a row burn the pile ({n})"
        what = f"a run of {rank_name(rank, True)}" if rank else "a run of one rank"
        return f"{what} burns the pile ({n})"
    if rank:
        return f"{a_rank(rank)} burns the pile ({n})"
    return f"the pile burns ({n})"


def describe_events(events: Sequence[Any], viewer: Optional[int] = None,
                    names: Optional[Sequence[str]] = None) -> List[str]:
    """The events of a move as sentences (describe_event), joining the ones
    that read as one: a burn and the burner playing again ("a 10 burns the
    pile (3 cards): you play again"), a face-down card that cannot be played
    and the pick-up of the pile with it, a pick-up and playing again. A
    burn names the rank of the play that burned the pile."""
    out: List[str] = []
    prev: Optional[Any] = None
    rank: Optional[str] = None  # the rank of the last card played in this move
    burned_at: Optional[int] = None  # the sentence of this move's burn
    burner: Optional[int] = None
    for ev in events:
        if ev.kind == "play" and ev.cards:
            rank = ev.cards[-1].rank
        elif ev.kind == "blind" and ev.detail == "played" and ev.cards:
            rank = ev.cards[0].rank
        if ev.kind == "burn":
            out.append(_burn_text(ev.view(viewer), rank))
            burned_at, burner = len(out) - 1, ev.seat
            prev = ev
            continue
        text = describe_event(ev, viewer, names)
        if ev.kind == "again" and burned_at is not None and ev.seat == burner:
            out[burned_at] += f": {text}"
            burned_at = None
        elif ev.kind == "pickup" and prev is not None and prev.kind == "blind" and prev.detail == "picked_up" \
                and ev.seat == prev.seat:
            out[-1] += f", so {text}"
        elif ev.kind == "again" and prev is not None and prev.kind == "pickup" and ev.seat == prev.seat:
            out[-1] += f"; {text}"
        else:
            out.append(text)
        prev = ev
    return out


# ------------------------------------------------------------- the rules --
def _ranks_of(rules: Any) -> List[str]:
    """The ranks a deal of these rules holds, in value order."""
    return list(RANKS[:13]) + (["X"] if rules.jokers else [])


def _value(rank: str) -> int:
    return RANKS.index(rank) + 2


def _faces(ranks: Sequence[str], sep: str = " ") -> str:
    return sep.join(rank_face(r) for r in ranks)


def _rules_label(rules: Any) -> str:
    return f"{rules.name} rules" if rules.name != "custom" else "these house rules"


def _wild_clause(rules: Any, ranks: Sequence[str]) -> str:
    wild = [r for r in ranks if r in rules.wild]
    return f", or a wild {_faces(wild, '/')}" if wild else ""


def top_rule(state: Any) -> str:
    """The rule on the pile now, in words, with the ranks the engine lets
    follow: "7 on top: play 7 or lower (2 3 4 5 6 7), or a wild 2/8/joker";
    "the pile is empty: play any card"."""
    rules = state.rules
    ranks = _ranks_of(rules)
    pile = state.pile()
    top = state.effective_top()
    if top is None:
        if pile:
            hidden = sorted({c.rank for c in pile}, key=_value)
            return (f"only invisible {_list([rank_name(r, True) for r in hidden])} on the pile: "
                    "it counts as open, play any card")
        return "the pile is empty: play any card"
    playable = [r for r in ranks if state.is_playable(r)]
    natural = [r for r in playable if r not in rules.wild]
    head = f"{rank_face(top)} on top"
    if pile and pile[-1].rank != top:
        over = []
        for c in reversed(pile):  # the invisible cards above the effective top
            if c.rank == top:
                break
            if c.rank not in over:
                over.append(c.rank)
        head += f" (under the invisible {_list([rank_name(r, True) for r in over])})"
    if top in rules.lower:
        need = f"play lower than {rank_face(top)}" if rules.lower_strict else f"play {rank_face(top)} or lower"
    else:
        need = f"play {rank_face(top)} or higher"
    listed = f" ({_faces(natural)})" if natural else " (no card but a wild one)"
    return f"{head}: {need}{listed}{_wild_clause(rules, ranks)}"


def _why_not(state: Any, ranks: Sequence[str], top: str) -> str:
    """Why cards of `ranks` (held; the engine said none may be played) cannot
    go on `top`, from the rules' fields: "a 10 can't be played on a King
    here: a 10 is lower than a King, and 10s are not wild in threes rules
    (wild: 2 8 JK)"."""
    rules = state.rules
    one = len(ranks) == 1
    names = _list([a_rank(r) for r in ranks], "or")
    if top in rules.lower:
        need = f"lower than {rank_face(top)}" if rules.lower_strict else f"{rank_face(top)} or lower"
        why = f"after {a_rank(top)} the next card must be {need}"
    elif all(_value(r) < _value(top) for r in ranks):
        why = f"{a_rank(ranks[0]) if one else 'they'} {'is' if one else 'are'} lower than {a_rank(top)}"
    else:
        why = f"{'it' if one else 'they'} may not follow {a_rank(top)} now"
    wild = [r for r in _ranks_of(rules) if r in rules.wild]
    label = _rules_label(rules)
    not_wild = f"{rank_name(ranks[0], True)} are not wild" if one else "none of them is wild"
    why += f", and {not_wild} in {label} (wild: {_faces(wild)})" if wild else f", and no card is wild in {label}"
    burners = [r for r in ranks if r in rules.burn]
    if burners:
        why += f"; {_list([rank_name(r, True) for r in burners])} burn the pile only when they may be played"
    return f"{names} can't be played on {a_rank(top)} here: {why}"


def _burn_line(state: Any) -> Optional[str]:
    rules = state.rules
    ranks = _ranks_of(rules)
    parts = []
    burn = [r for r in ranks if r in rules.burn]
    if burn:
        parts.append(f"{_list([rank_name(r, True) for r in burn], 'or')} burn the pile")
    if rules.run_to_burn:
        run_rank, run_len = state.top_run()
        part = f"{_number(rules.run_to_burn)} of one rank in a row burn it"
        if run_rank and run_len >= 2 and run_len < rules.run_to_burn:
            more = rules.run_to_burn - run_len
            part += (f" ({_number(run_len)} {rank_name(run_rank, True)} on top now: {_number(more)} more "
                     f"{'burns' if more == 1 else 'burn'} it)")
        parts.append(part)
    if not parts:
        return None
    again = "the burner plays again" if rules.burner_plays_again else "the turn passes"
    return "; ".join(parts) + f" ({again})"


def explain_moves(state: Any, seat: int) -> List[str]:
    """Why each move is or is not available to ``seat`` now, in lines: the
    rule on the top, where the cards come from (hand, face up, face down),
    each held rank that cannot be played and why, why the only move is to
    pick up. From the engine's answers (``state.is_playable``,
    ``state.legal_moves()``) and the state's rules; an empty list when the
    game is over."""
    rules = state.rules
    if state.is_terminal():
        return []
    cp = state.current_player()
    who, you = _who(seat, seat, None)
    lines: List[str] = []
    if state.phase.value == "swap":
        cpz = rules.cards_per_zone
        pool = sorted(list(state.hand(seat)) + list(state.face_up(seat)))
        lines.append(f"swap: choose which {cpz} of your cards ({cards_face(pool)}) lie face up; the rest form "
                     "your hand. The face-up cards are played once the hand and the draw pile are gone")
        ranks = _ranks_of(rules)
        wild = [r for r in ranks if r in rules.wild]
        if wild:
            lines.append(f"wild (playable on anything): {_faces(wild)}")
        burn = _burn_line(state)
        if burn:
            lines.append(burn)
        if cp != seat:
            lines.append(f"seat {cp} decides now")
        return lines
    lines.append(top_rule(state))
    burn = _burn_line(state)
    run_rank, run_len = state.top_run()
    held = {c.rank for c in state.hand(seat) or state.face_up(seat)}
    if burn and (run_len >= 2 or held & set(rules.burn) or cp != seat):
        lines.append(burn)  # when it matters: a run on top, or a burn card held
    if cp != seat:
        lines.append(f"seat {cp} is to move")
        return lines
    moves = state.legal_moves()
    plays = [m for m in moves if m.kind == "play"]
    top = state.effective_top()
    hand, up = state.hand(seat), state.face_up(seat)
    if hand:
        source, cards = "hand", hand
    elif up:
        source, cards = "face-up cards", up
        lines.append("your hand is empty and so is the draw pile: you play from your face-up cards "
                     "(equal ones together if you like)")
    else:
        source, cards = "", []
        slots = [k for k, c in enumerate(state.face_down(seat)) if c is not None]
        lines.append(f"your hand and face-up cards are gone: turn over a face-down card (blind "
                     f"{', '.join(map(str, slots))}); if it may go on the pile it is played, else you pick up "
                     "the pile with it")
    if cards:
        held = sorted({c.rank for c in cards}, key=_value)
        can = [r for r in held if state.is_playable(r)]
        cannot = [r for r in held if r not in can]
        if can:
            marks = [rank_face(r) + (" (wild)" if r in rules.wild else "") for r in can]
            lines.append(f"playable from your {source}: {', '.join(marks)}")
        if top is not None:
            if cannot:
                lines.append(_why_not(state, cannot, top))
        if any(m.source == "hand+face_up" for m in plays):
            r = next(m.rank for m in plays if m.source == "hand+face_up")
            lines.append(f"your hand holds only {rank_name(r, True)} and the draw pile is empty: you may add "
                         f"your face-up {rank_name(r, True)} to the play (hand+up)")
        n_pile = len(state.pile())
        then = ("then you play again on the empty pile" if rules.pickup_then_play
                else "and the turn passes to the next player")
        if not plays and any(m.kind == "pickup" for m in moves):
            on = f"on {a_rank(top)}" if top else "now"
            lines.append(f"none of your {source} ({cards_face(cards)}) can be played {on}: you must pick up the "
                         f"pile ({_cards_count(n_pile)}), {then}")
        elif plays and n_pile:
            lines.append("you may pick up the pile only when you cannot play")
    return lines


#: Where the rules' full text is, for a reader of an installed wheel as well as of the source.
SPEC = ("the full rules (cited above as \"the rules, section N\"): the Rules pages of the docs site, or "
        "docs/shithead/RULES.md in the source")

_SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def _plural(ranks: Sequence[str]) -> str:
    return _list([rank_name(r, True) for r in ranks])


def _rule_words(rules: Any, name: str) -> str:
    """What the value of one rule of ``rules`` means at the table, in words (the rules, section 3)."""
    v = getattr(rules, name)
    lower = list(rules.lower)
    after = _list([a_rank(r) for r in lower], "or")
    if name == "decks":
        return "one 52-card deck" if v == 1 else f"{_number(v)} 52-card decks shuffled together"
    if name == "jokers":
        if not v:
            return "no jokers"
        return f"{_number(v)} joker{'s' if v != 1 else ''} per deck ({rules.jokers * rules.decks} in all)"
    if name == "cards_per_zone":
        return (f"each player is dealt {v} cards face down, {v} face up and {v} in hand; while the draw pile "
                f"lasts, a hand is refilled to {v} after each play")
    if name == "wild":
        if not v:
            return "no card is wild"
        return f"{_plural(v)} are wild: playable on anything"
    if name == "lower":
        if not v:
            return "no card makes the next go lower: each card must be followed by an equal or higher one, or a " \
                   "wild card"
        need = "lower than it" if rules.lower_strict else "equal or lower"
        return f"after {after} the next card must be {need} (or a wild card), not higher"
    if name == "lower_strict":
        if not lower:
            return "no effect: no rank is in lower"
        one = a_rank(lower[0]) if len(lower) == 1 else "one of them"
        if v:
            return f"after {after} the next card must be strictly lower: {one} may not follow it"
        return f"after {after} the next card may be equal or lower: {one} may follow it"
    if name == "invisible":
        if not v:
            return "no card is invisible: every card sets the pile's value"
        return (f"{_plural(v)} are invisible: the next card is "
                "played as if on the card beneath (on an empty pile, the pile stays open)")
    if name == "burn":
        if not v:
            return "no card burns the pile"
        return f"{_plural(v)} burn the pile when played: its cards leave the game"
    if name == "run_to_burn":
        if not v:
            return "off: no run of one rank burns the pile"
        return f"{_number(v)} cards of one rank in a row on top of the pile burn it, across several players' plays"
    if name == "invisible_in_runs":
        if v == "skip":
            text = ("invisible cards are left out when counting a run of one rank: they neither end nor extend "
                    "it, and never form a run of their own")
        else:
            text = ("invisible cards count as their own rank in a run: one ends the run beneath it, and they can "
                    "form a run of their own")
        if not rules.run_to_burn or not rules.invisible:
            text += " (no effect here: " + ("run_to_burn is off)" if not rules.run_to_burn else "no card is invisible)")
        return text
    if name == "burner_plays_again":
        return ("the player who burns the pile plays again, on the empty pile" if v
                else "after a burn the turn passes to the next player")
    if name == "pickup_then_play":
        return ("after picking up the pile the same player plays again, on the empty pile" if v
                else "picking up the pile ends the turn: the next player plays")
    if name == "merge_hand_with_face_up":
        if v:
            return ("when the draw pile is empty and every card left in your hand has one rank, you may play them "
                    "together with your face-up cards of that rank")
        return "a play never mixes cards from the hand with face-up cards"
    if name == "start":
        if v == "rank-suit":
            return ("the holder of the first card in the order of start_ranks, then of start_suits within a rank, "
                    "plays first (the rules, section 5)")
        return ("counting clockwise from the seat after the dealer, the first player holding a card of the first "
                "rank of start_ranks plays first (the rules, section 5)")
    if name == "start_ranks":
        return "the ranks searched for the player who starts, first to last (only cards in hand count)"
    if name == "start_suits":
        if not v:
            return "no suit order: " + ("suits play no part in who starts" if rules.start != "rank-suit"
                                        else "the suits come in the order c d h s")
        text = f"within a rank, {_SUIT_NAMES[v[0]]} come first" + (
            f", then {_list([_SUIT_NAMES[x] for x in v[1:]])}" if len(v) > 1 else "")
        return text + (" (not used: start is rank-from-dealer)" if rules.start != "rank-suit" else "")
    if name == "repetition_limit":
        if not v:
            return "off: no game ends by repetition (a game that runs too long is cut at the move cap; the rules, " \
                   "section 7)"
        return (f"a game ends as a stalemate when the same position occurs for the {_place(v - 1)} time "
                "(the rules, section 7)")
    return name  # pragma: no cover - a field added to Rules without words here


def rule_value_text(rules: Any, name: str) -> str:
    """The value of one rule as the rules list shows it: ranks as faces (``10``, ``JK``), ``yes``/``no``,
    ``none`` for an empty set."""
    v = getattr(rules, name)
    if isinstance(v, tuple):
        return " ".join(rank_face(x) if len(x) == 1 and x in RANKS else x for x in v) or "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def rules_text(state: Any) -> List[str]:
    """The rules of a table (a State, a Game or a Rules) in words, one line
    per rule: the preset's name (or "custom", house rules), the deck and the
    seats, then every field of ``threes.Rules`` as ``name = value: what
    that value means here``, and last where the full rules are (:data:`SPEC`)."""
    from threes.shithead.rules import FIELDS

    rules = getattr(state, "rules", state)
    lines = [f"rules: {rules.name}" + ("" if rules.name != "custom" else " (house rules)")
             + f"; deck: {rules.deck_size()} cards; 2 to {rules.max_players()} players"]
    for name in FIELDS:
        lines.append(f"{name} = {rule_value_text(rules, name)}: {_rule_words(rules, name)}")
    lines.append(SPEC)
    return lines
