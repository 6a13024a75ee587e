"""``threes play`` that teaches (issue 18), through a pseudo-terminal as in test_cli.py: every move
narrated from the human's seat (burns and playing again, failed blind cards, outs, the end with every
card revealed; Three Thirteen draws, melds, the last-turn notice and round scores labelled with the bots'
names), why moves are or are not available, ``rules`` at the prompt, swap decisions shown as "keep face
up: 4 8 J", and no card, move or word broken at any width from 60 columns.
"""
from __future__ import annotations

import random
import re

import pexpect
import pytest
from rich.cells import cell_len

import threes
from threes import three_thirteen as tt
from threes.shithead.rules import FIELDS

from test_cli import (_read, card_face, check_game_end, faces, parse_moves, play_scripted_game, spawn_play,
                      narration_after)

CARD = re.compile(r"^(?:10|[2-9JQKA])[\u2663\u2666\u2665\u2660]$|^JK\u2605$")
SYMBOLS = "\u2663\u2666\u2665\u2660\u2605"


def check_no_broken_token(transcript: str, width: int) -> None:
    """Every line fits the terminal (so the terminal never wraps one), and every token that holds a suit
    symbol is a whole card (rich or our wrapping never cut "10♣" into "1" and "0♣")."""
    for line in transcript.splitlines():
        if line.startswith("your move> "):
            continue  # the prompt and the echo of what was typed
        assert cell_len(line) <= width, (width, cell_len(line), line)
        for token in line.replace("\u2502", " ").replace("\u2503", " ").split():
            bare = token.strip(",;:()[]")
            if any(sym in bare for sym in SYMBOLS):
                assert CARD.match(bare), (token, line)


# ----------------------------------------------------------------- Shithead --
@pytest.mark.parametrize("preset, seed", [("threes", 2), ("classic", 1)])
def test_narration_tells_burns_blind_cards_outs_and_the_end(preset, seed):
    seen = set()
    final, state, status, turns, _ = play_scripted_game(preset, 3, seed, bad_inputs=False, seen=seen)
    assert status == 0 and state.is_terminal() and not state.is_truncated()
    # each of these was met and narrated (apply_printed_moves checks every event's sentence)
    assert {"burn", "burn+again", "again", "pickup", "blind", "blind failed", "out", "over", "draw",
            "swap", "start"} <= seen, seen
    assert "the game is over" in final
    assert re.search(r"(you are|seat \d \(greedy\) is) the shithead", final)
    assert "every card, face down and in every hand:" in final
    check_game_end(final, state, 3, 0, {1: "greedy", 2: "greedy"})  # the revealed table: every card


@pytest.mark.parametrize("width", [60, 80, 120, 200])
def test_no_token_broken_at_any_width(width):
    transcript = []
    final, state, status, turns, _ = play_scripted_game("threes", 4, 5, bad_inputs=width == 60, columns=width,
                                                        transcript=transcript)
    assert status == 0 and state.is_terminal() and turns > 5
    text = "".join(transcript)
    check_no_broken_token(text, width)
    if width == 60:  # the narrow terminal really wrapped: the move lists and sentences went on over lines
        assert any(line.startswith("    ") for line in text.splitlines())
    check_game_end(final, state, 4, 0, {1: "greedy", 2: "greedy", 3: "greedy"})


def _prompt(child) -> str:
    child.expect_exact("your move> ")
    return _read(child)


