"""A seat link end to end (issue 20 item 6): headless Chromium copies the seat link from the page ("Copy seat
link"), a second browser context (another device) opens it and takes the seat over, and the token never
travels in a request line: it is in the URL fragment, which the browser keeps, and goes over the WebSocket
hello only (nor is it in the server's log)."""

from __future__ import annotations

import re
from urllib.parse import unquote

from serve_helpers import new_table
from test_serve_browser import Played, Site, play_through, site  # noqa: F401  (site: the module's fixture)


def test_a_seat_link_opens_the_seat_on_another_device(site: Site) -> None:  # noqa: F811
    # No turn timer: however slow the machine, the seat is never put on auto meanwhile.
    table = new_table(site.client, rules="guangdong", bots=[1, 2, 3], seed=6, turn_seconds=0, think_ms=0,
                      claim_seconds=30)
    base = site.base
    with site.page() as (page, errors):
        page.goto(f"{base}/?table={table['id']}")
        page.wait_for_selector("#hand button")
        page.click("#copy-link")
        link = page.input_value("#seat-link")
        match = re.fullmatch(rf"{re.escape(base)}/t/([A-Za-z0-9_-]+)#seat=0&token=(.+)", link)
        assert match, link
        token = unquote(match.group(2))
        with site.page() as (other, other_errors):  # nothing shared with the first page
            urls: list[str] = []
            other.on("request", lambda request: urls.append(request.url))
            other.goto(link)
            other.wait_for_selector("#hand button")
            assert other.inner_text("#seats .seat[data-seat='0'] .plate .name") == "You"
            assert "#" not in other.url and token not in other.url  # taken off the address bar at once
            # The first page is told and stops reconnecting; it can take the seat back with "Play here".
            page.wait_for_selector("#here", state="visible")
            assert "another device" in page.inner_text("#status")
            played = Played()
            play_through(other, played, resize=False)  # the second device plays the hand
            assert played.discards + played.claims + played.passes > 3 and "Payments" in other.inner_text("#result")
            assert all(token not in url for url in urls) and any("/t/" in url for url in urls)
            assert not errors and not other_errors, (errors, other_errors)
    assert token not in site.log.read_text()
