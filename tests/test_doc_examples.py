"""Every ```python block of README.md and of the docs site (docs/**/*.md, but the two specifications,
docs/shithead/RULES.md and docs/three_thirteen/RULES.md) runs as written, each alone in a fresh
interpreter (its imports its own), and prints what the page says it prints:

- a line ending in ``# -> TEXT`` or ``# prints TEXT`` (a ``print`` call) is one line of the output:
  when a block has such lines, its output is exactly those lines, in order;
- a ```text block whose fence carries ``title="output"``, right after the python block, is the
  block's whole output.

Besides, the README stays short and opens with its two commands, and docs/make_pictures.py writes
exactly the committed pictures of docs/pictures/."""
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SPECIFICATIONS = {"docs/shithead/RULES.md", "docs/three_thirteen/RULES.md"}
FENCE = re.compile(r"^(\s*)```(\w*)(.*)$")
MARK = re.compile(r"#\s*(?:->|prints)\s?(.*)$")

README_COMMANDS = [
    'pip install . && threes simulate                     # install, then 100,000 random 4-player games in C:'
    " the summary table",
    'pip install ".[test]" && python -m pytest -n auto   # install with the lean test extra and run the quick'
    " suite (about 4 minutes on 2 cores, 5.3 with the install)",
]


def pages():
    found = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
    return [p for p in found if p.relative_to(ROOT).as_posix() not in SPECIFICATIONS]


def fenced_blocks(text):
    """(language, info string, first line number, body) of every fenced block, in order."""
    lines = text.split("\n")
    blocks, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            indent, lang, info = m.group(1), m.group(2), m.group(3)
            body, j = [], i + 1
            while j < len(lines) and lines[j].strip() != "```":
                body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
                j += 1
            blocks.append((lang, info.strip(), i + 1, "\n".join(body) + "\n"))
            i = j + 1
        else:
            i += 1
    return blocks


def python_examples():
    """(page, line, code, expected output lines or None) of every python block."""
    out = []
    for page in pages():
        blocks = fenced_blocks(page.read_text(encoding="utf-8"))
        for k, (lang, _info, line, body) in enumerate(blocks):
            if lang != "python":
                continue
            expected = None
            marked = [MARK.search(code_line) for code_line in body.splitlines()]
            if any(marked):
                expected = [m.group(1).rstrip() for m in marked if m]
            nxt = blocks[k + 1] if k + 1 < len(blocks) else None
            if nxt and nxt[0] == "text" and 'title="output"' in nxt[1]:
                assert expected is None, f"{page.name}:{line}: output given twice"
                expected = [x.rstrip() for x in nxt[3].rstrip("\n").split("\n")]
            out.append((page.relative_to(ROOT).as_posix(), line, body, expected))
    return out


EXAMPLES = python_examples()


def run_example(code, cwd):
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("page,line,code,expected", EXAMPLES, ids=[f"{p}:{n}" for p, n, _, _ in EXAMPLES])
def test_python_block_runs_and_prints_what_the_page_says(page, line, code, expected, tmp_path):
    done = run_example(code, tmp_path)  # in an empty folder: a block that writes a file writes it there
    assert done.returncode == 0, f"{page}:{line} failed:\n{done.stderr[-3000:]}"
    if expected is not None:
        assert [x.rstrip() for x in done.stdout.rstrip("\n").split("\n")] == expected, f"{page}:{line}"


def test_the_examples_are_found_and_most_check_their_output():
    per_page = {}
    for page, _, _, expected in EXAMPLES:
        per_page.setdefault(page, []).append(expected)
    assert len(per_page.get("README.md", [])) >= 3, "the README's quick start and tour have python blocks"
    for page in ("docs/games/shithead.md", "docs/games/three_thirteen.md", "docs/guides/bots.md",
                 "docs/guides/rl.md", "docs/guides/simulations.md", "docs/guides/states.md"):
        assert per_page.get(page), f"{page} has no python example"
    checked = sum(e is not None for _, _, _, e in EXAMPLES)
    assert checked >= len(EXAMPLES) // 2, f"only {checked} of {len(EXAMPLES)} blocks check their output"


def test_the_output_check_catches_a_wrong_output(tmp_path):
    """The checker itself: a block whose marked output is wrong is caught."""
    (lang, _, _, body), = fenced_blocks("Text.\n\n```python\nprint(6 * 7)  # -> 41\n```\n")
    expected = [MARK.search(body).group(1)]
    printed = run_example(body, tmp_path).stdout.rstrip("\n").split("\n")
    assert lang == "python" and expected == ["41"] and printed == ["42"]


def test_events_and_position_examples_keep_their_checks():
    """The checks of the former tests/test_readme_examples.py: the events example prints its events
    and the legal moves after the undo; the edit-a-position example reaches a position whose legal
    moves are 4x1 and 4x2."""
    codes = {(p, c) for p, _, c, e in EXAMPLES if e is not None}
    events = [c for p, c in codes if 'state.apply("10x1")' in c]
    assert events and any("# -> burn 0 ['4s', '9d', 'Tc'] burn_card" in c for c in events)
    positions = [c for p, c in codes if "State.from_dict(d)" in c and 'position(hands=["4c 4d", "Kh"]' in c]
    assert positions and any("# -> ['4x1', '4x2']" in c for c in positions)


def test_readme_is_short_and_opens_with_its_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    first = fenced_blocks(text)[0]
    assert first[0] == "bash" and first[3].rstrip("\n").split("\n") == README_COMMANDS
    for guide in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / guide).is_file(), f"the README links to {guide}, which is missing"


def test_pictures_are_what_the_generator_writes(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "make_pictures.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    made = sorted(p.name for p in tmp_path.glob("*.svg"))
    committed = sorted(p.name for p in (ROOT / "docs" / "pictures").glob("*.svg"))
    assert made == committed and len(made) >= 4
    for name in made:
        assert (tmp_path / name).read_bytes() == (ROOT / "docs" / "pictures" / name).read_bytes(), name
    for page in ("docs/games/shithead.md", "docs/games/three_thirteen.md"):
        shown = re.findall(r"\(\.\./pictures/([\w.]+\.svg)\)", (ROOT / page).read_text(encoding="utf-8"))
        assert shown and set(shown) <= set(made), page


def test_every_page_is_in_the_site_nav_and_the_site_loads_nothing_from_elsewhere():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = set(re.findall(r"^\s+- (?:[^:\n]+: )?([\w/]+\.md)\s*$", config, re.M))
    docs = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert docs - nav == set(), "pages missing from the nav of mkdocs.yml"
    assert nav - docs == set(), "nav entries without a page"
    assert re.search(r"^theme:\n(?:  .*\n)*?  font: false$", config, re.M), "the theme must not load Google fonts"
    assert "extra_javascript" not in config
