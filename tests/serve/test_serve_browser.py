"""The browser table end to end (issue 24 items 1 and 6): headless Chromium (Debian's, driven by Playwright) opens
a table of each rule system against server-side bots and plays it as a person would, by clicking: a tile of the
hand to discard it, a claim's button when one is offered. It checks the layout (seats around the square, yours
at the bottom), the facts panel (the rule system's described facts, never JSON), the last discard marked, the
result's pattern names in Chinese and English, the auto-pass option, and a phone-sized viewport (375 px: nothing
wider than the screen). Screenshots go to tests/artifacts/table_<system>.png (and _phone)."""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import free_port, new_table, server

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
DESKTOP = {"width": 1100, "height": 900}
PHONE = {"width": 375, "height": 667}
#: A fact each system's table shows from the first state: its Chinese label.
FIRST_FACT = {"guangdong": "封顶", "yunxiao": "金", "kawuxing": "亮倒", "waihuzi": "神"}
CLAIMS = "#actions button:is([data-kind=pung], [data-kind=chow], [data-kind=kong], [data-kind=wai], " \
         "[data-kind=liu], [data-kind=piao]):enabled"


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium: apt-get install chromium (.ci/run installs it)")


class Played:
    """What playing through the page did: discards clicked, claims made, claim windows passed, timers seen."""

    def __init__(self) -> None:
        self.discards = self.claims = self.passes = 0
        self.timed = False
        self.marked = False
        self.shown = 0  # the most tiles a rule showed face up in another seat's hand (亮倒)
        self.labels: list[str] = []  # the claim buttons clicked, as they read


def play_through(page: Any, played: Played, *, claim: bool = True, limit: float = 120) -> Played:
    """Play the open hand through the page until its result shows: win when offered, make a claim when offered
    (``claim``; pass otherwise), else discard by clicking a tile of the hand."""
    deadline = time.monotonic() + limit
    while not page.is_visible("#result"):
        assert time.monotonic() < deadline, "the hand did not end"
        played.timed = played.timed or page.is_visible("#timer")
        played.marked = played.marked or page.locator("#seats .discards .tile.last").count() == 1
        played.shown = max(played.shown, hands_drawn_once(page))
        wins = page.locator("#actions button[data-kind=win]:enabled")
        claims = page.locator(CLAIMS)
        passing = page.locator("#actions button[data-kind=pass]:enabled")
        tiles = page.locator("#hand button.tile.playable:enabled")
        others = page.locator("#actions button:enabled")
        try:
            if wins.count():
                wins.first.click(timeout=2000)
            elif claim and claims.count():
                text = claims.first.inner_text(timeout=2000)
                claims.first.click(timeout=2000)
                played.claims += 1
                played.labels.append(text)
            elif passing.count():
                passing.first.click(timeout=2000)
                played.passes += 1
            elif tiles.count():
                tiles.last.click(timeout=2000)
                played.discards += 1
            elif others.count():
                others.first.click(timeout=2000)
            else:
                page.wait_for_timeout(20)
        except Exception as error:  # the page re-rendered under the click (a bot moved): look again
            if "Timeout" not in type(error).__name__ and "detached" not in str(error):
                raise
    return played


def hands_drawn_once(page: Any) -> int:
    """Every other seat's hand is drawn once: its face-up tiles (a 亮倒 hand) and face-down ones together are
    as many as the seat holds. Returns the most face-up tiles one seat shows."""
    script = ("rows => rows.map(r => [+r.dataset.count, r.querySelectorAll('.tile.shown').length, "
              "r.querySelectorAll('.tile.back').length])")
    rows = page.eval_on_selector_all("#seats .seat .hand-row", script)
    for count, shown, hidden in rows:
        assert shown + hidden == count, rows
    return max((shown for _, shown, _ in rows), default=0)


