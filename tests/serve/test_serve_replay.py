"""Replays at the reference server (issue 24 item 3): ``GET /api/tables/{id}/hands`` and ``/replay/{id}``, the
replay viewer of every finished hand of a table: never the seed, never a wall tile that was not drawn; a hand in
play is not replayable. In headless Chromium: step forwards, backwards, jump, pick a hand; a screenshot goes to
tests/artifacts/replay_server.png."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import hupai
import pytest
from hupai.game import Game
from hupai.jsonform import tile_out
from serve_helpers import free_port, join, new_table, open_client, server
from test_serve_browser import chromium

SEED = 2**63 + 9_876_543


def _match_over(client: Any, table_id: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while client.get(f"/api/tables/{table_id}").json()["status"] != "match_over":
        assert time.monotonic() < deadline, "the match did not end"
        time.sleep(0.02)


def _embedded(page: str) -> list[dict[str, Any]]:
    opening = '<script id="hands" type="application/json">'
    start = page.index(opening) + len(opening)
    hands: list[dict[str, Any]] = json.loads(page[start:page.index("</script>", start)])
    return hands


def _undrawn(log: str) -> list[str]:
    """The live wall's tiles left when the hand ended, in order, in notation: what was never drawn."""
    game = Game.replay(log)
    wall = game.table.wall
    kinds = len(game.table.hands[0])
    return [str(tile_out(t, kinds)) for t in wall.tiles[wall.head:getattr(wall, "tail", len(wall.tiles))]]


def _hand_logs(client: Any, table_id: str) -> list[str]:
    storage = client.app.state.host.storage
    rows = client.portal.call(storage.hands, table_id)
    return [log for _hand, log, _result in rows]


@pytest.mark.parametrize("rules", ["kawuxing", "waihuzi"])
def test_every_finished_hand_replays_without_the_seed_or_the_undrawn_wall(client: Any, rules: str) -> None:
    n = hupai.rules.get(rules).num_players
    table = new_table(client, rules=rules, bots=list(range(n)), hands=2, seed=SEED)
    _match_over(client, table["id"])
    listed = client.get(f"/api/tables/{table['id']}/hands").json()
    assert [h["hand"] for h in listed["hands"]] == [0, 1]
    assert all(len(h["payments"]) == n and sum(h["payments"]) == 0 for h in listed["hands"])
    reply = client.get(f"/replay/{table['id']}")
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/html")
    stubs = _embedded(reply.text)  # the page lists the hands; each is fetched when picked
    assert [stub["src"] for stub in stubs] == [f"/replay/{table['id']}/hands/{n}" for n in (0, 1)]
    texts = [client.get(stub["src"]).text for stub in stubs]
    page = reply.text + "".join(texts)
    hands = [json.loads(text) for text in texts]
    logs = _hand_logs(client, table["id"])
    assert len(hands) == len(logs) == 2
    for shown, log in zip(hands, logs, strict=True):
        data = json.loads(log)
        assert len(shown["frames"]) == len(data["actions"]) + 1  # every action, step by step
        final = Game.replay(log)
        for seat in range(n):  # the last frame: every hand face up
            assert sorted(shown["frames"][-1]["hands"][seat]) == sorted(
                str(tile_out(t, len(final.table.hands[0]))) for t in final.observation(seat).hand)
        assert str(data["setup"]["seed"]) not in page
        undrawn = _undrawn(log)
        assert len(undrawn) >= 4
        for start in range(len(undrawn) - 3):  # no run of four undrawn tiles in their order
            assert json.dumps(undrawn[start:start + 4], separators=(",", ":"))[1:-1] not in page
    assert str(SEED) not in page and '"seed"' not in page and '"setup"' not in page
    assert client.get(f"/replay/{table['id']}").text + "".join(client.get(stub["src"]).text for stub in stubs) \
        == page
    assert client.app.state.host.replays.built == 2  # each hand built once


def test_a_hand_in_play_is_not_replayable_and_unknown_tables_are_refused(client: Any) -> None:
    table = new_table(client, bots=[1, 2, 3], seed=None, claim_seconds=30)
    join(client, table["id"])
    assert client.get(f"/api/tables/{table['id']}/hands").json()["hands"] == []
    reply = client.get(f"/replay/{table['id']}")
    assert reply.status_code == 404 and "not replayable" in reply.text
    for path in ("/replay/nope", "/api/tables/nope/hands", "/replay/" + "x" * 200):
        refused = client.get(path)
        assert refused.status_code == 404 and refused.json()["code"] == "not_found"


