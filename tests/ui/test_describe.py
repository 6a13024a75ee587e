"""The words of both games (threes.shithead.describe, threes.three_thirteen.describe): describe_event for
every kind of threes.events' tables (built by hand, and from real games), the observer's view (a private
card is named to its owner only), describe_events' joined sentences, explain_moves on built positions under
several rule sets (its words follow the state's rules and the engine's answers), rules_text, and the
registry hooks that find them."""
from __future__ import annotations

import collections
import random
import re

import pytest

import threes
from threes import registry
from threes import three_thirteen as tt
from threes.bots import PolicyBot
from threes.cards import Card, parse_cards
from threes.events import Event
from threes.shithead import describe as sh
from threes.shithead.rules import FIELDS, Rules
from threes.three_thirteen import describe as ttd

SUITS = "\u2663\u2666\u2665\u2660\u2605"


def cards(text):
    return tuple(parse_cards(text))


def kinds_of_table(title: str):
    """The event kinds of one of threes.events' docstring tables ("Shithead kinds:", "Three Thirteen kinds:")."""
    doc = threes.events.__doc__
    lines = doc[doc.index(title):].splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("==========")]
    body = lines[rules[1] + 1:rules[2]]  # between the header's rule and the table's last one
    return [line.split()[0] for line in body if line.strip() and not line.startswith(" ")]


# ------------------------------------------------------------- the hooks --
def test_the_registry_hooks_find_the_describe_functions():
    for name, mod in (("shithead", sh), ("three_thirteen", ttd)):
        info = registry.get(name)
        assert info.hook("narrate") is mod.describe_event
        assert info.hook("narrate_all") is mod.describe_events
        assert info.hook("explain") is mod.explain_moves
        assert info.hook("rules_text") is mod.rules_text


def test_the_event_tables_list_the_kinds_both_describe_modules_cover():
    sh_kinds = kinds_of_table("Shithead kinds:")
    tt_kinds = kinds_of_table("Three Thirteen kinds:")
    assert sh_kinds == ["swap", "start", "play", "blind", "burn", "draw", "pickup", "again", "out", "stalemate",
                        "truncated", "over"]
    assert "go_out" in tt_kinds and "last_turns" in tt_kinds and "score" in tt_kinds
    for mod, kinds in ((sh, sh_kinds), (ttd, tt_kinds)):
        for kind in kinds:
            e = Event(kind, seat=1, cards=cards("4c"), count=1, value=2, source="stock" if mod is ttd else "hand")
            text = mod.describe_event(e, viewer=0)
            assert text not in (kind, f"seat 1 {kind}"), (mod.__name__, kind)  # not the fallback
            assert text and text == text.strip()


