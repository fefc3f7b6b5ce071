"""The GreedyBot ``ValueError: 'pass' is not in list`` of a Wai Huzi server table (issue 20 item 4), found at its
root: a failed write puts the table back with ``Game.from_snapshot`` of the snapshot it holds in memory, and a
Wai Huzi snapshot in memory held its pending claims' tiles as tuples, which the check refuses. The revert then
failed half-way, leaving the game one action ahead of the decisions the driver numbered, and the bot was asked
to act for a seat with nothing to decide. Now the snapshot is plain data all through, the revert restores it,
and the table plays on; a bot asked with no legal action says so (a HupaiError), never a ValueError."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from hupai import HupaiError
from hupai.bots import GreedyBot
from hupai.game import Game
from serve_helpers import new_table, open_client


@pytest.mark.parametrize("rules", ["waihuzi", "kawuxing"])
def test_a_bot_table_plays_on_after_a_failed_write(sqlite_url: str, rules: str,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    with open_client(sqlite_url) as client:
        storage = client.app.state.host.storage
        real = storage.record_action
        calls = 0

        async def failing_once(*args: Any, **kwargs: Any) -> None:
            nonlocal calls
            calls += 1
            if calls in (4, 9):  # a claim window's answers: the snapshot holds the pending options
                raise ConnectionError("the database went away")
            await real(*args, **kwargs)

        storage.record_action = failing_once
        with caplog.at_level(logging.WARNING, logger="hupai.serve"):
            n = 3  # a fixed seed: a random deal can end before the tenth recorded action, the second fault
            table = new_table(client, rules=rules, bots=list(range(n)), hands=1, seed=1, think_ms=0)
            deadline = time.monotonic() + 60
            while client.get(f"/api/tables/{table['id']}").json()["status"] != "match_over":
                assert time.monotonic() < deadline, caplog.text[-3000:]
                time.sleep(0.05)
    assert calls > 9
    # The two injected faults, each logged in one line (a storage fault: no traceback) and retried once.
    failures = [r for r in caplog.records if "failed, retrying" in r.getMessage()]
    assert len(failures) == 2, caplog.text[-3000:]
    assert all("ConnectionError" in r.getMessage() and not r.exc_info for r in failures), caplog.text[-3000:]
    assert sum("recovered" in r.getMessage() for r in caplog.records) == 2


def test_greedybot_asked_with_nothing_to_decide_says_so() -> None:
    game = Game("waihuzi", seed=1)
    idle = next(seat for seat in range(3) if not game.legal_actions(seat))
    with pytest.raises(HupaiError, match=f"seat {idle} has nothing to decide now"):
        GreedyBot(0).act(game.observation(idle))
    game = Game("guangdong", seed=1)
    with pytest.raises(HupaiError, match="seat 1 has nothing to decide now"):
        GreedyBot(0).act(game.observation(1))
