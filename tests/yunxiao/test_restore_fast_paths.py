"""A Yunxiao restore's quick paths give what the slow ones give: the core decodes a table whose chows record a
白板 as the gold's kind (YX-7) with the same result and the same refusals as the Python count, and the 游 level
check asks ``on_discard`` only of the seats whose level it could move, with the same refusals as asking every
seat."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hupai import InvalidState
from hupai._core import compact_tiles, has_list
from hupai.actions import Action
from hupai.bots import RandomBot
from hupai.game import Game
from hupai.game.state import compact
from hupai.rules.contract import TableView
from hupai.rules.yunxiao.hand import WHITE
from hupai.rules.yunxiao.rules import YunxiaoRules

RULES = YunxiaoRules()


def _games(seeds: range, stops: int = 3) -> Iterator[Game]:
    """Seeded random games, each paused at up to ``stops`` decisions along the way."""
    for seed in seeds:
        game = Game(RULES, seed=seed, claim_window="eligible")
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        step = paused = 0
        while not game.over and paused < stops:
            step += 1
            if step % (7 + seed % 5) == 0:
                paused += 1
                yield game
            seat = game.seats_to_act[0]
            game.apply(bots[seat].choose(game.legal_actions(seat)))


def _stand_in_snapshot() -> dict[str, Any]:
    """A snapshot whose tile count needs the stand-in: the core refuses it without being told of the stand-in."""
    for seed in range(400):
        game = Game(RULES, seed=seed, claim_window="eligible")
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        while not game.over:
            if game.table.phase in ("turn", "claim") and any(
                    m.type == "chow" and game.table.extras["gold"] in m.tiles for ms in game.table.melds for m in ms):
                snap = game.snapshot()
                if _core_args(snap)[-1] == b"" or compact_tiles(*_core_args(snap)[:-1]) is None:
                    return snap
            seat = game.seats_to_act[0]
            game.apply(bots[seat].choose(game.legal_actions(seat)))
    raise AssertionError("no seed gave a chow with the 白板 stand-in")


def _core_args(snap: dict[str, Any]) -> list[Any]:
    """compact_tiles' arguments for ``snap`` as table_from_compact passes them (stand-in bytes last)."""
    from hupai.game.state.validate import _dealt_wall

    t = snap["table"]
    state = t["state"]
    n = 4
    made = state[8 + n:8 + 2 * n]
    melds = [list(map(compact._meld, tokens)) for tokens in t["melds"]]
    extra = b"".join(m[1] for ms in melds for m in ms) + bytes(RULES.set_aside(t["extras"]))
    claimed = [0] * n
    for ms in melds:
        for m in ms:
            if m[2] >= 0:
                claimed[m[2]] += 1
    gold = t["extras"]["gold"]
    chows = sum(1 for ms in melds for m in ms if m[0].type == "chow" and gold in m[0].tiles)
    low, high = compact._sizes(n, RULES.hand_size, t["phase"], state[0])
    return [t["hands"], t["discards"], t["missed"], bytes(_dealt_wall(RULES, snap["setup"])), t["wall"][0],
            t["wall"][1], extra, compact._copies(RULES, []), bytes(made), bytes(claimed), bytes(map(len, melds)),
            low, high, bytes((gold, WHITE, chows)) if chows and gold != WHITE else b""]


@pytest.fixture(scope="module")
def stand_in_snap() -> dict[str, Any]:
    return _stand_in_snapshot()


def _outcome(snap: dict[str, Any], rules: Any = None) -> str:
    try:
        game = Game.from_snapshot(copy.deepcopy(snap), rules=rules)
    except InvalidState as error:
        return f"refused: {error}"
    return game.to_json() + repr(game.table.to_json())


def _python_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compact, "compact_tiles", lambda *args: None)