# ---------------------------------------------------- Shithead: each kind --
@pytest.mark.parametrize("event, viewer, names, expected", [
    (Event("swap", 0, cards("4c 8d Js"), 3), 0, None, "you keep face up: 4\u2663 8\u2666 J\u2660"),
    (Event("swap", 0, cards("4c 8d Js"), 3), 1, None, "seat 0 keeps face up: 4\u2663 8\u2666 J\u2660"),
    (Event("swap", 2, cards("Tc Td Xr"), 3), 0, ["you", "a", "bot-2 (greedy)"],
     "bot-2 (greedy) keeps face up: 10\u2663 10\u2666 JK\u2605"),
    (Event("start", 1), None, None, "seat 1 plays first"),
    (Event("start", 1), 1, None, "you play first"),
    (Event("play", 2, cards("4c 4d"), 2, source="hand"), 0, None, "seat 2 plays 4\u2663 4\u2666"),
    (Event("play", 0, cards("9h"), 1, source="face_up"), 0, None, "you play 9\u2665 from face up"),
    (Event("play", 0, cards("7h 7s"), 2, source="hand+face_up"), 0, None,
     "you play 7\u2665 7\u2660 from hand and face up"),
    (Event("blind", 1, cards("4d"), 1, source="face_down", detail="played"), 0, None,
     "seat 1 turns over 4\u2666 from face down and plays it"),
    (Event("blind", 1, cards("4d"), 1, source="face_down", detail="picked_up"), 0, None,
     "seat 1 turns over 4\u2666 from face down: it cannot be played"),
    (Event("burn", 0, cards("3c 5d Td"), 3, detail="burn_card"), 0, None, "the pile burns (3 cards)"),
    (Event("burn", 0, cards("7c 7d 7h 7s"), 4, detail="run"), 0, None,
     "a run of one rank burns the pile (4 cards)"),
    (Event("draw", 0, cards("5c 9d"), 2, private=True), 0, None, "you draw 5\u2663 9\u2666"),
    (Event("draw", 0, cards("5c 9d"), 2, private=True), 1, None, "seat 0 draws 2 cards"),
    (Event("draw", 0, cards("5c"), 1, private=True), None, None, "seat 0 draws 1 card"),
    (Event("pickup", 1, cards("9c Ah 8h"), 3), 0, None, "seat 1 picks up the pile (3 cards: 9\u2663 A\u2665 8\u2665)"),
    (Event("again", 2), 2, None, "you play again"),
    (Event("again", 2), 0, ["you", "x", "seat 2 (heuristic)"], "seat 2 (heuristic) plays again"),
    (Event("out", 2, value=2), 0, None, "seat 2 is out (2nd)"),
    (Event("out", 0, value=1), 0, None, "you are out (1st)"),
    (Event("out", 3, value=4, detail="last"), 0, None, "seat 3 is the shithead"),
    (Event("out", 0, value=4, detail="last"), 0, None, "you are the shithead"),
    (Event("over"), 0, None, "the game is over"),
])
def test_shithead_describe_event(event, viewer, names, expected):
    assert sh.describe_event(event, viewer, names) == expected


def test_shithead_stalemate_and_truncation_are_told():
    assert "stalemate" in sh.describe_event(Event("stalemate"))
    assert "move cap" in sh.describe_event(Event("truncated"))


def test_a_long_pickup_names_twelve_cards_and_counts_the_rest():
    pile = cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d 3d")
    text = sh.describe_event(Event("pickup", 0, pile, len(pile)), viewer=0)
    assert text.startswith("you pick up the pile (15 cards: 2\u2663 ")
    assert text.endswith("K\u2663 and 3 more)")


def test_describe_events_joins_a_burn_with_playing_again():
    burn = [Event("play", 0, cards("Td"), 1, source="hand"), Event("burn", 0, cards("3c 5d Td"), 3,
                                                                        detail="burn_card"),
            Event("draw", 0, cards("3d"), 1, private=True), Event("again", 0)]
    assert sh.describe_events(burn, viewer=0) == ["you play 10\u2666", "a 10 burns the pile (3 cards): you play again",
                                                  "you draw 3\u2666"]
    assert sh.describe_events(burn, viewer=1) == ["seat 0 plays 10\u2666",
                                                  "a 10 burns the pile (3 cards): seat 0 plays again",
                                                  "seat 0 draws 1 card"]
    run = [Event("play", 2, cards("9c 9d 9h"), 3, source="hand"),
           Event("burn", 2, cards("8d 9c 9d 9d 9h"), 5, detail="run"), Event("again", 2)]
    assert sh.describe_events(run, 0)[1] == "a run of 9s burns the pile (5 cards): seat 2 plays again"
    # the run's length when the event carries it
    counted = [run[0], Event("burn", 2, run[1].cards, 5, detail="run", value=4), run[2]]
    assert sh.describe_events(counted, 0)[1] == "four 9s in a row burn the pile (5 cards): seat 2 plays again"


def test_describe_events_tells_a_failed_blind_card_and_the_pickup_as_one():
    failed = [Event("blind", 1, cards("4d"), 1, source="face_down", detail="picked_up"),
              Event("pickup", 1, cards("9c Kh Ah 4d"), 4), Event("again", 1)]
    assert sh.describe_events(failed, 0, ["you", "seat 1 (greedy)"]) == [
        "seat 1 (greedy) turns over 4\u2666 from face down: it cannot be played, so seat 1 (greedy) picks up the "
        "pile (4 cards: 9\u2663 K\u2665 A\u2665 4\u2666); seat 1 (greedy) plays again"]


