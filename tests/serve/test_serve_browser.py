"""The browser table end to end: headless Chromium (Debian's, driven by Playwright) opens a table against
three server-side bots, plays a full hand by clicking the page's tile and action buttons, and saves a
screenshot under tests/artifacts/."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import free_port, new_table, server

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium: apt-get install chromium (.ci/run installs it)")


def play_through(page: Any) -> tuple[int, bool]:
    """Play the open hand through the page until its result shows: win when offered, pass a claim, else discard
    by clicking a tile. Returns (clicks, whether a claim window showed its timer)."""
    clicks = 0
    timed = False
    deadline = time.monotonic() + 120
    while not page.is_visible("#result"):
        assert time.monotonic() < deadline, "the hand did not end"
        if page.is_visible("#timer"):
            timed = True
        wins = page.locator("#actions button[data-kind=win]:enabled")
        actions = page.locator("#actions button:enabled")
        if wins.count():
            wins.first.click()
        elif actions.count():
            # Claims: pass when offered (keeps the hand moving); a turn: discard by clicking the tile.
            passing = page.locator("#actions button[data-kind=pass]:enabled")
            tiles = page.locator("#hand button.tile.playable:enabled")
            if passing.count():
                passing.first.click()
            elif tiles.count():
                tiles.last.click()
            else:
                actions.first.click()
            clicks += 1
        else:
            page.wait_for_timeout(20)
    return clicks, timed


@contextmanager
def table_page(tmp_path: Path, **table_args: Any) -> Iterator[tuple[Any, Any, str, list[str]]]:
    """A server with a new table (``table_args`` for ``new_table``) opened in headless Chromium at the seat the
    page joins: yields (HTTP client, page, base URL, the page's JavaScript errors)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the server-test extra brings playwright")
    import httpx

    executable = chromium()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with server(f"sqlite:///{tmp_path / 'browser.db'}", port, tmp_path / "server.log"), \
            httpx.Client(base_url=base, timeout=10) as client, sync_api.sync_playwright() as playwright:
        table = new_table(client, think_ms=0, claim_seconds=30, **table_args)
        browser = playwright.chromium.launch(executable_path=executable, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{base}/?table={table['id']}")
            page.wait_for_selector("#hand button.tile")
            yield client, page, base, errors
        finally:
            browser.close()


def test_a_full_hand_through_the_page(tmp_path: Path) -> None:
    with table_page(tmp_path, rules="yunxiao", bots=[1, 2, 3], hands=2, seed=5) as (client, page, base, errors):
        clicks, timed = play_through(page)
        assert clicks > 5
        result = page.inner_text("#result")
        assert "Payments" in result and ("Won by" in result or "Drawn" in result)
        assert page.is_visible("#next") and "match score" in page.inner_text("#scores")
        assert "金" in page.inner_text("#indicators")  # Yunxiao's gold is shown
        assert timed  # a claim window showed its timer
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "browser_table.png"), full_page=True)
        # The lobby: a new three-seat Kawuxing table with bots, opened from the form.
        page.goto(base)
        page.select_option("#rules", "kawuxing")
        page.click("#create button[type=submit]")
        page.wait_for_selector("#hand button.tile")
        assert page.locator("#seats .seat").count() == 3 and "kawuxing" in page.inner_text("#status")
        assert not errors, errors


def test_a_wai_huzi_hand_through_the_page(tmp_path: Path) -> None:
    """The zipai table: cards drawn as their characters, the session 神 shown, a full hand to its result."""
    with table_page(tmp_path, rules="waihuzi", bots=[1, 2], seed=8) as (client, page, base, errors):
        hand_text = page.inner_text("#hand")
        assert any(name in hand_text for name in ("x1", "x5", "d3", "d10", "x10", "d7")), hand_text
        assert "神" in page.inner_text("#indicators")
        clicks, _ = play_through(page)
        assert clicks > 3
        result = page.inner_text("#result")
        assert "Payments" in result and ("Won by" in result or "Drawn" in result)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "browser_waihuzi.png"), full_page=True)
        assert not errors, errors
