"""The README's Python examples of positions and events run as written (the "edit a position" example once
failed as printed: every code block below is taken from README.md itself and executed)."""
import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def block_after(heading: str) -> str:
    text = README.read_text(encoding="utf-8")
    at = text.index(heading)
    m = re.compile(r"```python\n(.*?)```", re.S).search(text, at)
    return m.group(1)


def test_events_example_prints_what_the_readme_says():
    code = block_after("### What a move did: events")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    expected = [line[2:].split("  ")[0].rstrip() for line in code.splitlines() if line.startswith("# ")]
    assert out.getvalue().splitlines() == expected


def test_edit_a_position_example_runs():
    import threes
    code = block_after("## Saving and setting up positions")
    state = threes.Game(4).new_initial_state(seed=1)
    env = {"threes": threes, "state": state, "game": threes.Game(2)}
    exec(compile(code, "README.md", "exec"), env)
    s = env["s"]
    assert [str(m) for m in s.legal_moves()] == ["4x1", "4x2"]