def _random_events(game, seed: int, moves: int = 4000):
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal() and moves:
        yield state.apply(rng.choice(state.legal_actions()), undo=False)
        moves -= 1


@pytest.mark.parametrize("game", [threes.Game(3), threes.Game(4, "classic"), threes.Game(2, "dutch")],
                         ids=["threes", "classic", "dutch"])
def test_shithead_real_events_are_told_and_private_cards_stay_private(game):
    met = collections.Counter()
    for seed in range(4):
        for events in _random_events(game, seed):
            for viewer in (None, *range(game.num_players())):
                said = sh.describe_events(events, viewer)
                assert said and all(isinstance(x, str) and x for x in said)
            for e in events:
                met[e.kind] += 1
                for viewer in (None, *range(game.num_players())):
                    text = sh.describe_event(e, viewer)
                    if e.private and viewer != e.seat:
                        assert not any(s in text for s in SUITS), (e, viewer, text)  # no card named
                    elif e.kind == "draw":
                        assert all(sh.card_face(c) in text for c in e.cards)
    assert {"swap", "start", "play", "burn", "draw", "pickup", "again", "out", "over"} <= set(met), met


# ------------------------------------------------- Three Thirteen: each kind --
@pytest.mark.parametrize("event, viewer, expected", [
    (Event("draw", 1, cards("7h"), 1, source="stock", private=True), 1, "you draw 7\u2665 from the stock"),
    (Event("draw", 1, cards("7h"), 1, source="stock", private=True), 0, "seat 1 draws from the stock"),
    (Event("draw", 1, cards("7h"), 1, source="stock", private=True), None, "seat 1 draws from the stock"),
    (Event("draw", 2, cards("9s"), 1, source="discard"), 0, "seat 2 takes 9\u2660 from the discard pile"),
    (Event("draw", 0, cards("9s"), 1, source="discard"), 0, "you take 9\u2660 from the discard pile"),
    (Event("reshuffle", count=12), 0,
     "the stock is empty: the discard pile but its top card (12 cards) is shuffled into a new stock"),
    (Event("discard", 1, cards("Jh"), 1), 0, "seat 1 discards J\u2665"),
    (Event("go_out", 1, cards("Ts Ts 3s 4c 5c 6c"), 6, melds=(("set", cards("Ts Ts 3s")), ("run", cards("4c 5c 6c")))),
     0, "seat 1 goes out with set 10\u2660 10\u2660 3\u2660 \u00b7 run 4\u2663 5\u2663 6\u2663"),
    (Event("go_out", 0, cards("Ts Ts 3s"), 3, melds=(("set", cards("Ts Ts 3s")),)), 0,
     "you go out with set 10\u2660 10\u2660 3\u2660"),
    (Event("last_turns", 1, value=2), 0, "last turn: everyone but seat 1 plays one more turn (2 turns)"),
    (Event("last_turns", 0, value=1), 0, "last turn: everyone but you plays one more turn (1 turn)"),
    (Event("round_end", value=3, detail="went_out"), 0, "round 3 is over"),
    (Event("round_end", value=5, detail="stock_empty"), 0, "round 5 is over: the stock ran out"),
    (Event("score", 2, cards("3c 4c 3h 9d Kc"), 5, melds=(("run", cards("3c 4c 3h")),), value=19), 0,
     "seat 2 scores 19: run 3\u2663 4\u2663 3\u2665; left over 9\u2666 K\u2663"),
    (Event("score", 0, cards("Ts Ts 3s"), 3, melds=(("set", cards("Ts Ts 3s")),), value=0, detail="out"), 0,
     "you score 0 (went out): set 10\u2660 10\u2660 3\u2660"),
    (Event("round", 2, cards("8h"), 1, value=4), 0,
     "round 4: 6 cards each, 6s wild; seat 2 deals; the discard pile starts with 8\u2665"),
    (Event("round", 0, cards("Kc"), 1, value=11), 0,
     "round 11: 13 cards each, Kings wild; you deal; the discard pile starts with K\u2663"),
    (Event("over"), 0, "the game is over"),
])
def test_three_thirteen_describe_event(event, viewer, expected):
    assert ttd.describe_event(event, viewer) == expected


