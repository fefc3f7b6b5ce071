"""The event log as integer records (issue 30, item 1): the flows append ints, and ``Game.events``, the streams
and the logs decode them into exactly the :class:`~hupai.events.Event` objects the engine gave before.

The decoded streams of thousands of hands are compared with the digests the 6e046d8 build (before the change)
recorded (``tests/fixtures/make_event_digests.py``); never regenerate that fixture to make a test pass.
"""

from __future__ import annotations

import copy
import json
import pickle
import sys
from pathlib import Path

import hupai
import pytest
from hupai import InvalidState
from hupai import events as events_module
from hupai.bots import RandomBot
from hupai.events import INFOS, TYPES, Event, EventLog, record, turn_record
from hupai.game import Game, play

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
sys.path.insert(0, str(FIXTURES))
import make_event_digests as maker  # noqa: E402

RECORDED = json.loads(maker.FIXTURE.read_text())


@pytest.mark.parametrize("system", maker.SYSTEMS)
@pytest.mark.parametrize("chunk", range(RECORDED["hands"] // RECORDED["chunk"]))
def test_the_decoded_streams_are_the_old_builds(system: str, chunk: int) -> None:
    """Hands 0..999 of every system: Game.events (fields and types) and every seat's and the spectator's JSON
    stream give the digests the old build, which stored Event tuples, recorded."""
    start = chunk * RECORDED["chunk"]
    assert maker.stream_digests(system, start, start + RECORDED["chunk"]) == [RECORDED["systems"][system][chunk]]


def _every_kind_of_event() -> list[Event]:
    return [
        Event("deal", 0, -1, (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)),
        Event("deal", 3, 33, (), "extra"),
        Event("draw", 1, 5, (), "wall"), Event("draw", 2, 0, (), "replacement"),
        Event("discard", 3, 33), Event("discard", 0, 7, (), "ting"),
        Event("chow", 1, 4, (3, 4, 5), "0"), Event("pung", 2, 9, (9, 9, 9), "1"),
        Event("kong", 0, -1, (27, 27, 27, 27)), Event("kong", 0, 12, (12, 12, 12, 12), "3"),
        Event("rob", 2, 12, (), "added"), Event("win", 1, 12, (), "robbed_kong"), Event("pass", 2),
        Event("declare", 0, 31, (), "some flag"), Event("drawn"),
        Event("payment", 0, -1, (-3000000000, 1000000000, 1000000000, 1000000000), "a reason, 中文"),
        Event("end", -1, -1, (-1, 1, 0), "2"),
        Event("shen", 2, 19, (), "odd"), Event("turn_up", 0, 0), Event("chi", 1, 3, (1, 2, 3), "-1"),
        Event("peng", 2, 4, (4, 4, 4), "0"), Event("wai", 0, 5, (5, 5, 5), "0"),
        Event("liu", 1, -1, (6, 6, 6, 6), "-1"), Event("piao", 2, 7, (7, 7, 7, 7), "1"),
    ]


def test_every_event_type_round_trips() -> None:
    events = _every_kind_of_event()
    assert {event.type for event in events} == set(TYPES)
    log = EventLog.of(events)
    assert list(log) == events and len(log) == len(events) and log == events
    assert log[4] == events[4] and log[-1] == events[-1] and log[3:7] == events[3:7]
    assert all(type(event) is Event for event in log)
    assert [type(event.tiles) for event in log] == [tuple] * len(events)
    again = EventLog.from_records(log.records, log.infos)  # as read from outside
    assert list(again) == events and again.records == log.records and again.records is not log.records
    assert [e.to_json() for e in again] == [e.to_json() for e in events]


def test_a_common_event_is_one_int() -> None:
    """A draw or discard without tiles is one record; tiles follow their header as a run of its length."""
    log = EventLog()
    log.records.append(record("draw", 2, 5, "wall"))
    log.records.extend((record("discard", 2, 9), record("draw", 3, 0, "replacement")))
    log.add("deal", 1, -1, (4, 5, 6))
    assert len(log.records) == 3 + 1 + 3 and log.records[-3:] == [4, 5, 6]
    assert list(log) == [Event("draw", 2, 5, (), "wall"), Event("discard", 2, 9),
                         Event("draw", 3, 0, (), "replacement"), Event("deal", 1, -1, (4, 5, 6))]


@pytest.mark.parametrize("seats", [3, 4])
def test_a_plain_turn_is_one_int_for_two_events(seats: int) -> None:
    """The lean turn's record: the discard, then the next seat's wall draw (the next in the log's seats)."""
    log = EventLog(seats)
    log.records.append(turn_record(seats - 1, 33, 0))
    log.records.append(turn_record(0, 5, 7))
    assert list(log) == [Event("discard", seats - 1, 33), Event("draw", 0, 0, (), "wall"),
                         Event("discard", 0, 5), Event("draw", 1, 7, (), "wall")]
    assert EventLog.from_records(log.records, seats=seats) == log


def test_reading_again_decodes_only_the_new_records() -> None:
    log = EventLog.of([Event("draw", 0, 1, (), "wall")])
    first = log[0]
    log.records.append(record("discard", 0, 1))
    assert log[0] is first and log[1] == Event("discard", 0, 1) and len(log) == 2


def test_the_decoding_memo_stays_bounded_and_per_number_of_seats() -> None:
    # Records read from outside may name any event: the memo of decoded records must not grow without bound.
    records = [record(kind, seat, tile, info) for kind in ("discard", "draw", "win") for seat in range(3)
               for tile in range(126) for info in INFOS]
    assert len(records) > events_module._MEMO_SIZE
    log = EventLog.from_records(records, seats=3)
    assert len(log) == len(records) and log[-1] == Event("win", 2, 125, (), INFOS[-1])
    assert len(events_module._MEMOS[3]) <= events_module._MEMO_SIZE
    # The same turn record is a different next seat's draw in a log of another size (its own memo).
    assert EventLog.from_records([turn_record(2, 5, 7)], seats=4)[1] == Event("draw", 3, 7, (), "wall")
    assert EventLog.from_records([turn_record(2, 5, 7)], seats=3)[1] == Event("draw", 0, 7, (), "wall")


def test_infos_without_a_fixed_code_are_the_logs_own() -> None:
    log = EventLog.of([Event("payment", 1, -1, (3, -3), "reason one"), Event("declare", 0, 2, (), "reason one"),
                    Event("payment", 0, -1, (1, -1), "reason two")])
    assert log.infos == ("reason one", "reason two")
    assert all(info in INFOS for info in ("", "wall", "replacement", "extra", "0", "1", "2", "3"))
    assert [e.info for e in log] == ["reason one", "reason one", "reason two"]


def test_copies_and_pickles_have_their_own_records() -> None:
    log = EventLog.of([Event("deal", 0, -1, (1, 2)), Event("payment", 0, -1, (1, -1), "x")])
    for twin in (copy.deepcopy(log), copy.copy(log), pickle.loads(pickle.dumps(log))):
        assert twin == log
        twin.records.append(record("discard", 0, 1))
        assert len(twin) == 3 and len(log) == 2


def test_prepend_puts_a_history_first() -> None:
    earlier = EventLog.of([Event("deal", 0, -1, (1, 2)), Event("payment", 0, -1, (1, -1), "earlier")])
    later = EventLog.of([Event("payment", 1, -1, (-1, 1), "later"), Event("drawn")])
    later.prepend(earlier)
    assert list(later) == [*earlier, Event("payment", 1, -1, (-1, 1), "later"), Event("drawn")]
    later.records.append(record("discard", 1, 2))
    assert later[-1] == Event("discard", 1, 2)


def test_a_restored_game_rebuilds_the_same_events() -> None:
    rules = hupai.rules.get("yunxiao")
    game = Game(rules, seed=7, dealer=0)
    bots = [RandomBot(seat) for seat in range(4)]
    for _ in range(30):
        if game.over:
            break
        seat = game.seats_to_act[0]
        game.apply(bots[seat].act(game.observation(seat)))
    restored = Game.from_snapshot(game.snapshot())
    assert restored.events == game.events and restored.event_count == game.event_count
    done = len(game.actions)
    play(game, bots)
    for action in game.actions[done:]:  # the same actions after the restore: the same log
        restored.apply(action)
    assert restored.to_json() == game.to_json()
    later = Game.from_snapshot(game.snapshot())
    assert later.event_count == game.event_count and later.to_json() == game.to_json()


@pytest.mark.parametrize(("records", "infos", "message"), [
    ([30], (), "is not an event's record"),  # no type has code 30
    ([len(TYPES)], (), "is not an event's record"),  # one past the last type
    ([turn_record(0, 1, 2) | 1 << 22], (), "is not a turn's record"),  # bits beyond the drawn tile
    ([turn_record(5, 1, 2)], (), "is not a turn's record"),  # seat 5 of 4
    ([-1], (), "is not an event's record"),
    ([record("deal", 0) | 3 << 15, 1, 2], (), "names 3 tiles"),  # a run longer than the records left
    ([record("draw", 0, 1) | (len(INFOS) + 1) << 21], ("one",), "info"),  # an info the log does not hold
    ([True], (), "is not an int"),
    (["draw"], (), "is not an int"),
    ([record("draw")], (7,), "is not a str"),
    ([record("draw")], ("wall",), "has a code already"),
    ([record("deal", 0) | 1 << 15, 500], (), "a deal with tiles"),  # not a tile
])
def test_hostile_records_are_refused(records: list[object], infos: tuple[object, ...], message: str) -> None:
    with pytest.raises(InvalidState, match=message):
        EventLog.from_records(records, infos)


@pytest.mark.parametrize("seats", [True, 1, 8, "4"])
def test_a_hostile_number_of_seats_is_refused(seats: object) -> None:
    with pytest.raises(InvalidState, match="seats"):
        EventLog.from_records([], (), seats)


def test_a_seat_beyond_the_logs_seats_is_refused() -> None:
    with pytest.raises(InvalidState, match="seat 3 in a log of 3 seats"):
        EventLog.from_records([record("draw", 3, 1, "wall")], (), 3)


def test_a_log_with_a_forged_event_type_is_refused() -> None:
    """A log read from outside: its events must be what its actions give, an unknown type among them too."""
    rules = hupai.rules.get("guangdong")
    game = Game(rules, seed=3, dealer=0)
    play(game, [RandomBot(seat) for seat in range(4)])
    data = game.log()
    data["events"][5] = {**data["events"][5], "type": "teleport"}
    with pytest.raises(InvalidState, match="log.events"):
        Game.replay(data)


def test_an_event_that_does_not_fit_a_record_is_an_engine_error() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        EventLog().add("draw", 9, 1)
    with pytest.raises(KeyError):
        EventLog().add("teleport", 0, 1)