def test_rules_and_help_at_the_prompt():
    child = spawn_play("--players", "3", "--seed", "2", "--rules", "classic", "--set", "pickup_then_play=true",
                       "--no-color")
    _prompt(child)
    child.sendline("rules")
    text = _prompt(child)
    assert "your moves:" not in text  # the same turn, asked again
    assert "rules: custom (house rules)" in text
    lines = [" ".join(line.split()) for line in re.split(r"\n(?!    )", text)]
    for name in FIELDS:
        assert any(line.startswith(f"{name} = ") for line in lines), (name, text)
    assert "pickup_then_play = yes" in text and "wild = 2 3 10" in text and "lower = 7" in text
    assert "burner_plays_again = yes: the player who burns the pile plays again, on the empty pile" in \
        " ".join(text.split())
    assert "pickup_then_play = yes: after picking up the pile the same player plays again" in " ".join(text.split())
    child.sendline("help")
    text = _prompt(child)
    assert "'rules'" in text and "keep face up" in text and "swap 7TA" in text
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_swap_shown_as_keep_face_up_and_accepted_as_typed():
    child = spawn_play("--players", "2", "--seed", "11", "--bots", "random", "--no-color")
    screen = _prompt(child)
    state = threes.Game(2).new_initial_state(11)
    assert state.phase.value == "swap" and state.current_player() == 0
    listed = parse_moves(screen)
    moves = state.legal_moves()
    show = {"T": "10", "X": "JK"}
    assert [label for _, label in listed] == [
        "keep face up: " + " ".join(show.get(r, r) for r in m.face_up) for m in moves]
    assert all(label.startswith("keep face up: ") for _, label in listed)
    assert "swap " not in "".join(label for _, label in listed)
    # typed as listed (any case and spacing): that decision, and the narration says which cards lie face up
    k = len(moves) - 1
    child.sendline("  " + listed[k][1].upper().replace(" ", "  "))
    text = _prompt(child)
    assert f"you: {listed[k][1]}" in text
    events = state.apply(moves[k])
    assert f"you keep face up: {' '.join(faces(events[0].cards))}" in text
    assert sorted(c.rank for c in state.face_up(0)) == sorted(moves[k].face_up)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()


def test_swap_in_the_old_notation_still_works():
    child = spawn_play("--players", "2", "--seed", "11", "--bots", "random", "--no-color")
    screen = _prompt(child)
    state = threes.Game(2).new_initial_state(11)
    move = state.legal_moves()[0]
    child.sendline("swap " + "".join(move.face_up))  # e.g. swap 48J: keep 4, 8, J face up
    text = _prompt(child)
    label = parse_moves(screen)[0][1]
    assert f"you: {label}" in text


# ------------------------------------------------------------ Three Thirteen --
def _tt_label(state, a: int) -> str:
    text = state.action_to_string(a)
    return re.sub(r"^(discard|out) T", r"\1 10", text)


def _conj(who: str, verb: str) -> str:
    return verb if who == "you" else {"go": "goes"}.get(verb, verb + "s")


def tt_fragments(e, seat: int, names: list, state_before_round_scores=None) -> list:
    """What the narration of one Three Thirteen event must say (from its fields)."""
    who = "you" if e.seat == seat else (names[e.seat] if e.seat is not None else "")
    k = e.kind
    if k == "draw":
        if e.source == "discard":
            return [f"{who} {_conj(who, 'take')} {card_face(e.cards[0])} from the discard pile"]
        if e.seat == seat:
            return [f"you draw {card_face(e.cards[0])} from the stock"]
        return [f"{who} draws from the stock"]
    if k == "discard":
        return [card_face(e.cards[0])]
    if k == "go_out":
        return [f"{who} {_conj(who, 'go')} out with"] + [f"{t} {' '.join(faces(cs))}" for t, cs in e.melds]
    if k == "last_turns":
        return ["last turn: everyone but " + ("you" if e.seat == seat else who) + " plays one more turn"]
    if k == "round_end":
        return [f"round {e.value} is over"]
    if k == "score":
        return [f"{who} {_conj(who, 'score')} {e.value}"]
    if k == "round":
        return [f"round {e.value}: {e.value + 2} cards each"]
    if k == "reshuffle":
        return ["shuffled into a new stock"]
    if k == "truncated":
        return ["move cap"]
    return ["the game is over"]


_TT_MOVE = re.compile(r"^(?:you|seat (\d+) \(([^)]*)\)): (stock|take|(?:discard|out) \S+)$")