def test_three_thirteen_truncation_is_told_and_names_label_seats():
    assert "move cap" in ttd.describe_event(Event("truncated"))
    e = Event("discard", 1, cards("Jh"), 1)
    assert ttd.describe_event(e, 0, ["you", "seat 1 (greedy)"]) == "seat 1 (greedy) discards J\u2665"


def test_three_thirteen_describe_events_labels_the_round_scores():
    names = ["you", "seat 1 (greedy)", "seat 2 (random)"]
    events = [Event("discard", 2, cards("8c"), 1), Event("round_end", value=3, detail="went_out"),
              Event("score", 0, cards("Qc Qc Qs"), 3, melds=(("set", cards("Qc Qc Qs")),), value=0, detail="out"),
              Event("score", 1, cards("2c 2h"), 2, value=4), Event("score", 2, cards("Ac Ad"), 2, value=2),
              Event("round", 0, cards("Kc"), 1, value=4)]
    said = ttd.describe_events(events, 0, names)
    assert said[0] == "seat 2 (random) discards 8\u2663"
    assert said[1] == "round 3 is over"
    assert "round 3 scores: you 0, seat 1 (greedy) 4, seat 2 (random) 2" in said
    assert said.index("round 3 scores: you 0, seat 1 (greedy) 4, seat 2 (random) 2") == 5
    assert said[-1].startswith("round 4: 6 cards each")
    out = [Event("go_out", 1, cards("Ts Ts 3s"), 3, melds=(("set", cards("Ts Ts 3s")),)),
           Event("discard", 1, cards("6h"), 1), Event("last_turns", 1, value=2)]
    assert ttd.describe_events(out, 0) == ["seat 1 goes out with set 10\u2660 10\u2660 3\u2660, discarding 6\u2665",
                                           "last turn: everyone but seat 1 plays one more turn (2 turns)"]


def test_three_thirteen_real_events_are_told_and_stock_draws_stay_private():
    met = collections.Counter()
    game = tt.Game(3, jokers=1)
    for seed in range(3):
        state = game.new_initial_state(seed)
        bot = PolicyBot("greedy", seed=seed)
        while not state.is_terminal():
            events = state.apply(bot.step(state), undo=False)
            for e in events:
                met[e.kind] += 1
                for viewer in (None, 0, 1, 2):
                    text = ttd.describe_event(e, viewer)
                    if e.private and viewer != e.seat:
                        assert not any(s in text for s in SUITS), (e, viewer, text)
            said = ttd.describe_events(events, 1)
            assert all(isinstance(x, str) and x for x in said)
    assert {"draw", "discard", "go_out", "last_turns", "round_end", "score", "round", "over"} <= set(met), met


# ------------------------------------------------------ Shithead: explain --
def full_deck(rules):
    out = []
    for _ in range(rules.decks):
        out += [r + s for r in "23456789TJQKA" for s in "cdhs"] + ["Xr", "Xb"][: rules.jokers]
    return out


def build(rules="threes", n=2, *, hands=None, up=None, down=None, pile=(), draw=(), current=0, phase="play"):
    """A position from the zones given; every other card of the deck is burned (as tests/shithead/
    test_scenarios.py builds them)."""
    rules = Rules.preset(rules) if isinstance(rules, str) else rules
    hands = [list(h) for h in (hands or [[] for _ in range(n)])]
    up = [list(u) for u in (up or [[] for _ in range(n)])]
    down = [list(d) for d in (down or [[] for _ in range(n)])]
    placed = [c for zone in (hands, up, down) for seat in zone for c in seat] + list(pile) + list(draw)
    rest = collections.Counter(full_deck(rules)) - collections.Counter(placed)
    return threes.State.from_dict({
        "rules": rules.to_dict(), "num_players": n, "phase": phase, "current_player": current,
        "hands": hands, "face_up": up, "face_down": down, "pile": list(pile), "draw_pile": list(draw),
        "burned": sorted(rest.elements())})


