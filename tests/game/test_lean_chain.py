"""The built-in bots' plain turns played by the core (``_core.lean_chain``, ``MahjongFlow._lean_chain``, asked by
``play_until``): the same games as the bots' own Python path, byte for byte (actions, events, the table, the bots'
streams), only ever for RandomBot and GreedyBot as built (never a subclass or a replaced method), never for the stop
seat; a malformed argument raises before anything is written."""

from __future__ import annotations

import copy
import gc
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hupai import _core
from hupai.actions import ACTIONS, Action
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game, play
from hupai.game.mahjong import flow as flow_module
from hupai.game.match import play_until
from hupai.search import _TableGreedy


class PyRandom(RandomBot):
    """RandomBot's decisions on its Python path only (a subclass: the core never plays it)."""


class PyGreedy(GreedyBot):
    """GreedyBot's decisions on its Python path only."""


def _record(game: Game, players: Sequence[Any]) -> tuple[str, list[bytes]]:
    return game.to_json(), [bytes(player._rng.state) for player in players]


def _played(rules: str, seed: int, players: Sequence[Any], window: str = "eligible") -> tuple[str, list[bytes]]:
    game = Game(rules, seed=seed, claim_window=window)
    play(game, players)
    return _record(game, players)


class _Counting:
    """Counts the core's runs and the turns they played (patched over the flow's lean_chain)."""

    def __init__(self) -> None:
        self.calls = 0
        self.turns = 0

    def __call__(self, *args: Any) -> Any:
        ran = _core.lean_chain(*args)
        self.calls += 1
        self.turns += len(ran[0]) // 2 + (ran[1] >= 0)
        return ran


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> _Counting:
    counter = _Counting()
    monkeypatch.setattr(flow_module, "lean_chain", counter)
    return counter


@pytest.mark.parametrize("rules", ["guangdong", "kawuxing", "yunxiao"])
@pytest.mark.parametrize("window", ["eligible", "all"])
def test_same_games_as_the_python_path(rules: str, window: str) -> None:
    n = 3 if rules == "kawuxing" else 4
    for seed in range(12):
        for core, python in ((RandomBot, PyRandom), (GreedyBot, PyGreedy)):
            assert (_played(rules, seed, [core(seed + i) for i in range(n)], window)
                    == _played(rules, seed, [python(seed + i) for i in range(n)], window))
        mixed = [RandomBot(seed), GreedyBot(seed + 1), PyRandom(seed + 2), RandomBot(seed + 3)][:n]
        python = [PyRandom(seed), PyGreedy(seed + 1), PyRandom(seed + 2), PyRandom(seed + 3)][:n]
        assert _played(rules, seed, mixed, window) == _played(rules, seed, python, window)


@pytest.mark.parametrize("rules", ["guangdong"])
def test_turns_are_played_in_runs(counting: _Counting, rules: str) -> None:
    n = 3 if rules == "kawuxing" else 4
    for seed in range(10):
        game = Game(rules, seed=seed, claim_window="eligible")
        play(game, [RandomBot(seed * 4 + i) for i in range(n)])
    assert counting.calls > 0
    assert counting.turns > 2 * counting.calls  # several turns a crossing
    for seed in range(5):
        game = Game(rules, seed=seed, claim_window="eligible")
        before = counting.calls
        play(game, [GreedyBot(i) for i in range(n)])
        assert counting.calls > before


def test_flows_that_chain() -> None:
    assert not Game("yunxiao", seed=1, claim_window="eligible")._flow.chains
    assert Game("kawuxing", seed=1, claim_window="eligible")._flow.chains  # by the promise of plain_turn_mask
    assert not Game("kawuxing", seed=1, claim_window="all")._flow.chains
    assert not Game("guangdong", seed=1, claim_window="all")._flow.chains
    assert Game("guangdong", seed=1, claim_window="eligible")._flow.chains