def play_scripted_tt(players: int, seed: int, bots: str = "greedy", columns: int = 400, transcript=None,
                     seen=None):
    """Plays a whole Three Thirteen game as seat 0 through the terminal, checking the screens (the hand,
    its melds and deadwood, the moves listed, the explanation) and the narration of every move against a
    mirror of the game."""
    child = spawn_play("--game", "3-13", "--players", str(players), "--seed", str(seed), "--bots", bots,
                       "--no-color", columns=columns)
    state = tt.Game(players).new_initial_state(seed)
    names = ["you"] + [f"seat {q} ({bots})" for q in range(1, players)]
    rng = random.Random(seed)
    mine, turns = None, 0
    while True:
        i = child.expect_exact(["your move> ", pexpect.EOF])
        chunk = _read(child)
        if transcript is not None:
            transcript.append(chunk)
        assert "Traceback" not in chunk
        lines = chunk.splitlines()
        for j, line in enumerate(lines):
            m = _TT_MOVE.match(line)
            if not m:
                continue
            who = 0 if m[1] is None else int(m[1])
            assert state.current_player() == who, line
            if who == 0:
                assert m[3] == mine, (line, mine)
                mine = None
            events = state.apply(m[3])
            sentences = narration_after(lines, j)
            told = " ".join(sentences)
            for e in events:
                for fragment in tt_fragments(e, 0, names):
                    assert fragment in told, (line, e, fragment, told)
                if e.kind == "draw" and e.source == "stock" and e.seat != 0:
                    assert f"{names[e.seat]} draws from the stock" in sentences  # the card stays hidden
                if seen is not None:
                    seen.add(e.kind)
            scores = [e for e in events if e.kind == "score"]
            if scores:  # the round's scores, labelled with the seats' names
                r = next(e.value for e in events if e.kind == "round_end")
                assert f"round {r} scores: " + ", ".join(f"{names[e.seat]} {e.value}" for e in scores) in told
                assert [e.value for e in scores] == state.round_scores()[r - 1]
                if seen is not None:
                    seen.add("labelled scores")
        assert mine is None
        if i == 1:
            break
        turns += 1
        assert turns < 5000
        joined = " ".join(chunk.split())
        assert "your hand: " + " ".join(faces(state.hand(0))) in joined
        dead = state.deadwood(0)
        assert f"(deadwood {dead})" in joined, joined[-600:]
        assert ("no melds" in joined) or ("melds: " in joined)
        legal = state.legal_actions()
        assert [label for _, label in parse_moves(chunk)] == [_tt_label(state, a) for a in legal]
        explained = " ".join(line.strip() for line in lines if line.startswith(("  * ", "    ")))
        assert f"round {state.round()}: {state.round() + 2} cards" in explained
        obs = state.observation(0)
        if state.phase == "discard" and obs.taken is not None and f"discard {obs.taken}" not in \
                [state.action_to_string(a) for a in legal]:
            assert "can't be discarded again this turn (T-2)" in explained
        if obs.out_seat is not None:
            assert "this is your last turn of the round" in explained
        outs = [a for a in legal if a >= 56]
        if outs:
            assert "you can go out" in explained
            a = outs[0]
        elif state.phase == "discard":
            assert "you can't go out yet" in explained
            a = rng.choice([x for x in legal if x >= 2])
        else:
            a = legal[0] if rng.random() < 0.7 else legal[-1]
        mine = _tt_label(state, a)
        child.sendline(mine)
    child.close()
    assert child.exitstatus == 0
    return chunk, state


def test_three_thirteen_narrates_melds_last_turns_and_labelled_scores():
    seen = set()
    final, state = play_scripted_tt(3, 4, seen=seen)
    assert state.is_terminal()
    assert {"draw", "discard", "go_out", "last_turns", "round_end", "score", "round", "over",
            "labelled scores"} <= seen, seen
    joined = " ".join(final.split())
    names = ["you", "seat 1 (greedy)", "seat 2 (greedy)"]
    totals = state.scores()
    assert "totals: " + ", ".join(f"{names[q]} {totals[q]}" for q in range(3)) in joined
    # every hand revealed at the end, with its melds
    assert "every hand, with its melds:" in final
    end = joined[joined.index("every hand, with its melds:"):]
    for q in range(3):
        assert f"{names[q]}: {' '.join(faces(state.hand(q)))}" in end
        assert f"(deadwood {state.deadwood(q)})" in end
    order = sorted(range(3), key=lambda q: totals[q])
    assert "final totals: " + ", ".join(f"{names[q]} {totals[q]}" for q in order) in joined


@pytest.mark.parametrize("width", [60, 80, 120, 200])
def test_three_thirteen_no_token_broken_at_any_width(width):
    transcript = []
    final, state = play_scripted_tt(2, 6, columns=width, transcript=transcript)
    assert state.is_terminal()
    check_no_broken_token("".join(transcript), width)


def test_three_thirteen_rules_at_the_prompt():
    child = spawn_play("--game", "3-13", "--players", "2", "--seed", "3", "--set", "go_out_first_turn=false",
                       "--set", "ace=either", "--no-color")
    _prompt(child)
    child.sendline("rules")
    text = " ".join(_prompt(child).split())
    assert "11 rounds" in text and "go_out_first_turn = no" in text and "ace = either" in text
    assert "rediscard_taken = no" in text
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