def test_explain_threes_a_ten_on_a_king_and_the_only_move_pickup():
    s = build("threes", hands=[["Td", "Qh"], ["5c"]], up=[["4c"], ["6c"]], pile=["9c", "Kh"])
    assert [str(m) for m in s.legal_moves()] == ["pickup"]
    said = sh.explain_moves(s, 0)
    assert said[0] == "K on top: play K or higher (K A), or a wild 2/8/JK"
    why = next(x for x in said if "can't be played" in x)
    assert why.startswith("a 10 or a Queen can't be played on a King here: they are lower than a King")
    assert "none of them is wild in threes rules (wild: 2 8 JK)" in why
    assert "10s burn the pile only when they may be played" in why
    assert said[-1] == ("none of your hand (10\u2666 Q\u2665) can be played on a King: you must pick up the pile "
                        "(2 cards), then you play again on the empty pile")


def test_explain_classic_a_ten_is_wild_and_a_pickup_ends_the_turn():
    s = build("classic", hands=[["Td", "5h"], ["5c"]], pile=["Kh"])
    said = sh.explain_moves(s, 0)
    assert said[0] == "K on top: play K or higher (K A), or a wild 2/3/10"
    assert "playable from your hand: 10 (wild)" in said
    assert any(x.startswith("a 5 can't be played on a King here") for x in said)
    stuck = build("classic", hands=[["5h", "6h"], ["5c"]], pile=["Kh"])
    assert sh.explain_moves(stuck, 0)[-1].endswith("you must pick up the pile (1 card), and the turn passes to "
                                                   "the next player")


def test_explain_dutch_seven_is_strictly_lower():
    s = build("dutch", hands=[["7d", "6h", "9s"], ["5c"]], pile=["7h"])
    said = sh.explain_moves(s, 0)
    assert said[0].startswith("7 on top: play lower than 7 (3 4 5 6), or a wild 2")
    why = next(x for x in said if "can't be played" in x)
    assert why.startswith("a 7 or a 9 can't be played on a 7 here: after a 7 the next card must be lower than 7")
    assert "playable from your hand: 6" in said


def test_explain_threes_seven_and_the_invisible_eight():
    s = build("threes", hands=[["9c", "5d"], ["5c"]], pile=["7h", "8c", "8d"])
    said = sh.explain_moves(s, 0)
    assert said[0] == "7 on top (under the invisible 8s): play 7 or lower (3 4 5 6 7), or a wild 2/8/JK"
    assert any(x.startswith("a 9 can't be played on a 7 here: after a 7 the next card must be 7 or lower")
               for x in said)
    only8 = build("threes", hands=[["9c"], ["5c"]], pile=["8c"])
    assert sh.explain_moves(only8, 0)[0] == "only invisible 8s on the pile: it counts as open, play any card"
    empty = build("threes", hands=[["9c"], ["5c"]])
    assert sh.explain_moves(empty, 0)[0] == "the pile is empty: play any card"


def test_explain_follows_house_rules():
    rules = Rules.preset("threes", wild=["2"], lower=[], pickup_then_play=False)
    s = build(rules, hands=[["8d", "Qs"], ["5c"]], pile=["Kh"])
    said = sh.explain_moves(s, 0)
    assert said[0] == "K on top: play K or higher (K A JK), or a wild 2"  # a joker that is not wild is high
    assert any("8s" in x or "an 8" in x for x in said if "can't be played" in x)
    assert any("in these house rules (wild: 2)" in x for x in said)
    assert said[-1].endswith("and the turn passes to the next player")


@pytest.mark.parametrize("preset", ["threes", "classic", "dutch"])
def test_the_rule_line_lists_exactly_the_ranks_the_engine_allows(preset):
    rules = Rules.preset(preset)
    show = {"T": "10", "X": "JK"}
    ranks = "23456789TJQKA" + ("X" if rules.jokers else "")
    for top in "23456789JQKA":
        if top in rules.invisible:
            continue
        s = build(preset, hands=[["5c"], ["5d"]], pile=[top + "h"])
        line = sh.explain_moves(s, 0)[0]
        natural = [show.get(r, r) for r in ranks if s.is_playable(r) and r not in rules.wild]
        wild = [show.get(r, r) for r in ranks if r in rules.wild]
        if natural:
            assert f"({' '.join(natural)})" in line, (top, line)
        assert line.endswith("or a wild " + "/".join(wild)), (top, line)
        lower = top in rules.lower
        assert ("or lower" in line or "lower than" in line) == lower, line
        assert ("or higher" in line) == (not lower), line