def test_kawuxing_plain_turn_mask_holds(monkeypatch: pytest.MonkeyPatch, counting: _Counting) -> None:
    """Kawuxing's promise (Rules.plain_turn_mask: a seat that declared 亮倒 discards what it draws, KW-17, never a
    plain turn) played through the core's run: the same games as the Python path. The rules are asked for it once
    until an action other than a plain discard (a 亮倒 among them), not at every run."""
    asked = [0]
    rules_type = type(Game("kawuxing", seed=0)._flow.rules)
    mask = rules_type.plain_turn_mask

    def counted(self: Any, table: Any) -> Any:
        asked[0] += 1
        return mask(self, table)
    monkeypatch.setattr(rules_type, "plain_turn_mask", counted)
    declared = 0
    for seed in range(40):
        game = Game("kawuxing", seed=seed, claim_window="eligible")
        other = Game("kawuxing", seed=seed, claim_window="eligible")
        bots = [GreedyBot(seed + i) for i in range(3)]
        python = [PyGreedy(seed + i) for i in range(3)]
        play(game, bots)
        play(other, python)
        assert _record(game, bots) == _record(other, python)
        declared += any(action.kind == "discard" and action.flag for action in game._actions)
        randoms = [RandomBot(seed + i) for i in range(3)]
        python_randoms = [PyRandom(seed + i) for i in range(3)]
        assert (_played("kawuxing", seed, randoms) == _played("kawuxing", seed, python_randoms))
    assert declared > 0  # (the runs met 亮倒 hands, whose turns are never plain)
    assert counting.calls > 0 and asked[0] < counting.calls


def test_kawuxing_facts_are_asked_again_after_a_meld_or_a_declaration() -> None:
    """The kept (plain_turn_mask, chow masks) outlive plain discards and passes: a meld (a claim, a kong) or a rules
    effect (亮倒, a flagged discard) drops them, as do the deal and a restore."""
    sentinel = (0, (0, 0, 0))
    plain = changed = declared = 0
    for seed in range(12):
        game = Game("kawuxing", seed=seed, claim_window="eligible")
        flow = game._flow
        assert flow._chain_facts is None
        bots = [GreedyBot(seed + i) for i in range(3)]
        snapshot = None
        while not game.over:
            seat = game.seats_to_act[0]
            action = bots[seat].act(game.observation(seat))
            if snapshot is None:
                snapshot = game.snapshot()  # (restored from its table: a finished hand is restored by a replay)
            flow._chain_facts = sentinel
            melds = sum(len(m) for m in game.table.melds)
            game.apply(action)
            if game.over:
                break
            if action.kind in ("discard", "pass") and not action.flag:
                plain += 1
                assert flow._chain_facts is sentinel, action
            elif action.flag or sum(len(m) for m in game.table.melds) != melds:
                changed += 1
                declared += bool(action.flag)
                assert flow._chain_facts is None, action
        flow._chain_facts = sentinel
        restored = Game.from_snapshot(snapshot)
        assert restored._flow._chain_facts is None
    assert plain > 0 and changed > 0 and declared > 0


