"""A seat link end to end (issue 20 item 6): headless Chromium copies the seat link from the page ("Copy seat
link"), a second browser context (another device) opens it and takes the seat over, and the token never
travels in a request line: it is in the URL fragment, which the browser keeps, and goes over the WebSocket
hello only (nor is it in the server's log)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from test_serve_browser import Played, play_through, table_page


def test_a_seat_link_opens_the_seat_on_another_device(tmp_path: Path) -> None:
    # No turn timer: however slow the machine, the seat is never put on auto meanwhile.
    with table_page(tmp_path, rules="guangdong", bots=[1, 2, 3], seed=6, turn_seconds=0) as (_, page, base, errors, _t):
        page.click("#copy-link")
        link = page.input_value("#seat-link")
        match = re.fullmatch(rf"{re.escape(base)}/t/([A-Za-z0-9_-]+)#seat=0&token=(.+)", link)
        assert match, link
        token = unquote(match.group(2))
        other = page.context.browser.new_context().new_page()  # nothing shared with the first page
        urls: list[str] = []
        other.on("request", lambda request: urls.append(request.url))
        other_errors: list[str] = []
        other.on("pageerror", lambda error: other_errors.append(str(error)))
        other.goto(link)
        other.wait_for_selector("#hand button.tile")
        assert other.inner_text("#seats .seat[data-seat='0'] .seat-head strong") == "You"
        assert "#" not in other.url and token not in other.url  # taken off the address bar at once
        # The first page is told and stops reconnecting; it can take the seat back with "Play here".
        page.wait_for_selector("#here", state="visible")
        assert "another device" in page.inner_text("#status")
        played = play_through(other, Played())  # the second device plays the hand
        assert played.discards + played.claims + played.passes > 3 and "Payments" in other.inner_text("#result")
        assert all(token not in url for url in urls) and any("/t/" in url for url in urls)
        assert not errors and not other_errors, (errors, other_errors)
    assert token not in (tmp_path / "server.log").read_text()