def test_explain_face_up_and_face_down_sources():
    s = build("threes", hands=[[], ["5c"]], up=[["9c", "4d"], []], pile=["7h"])
    said = sh.explain_moves(s, 0)
    assert any("you play from your face-up cards" in x for x in said)
    assert "playable from your face-up cards: 4" in said
    blind = build("threes", hands=[[], ["5c"]], down=[["9c", None, "4d"], []], pile=["7h"])
    said = sh.explain_moves(blind, 0)
    assert any(x.startswith("your hand and face-up cards are gone: turn over a face-down card (blind 0, 2)")
               for x in said)


def test_explain_merge_with_face_up():
    rules = Rules.preset("threes", merge_hand_with_face_up=True)
    s = build(rules, hands=[["7c"], ["5c"]], up=[["7d", "Kc"], []], pile=["5h"])
    assert any(m.source == "hand+face_up" for m in s.legal_moves())
    assert any("you may add your face-up 7s to the play (hand+up)" in x for x in sh.explain_moves(s, 0))


def test_explain_swap_phase_and_game_over():
    s = threes.Game(3).new_initial_state(2)
    said = sh.explain_moves(s, 0)
    assert said[0].startswith("swap: choose which 3 of your cards (")
    assert "wild (playable on anything): 2 8 JK" in said
    rng = random.Random(1)
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
    assert sh.explain_moves(s, 0) == []


def test_shithead_rules_text_lists_every_field():
    rules = Rules.preset("classic", pickup_then_play=True)
    lines = sh.rules_text(threes.Game(3, rules).new_initial_state(1))
    assert lines[0].startswith("rules: custom (house rules); deck: 52 cards")
    assert [x.split(" = ")[0] for x in lines[1:-1]] == list(FIELDS)
    assert "wild = 2 3 10: 2s, 3s and 10s are wild: playable on anything" in lines
    # each line says what its value means (not the rule's meaning when on, whatever the value)
    assert "pickup_then_play = yes: after picking up the pile the same player plays again, on the empty pile" \
        in lines
    off = sh.rules_text(Rules.preset("classic"))
    assert "pickup_then_play = no: picking up the pile ends the turn: the next player plays" in off
    assert lines[-1] == sh.SPEC and "docs/shithead/RULES.md" in sh.SPEC
    assert not any("RULES.md section" in x for x in lines)
    assert sh.rules_text(Rules.preset("dutch"))[0] == "rules: dutch; deck: 52 cards; 2 to 5 players"