def test_greedy_turns_build_no_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the core plays GreedyBot, its turns that the core did not reach (after a claim, the deal) are read
    from the table too: act (with an observation) only decides claims and turns with more than discards."""
    asked: list[tuple[str, tuple[str, ...]]] = []
    act = GreedyBot.act

    def counting(self: GreedyBot, observation: Any, seat: Any = None) -> Action:
        if type(self) is GreedyBot:
            asked.append((observation.phase, tuple(a.kind for a in observation.legal_actions)))
        return act(self, observation)
    monkeypatch.setattr(GreedyBot, "act", counting)
    for seed in range(6):
        game = Game("guangdong", seed=seed, claim_window="eligible")
        bots = [GreedyBot(seed + i) for i in range(4)]
        python = [PyGreedy(seed + i) for i in range(4)]
        play(game, bots)
        other = Game("guangdong", seed=seed, claim_window="eligible")
        play(other, python)
        assert _record(game, bots) == _record(other, python)
    assert any(phase == "claim" for phase, _ in asked)
    assert all(set(kinds) != {"discard"} for phase, kinds in asked if phase == "turn")


def test_a_shared_bot_draws_from_one_stream() -> None:
    for seed in range(8):
        shared, python = RandomBot(seed), PyRandom(seed)
        assert (_played("guangdong", seed, [shared, GreedyBot(1), shared, shared])
                == _played("guangdong", seed, [python, PyGreedy(1), python, python]))


def test_the_stop_seat_is_never_played(counting: _Counting) -> None:
    for seed in range(10):
        for stop in range(4):
            game = Game("guangdong", seed=seed, claim_window="eligible")
            other = Game("guangdong", seed=seed, claim_window="eligible")
            bots = [RandomBot(seed + i) for i in range(4)]
            python = [PyRandom(seed + i) for i in range(4)]
            while True:
                over = play_until(game, bots, stop)
                assert over == play_until(other, python, stop)
                assert _record(game, bots) == _record(other, python)
                if over:
                    break
                assert game.seats_to_act[0] == stop
                action = game.legal_actions(stop)[-1]
                game.apply(action)
                other.apply(action)
    assert counting.turns > 0


def test_replaced_methods_and_subclasses_are_not_played(counting: _Counting) -> None:
    last = [RandomBot(1) for _ in range(4)]
    for bot in last:
        bot.choose = lambda legal: legal[-1]  # type: ignore[method-assign]
    game = Game("guangdong", seed=3, claim_window="eligible")
    play(game, last)
    assert counting.calls == 0
    # Each seat's discards were its last legal action: the highest kind it held.
    discards = [a for a in game.actions if a.kind == "discard"]
    assert len(discards) > 10

    class Last(RandomBot):
        def choose(self, legal_actions: Sequence[Action]) -> Action:
            return legal_actions[-1]

    game = Game("guangdong", seed=3, claim_window="eligible")
    play(game, [Last(i) for i in range(4)])
    assert counting.calls == 0
    replaced = RandomBot(2)
    replaced._rng = copy.copy(replaced._rng)  # still a stream: played
    assert replaced._core_turns("guangdong") is not None
    replaced._rng = random.Random(2)  # type: ignore[assignment]  # no longer a stream the core can read
    assert replaced._core_turns("guangdong") is None
    assert PyGreedy(0)._core_turns("guangdong") is None
    assert GreedyBot(0)._core_turns("yunxiao") is None  # its advice ranks discards its own way


def test_rollout_players_are_played_as_their_choose(counting: _Counting) -> None:
    for seed in range(6):
        game = Game("guangdong", seed=seed, claim_window="eligible")
        players = [_TableGreedy(seed + i, 1) for i in range(4)]
        for player in players:
            player.table = game.table
        play(game, players)
        other = Game("guangdong", seed=seed, claim_window="eligible")
        python = [PyGreedy(seed + i, forms=1) for i in range(4)]
        play(other, python)
        assert _record(game, players) == _record(other, python)
    assert counting.turns > 0


def _chain_args(game: Game) -> list[Any]:
    flow = game._flow
    table = game.table
    seat = table.turn_seat
    bots = tuple(RandomBot(i)._core_turns("guangdong") for i in range(4))
    tile = game.legal_actions(seat)[0].tile
    return [flow._turn_pack, table.ready_bytes, seat, tile, table.drawn, table.wall.head,
            table.wall.tail - flow._dead_wall, flow._chowers, bots, None, flow_module._TURN_RECORDS]


def _buffers(args: list[Any]) -> list[bytes]:
    found: list[bytes] = []

    def walk(value: object) -> None:
        if isinstance(value, bytearray):
            found.append(bytes(value))
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)
    walk(args)
    return found


def test_malformed_arguments_write_nothing() -> None:
    game = Game("guangdong", seed=7, claim_window="eligible")
    args = _chain_args(game)
    good_bot = args[8][0]
    bad_stream = bytearray(good_bot[2])
    bad_stream[-4:] = (625).to_bytes(4, "little")
    seat = args[2]
    not_held = next(k for k in range(34) if not game.table.hands[seat][k])
    cases = {
        8: [(None,) * 3, (good_bot, good_bot, good_bot, (3, 1, good_bot[2])), (good_bot,) * 3 + ((1, 1, bad_stream),),
            (good_bot,) * 3 + ((1, 1, bytearray(10)),), (good_bot,) * 3 + ((1, 0, good_bot[2]),),
            (good_bot,) * 3 + ((1, 1),), [good_bot] * 4],
        7: [(2, 4, 8), (2, 4, 8, 1 << 4), (2, 4, 8, True)],
        2: [4, -1, True],
        3: [not_held, 34, -1],
        4: [34, -2],
        5: [10**6, -1],
        9: [(0,), (16, 10), (0, -1), (0, 10**6), [0, 10]],
        10: [flow_module._TURN_RECORDS[:-1], list(flow_module._TURN_RECORDS), None],
    }
    for index, values in cases.items():
        for value in values:
            bad = list(args)
            bad[index] = value
            before = _buffers(bad) + [bytes(bad_stream)]
            with pytest.raises((ValueError, TypeError)):
                _core.lean_chain(*bad)
            assert _buffers(bad) + [bytes(bad_stream)] == before, (index, value)
    with pytest.raises(TypeError):
        _core.lean_chain(*args[:-1])
    assert len(_core.lean_chain(*args)) == 5  # the good call plays


def test_a_runs_records_and_discards_are_the_flows_own() -> None:
    """lean_chain returns each move's record from the table it is given and the discard actions after the first
    (the last one included where a move came before it), from the pack's actions: the objects themselves."""
    for seed in range(30):
        game = Game("guangdong", seed=seed, claim_window="eligible")
        args = _chain_args(game)
        seat = args[2]
        first = args[3]
        moves, last, _, records, discards = _core.lean_chain(*args)
        turns = len(moves) // 2
        assert len(records) == turns
        expected_records = [flow_module._TURNS[(seat + at) % 4][moves[2 * at]][moves[2 * at + 1]]
                            for at in range(turns)]
        assert list(records) == expected_records
        assert all(a is b for a, b in zip(records, expected_records, strict=True))
        tiles = [moves[2 * at] for at in range(1, turns)] + ([last] if turns and last >= 0 else [])
        seats = [(seat + at) % 4 for at in range(1, len(tiles) + 1)]
        expected = [ACTIONS.discard[s][t] for s, t in zip(seats, tiles, strict=True)]
        assert len(discards) == len(expected) and all(a is b for a, b in zip(discards, expected, strict=True))
        assert turns == 0 or moves[0] == first


