"""What a newcomer saw wrong in the web page in the first hour (issue 39), in a real browser:
Debian's Chromium driven by Playwright (no browser download) against a real ``threes serve``
(``python -m threes.web.cli`` on 127.0.0.1, a free port). Screenshots are saved under the test's
tmp_path; the checks are on the page's DOM and text, not on pixels.

* the lobby shows each game's own options and presets (from /api/meta, the registry's), and switching
  game re-renders them: no empty preset box, no other game's house rule suggested;
* the lobby's list of tables shows a table as soon as it is made (no reload);
* a Three Thirteen table with a wild card in the hand: the card's star is drawn where the next card
  does not cover it (the browser's own hit test at the star finds the star's card), and every
  text of the picture lies on its canvas (measured by the browser);
* the replay's first and last buttons have text every font draws; the rules are in words (no raw
  JSON anywhere on the page); seats are named as ``threes play`` names them ("seat 1 (random)"),
  the last place with the registry's word ("seat 1 (random), the shithead").

Every wait is bounded (Playwright timeouts, deadlines).
"""
from __future__ import annotations

import os
import re
import time

from playwright.sync_api import sync_playwright

from threes import registry
from threes.bots import PolicyBot
from threes.web import views
from web_support import CHROMIUM, _set_over, ensure_chromium, face_cards, get, post, server_process, text_cards, visible

FAST = ("--bot-delay", "0", "--rate", "1000", "--burst", "1000", "--address-requests", "1000",
        "--address-creates", "1000", "--address-tables", "1000", "--address-rate", "1000")
