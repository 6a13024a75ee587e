"""A real browser plays the web table: Debian's Chromium (/usr/bin/chromium) driven by
Playwright's Python package (sync API, the system browser through ``executable_path``; no
browser download) against a real uvicorn server on 127.0.0.1 (a free port, a background
thread). One person creates a table in the lobby (two people, two bots); two people, each in
a browser context of their own, play a full Shithead game by clicking the move buttons, while
a spectator watches in a third context. Screenshots are saved and checked (the hand, the
pile and the move buttons on the page; a PNG of the right size that is not one colour), and
the finished game is replayed in the page, move by move.
"""
from __future__ import annotations

import io
import os
import time

import pytest
from PIL import Image
from playwright.sync_api import sync_playwright

from web_support import CHROMIUM, ensure_chromium, get, greedy_choice, server_thread

SEED = 4242
TIME_LIMIT = 300  # seconds for the whole game


def _check_png(path: str, min_w: int = 800, min_h: int = 500) -> None:
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    img = Image.open(io.BytesIO(data)).convert("RGB")
    w, h = img.size
    assert w >= min_w and h >= min_h, (path, img.size)
    colours = img.getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 50, f"{path}: {len(colours or [])} colours: a blank page?"
    lo, hi = zip(*img.getextrema())
    assert max(hi) - min(lo) > 100, f"{path}: no contrast"


def _shoot(page, shots, name: str) -> str:
    path = os.path.join(shots, name)
    page.screenshot(path=path, full_page=True)
    _check_png(path)
    return path


def _end_checks(page) -> None:
    """At the end every card is shown (the game hides nothing any more): no back is drawn."""
    assert page.locator("#board svg g.pile").count() == 1
    assert page.locator("#board svg g.seat").count() == 4
    assert page.locator("#board svg g.card.back").count() == 0
    assert page.locator("#moves button").count() == 0


def _table_checks(page, seat, my_turn: bool) -> None:
    """The page shows the table as the seat sees it: its own hand face up, the pile, the move
    buttons on its turn, and no other seat's hidden hand card."""
    svg = page.locator("#board svg")
    assert svg.count() == 1
    me = page.locator(f'#board svg g.seat.observer[data-seat="{seat}"]')
    assert me.count() == 1
    assert me.locator("g.hand g.card[data-card]").count() + me.locator("g.face-up g.card[data-card]").count() \
        + me.locator("g.face-down g.card").count() >= 1
    assert page.locator("#board svg g.pile").count() == 1
    assert page.locator("#board svg g.draw-pile").count() == 1
    others_faces = page.locator(f'#board svg g.seat:not([data-seat="{seat}"]) g.hand g.card[data-card]:not(.known)')
    assert others_faces.count() == 0, "another seat's hidden hand card is drawn"
    if my_turn:
        assert page.locator("#moves button.move").count() >= 1


