"""The server's CPU for one change of a watched table: N spectators' state messages while a timer runs (each
message counts its seconds left), with the spectator's view built once per change and shared (as served) and,
alternated with it, built for every message (what a per-message build would cost).

    .venv/bin/python bench/spectator_messages.py --spectators 100 --rounds 3

In this process, on a fresh SQLite file: a Guangdong table of four human seats, 40 actions into its hand
(melds and discards on the table), a timer running for the seat to act.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time

from hupai.bots import GreedyBot
from hupai.serve import watch
from hupai.serve.storage import Storage, open_database
from hupai.serve.tables import Table, parse_config


async def _run(spectators: int, rounds: int, repeats: int = 20) -> None:
    folder = tempfile.mkdtemp()
    storage = Storage(open_database(f"sqlite:///{folder}/bench.db"), 32)
    await storage.init()
    config, rules, seed = parse_config({"rules": "guangdong", "bots": [], "claim_seconds": 30, "seed": None})
    table = await Table.create("bench", config, rules, seed, storage)
    bots = [GreedyBot(seat) for seat in range(4)]
    for _ in range(40):  # mid-hand; applied to the game alone (not stored): a benchmark of the messages only
        seat = table.game.seats_to_act[0]
        table.game.apply(bots[seat].act(table.game.observation(seat)))
    table._open_decisions(set(), None)
    assert table.spectator_message()["timers"], "no timer runs: every message would be cached whole"
    for index in range(rounds):
        costs = {}
        for mode in ("shared", "per message"):
            started = time.process_time()
            for _ in range(repeats):
                table.published.clear()  # a change
                for _ in range(spectators):
                    if mode == "per message":
                        table.published.pop(watch._VIEW, None)
                    await watch.spectator_text(table)
            costs[mode] = (time.process_time() - started) / repeats
        print(f"round {index}: {spectators} spectators, one change: view shared {costs['shared'] * 1e3:.2f} ms CPU, "
              f"built per message {costs['per message'] * 1e3:.2f} ms CPU, "
              f"ratio {costs['shared'] / costs['per message']:.2f}")
    await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(_run(args.spectators, args.rounds))


if __name__ == "__main__":
    main()
