"""Events of Three Thirteen moves (threes.events; src/threes_core/three_thirteen/events.c), apply by notation,
legal_moves and undo.

Random games with several option sets: every event agrees with the state before and after the move, and the
observer view hides exactly what THREE_THIRTEEN.md ("What each player knows") hides: the card drawn from the
stock is its taker's alone; a take from the discard pile, discards, the melds of a player going out and every
hand at a round's scoring are public."""
import collections
import random

import pytest

from threes import Card
from threes import three_thirteen as tt
from threes.events import Event
from threes.errors import IllegalActionError

OPTION_SETS = [dict(), dict(jokers=2), dict(ace="either", wild_penalty=20), dict(go_out_first_turn=False)]


def kinds(events):
    return [e.kind for e in events]


def greedy_or_random(state, rng):
    """Mostly greedy moves (so rounds end by going out), sometimes random ones (so reshuffles happen)."""
    moves = state.legal_actions()
    outs = [a for a in moves if state.action_to_string(a).startswith("out")]
    if outs and rng.random() < 0.9:
        return rng.choice(outs)
    return rng.choice(moves)


def check_move(before, after, action, events):
    p = before.current_player()
    move = before.decode_action(action)
    ks = kinds(events)
    if move.kind == "stock":
        empty = before.stock_size() == 0 and len(before.discard_pile()) <= 1
        if not empty:
            draw = next(e for e in events if e.kind == "draw")
            assert draw.source == "stock" and draw.private and draw.count == 1 and draw.seat == p
            if "round_end" not in ks:
                assert collections.Counter(after.hand(p)) - collections.Counter(before.hand(p)) == \
                    collections.Counter(draw.cards)
        if before.stock_size() == 0 and len(before.discard_pile()) > 1:
            assert ks[0] == "reshuffle" and events[0].count == len(before.discard_pile()) - 1
            assert events[0].cards == ()
    elif move.kind == "take":
        assert ks == ["draw"]
        assert events[0].source == "discard" and not events[0].private
        assert events[0].cards == (before.discard_pile()[-1],) == (move.card,)
    else:
        if move.kind == "out":
            go = events[0]
            assert go.kind == "go_out" and go.seat == p
            assert sum(len(cs) for _, cs in go.melds) == len(go.cards)  # the whole hand melded
            hand = collections.Counter(before.hand(p))
            hand[move.card] -= 1
            assert collections.Counter(go.cards) == +hand
            assert ks[1] == "discard"
        else:
            assert ks[0] == "discard"
        d = next(e for e in events if e.kind == "discard")
        assert d.cards == (move.card,) and d.seat == p
        if move.kind == "out" and before.observation(p).out_seat is None:
            lt = next(e for e in events if e.kind == "last_turns")
            assert lt.seat == p and lt.value == before.num_players() - 1
    if "round_end" in ks:
        r = before.round()
        end = events[ks.index("round_end")]
        assert end.value == r
        scores = [e for e in events if e.kind == "score"]
        assert [e.seat for e in scores] == list(range(before.num_players()))
        assert [e.value for e in scores] == after.round_scores()[r - 1]
        for e in scores:
            melded = sum(len(cs) for _, cs in e.melds)
            assert melded <= len(e.cards)
            if e.detail == "out":
                assert e.value == 0
            if e.seat != p:
                assert collections.Counter(e.cards) == collections.Counter(before.hand(e.seat))
        if not after.is_terminal() or after.round() != r:
            new = events[ks.index("round")]
            assert new.value == r + 1 == after.round() and new.seat == after.observation(0).dealer
            assert new.cards == (after.discard_pile()[0],)
    else:
        assert "score" not in ks and "round" not in ks
    assert ("over" in ks) == after.is_terminal()
    assert ("truncated" in ks) == after.is_truncated()
    for e in events:
        assert e.private == (e.kind == "draw" and e.source == "stock")
        for q in [None, *range(before.num_players())]:
            v = e.view(q)
            if e.private and q != e.seat:
                assert v.cards == () and v.count == e.count and v.hidden
                # what q can know agrees: the drawn card is not in its observation of p's known cards
                if q is not None and "round_end" not in ks:
                    assert not (collections.Counter(after.observation(q).known[p])
                                - collections.Counter(before.observation(q).known[p]))
            else:
                assert v == e
        assert Event.from_dict(e.to_dict()) == e


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
@pytest.mark.parametrize("players", [2, 4])
def test_random_games_events_agree_with_the_state(options, players):
    seen = collections.Counter()
    for seed in range(3):
        s = tt.Game(players, **options).new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            before = s.clone()
            a = greedy_or_random(s, rng)
            ev = s.apply(a)
            check_move(before, s, a, ev)
            seen.update(kinds(ev))
            twin = before.clone()
            twin.apply_action(a)
            assert twin == s
    for k in ("draw", "discard", "go_out", "last_turns", "round_end", "score", "round", "over"):
        assert seen[k], f"no {k} event in these games"