def test_the_core_takes_the_stand_in(stand_in_snap: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    args = _core_args(stand_in_snap)
    assert args[-1], "the snapshot has a chow holding the gold's kind"
    assert compact_tiles(*args[:-1]) is None  # without the stand-in the count is off
    assert compact_tiles(*args) is not None
    assert compact_tiles(*args[:-1], bytes((*args[-1][:2], 0))) is None  # no chow may stand in
    for bad in (b"\x00", bytes((34, WHITE, 1)), bytes((0, 34, 1)), b"\x00\x00\x00\x00"):
        with pytest.raises(TypeError):
            compact_tiles(*args[:-1], bad)
    calls: list[Any] = []
    real = compact_tiles

    def spy(*given: Any) -> Any:
        calls.append(real(*given))
        return calls[-1]

    monkeypatch.setattr(compact, "compact_tiles", spy)
    restored = _outcome(stand_in_snap)
    assert calls and calls[-1] is not None, "restored by the core, not the Python count"
    _python_count(monkeypatch)
    assert _outcome(stand_in_snap) == restored


def _tampered(snap: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The snapshot with one tile moved between the stand-in's kinds (or others) in a hand, a pile or the wall."""
    t = snap["table"]
    gold = t["extras"]["gold"]
    chars = compact.TILE_CHARS
    for seat in range(4):
        hand = list(t["hands"][seat])
        for take, give in ((WHITE, gold), (gold, WHITE), (WHITE, 0), (0, WHITE), (gold, 1)):
            if hand[take] != "0" and hand[give] != "9":
                moved = list(hand)
                moved[take] = str(int(moved[take]) - 1)
                moved[give] = str(int(moved[give]) + 1)
                out = copy.deepcopy(snap)
                out["table"]["hands"][seat] = "".join(moved)
                yield out
        pile = t["discards"][seat]
        if pile:
            for kind in (WHITE, gold):
                out = copy.deepcopy(snap)
                out["table"]["discards"][seat] = pile[:-1] + chars[kind]
                yield out
    for tokens in t["melds"]:
        for i, token in enumerate(tokens):
            if token[0] == "c":
                out = copy.deepcopy(snap)
                seat = t["melds"].index(tokens)
                out["table"]["melds"][seat][i] = "p" + token[1:]
                yield out


def test_a_tampered_stand_in_table_is_refused_as_the_python_count_refuses(
        stand_in_snap: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    cases = list(_tampered(stand_in_snap))
    assert len(cases) >= 8
    quick = [_outcome(case) for case in cases]
    assert any(outcome.startswith("refused: snapshot.table: tile conservation") for outcome in quick)
    _python_count(monkeypatch)
    assert [_outcome(case) for case in cases] == quick


class _AskEverySeat(YunxiaoRules):
    """Yunxiao with its own on_discard hook replaced (by the same hook): the level check asks every seat."""

    def on_discard(self, table: TableView, seat: int, tile: int) -> Any:
        return super().on_discard(table, seat, tile)


def test_the_level_check_refuses_what_asking_every_seat_refuses() -> None:
    slow = _AskEverySeat(RULES.options)
    checked = refused = 0
    for game in _games(range(40)):
        snap = game.snapshot()
        for seat in range(4):
            for level in range(4):
                forged = copy.deepcopy(snap)
                forged["table"]["extras"]["you"][seat] = level
                quick = _outcome(forged, RULES)
                assert quick == _outcome(forged, slow), (seat, level)
                checked += 1
                refused += quick.startswith("refused: snapshot.table.extras.you")
    assert checked > 400 and refused > 100


def test_the_level_check_asks_only_seats_with_a_gold_or_a_level(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    real = YunxiaoRules.on_discard

    def counted(self: YunxiaoRules, table: TableView, seat: int, tile: int) -> Any:
        asked.append(seat)
        return real(self, table, seat, tile)

    monkeypatch.setattr(YunxiaoRules, "on_discard", counted)
    skipped = 0
    for game in _games(range(20)):
        table = game.table
        gold, levels = table.extras["gold"], table.extras["you"]
        expected = [s for s in range(4) if (levels[s] or table.hands[s][gold])
                    and not (s == table.turn_seat and table.phase in ("turn", "rob"))
                    and any(a[0] == "discard" and a[1] == s for a in game._all_actions())]
        asked.clear()
        Game.from_snapshot(game.snapshot(), rules=RULES)
        assert sorted(asked) == expected
        skipped += len(expected) < 3
    assert skipped


def test_each_forged_state_entry_is_named() -> None:
    """The state check's refusals, entry by entry (with no melds on the table, so that the tile count, which
    reads the gold and the indicator too, passes first)."""
    game = next(g for g in _games(range(10)) if not any(g.table.melds) and g.table.phase == "turn")
    snap = game.snapshot()
    extras = snap["table"]["extras"]
    gold = extras["gold"]
    forged: list[tuple[dict[str, Any], str]] = [
        ({"extra": 1}, "snapshot.table.extras: must hold exactly chow_turn, gold, indicator, kongs, last_kong, you"),
        ({"gold": (gold + 1) % 34}, "snapshot.table.extras.gold: is not the kind of the wall's last tile"),
        ({"you": [0, 0, 0]}, "snapshot.table.extras.you: must be 4 levels in 0..3"),
        ({"you": [0, 0, 0, 4]}, "snapshot.table.extras.you: must be 4 levels in 0..3"),
        ({"you": [0, 0, 0, False]}, "snapshot.table.extras.you: must be 4 levels in 0..3"),
        ({"you": [0, 0, 0, -1]}, "snapshot.table.extras.you: must be 4 levels in 0..3"),
        ({"kongs": 1}, "snapshot.table.extras.kongs: must count the 0 kongs made"),
        ({"kongs": False}, "snapshot.table.extras.kongs: must count the 0 kongs made"),
        ({"last_kong": [0, 0]}, "snapshot.table.extras.last_kong: must be [] or"),
        ({"chow_turn": [0, 0, 0]}, "snapshot.table.extras.chow_turn: must be [] or"),
        ({"chow_turn": [0, 0]}, "snapshot.table.extras.chow_turn: must be [] or"),
        ({"chow_turn": [9, 0, 0]}, "snapshot.table.extras.chow_turn: must be [] or"),
    ]
    for change, message in forged:
        bad = copy.deepcopy(snap)
        bad["table"]["extras"].update(change)
        assert _outcome(bad).startswith(f"refused: {message}"), (change, _outcome(bad)[:200])
    assert not _outcome(snap).startswith("refused")


def test_has_list_finds_an_exact_list() -> None:
    assert has_list([("discard", 0, 1, (), ""), ["discard", 0, 1, [], ""]])
    assert has_list((["pass", 1, -1, [], ""],))
    assert not has_list([("discard", 0, 1, (), "")]) and not has_list([]) and not has_list(())
    assert not has_list([type("L", (list,), {})()])  # a list subclass is not JSON's list
    for bad in ({}, "ab", None, iter([])):
        with pytest.raises(TypeError):
            has_list(bad)


class _SeesActions(YunxiaoRules):
    """Yunxiao recording the types of the actions its state check is given."""

    seen: set[type] = set()

    def check_state(self, table: TableView, actions: Any) -> None:
        type(self).seen |= set(map(type, actions))
        super().check_state(table, actions)


def test_the_state_check_is_given_actions_from_json_lists_too() -> None:
    rules = _SeesActions(RULES.options)
    game = next(g for g in _games(range(3)) if len(g.snapshot()["actions"]) > 4)
    snap = game.snapshot()
    as_json = json.loads(json.dumps(snap))
    mixed = {**as_json, "actions": [*as_json["actions"][:2], *snap["actions"][2:]]}
    for given, lists in ((snap, False), (as_json, True), (mixed, True)):
        _SeesActions.seen = set()
        restored = Game.from_snapshot(given, rules=rules)
        assert _SeesActions.seen == {Action}, (lists, _SeesActions.seen)
        assert restored.to_json() == game.to_json()