def test_hands_played_in_runs_leave_no_cyclic_garbage() -> None:
    """What play_until keeps on the flow for the hand (its bots) refers to nothing that refers back to the flow: a
    hand is freed by reference counting, as without the core's runs."""
    gc.collect()
    gc.disable()
    try:
        for seed in range(3):
            game = Game("guangdong", seed=seed, claim_window="eligible")
            play(game, [RandomBot(0), GreedyBot(1), RandomBot(2), GreedyBot(3)])
            assert game._flow.chained is not None
            del game
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_play_until_reads_the_players_once_a_hand() -> None:
    """play_until keeps the seats' choosers and acts on the flow for the same players and stop seat (it runs once
    a learner step in gym_env); other players or another stop seat are read anew."""
    reads: list[int] = []

    class Watched(RandomBot):
        def __getattribute__(self, name: str) -> Any:
            if name in ("choose", "act"):
                reads.append(1)
            return super().__getattribute__(name)

    game = Game("yunxiao", seed=2, claim_window="eligible")  # (a flow without runs: every seat's own chooser)
    players: list[Any] = [Watched(i) for i in range(4)]
    play_until(game, [None, *players[1:]], 0)
    first = len(reads)
    assert first > 0
    while not game.over:
        seat = game.seats_to_act[0]
        if seat != 0:
            break
        game.apply(RandomBot(7).choose(game.legal_actions(0)))
        play_until(game, [None, *players[1:]], 0)
    assert len(reads) == first
    play_until(game, players, 1)  # another stop seat: read again
    assert len(reads) > first