@contextmanager
def browser_page(tmp_path: Path, viewport: dict[str, int] = DESKTOP) -> Iterator[tuple[Any, Any, str, list[str]]]:
    """A server and a headless Chromium page: yields (HTTP client, page, base URL, the page's JavaScript errors)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the server-test extra brings playwright")
    import httpx

    executable = chromium()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with server(f"sqlite:///{tmp_path / 'browser.db'}", port, tmp_path / "server.log"), \
            httpx.Client(base_url=base, timeout=10) as client, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport=viewport)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            yield client, page, base, errors
        finally:
            browser.close()


@contextmanager
def table_page(tmp_path: Path, viewport: dict[str, int] = DESKTOP, **table_args: Any
               ) -> Iterator[tuple[Any, Any, str, list[str], dict[str, Any]]]:
    """A new table (``table_args`` for ``new_table``) opened at the seat the page joins."""
    with browser_page(tmp_path, viewport) as (client, page, base, errors):
        table = new_table(client, think_ms=0, claim_seconds=30, **table_args)
        page.goto(f"{base}/?table={table['id']}")
        page.wait_for_selector("#hand button.tile")
        yield client, page, base, errors, table


def facts_panel(page: Any) -> list[tuple[str, str]]:
    """The facts panel as (label, value) pairs; no value is JSON."""
    labels = page.locator("#facts dt").all_inner_texts()
    values = page.locator("#facts dd").all_inner_texts()
    assert len(labels) == len(values)
    for value in values:
        assert not re.search(r"[\[\]{}]|\bnull\b|\btrue\b|\bfalse\b", value), value
    return list(zip(labels, values, strict=True))


def result_names(page: Any, patterns: dict[str, dict[str, str]]) -> list[str]:
    """The result's pattern lines: each '清一色 All One Suit ×N' from the table's names, never a pinyin id."""
    lines = page.locator("#result .patterns li").all_inner_texts()
    named = {f"{entry['zh']} {entry['en']}" for entry in patterns.values()}
    for line in lines:
        name = max((n for n in named if line.startswith(n + " ")), key=len, default=None)
        assert name is not None and re.fullmatch(r"(×\d+|-?\d+( 番)?)", line[len(name) + 1:]), line
        assert not re.search(r"[a-z]+_[a-z]+", line), line
    return lines


def no_horizontal_overflow(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size["width"]
    assert width <= viewport, f"the page is {width} px wide on a {viewport} px screen"


SYSTEMS = [("guangdong", [1, 2, 3], 11), ("yunxiao", [1, 2, 3], 5), ("kawuxing", [1, 2], 3), ("waihuzi", [1, 2], 8)]


@pytest.mark.parametrize(("system", "bots", "seed"), SYSTEMS, ids=[s[0] for s in SYSTEMS])
def test_a_table_of_each_system_through_the_page(tmp_path: Path, system: str, bots: list[int], seed: int) -> None:
    with table_page(tmp_path, rules=system, bots=bots, hands=3, seed=seed) as (client, page, base, errors, table):
        n = len(bots) + 1
        # The square: you at the bottom, the others left/top/right in turn order (下家 on the right).
        positions = page.eval_on_selector_all("#seats .seat",
                                              "els => els.map(e => [+e.dataset.seat, e.dataset.position])")
        assert positions == ([[0, "bottom"], [1, "right"], [2, "top"], [3, "left"]] if n == 4 else
                             [[0, "bottom"], [1, "right"], [2, "left"]])
        panel = facts_panel(page)
        assert any(label.startswith(FIRST_FACT[system]) for label, _ in panel), panel
        assert "wall" in page.inner_text("#indicators")
        patterns = client.get(f"/api/tables/{table['id']}").json()["patterns"]
        played = Played()
        lines: list[str] = []
        won = False
        for hand in range(3):  # until a hand is won (a drawn hand names no pattern) and a claim was made
            play_through(page, played)
            facts_panel(page)
            lines = result_names(page, patterns)
            won = won or bool(lines)
            if (won and played.claims) or hand == 2:
                break
            page.click("#next")
            page.wait_for_function("() => document.querySelector('#result').hidden")
        assert won, "no hand was won in three"
        assert played.discards >= 2 and played.marked and played.claims, vars(played)
        # Readable labels: 碰 pung 3m, 吃 chow 1m 2m 3m, 杠 kong 7p, 歪 wai x3, ...
        readable = r"(碰 pung|吃 chow|杠 kong|[明暗补]杠 (exposed|concealed|added) kong|歪 wai|溜 liu|飘 piao)"
        assert all(re.fullmatch(readable + r"( [1-9xd][0-9mpsz]*)+", label) for label in played.labels), played.labels
        assert played.timed  # the claim window's timer showed
        assert "Payments" in page.inner_text("#result") and "match score" in page.inner_text("#scores")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"table_{system}.png"), full_page=True)
        assert not errors, errors


def test_the_phone_layout_and_auto_pass(tmp_path: Path) -> None:
    """375x667: nothing wider than the screen, before and during play. With auto-pass on, no claim offer
    waits for the player: the page answers pass, and the hand is played by discarding alone."""
    with table_page(tmp_path, PHONE, rules="kawuxing", bots=[1, 2], hands=1, seed=3) as (client, page, base, errors,
                                                                                         table):
        no_horizontal_overflow(page)
        page.check("#autopass")
        played = Played()
        deadline = time.monotonic() + 120
        offered = 0
        while not page.is_visible("#result"):
            assert time.monotonic() < deadline
            # A claim offer (pass among the choices, no discard) never stays on the page long enough to click.
            buttons = page.locator("#actions button[data-kind=pass]:enabled")
            wins = page.locator("#actions button[data-kind=win]:enabled")
            if buttons.count() and not wins.count():
                page.wait_for_timeout(300)
                offered += page.locator("#actions button[data-kind=pass]:enabled").count()
            tiles = page.locator("#hand button.tile.playable:enabled")
            try:
                if wins.count():
                    wins.first.click(timeout=2000)
                elif tiles.count():
                    no_horizontal_overflow(page)
                    tiles.first.click(timeout=2000)
                    played.discards += 1
                else:
                    page.wait_for_timeout(20)
            except Exception as error:
                if "Timeout" not in type(error).__name__:
                    raise
        assert offered == 0 and played.discards >= 2
        assert hands_drawn_once(page) >= 10  # seed 3: the bots declare 亮倒, their hands shown face up once
        no_horizontal_overflow(page)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "table_kawuxing_phone.png"), full_page=True)
        assert not errors, errors


def test_the_lobby_opens_a_new_table(tmp_path: Path) -> None:
    with browser_page(tmp_path) as (client, page, base, errors):
        page.goto(base)
        page.select_option("#rules", "kawuxing")
        page.click("#create button[type=submit]")
        page.wait_for_selector("#hand button.tile")
        assert page.locator("#seats .seat").count() == 3 and "kawuxing" in page.inner_text("#status")
        assert not errors, errors


def test_the_spectator_page_shows_every_hand_face_down_and_plays_nothing(tmp_path: Path) -> None:
    """/watch/{id}: the same page, read-only: seat 0 at the bottom, every hand face down with its count (a 亮倒
    hand face up, once), the described facts, live as the bots play; no hand of one's own, no action, no link."""
    with browser_page(tmp_path) as (client, page, base, errors):
        table = new_table(client, rules="kawuxing", bots=[0, 1, 2], think_ms=120, hands=1, seed=3)
        page.goto(f"{base}/watch/{table['id']}")
        page.wait_for_selector("#seats .seat")
        positions = page.eval_on_selector_all("#seats .seat",
                                              "els => els.map(e => [+e.dataset.seat, e.dataset.position])")
        assert positions == [[0, "bottom"], [1, "right"], [2, "left"]]
        assert "watching" in page.inner_text("#status")
        assert not page.is_visible("#mine") and not page.is_visible("#copy-link")
        assert page.locator("#seats .seat .hand-row").count() == 3  # seat 0's hand too: face down
        page.wait_for_function("document.querySelectorAll('#seats .discards .tile').length >= 6")
        assert page.locator("#seats .discards .tile.last").count() == 1
        assert page.locator("#seats .tile.back").count() > 0
        hands_drawn_once(page)
        assert any(label.startswith("亮倒") for label, _ in facts_panel(page))
        page.wait_for_selector("#result:not([hidden])", timeout=120_000)
        assert page.locator("#next").count() == 0
        hands_drawn_once(page)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "table_watch.png"), full_page=True)
        assert not errors, errors
