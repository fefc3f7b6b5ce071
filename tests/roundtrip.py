"""The snapshot round-trip property (issue 20 item 1): everything the engine writes, it reads back.

Seeded games of every rule system are played by bots that claim, kong and declare (亮倒, 报听, 游金, 溜/飘/歪)
whenever they may (:class:`EagerBot`, over :class:`~hupai.bots.GreedyBot` or :class:`~hupai.bots.RandomBot`),
and after every action (the end of the hand included) the game's snapshot goes through JSON text and
:meth:`Game.from_snapshot`, without and (on a share of the actions) with ``verify=True``, and is restored as it
stands in memory too. The restored game must
be the original: the same snapshot, the same decision, legal actions and observation for every seat, and once
the hand is over the same result and log. From one restored mid-hand state per game, play goes on with the
original's remaining actions and must write the original's log byte for byte.

Used by ``tests/game/test_roundtrip.py``; run as a script for the long run (counts and time)::

    .venv/bin/python tests/roundtrip.py --games 1000            # per rule system, every action verified too
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import hupai
from hupai.actions import Action
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game
from hupai.observation import Observation

#: The rule systems the engine plays (each is run: mahjong and zipai families).
SYSTEMS = ("guangdong", "yunxiao", "kawuxing", "waihuzi")
#: Action kinds an eager bot takes whenever it may: claims, kongs, declarations (and every zipai group).
EAGER_KINDS = frozenset({"kong", "pung", "chow", "declare", "liu", "piao", "wai"})


class EagerBot:
    """Takes a claim, a kong, a declaration or a flagged discard (亮倒) whenever one is legal (with probability
    ``eagerness``, chosen at random among them); otherwise plays as ``inner``. It sees observations (or legal
    actions) only, like every bot."""

    def __init__(self, inner: GreedyBot | RandomBot, seed: int, eagerness: float = 0.9) -> None:
        self.inner = inner
        self._rng = random.Random(seed)
        self.eagerness = eagerness

    def _eager(self, legal: Sequence[Action]) -> Action | None:
        options = [a for a in legal if a.kind in EAGER_KINDS or (a.kind == "discard" and a.flag)]
        if options and self._rng.random() < self.eagerness:
            return options[int(self._rng.random() * len(options))]
        return None

    def choose(self, legal_actions: Sequence[Action]) -> Action | None:
        eager = self._eager(legal_actions)
        if eager is not None:
            return eager
        return self.inner.choose(legal_actions)

    def act(self, observation: Observation) -> Action:
        return self._eager(observation.legal_actions) or self.inner.act(observation)


def players(system: str, seed: int) -> list[Any]:
    """The bots of game ``seed``: by seed, eager Greedy, eager Random, plain Greedy or a mixed table."""
    n = hupai.rules.get(system).num_players
    style = seed % 4
    out: list[Any] = []
    for seat in range(n):
        bot_seed = seed * 8 + seat
        inner: GreedyBot | RandomBot = GreedyBot(bot_seed) if style in (0, 2) or seat % 2 else RandomBot(bot_seed)
        out.append(inner if style == 2 else EagerBot(inner, bot_seed, 0.9 if style != 3 else 0.5))
    return out


def _text(game: Game) -> str:
    return json.dumps(game.snapshot(), sort_keys=True, separators=(",", ":"))


def _views(game: Game) -> list[Any]:
    """What the game shows each seat and the driver: the decision, legal actions and observation per seat."""
    n = game.rules.num_players
    return [tuple(game.current), [
        (list(game.legal_actions(seat)), game.observation(seat).to_dict()) for seat in range(n)]]


@dataclass
class Tally:
    """What a run did: games, states restored (by mode), plays-on, seconds; and any refusal or mismatch."""

    games: int = 0
    actions: int = 0
    restored: int = 0
    verified: int = 0
    played_on: int = 0
    seconds: float = 0.0
    by_system: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        return (f"{self.games} games ({', '.join(f'{k} {v}' for k, v in self.by_system.items())}), "
                f"{self.actions} actions, {self.restored} restores without verify, {self.verified} with "
                f"verify=True, {self.played_on} plays-on, 0 refusals, {self.seconds:.1f} s")


def check_state(game: Game, verify: bool, where: str) -> Game:
    """Restore ``game`` from its snapshot's JSON text; the restored game must be the original. Returns it."""
    text = _text(game)
    try:
        restored = Game.from_snapshot(json.loads(text), verify=verify)
    except hupai.HupaiError as error:
        raise AssertionError(f"{where}: from_snapshot(verify={verify}) refused its own snapshot: {error}") from None
    assert _text(restored) == text, f"{where}: the restored game writes another snapshot"
    if not verify:  # the snapshot as it stands in memory (what a server holds to fall back on) restores too
        try:
            in_memory = Game.from_snapshot(game.snapshot())
        except hupai.HupaiError as error:
            raise AssertionError(f"{where}: from_snapshot refused its own in-memory snapshot: {error}") from None
        assert _text(in_memory) == text, f"{where}: the in-memory snapshot restores as another game"
    assert _views(restored) == _views(game), f"{where}: the restored game shows another state"
    if game.over:
        assert restored.result is not None and game.result is not None
        assert restored.result.to_dict() == game.result.to_dict(), f"{where}: another result"
        assert restored.to_json() == game.to_json(), f"{where}: the restored game writes another log"
    return restored