def test_two_people_and_two_bots_play_in_chromium(tmp_path_factory):
    ensure_chromium()
    shots = str(tmp_path_factory.mktemp("screenshots"))
    db = str(tmp_path_factory.mktemp("browserdb") / "games.sqlite3")
    with server_thread(db, with_app=True, bot_delay=0.05, turn_timeout=0.0, rate=100.0, burst=100.0) as (url, app), \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            problems = []
            # the lobby: a table with two people and two greedy bots (the form's default), a seed
            host = browser.new_context(viewport={"width": 1280, "height": 900})
            lobby = host.new_page()
            lobby.on("pageerror", lambda e: problems.append(str(e)))
            lobby.goto(url + "/")
            lobby.wait_for_selector("#create")
            assert lobby.locator(".seatrow").count() == 4
            lobby.fill("#seed", str(SEED))
            lobby.fill(".seatrow[data-seat='0'] .name", "Ann")
            lobby.fill(".seatrow[data-seat='1'] .name", "Bob")
            _shoot(lobby, shots, "lobby.png")
            lobby.click("#create")
            lobby.wait_for_selector("#created-panel")
            links = {q: lobby.get_attribute(f"#created-panel li[data-seat='{q}'] a.join-link", "href") for q in (0, 1)}
            assert all(links.values()) and lobby.locator("#created-panel li").count() == 2
            assert f"You chose seed {SEED}" in lobby.inner_text("#created-seed")
            _shoot(lobby, shots, "created.png")
            table_id = links[0].split("/t/")[1].split("#")[0]
            hub = app.state.hub
            table = hub.tables[table_id]
            assert table.seed == SEED and [s.spec.kind for s in table.seats] == ["person", "person", "bot", "bot"]

            pages = {}
            for q in (0, 1):
                ctx = browser.new_context(viewport={"width": 1280, "height": 900})
                page = ctx.new_page()
                page.on("pageerror", lambda e: problems.append(str(e)))
                page.goto(links[q])
                page.wait_for_selector("#board svg")
                pages[q] = page
            watcher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            watcher.goto(f"{url}/t/{table_id}")
            watcher.wait_for_selector("#board svg g.seat")
            assert watcher.locator("#board svg g.seat.observer").count() == 0  # the public view: nobody's hand
            assert watcher.locator("#moves button").count() == 0
            # the creator chose the seed: every seat, and the spectator, is told so before play
            for p in list(pages.values()) + [watcher]:
                note = p.inner_text("#hints .seed-note")
                assert "chosen by the creator" in note and str(SEED) in note, note
            # storage fails, then works again: every page says so, then stops saying so
            loop = hub.storage.loop
            loop.call_soon_threadsafe(hub._storage_health, False, "the disk is full (a test)")
            for p in list(pages.values()) + [watcher]:
                p.wait_for_selector("#storage:not([hidden])", timeout=10_000)
                assert "the disk is full (a test)" in p.inner_text("#storage")
            loop.call_soon_threadsafe(hub._storage_health, True, "")
            for p in list(pages.values()) + [watcher]:
                p.wait_for_selector("#storage", state="hidden", timeout=10_000)

            clicks = {0: 0, 1: 0}
            shot_at = {10, 60}
            deadline = time.monotonic() + TIME_LIMIT
            while time.monotonic() < deadline:
                if all(p.get_attribute("#app", "data-over") == "1" for p in pages.values()):
                    break
                acted = False
                for q, page in pages.items():
                    buttons = page.locator("#moves button.move:not([disabled])")
                    if buttons.count() == 0:
                        continue
                    mn = int(page.get_attribute("#app", "data-move-number"))
                    # the page shows the seat's turn; the position waits for this click (nobody else
                    # moves), so the server's state is at rest: the person plays what greedy would
                    if table.move_number != mn or table.to_move() != q:
                        continue
                    action = greedy_choice(table.state.clone(), seed=mn)
                    if clicks[q] in shot_at:
                        _table_checks(page, q, True)
                        _shoot(page, shots, f"seat{q}-move{mn}.png")
                        _shoot(watcher, shots, f"spectator-move{mn}.png")
                    page.click(f'#moves button.move[data-action="{action}"]')
                    page.wait_for_function("n => document.getElementById('app').dataset.moveNumber !== n",
                                           arg=str(mn), timeout=15000)
                    clicks[q] += 1
                    acted = True
                if not acted:
                    time.sleep(0.02)
            assert all(p.get_attribute("#app", "data-over") == "1" for p in pages.values()), \
                f"the game did not end in {TIME_LIMIT} s (move {table.move_number})"
            assert clicks[0] > 5 and clicks[1] > 5, clicks
            for q, page in pages.items():
                page.wait_for_selector("#finish-order li")
                assert page.locator("#finish-order li").count() == 4
                _end_checks(page)
                _shoot(page, shots, f"seat{q}-end.png")
                assert page.locator("#log li").count() > 20
            watcher.wait_for_selector("#finish-order li")

            # the stored game, replayed in the page
            games = get(url + "/api/games")["games"]
            assert len(games) == 1 and games[0]["seed"] == SEED
            rec = get(f"{url}/api/games/{games[0]['id']}")
            assert rec["movers"].count("person") == clicks[0] + clicks[1]
            replay = host.new_page()
            replay.on("pageerror", lambda e: problems.append(str(e)))
            replay.goto(f"{url}/replay/{games[0]['id']}")
            replay.wait_for_selector("#board svg")
            for k in range(1, 4):
                replay.click("#next")
                replay.wait_for_function("k => document.getElementById('app').dataset.step === k", arg=str(k))
            replay.click("#prev")
            replay.wait_for_function("() => document.getElementById('app').dataset.step === '2'")
            assert replay.locator("#replay-log li").count() >= 1
            replay.click("#last")
            replay.wait_for_function("n => document.getElementById('app').dataset.step === n",
                                     arg=str(len(rec["actions"])))
            _shoot(replay, shots, "replay-end.png")
            assert not problems, problems
            print(f"\nscreenshots in {shots}: {sorted(os.listdir(shots))}")
        finally:
            browser.close()