def test_the_replay_page_steps_in_chromium(tmp_path: Path) -> None:
    """Headless Chromium opens /replay/{id} of a finished two-hand match: forwards, backwards, a jump to an
    action, the second hand picked, its result; a screenshot goes to tests/artifacts/replay_server.png."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the server-test extra brings playwright")
    import httpx

    executable = chromium()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    artifacts = Path(__file__).resolve().parent.parent / "artifacts"
    artifacts.mkdir(exist_ok=True)
    with server(f"sqlite:///{tmp_path / 'replay.db'}", port, tmp_path / "server.log"), \
            httpx.Client(base_url=base, timeout=30) as client, sync_api.sync_playwright() as playwright:
        table = new_table(client, rules="yunxiao", bots=[0, 1, 2, 3], hands=2, seed=SEED)
        _match_over(client, table["id"])
        browser = playwright.chromium.launch(executable_path=executable, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone-sized viewport
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{base}/replay/{table['id']}")
            loaded = "document.getElementById('where').textContent.startsWith('action 0 /')"
            page.wait_for_function(loaded, timeout=60_000)  # the hand is fetched when picked
            page.click("#next")
            page.click("#next")
            assert "action 2 /" in page.inner_text("#where")
            page.click("#back")
            assert "action 1 /" in page.inner_text("#where")
            page.eval_on_selector("#step", "(e) => { e.value = 7; e.dispatchEvent(new Event('input')); }")
            assert "action 7 /" in page.inner_text("#where")  # jump to an action
            assert page.locator("#hand option").count() == 2
            page.select_option("#hand", "1")
            page.wait_for_function(loaded, timeout=60_000)
            page.click("#last")
            result = page.inner_text("#result")
            assert "payments" in result.lower() and "|" not in result and "P1" not in result
            assert "Gold" in page.inner_text("#info") and "{" not in page.inner_text("#info")  # described, no JSON
            page.screenshot(path=str(artifacts / "replay_server.png"), full_page=True)
            assert errors == []
        finally:
            browser.close()


def test_an_expired_tables_hands_stay_replayable_on_either_database(db_url: str) -> None:
    with open_client(db_url) as client:
        table = new_table(client, rules="yunxiao", bots=[0, 1, 2, 3], hands=1, seed=SEED)
        _match_over(client, table["id"])
        page = client.get(f"/replay/{table['id']}").text
    with open_client(db_url, bot_table_minutes=0.0001, sweep_seconds=0.01) as client:  # restarted: it expires
        # (with every other bot table of the session's database: on a loaded machine that takes a while)
        deadline = time.monotonic() + 90
        while client.get(f"/api/tables/{table['id']}").status_code != 410:
            assert time.monotonic() < deadline, "the table did not expire"
            time.sleep(0.02)
        assert client.get(f"/api/tables/{table['id']}/watch").json()["code"] == "expired"
        assert client.get(f"/replay/{table['id']}").text == page
        assert [h["hand"] for h in client.get(f"/api/tables/{table['id']}/hands").json()["hands"]] == [0]


def test_replays_are_built_once_and_bounded_per_address(client: Any) -> None:
    """Issue 29 item 8: a hand's replay is built once (asking again costs no build); an address that asks for
    more builds than its budget is refused ``rate_limited`` while built hands are still served; the cache
    keeps within its bytes."""
    from hupai.serve.watch import Replays

    table = new_table(client, rules="guangdong", bots=[0, 1, 2, 3], hands=3, seed=SEED)
    _match_over(client, table["id"])
    host = client.app.state.host
    host.replays = Replays(rate=0.001, burst=2, cache_bytes=1)  # two builds for this address, one hand kept
    sources = [stub["src"] for stub in _embedded(client.get(f"/replay/{table['id']}").text)]
    assert len(sources) == 3
    first = client.get(sources[0])
    assert first.status_code == 200 and first.headers["cache-control"].startswith("public")
    assert client.get(sources[0]).content == first.content and host.replays.built == 1  # kept: no second build
    assert client.get(sources[1]).status_code == 200 and host.replays.built == 2
    refused = client.get(sources[2])
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert len(host.replays.cached) == 1 and list(host.replays.cached) == [(table["id"], 1)]  # bounded in bytes
    assert client.get(sources[1]).status_code == 200 and host.replays.built == 2  # the kept one costs nothing
    assert client.get(f"/replay/{table['id']}/hands/9").json()["code"] in ("not_found", "rate_limited")
    assert client.get(f"/replay/{table['id']}/hands/x").json()["code"] == "not_found"