LAUNCH = dict(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
SEAT_LABEL = re.compile(r"^seat \d+ \([^()]+\)")


def _shoot(page, shots, name):
    path = os.path.join(shots, name)
    page.screenshot(path=path, full_page=True, timeout=30_000)
    assert os.path.getsize(path) > 1000
    return path


def _wild_seed(max_seed=2000):
    """A seed of a two-player Three Thirteen table whose seat 0 holds a wild card (a three, round 1)
    that another card of the hand overlaps (not the hand's last card)."""
    tt = registry.get("three_thirteen").load()
    for seed in range(max_seed):
        s = tt.Game(2).new_initial_state(seed=seed)
        hand = [str(tt.kind_to_card(k)) for k in s._fields()["hands"][0]]
        if any(c[0] == s.wild_rank() for c in hand[:-1]):
            return seed
    raise AssertionError("no such seed")


# JavaScript run in the page: the picture's texts that leave its canvas (the browser's measures)
_TEXTS_OFF_CANVAS = """() => {
  const svg = document.querySelector('#board svg');
  const vb = svg.viewBox.baseVal;
  const out = [];
  for (const t of svg.querySelectorAll('text')) {
    const b = t.getBBox();
    const m = t.getCTM();  // the text's box in the picture's coordinates (cards are translated)
    const svgM = svg.getCTM();
    const left = (m.a * b.x + m.e - svgM.e) / svgM.a, right = (m.a * (b.x + b.width) + m.e - svgM.e) / svgM.a;
    if (left < -0.5 || right > vb.width + 0.5) out.push([t.textContent, left, right, vb.width]);
  }
  return out;
}"""

# the wild marks of the seat's hand the next card would cover: the browser's hit test at the star's
# centre must find the star's own card
_COVERED_WILD_MARKS = """() => {
  const out = [];
  const marks = document.querySelectorAll('#board svg g.seat.observer g.hand g.card.wild .wild-mark');
  for (const mark of marks) {
    const r = mark.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const card = mark.closest('g.card');
    if (!hit || hit.closest('g.card') !== card) out.push(card.getAttribute('data-card'));
  }
  return [marks.length, out];
}"""


def test_lobby_each_game_and_a_wild_card_in_chromium(tmp_path):
    ensure_chromium()
    shots = str(tmp_path / "shots")
    os.makedirs(shots)
    seed = _wild_seed()
    with server_process(str(tmp_path / "lobby.sqlite3"), *FAST, "--turn-timeout", "0") as url, \
            sync_playwright() as pw:
        meta = get(url + "/api/meta")
        browser = pw.chromium.launch(**LAUNCH)
        try:
            problems = []
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            page.set_default_timeout(20_000)
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.goto(url + "/")
            page.wait_for_selector("#create")
            # the lobby's list of tables arrives after the page: wait for it, then it must say there are none
            page.wait_for_function("document.querySelector('#tables').innerText.trim() !== ''")
            assert page.inner_text("#tables") == "none yet"

            # every game's own options and presets; switching game re-renders them
            for g in meta["games"] + meta["games"][:1]:
                page.select_option("#game", g["name"])
                page.wait_for_function("n => document.getElementById('app').dataset.game === n", arg=g["name"])
                shown = page.eval_on_selector_all("#options-list li", "els => els.map(e => e.dataset.option)")
                own = list(g["rules"] if g.get("presets") else g["options"])
                assert shown == own, (g["name"], shown)
                assert "``" not in page.text_content("#options-list")  # meanings in plain words
                others = {k for o in meta["games"] if o["name"] != g["name"]
                          for k in (o.get("rules") or o.get("options") or {}) if k not in own}
                placeholder = page.get_attribute("#rules", "placeholder")
                help_text = page.inner_text("#rules-help") + " " + placeholder  # what it suggests
                assert not [k for k in others if "_" in k and k in help_text], (g["name"], help_text)
                assert g["title"] in page.inner_text("#options-box summary")
                if g.get("example"):
                    assert g["example"] in placeholder, placeholder
                if g.get("presets"):
                    assert page.is_visible("#preset") and page.is_visible("label[for=preset]")
                    assert page.eval_on_selector_all("#preset option", "els => els.map(e => e.value)") == list(g["presets"])
                    for p in g["presets"]:  # the list shows the chosen preset's values
                        page.select_option("#preset", p)
                        first = next(iter(g["rules"]))
                        value = g["presets"][p][first]
                        words = " ".join(map(str, value)) if isinstance(value, list) else \
                            ("yes" if value else "no") if isinstance(value, bool) else str(value)
                        assert page.text_content(f"#options-list li[data-option='{first}'] b") == f"{first} = {words}"
                else:  # no empty preset: neither the box nor its label is shown
                    assert not page.is_visible("#preset") and not page.is_visible("label[for=preset]")
                page.click("#options-box summary")
                _shoot(page, shots, f"lobby-{g['name']}.png")
                page.click("#options-box summary")

            # a Three Thirteen table: a person (seat 0) and a random bot; the list shows it at once
            tt_meta = next(g for g in meta["games"] if g["name"] == "three_thirteen")
            page.select_option("#game", tt_meta["name"])
            page.select_option("#seat-count", "2")
            page.select_option(".seatrow[data-seat='1'] .kind", "bot")
            page.select_option(".seatrow[data-seat='1'] .bot", "random")
            page.fill("#seed", str(seed))
            page.click("#create")
            page.wait_for_selector("#created-panel")
            page.wait_for_selector("#tables li[data-table]", timeout=5_000)  # no reload
            listed = page.inner_text("#tables")
            assert "Three Thirteen" in listed and "seat 0 (person), seat 1 (random)" in listed, listed
            assert "none yet" not in listed
            assert page.inner_text("#created-panel li[data-seat='0'] b").startswith("seat 0 (person)")
            _shoot(page, shots, "lobby-created.png")
            link = page.get_attribute("#created-panel li[data-seat='0'] a.join-link", "href")

            # the table, seen by seat 0: a wild card in the hand, its star visible
            table = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            table.set_default_timeout(20_000)
            table.on("pageerror", lambda e: problems.append(str(e)))
            table.goto(link)
            table.wait_for_selector("#board svg g.seat.observer g.hand g.card")
            wild = table.locator("#board svg g.seat.observer g.hand g.card.wild")
            assert wild.count() >= 1
            count, covered = table.evaluate(_COVERED_WILD_MARKS)
            assert count == wild.count() and covered == [], (count, covered)
            # the hand's melds are written under it, and the picture's texts stay on its canvas
            assert table.locator("#board svg g.seat.observer text.melds").count() >= 1
            assert table.evaluate(_TEXTS_OFF_CANVAS) == []
            seats = table.inner_text("#seat-list")
            assert "seat 0 (person), you" in seats and "seat 1 (random)" in seats, seats
            log = table.inner_text("#log")  # the narration names the bot's seat the same way
            assert "random (seat" not in log and ("random" not in log or "seat 1 (random)" in log), log
            _shoot(table, shots, "three-thirteen-wild.png")
            assert not problems, problems
            print(f"\nscreenshots in {shots}: {sorted(os.listdir(shots))}")
        finally:
            browser.close()


def test_replay_speaks_words_in_chromium(tmp_path):
    ensure_chromium()
    shots = str(tmp_path / "shots")
    os.makedirs(shots)
    # the person never moves: the stand-in bot plays its seat after 0.02 s, so the game ends soon
    with server_process(str(tmp_path / "replay.sqlite3"), *FAST, "--turn-timeout", "0.02") as url, \
            sync_playwright() as pw:
        info = registry.get("shithead")
        post(url + "/api/tables", {"game": info.name, "preset": "threes", "seed": 99,
                                   "seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "random"}]})
        deadline = time.monotonic() + 120
        while not get(url + "/api/games")["games"]:
            assert time.monotonic() < deadline, "the game did not end in 120 s"
            time.sleep(0.2)
        game = get(url + "/api/games")["games"][0]
        rec = get(f"{url}/api/games/{game['id']}")
        last = rec["result"]["places"][-1]
        browser = pw.chromium.launch(**LAUNCH)
        try:
            problems = []
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            page.set_default_timeout(20_000)
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.goto(f"{url}/replay/{game['id']}")
            page.wait_for_selector("#board svg")
            page.wait_for_function("() => document.getElementById('app').dataset.step === '0'")
            # every button says what it does in letters any font draws
            for b in ("first", "prev", "next", "last"):
                text = page.inner_text(f"#{b}").strip()
                assert re.search(r"[A-Za-z]{4}", text) and all(ord(c) < 0x2040 for c in text), (b, text)
            # the rules in words, never JSON
            assert page.inner_text("#replay-options") == "Rules: preset threes."
            page.click("#replay-rules summary")
            assert page.locator("#replay-rules li").count() > 3
            # seats named as threes play names them; the last place with the registry's word
            places = page.eval_on_selector_all("#replay-places li", "els => els.map(e => e.textContent)")
            names = {0: "seat 0 (Ann)", 1: "seat 1 (random)"}
            assert all(SEAT_LABEL.match(p) for p in places), places
            assert places[-1] == f"{names[last]}, the {info.last_place}", places
            page.click("#last")
            page.wait_for_function("n => document.getElementById('app').dataset.step === n",
                                   arg=str(len(rec["actions"])))
            said = page.inner_text("#replay-log")
            assert "Finishing order: " + "; ".join(names[q] for q in rec["result"]["places"]) in said, said
            assert page.inner_text("#replay-status").startswith(f"move {len(rec['actions'])} of")
            body = page.inner_text("body")
            assert "{" not in body and '":' not in body, body[:500]
            page.click("#first")
            page.wait_for_function("() => document.getElementById('app').dataset.step === '0'")
            _shoot(page, shots, "replay.png")

            # the lobby lists the finished game by its title and its seats' labels
            lobby = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            lobby.set_default_timeout(20_000)
            lobby.on("pageerror", lambda e: problems.append(str(e)))
            lobby.goto(url + "/")
            lobby.wait_for_selector("#games li[data-game]")
            listed = lobby.inner_text("#games")
            assert f"{info.title}: seat 0 (Ann), seat 1 (random)" in listed, listed
            _shoot(lobby, shots, "lobby-finished.png")
            assert not problems, problems
        finally:
            browser.close()


def test_the_hands_melds_name_only_cards_the_viewer_sees():
    """The melds written under a hand (and what its wild cards stand for) are the viewer's own hand's:
    a seat's picture, and the public one, name no card the viewer cannot see (the oracle of
    web_support: the rules' view of the true state)."""
    tt = registry.get("three_thirteen").load()
    checked = 0
    for n, jokers in ((2, 0), (3, 2)):
        s = tt.Game(n, jokers=jokers).new_initial_state(seed=31 + n)
        bot = PolicyBot("greedy", seed=n)
        k = 0
        while not s.is_terminal():
            if k % 9 == 0:
                for viewer in [None] + list(range(n)):
                    svg = views.picture(s, viewer, [f"p{q}" for q in range(n)])
                    titles = re.findall(r"<title>([^<]*)</title>", svg)
                    named = face_cards(svg) + [c for t in titles for c in text_cards(t)]
                    assert _set_over(named, visible(s, viewer)) == [], (k, viewer)
                    melds = re.findall(r'class="melds">([^<]*)<', svg)
                    assert (melds != []) == (viewer is not None and len(s.hand(viewer)) > 0), (k, viewer, melds)
                    checked += 1
            s.apply_action(bot.step(s))
            k += 1
    assert checked > 100