def run_game(system: str, seed: int, tally: Tally, verify_every: int = 1, every: int = 1) -> None:
    """Play game ``seed`` of ``system`` restoring every ``every``-th state (from a random first one) and the
    last, with ``verify=True`` on every ``verify_every``-th of those and the last."""
    rules = hupai.rules.get(system)
    n = rules.num_players
    window = "all" if seed % 3 else "eligible"
    game = Game(rules, seed=seed, dealer=seed % n, claim_window=window)
    bots = players(system, seed)
    rng = random.Random(seed)
    resume_at = -1
    checkpoint: Game | None = None
    index = 0
    offset = rng.randrange(every)
    checked = 0
    while True:
        if game.over or (index + offset) % every == 0:
            where = f"{system} seed {seed} after {index} actions"
            restored = check_state(game, False, where)
            tally.restored += 1
            if game.over or checked % verify_every == 0:
                check_state(game, True, where)
                tally.verified += 1
            checked += 1
            if resume_at < 0 and rng.random() < 0.05 * every:
                resume_at, checkpoint = index, restored
        if game.over:
            break
        seat = game.seats_to_act[0]
        legal = game.legal_actions(seat)
        bot = bots[seat]
        action = bot.choose(legal) if hasattr(bot, "choose") else None
        if action is None:
            action = bot.act(game.observation(seat))
        game.apply(action)
        index += 1
    if checkpoint is None:
        resume_at, checkpoint = 0, Game.from_snapshot(json.loads(_text(Game(rules, seed=seed, dealer=seed % n,
                                                                            claim_window=window))))
    for action in game.actions[resume_at:]:
        checkpoint.apply(action)
    assert checkpoint.to_json() == game.to_json(), f"{system} seed {seed}: playing on from action {resume_at} " \
                                                   "writes another log"
    tally.played_on += 1
    tally.games += 1
    tally.actions += index
    tally.by_system[system] = tally.by_system.get(system, 0) + 1


def check_hand_sizes(game: Game, where: str) -> None:
    """The hand-size invariant: every seat's observation reports each seat's true concealed count, and the counts
    are the rules' (mahjong: 13 concealed less 3 per meld, one more for the seat to discard; Wai Huzi WH-11: 19
    cards at rest counting each group's cards, one more per 4-card group, one more for the seat to discard)."""
    table: Any = game.table
    n = game.num_players
    held = tuple(sum(table.hands[seat]) for seat in range(n))
    for seat in range(n):
        sizes = game.observation(seat).hand_sizes
        assert sizes == held, f"{where}: seat {seat}'s observation reports hand sizes {sizes}, the table holds {held}"
    if game.over:
        return
    turn = table.turn_seat if table.phase == "turn" else -1
    for seat in range(n):
        if game.rules.family == "zipai":
            extra = 1 if seat == turn else 0
            assert table.cards_held(seat) == table.at_rest(seat) + extra, \
                f"{where}: seat {seat} holds {table.cards_held(seat)} cards, WH-11 says {table.at_rest(seat) + extra}"
        else:
            size = held[seat] + 3 * len(table.melds[seat])
            assert size in (13, 14), \
                f"{where}: seat {seat} holds {held[seat]} tiles beside {len(table.melds[seat])} melds"


def play_checked(system: str, seed: int, options: dict[str, Any], restore_every: int = 0) -> int:
    """Play game ``seed`` of ``system`` under ``options`` with the eager and random bots of :func:`players`,
    checking :func:`check_hand_sizes` after every action; every ``restore_every``-th action (and the end) the
    snapshot is restored with ``verify=True`` and must be the same game. Returns the actions played."""
    rules = hupai.rules.get(system, options)
    n = rules.num_players
    game = Game(rules, seed=seed, dealer=seed % n, claim_window="all" if seed % 3 else "eligible")
    bots = players(system, seed)
    index = 0
    while True:
        where = f"{system} {options} seed {seed} after {index} actions"
        check_hand_sizes(game, where)
        if game.over or (restore_every and index % restore_every == restore_every - 1):
            check_state(game, True, where)
        if game.over:
            return index
        seat = game.seats_to_act[0]
        bot = bots[seat]
        action = bot.choose(game.legal_actions(seat)) if hasattr(bot, "choose") else None
        game.apply(action if action is not None else bot.act(game.observation(seat)))
        index += 1


def run(systems: Sequence[str], games: int, verify_every: int = 1, first_seed: int = 0, every: int = 1,
        progress: int = 0) -> Tally:
    """Play ``games`` games of each system from ``first_seed``; print the tally every ``progress`` games."""
    tally = Tally()
    start = time.process_time()
    for system in systems:
        for seed in range(first_seed, first_seed + games):
            run_game(system, seed, tally, verify_every, every)
            if progress and tally.games % progress == 0:
                tally.seconds = time.process_time() - start
                print("so far:", tally.line(), flush=True)
    tally.seconds = time.process_time() - start
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per rule system")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=1, help="restore every N-th state (and the last)")
    parser.add_argument("--verify-every", type=int, default=1,
                        help="verify=True on every N-th state restored (and the last)")
    parser.add_argument("--systems", nargs="*", default=list(SYSTEMS))
    parser.add_argument("--progress", type=int, default=0, help="print the tally every N games")
    args = parser.parse_args()
    for system in args.systems:
        tally = run([system], args.games, args.verify_every, args.first_seed, args.every, args.progress)
        print(tally.line(), flush=True)


if __name__ == "__main__":
    main()