# ------------------------------------------------- Three Thirteen: explain --
def _tt_states(game, seeds=range(6), bot="random"):
    """Every position of a few games (greedy or random moves)."""
    for seed in seeds:
        state = game.new_initial_state(seed)
        b = PolicyBot(bot, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state
            legal = state.legal_actions()
            outs = [a for a in legal if a >= 56]
            state.apply_action(outs[0] if outs else (b.step(state) if rng.random() < 0.8 else rng.choice(legal)))


def _best_discard(state, seat):
    best = None
    for a in state.legal_actions():
        if 2 <= a < 56:
            hand = list(state.hand(seat))
            card = state.action_to_string(a).split()[1]
            hand.remove(next(c for c in hand if str(c) == card))
            v, _ = tt.min_deadwood(hand, state.wild_rank())
            best = v if best is None else min(best, v)
    return best


def test_three_thirteen_explain_go_out_t2_and_deadwood():
    met = collections.Counter()
    for state in _tt_states(tt.Game(2), seeds=range(2)):
        seat = state.current_player()
        said = ttd.explain_moves(state, seat)
        text = " ".join(said)
        assert said[0] == f"round {state.round()}: {state.round() + 2} cards, {ttd._wild_name(state.round())} wild"
        legal = state.legal_actions()
        if state.phase == "draw":
            assert "draw the top card of the stock" in text or "draw from the stock" in text
            met["draw"] += 1
            continue
        obs = state.observation(seat)
        taken = obs.taken
        if taken is not None and state.string_to_action(f"discard {taken}") not in legal:
            assert f"you took {ttd.card_face(taken)} from the discard pile: it can't be discarded again this turn " \
                   "(T-2)" in said
            met["T-2"] += 1
        outs = [a for a in legal if a >= 56]
        if outs:
            assert any(x.startswith("you can go out: discard ") for x in said), said
            met["out"] += 1
        else:
            m = re.search(r"you can't go out yet: the best discard, \S+, leaves deadwood (\d+)", text)
            assert m, said
            assert int(m[1]) == _best_discard(state, seat) > 0
            met["deadwood"] += 1
    assert set(met) == {"draw", "T-2", "out", "deadwood"}, met


def test_three_thirteen_explain_first_turn_without_going_out():
    game = tt.Game(2, go_out_first_turn=False)
    met = 0
    for state in _tt_states(game, seeds=range(40)):
        seat = state.current_player()
        if state.phase != "discard" or state.observation(seat).turns[seat] != 1:
            continue
        said = ttd.explain_moves(state, seat)
        assert not [a for a in state.legal_actions() if a >= 56]
        line = next(x for x in said if "first turn" in x)
        assert line.startswith("you may not go out on your first turn of a round: go_out_first_turn is off")
        if _best_discard(state, seat) == 0:
            assert line.endswith("(your melds would allow it)")
            met += 1
    assert met, "no first turn with melds for going out was met: the test proves little"


def test_three_thirteen_explain_rediscard_and_last_turn():
    game = tt.Game(2, rediscard_taken=True)
    met = collections.Counter()
    for state in _tt_states(game, seeds=range(2)):
        seat = state.current_player()
        said = ttd.explain_moves(state, seat)
        obs = state.observation(seat)
        if state.phase == "discard" and obs.taken is not None:
            assert f"you took {ttd.card_face(obs.taken)} from the discard pile; you may discard it again " \
                   "(rediscard_taken is on)" in said
            met["rediscard"] += 1
        if obs.out_seat is not None:
            assert f"seat {obs.out_seat} went out: this is your last turn of the round" in said
            met["last"] += 1
    assert set(met) == {"rediscard", "last"}, met


def test_three_thirteen_hand_melds_and_rules_text():
    s = tt.Game(2).new_initial_state(1)
    value, arrangement = tt.min_deadwood(s.hand(0), s.wild_rank())
    text = ttd.hand_melds(s, 0)
    assert f"(deadwood {value})" in text or (value == 0 and "(deadwood 0)" in text)
    built = ttd.hand_melds(s, 0, cards=parse_cards("4c 5c 6c 9h"))
    assert built == "melds: run 4\u2663 5\u2663 6\u2663; left over 9\u2665 (deadwood 9)"
    lines = ttd.rules_text(tt.Game(3, ace="either", wild_penalty=20).new_initial_state(1))
    assert lines[0].startswith("Three Thirteen, 3 players: 11 rounds")
    assert any(x.startswith("ace = either: ") for x in lines)
    assert any(x.startswith("wild_penalty = 20: ") for x in lines)
    assert any(x.startswith("go_out_first_turn = yes: ") for x in lines)
    assert "rediscard_taken = no: the card you take from the discard pile may not be discarded in the same turn " \
           "(the rules, T-2)" in lines
    lines = ttd.rules_text(tt.Game(3, rediscard_taken=True, go_out_first_turn=False).new_initial_state(1))
    assert "rediscard_taken = yes: the card you take from the discard pile may be discarded again in the same " \
           "turn" in lines
    assert "go_out_first_turn = no: a player may not go out on their first turn of a round" in lines
    assert lines[-1] == ttd.SPEC and "docs/three_thirteen/RULES.md" in ttd.SPEC
