"""The ``your move>`` prompt of ``threes play`` reads a move number with threes.args.parse_count
(threes.ui.cli.parse_move_number): ``'²'`` (which ``str.isdigit`` takes and ``int`` refuses: it
raised a traceback), ``'٣'`` (an Arabic-Indic 3, which ``int`` reads: it played move 3), a sign,
thousands of digits get a clear message and the prompt again; a move's notation is read as before."""
from __future__ import annotations

import pexpect
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from threes.ui.cli import parse_move_number

from test_cli import _read, expect_reprompt, parse_moves, spawn_play


@pytest.mark.parametrize("text,expected", [
    ("3", 3), (" 3 ", 3), ("\t3\n", 3), ("1", 1), ("12", 12), ("03", 3), ("0012", 12), ("0" * 5000 + "7", 7),
    ("", None), ("   ", None), ("pickup", None), ("7x2", None), ("blind 0", None), ("discard 7h", None),
    ("up 10x1", None), ("keep face up: 4 8 J", None), ("x3", None), ("3 4", None), ("3x", None),
])
def test_numbers_and_notation(text, expected):
    assert parse_move_number(text, 12) == expected


@pytest.mark.parametrize("text,message", [
    ("0", "no move number 0: choose 1 to 12"),
    ("13", "no move number 13: choose 1 to 12"),
    ("99", "no move number 99: choose 1 to 12"),
    ("-5", "'-5' is not a move number: choose 1 to 12, typed with the digits 0-9"),
    ("+3", "'+3' is not a move number"),
    ("-", None), ("+", None),  # a lone sign is no number: read as notation (and refused there)
    ("\u00b2", "'\u00b2' is not a move number: choose 1 to 12, typed with the digits 0-9"),  # superscript two
    ("\u0663", "'\u0663' is not a move number"),  # Arabic-Indic three
    ("\u06f3", "'\u06f3' is not a move number"),  # Extended Arabic-Indic three
    ("\u0969", "'\u0969' is not a move number"),  # Devanagari three
    ("\uff13", "'\uff13' is not a move number"),  # fullwidth three
    ("\u00bd", "'\u00bd' is not a move number"),  # one half (str.isnumeric)
    ("\u2167", "'\u2167' is not a move number"),  # Roman numeral eight
    ("1\u00b2", "is not a move number"),
    ("\U0001d7d1", "is not a move number"),  # mathematical bold three
    ("9" * 5000, "is not a move number: choose 1 to 12"),
    ("1" + "0" * 9, "is not a move number"), ("0" * 5000 + "13", "no move number 13"),
])
def test_malformed_numbers_are_a_clear_value_error(text, message):
    if message is None:
        assert parse_move_number(text, 12) is None
        return
    with pytest.raises(ValueError) as info:
        parse_move_number(text, 12)
    assert message in str(info.value)
    assert len(str(info.value)) < 160  # thousands of digits are not echoed back


def test_a_huge_number_is_shown_cut():
    with pytest.raises(ValueError, match=r"'999999999999\.\.\.9999' \(5000 characters\) is not a move number"):
        parse_move_number("9" * 5000, 4)


def test_not_text_is_a_type_error():
    for v in (None, 3, b"3"):
        with pytest.raises(TypeError):
            parse_move_number(v, 4)


UNICODE_NUMBERS = st.sampled_from("0123456789\u00b2\u00b3\u00b9\u0660\u0663\u06f3\u0969\uff13\u00bd\u2167\u2460"
                                  "\U0001d7d1+- \t")


@pytest.mark.full  # 2,000 examples, about 30 s; the quick suite has the prompt's cases above
@settings(max_examples=2000, deadline=None)
@given(text=st.one_of(st.text(), st.text(UNICODE_NUMBERS, max_size=12), st.text(UNICODE_NUMBERS, min_size=4000,
                                                                                 max_size=6000)),
       count=st.integers(1, 700))
def test_fuzz_any_text_is_a_choice_none_or_a_clear_message(text, count):
    try:
        got = parse_move_number(text, count)
    except ValueError as exc:
        msg = str(exc)
        assert f"choose 1 to {count}" in msg and len(msg) < 160, msg
        assert text.strip() and any(c.isnumeric() for c in text)
        return
    if got is None:  # no number at all: read as notation
        t = text.strip()
        body = t[1:] if t[:1] in "+-" else t
        assert not body or not all(c.isnumeric() for c in body)
        return
    assert type(got) is int and 1 <= got <= count
    t = text.strip()
    assert t.isascii() and t.isdigit() and int(t.lstrip("0") or "0") == got


# ------------------------------------------------------------------------------ the terminal --
def test_the_prompt_asks_again_and_then_plays(tmp_path):
    child = spawn_play("--players", "2", "--seed", "4", "--bots", "greedy", "--no-color")
    try:
        child.expect_exact("your move> ")
        screen = _read(child)
        moves = parse_moves(screen)
        n = len(moves)
        assert n >= 2
        expect_reprompt(child, "\u00b2", "'\u00b2' is not a move number", f"choose 1 to {n}", "digits 0-9")
        expect_reprompt(child, "\u0663", "'\u0663' is not a move number", f"choose 1 to {n}")
        expect_reprompt(child, "-5", "'-5' is not a move number")
        expect_reprompt(child, " " + "9" * 2000 + " ", "(2000 characters) is not a move number")
        expect_reprompt(child, str(n + 1), f"no move number {n + 1}: choose 1 to {n}")
        label = moves[0][1]
        child.sendline(" 1 ")  # spaces around a number are fine
        child.expect_exact("your move> ")
        after = _read(child)
        assert "Traceback" not in after
        assert f"you: {label}" in after  # move 1 was played
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