def test_reshuffle_event():
    for seed in range(50):
        s = tt.Game(2).new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal() and s.move_number() < 3000:
            before = s.clone()
            a = rng.choice(s.legal_actions())
            ev = s.apply(a)
            if ev and ev[0].kind == "reshuffle":
                check_move(before, s, a, ev)
                return
    pytest.fail("no reshuffle in 50 random games")


def test_legal_moves_text_and_notation():
    s = tt.Game(2).new_initial_state(seed=1)
    moves = s.legal_moves()
    assert [str(m) for m in moves] == ["stock", "take"]
    top = s.discard_pile()[-1]
    assert moves[1].card == top and moves[1].text == f"take {top} from the discard pile"
    assert moves[0].text == "draw from the stock"
    s.apply("take")
    for m in s.legal_moves():
        assert s.string_to_action(str(m)) == s.encode_move(m)
        assert m.kind in ("discard", "out") and str(m.card) in m.text


def test_apply_forms_agree_and_illegal_changes_nothing():
    base = tt.Game(3).new_initial_state(seed=4)
    a, b, c = base.clone(), base.clone(), base.clone()
    assert a.apply("stock") == b.apply(tt.Move("stock")) == c.apply(0)
    assert a == b == c
    before = a.to_dict()
    with pytest.raises(IllegalActionError):
        a.apply("take")  # in the discard phase
    with pytest.raises(ValueError):
        a.apply("draw twice")
    with pytest.raises(TypeError):
        a.apply(None)
    assert a.to_dict() == before


def test_undo_restores_the_exact_state_chance_included():
    s = tt.Game(3).new_initial_state(seed=9)
    rng = random.Random(2)
    states, actions = [], []
    while not s.is_terminal() and len(states) < 600:
        states.append((s.clone(), s.to_dict()))
        actions.append(greedy_or_random(s, rng))
        s.apply(actions[-1])
    end = s.clone()
    assert s.undo_depth() == len(states)
    for st, d in reversed(states):
        s.undo()
        assert s == st and s.to_dict() == d
    with pytest.raises(ValueError, match="nothing to undo"):
        s.undo()
    # the chance generator came back too: the same moves deal the same rounds again
    for a in actions:
        s.apply(a)
    assert s == end and s.to_dict() == end.to_dict()


def built(hands, discard, seed=1, **options):
    """A round-1 position of a 2-player game (wild 3s): the given hands and discard pile, the rest of the deck
    in the stock, seat 0 to draw."""
    d = tt.Game(2, **options).new_initial_state(seed=seed).to_dict()
    full = collections.Counter(r + s for r in "A23456789TJQK" for s in "cdhs")
    used = collections.Counter(c for h in hands for c in h.split()) + collections.Counter(discard.split())
    assert not used - full
    d.update(hands=[h.split() for h in hands], discard=discard.split(), stock=sorted((full - used).elements()),
             current=0, dealer=1, turns=[1, 0], phase=0)
    return tt.State.from_dict(d)


def test_built_take_go_out_last_turn_and_round_scored():
    s = built(["4h 5h 6h", "Kc Kd 9s"], "2c 7h")
    ev = s.apply("take")
    assert [(e.kind, e.source, e.cards) for e in ev] == [("draw", "discard", (Card("7h"),))]
    ev = s.apply("out 4h")
    assert kinds(ev) == ["go_out", "discard", "last_turns"]
    assert ev[0].melds == (("run", tuple(Card(c) for c in "5h 6h 7h".split())),)
    assert ev[1].cards == (Card("4h"),) and ev[2].value == 1
    ev = s.apply("stock")
    drawn = ev[0]
    assert drawn.kind == "draw" and drawn.private and drawn.view(0).cards == () and len(drawn.view(1).cards) == 1
    ev = s.apply("discard 9s")
    assert kinds(ev) == ["discard", "round_end", "score", "score", "round"]
    end, out, other, new = ev[1], ev[2], ev[3], ev[4]
    assert end.value == 1 and end.detail == "went_out"
    assert (out.seat, out.value, out.detail) == (0, 0, "out")
    hand = sorted([Card("Kc"), Card("Kd"), drawn.cards[0]])
    assert other.seat == 1 and sorted(other.cards) == hand and other.value == s.round_scores()[0][1]
    assert new.value == 2 and s.round() == 2


def test_built_taken_card_cannot_be_discarded_and_undo_takes_back_the_take():
    s = built(["4h 5h 6h", "Kc Kd 9s"], "2c 7h")
    before = s.clone()
    s.apply("take")
    assert "discard 7h" not in [str(m) for m in s.legal_moves()]    # T-2
    with pytest.raises(IllegalActionError):
        s.apply("discard 7h")
    s.undo()
    assert s == before
