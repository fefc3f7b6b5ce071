"""Wai Huzi snapshots in the compact form (``"form": "zipai-compact/1"``, :mod:`hupai.game.zipai.codec`): restored
from the state itself, not by replaying the actions (issue 30); the same game for every seat and every action
after; a tampered table refused with InvalidState naming the field; the full form hupai wrote before still read."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hupai.actions import Action
from hupai.bots import GreedyBot, RandomBot
from hupai.errors import HupaiError, InvalidState
from hupai.game import Game
from hupai.game.state.zipai import FORM

OPTIONS: list[dict[str, Any]] = [{}, {"dihu": "first_discard"}, {"shen_shown": "random"}, {"shen": "even"},
                                 {"sishou": "at_claim"}, {"dandiao": "plus5"}]


def _game(seed: int) -> Game:
    return Game("waihuzi", seed=seed, dealer=seed % 3, claim_window="all" if seed % 3 else "eligible",
                options=OPTIONS[seed % len(OPTIONS)])


def _bots(seed: int) -> list[Any]:
    rng = random.Random(seed)
    return [GreedyBot(seed * 3 + s) if rng.random() < 0.5 else RandomBot(seed * 3 + s) for s in range(3)]


def _step(game: Game, bots: list[Any]) -> None:
    seat = game.seats_to_act[0]
    bot = bots[seat]
    action = bot.choose(game.legal_actions(seat)) if isinstance(bot, RandomBot) else bot.act(game.observation(seat))
    game.apply(action)


def _text(game: Game) -> str:
    return json.dumps(game.snapshot())


def _states(games: int, every: int = 1) -> list[tuple[Game, str]]:
    """Every ``every``-th state of ``games`` seeded hands, with the snapshot's JSON text."""
    out = []
    for seed in range(games):
        game, bots = _game(seed), _bots(seed)
        index = 0
        while True:
            if index % every == 0 or game.over:
                text = _text(game)
                out.append((Game.from_snapshot(json.loads(text), verify=True), text))  # a replayed copy
            if game.over:
                break
            _step(game, bots)
            index += 1
    return out


def test_thousands_of_real_states_round_trip_for_every_seat_and_play_on_alike() -> None:
    states = 0
    phases = set()
    for seed in range(40):
        game, bots = _game(seed), _bots(seed)
        restored_at = []
        while True:
            snap = json.loads(_text(game))
            assert snap["table"]["form"] == FORM
            restored = Game.from_snapshot(snap)
            states += 1
            phases.add(game.table.phase)
            for seat in range(3):
                assert restored.observation(seat).to_json() == game.observation(seat).to_json(), (seed, seat)
                assert restored.legal_actions(seat) == game.legal_actions(seat)
            assert json.dumps(restored.snapshot()) == json.dumps(game.snapshot())
            if len(game.actions) % 7 == seed % 7 or game.over:
                restored_at.append(restored)
            if game.over:
                break
            _step(game, bots)
        for restored in restored_at:  # each plays the original's remaining actions to the very same log
            for action in game.actions[len(restored.actions):]:
                restored.apply(action)
            assert restored.to_json() == game.to_json(), seed
            assert restored.result is not None and restored.result.to_dict() == game.result.to_dict()
    assert states > 2000 and phases == {"turn", "claim", "over"}


def test_a_compact_table_is_restored_from_state_without_replaying(monkeypatch: pytest.MonkeyPatch) -> None:
    states = _states(6, every=5)

    def refuse(*_: Any) -> None:
        raise AssertionError("replayed")

    monkeypatch.setattr(Game, "_replayed_snapshot", classmethod(refuse))
    monkeypatch.setattr(Game, "apply", refuse)
    restored = 0
    for game, text in states:
        if not game.over:
            Game.from_snapshot(json.loads(text))
            restored += 1
    assert restored > 50


def test_the_dihu_house_rule_sees_whether_the_dealer_has_discarded_after_a_restore() -> None:
    """WH-35's house rule (地胡 on the dealer's first discard) reads flow state the table's JSON does not hold:
    it comes from the actions; a restore that lost it would offer 地胡 on a later discard, or not on the first."""
    checked = 0
    for seed in range(60):
        game = Game("waihuzi", seed=seed, options={"dihu": "first_discard"})
        bots = [RandomBot(seed * 3 + s) for s in range(3)]
        while not game.over:
            restored = Game.from_snapshot(json.loads(_text(game)))
            assert restored.table.dealer_discarded == any(
                a.kind == "discard" and a.seat == game.table.dealer for a in game.actions)
            checked += 1
            seat = game.seats_to_act[0]
            game.apply(bots[seat].choose(game.legal_actions(seat)))
    assert checked > 1000


def _claim_state() -> dict[str, Any]:
    """A snapshot with an open offer and one answer given (the "all" window asks every seat)."""
    for seed in range(1, 200):
        game = Game("waihuzi", seed=seed, claim_window="all")
        bots = [RandomBot(seed * 3 + s) for s in range(3)]
        for _ in range(40):
            if game.over:
                break
            if game.table.phase == "claim" and len(game.table.answers) == 1 and game.table.groups[0]:
                return json.loads(_text(game))  # type: ignore[no-any-return]
            seat = game.seats_to_act[0]
            game.apply(bots[seat].choose(game.legal_actions(seat)))
    raise AssertionError("no such state")


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def edit(snap: dict[str, Any]) -> None:
        node: Any = snap["table"]
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return edit


def _state(index: int, value: Any) -> Any:
    return _set(("state", index), value)


def _move_card(snap: dict[str, Any]) -> None:
    """A card from seat 0's hand to seat 1's (every count but the hand sizes stays right)."""
    hands = [list(h) for h in snap["table"]["hands"]]
    card = next(c for c in range(20) if hands[0][c] != "0" and hands[1][c] < "4")
    hands[0][card] = str(int(hands[0][card]) - 1)
    hands[1][card] = str(int(hands[1][card]) + 1)
    snap["table"]["hands"] = ["".join(h) for h in hands]


def _extra_card(snap: dict[str, Any]) -> None:
    snap["table"]["discards"][2] += "0"


def _opening_claim(snap: dict[str, Any]) -> None:
    """The opening flag on an offer with the actions gone: the opening is the dealer's turn."""
    snap["table"]["state"][5] = 1
    snap["actions"] = []


#: (edit, the field the error must name)
TAMPERS: list[tuple[Any, str]] = [
    (_set(("form",), "zipai-compact/9"), "snapshot.table.form"),
    (_set(("head",), 57), "snapshot.table.head"),
    (_set(("head",), "60"), "snapshot.table.head"),
    (_set(("hands", 0), "0" * 19), "snapshot.table.hands[0]"),
    (_set(("hands", 1), "5" * 20), "snapshot.table.hands"),
    (_set(("hands", 2), "x" * 20), "snapshot.table.hands[2]"),
    (_set(("hands",), ["0" * 20] * 2), "snapshot.table.hands"),
    (_move_card, "snapshot.table.hands[0]"),
    (_extra_card, "snapshot.table.hands"),
    (_set(("discards", 0), "k"), "snapshot.table.discards[0]"),
    (_set(("discards", 1), 5), "snapshot.table.discards[1]"),
    (_set(("groups", 0, 0), "z00000"), "snapshot.table.groups[0][0]"),
    (_set(("groups", 0, 0), "c0120-"), "snapshot.table.groups[0][0]"),  # a taken card needs its seat
    (_set(("groups", 0, 0), "c01401"), "snapshot.table.groups[0][0]"),  # not a run
    (_set(("groups", 0, 0), "p00101"), "snapshot.table.groups[0][0]"),  # not three of a card
    (_set(("groups", 0, 0), "p000--"), "snapshot.table.groups[0][0]"),  # a 碰 is taken from a seat
    (_set(("groups", 0, 0), 7), "snapshot.table.groups[0][0]"),
    (_set(("groups", 0, 0), "w00001"), "snapshot.table.groups[0][0]"),  # a 歪 is of its own turned-up card
    (_set(("groups", 0, 0), "c01201"), "snapshot.table.groups[0][0]"),  # a 吃 of its 下家's card
    (_set(("groups", 0, 0), "p00000"), "snapshot.table.groups[0][0]"),  # a 碰 of its own card
    (_set(("groups", 0), ["p00001"] * 8), "snapshot.table.groups[0]"),
    (_set(("menzi_ban", 0), "01"), "snapshot.table.menzi_ban[0]"),
    (_set(("menzi_ban", 0), "019"), "snapshot.table.menzi_ban[0]"),  # not a 门子 with a completing card
    (_set(("masks",), [0] * 8), "snapshot.table.masks"),
    (_set(("masks", 4), 1 << 20), "snapshot.table.masks"),
    (_set(("masks", 0), -1), "snapshot.table.masks"),
    (_state(0, 3), "snapshot.table.state[0]"),
    (_state(0, "claim"), "snapshot.table.state[0]"),
    (_state(0, 0), "snapshot.table.state (offer)"),  # a turn with the offer still open
    (_state(2, -1), "snapshot.table.state (offer)"),
    (_state(4, 0), "snapshot.table.state (offer)"),
    (_state(5, 1), "snapshot.table.state (opening)"),
    (_state(7, 1), "snapshot.table.state (haidi)"),
    (_opening_claim, "snapshot.table.state (opening)"),
    (_state(8, 0), "snapshot.table.state (calls)"),
    (_state(9, 2), "snapshot.table.state (answers)"),
    (_state(13, -1), "snapshot.table.state (ready_deal)"),
    (_set(("state",), [0] * 18), "snapshot.table.state"),
    (_set(("state",), None), "snapshot.table.state"),
    (_set(("extra",), 1), "snapshot.table"),
]


@pytest.mark.parametrize(("edit", "field"), TAMPERS, ids=[f"{i}-{f}" for i, (_, f) in enumerate(TAMPERS)])
def test_a_tampered_compact_table_is_refused_naming_the_field(edit: Any, field: str) -> None:
    snap = _claim_state()
    edited = copy.deepcopy(snap)
    edit(edited)
    assert edited != snap
    kept = copy.deepcopy(edited)
    with pytest.raises(InvalidState) as caught:
        Game.from_snapshot(edited)
    assert str(caught.value).startswith(field), (str(caught.value), field)
    assert edited == kept  # the refused snapshot is left as it came


def test_an_answer_that_is_not_the_last_action_is_refused_naming_the_action() -> None:
    snap = _claim_state()
    answer = snap["actions"][-1]
    forged = copy.deepcopy(snap)
    forged["actions"][-1] = ["win", answer[1], answer[2], [], ""]
    with pytest.raises(InvalidState, match=r"^snapshot\.actions\["):
        Game.from_snapshot(forged)


def test_a_refused_snapshot_changes_nothing() -> None:
    """A server holding a game and refusing an edited snapshot of it keeps the game and the data as they were."""
    game = _game(5)
    bots = _bots(5)
    for _ in range(30):
        _step(game, bots)
    snap = json.loads(_text(game))
    before, log = copy.deepcopy(snap), game.to_json()
    snap["table"]["hands"][0] = "4" * 20
    with pytest.raises(InvalidState):
        Game.from_snapshot(snap)
    assert game.to_json() == log and json.loads(_text(game)) == before
    snap["table"]["hands"][0] = before["table"]["hands"][0]
    assert snap == before
    assert Game.from_snapshot(snap).to_json() == log


def test_verify_replays_and_refuses_a_table_edited_against_its_actions() -> None:
    """A self-consistent edit (a card banned that was not) loads without verify, as a mahjong format-2 table does,
    and is refused by ``verify=True``; the unedited snapshot passes both."""
    snap = _claim_state()
    Game.from_snapshot(copy.deepcopy(snap), verify=True)
    edited = copy.deepcopy(snap)
    edited["table"]["masks"][3] ^= 1 << 19
    Game.from_snapshot(copy.deepcopy(edited))
    with pytest.raises(InvalidState, match=r"^snapshot\.table\.masks"):
        Game.from_snapshot(edited, verify=True)


def test_a_forged_earlier_action_is_refused_once_the_history_is_rebuilt() -> None:
    snap = _claim_state()
    forged = copy.deepcopy(snap)
    forged["actions"][0] = ["discard", 0, 19, [], ""] if forged["actions"][0][2] != 19 else ["liu", 0, 19, [], ""]
    try:
        game = Game.from_snapshot(forged)
    except HupaiError:
        return
    with pytest.raises(InvalidState, match=r"^snapshot\.actions\["):  # the first action it makes illegal
        game.to_json()


def test_the_full_table_form_hupai_wrote_before_still_restores_by_replay() -> None:
    """Main's Wai Huzi snapshots held :meth:`ZipaiTable.to_json` (no ``form``): restored by replaying, verified
    field by field, and an edited one refused naming the field."""
    for game, _ in _states(4, every=9):
        snap = json.loads(_text(game))
        snap["table"] = json.loads(json.dumps(game.table.to_json()))
        for verify in (False, True):
            restored = Game.from_snapshot(copy.deepcopy(snap), verify=verify)
            assert restored.to_json() == game.to_json()
            for seat in range(3):
                assert restored.observation(seat).to_json() == game.observation(seat).to_json()
            assert "form" in restored.snapshot()["table"]  # and it saves in the compact form
        if not game.over:
            snap["table"]["calls"] += 1
            with pytest.raises(InvalidState, match=r"^snapshot\.table\.calls"):
                Game.from_snapshot(snap)


def test_a_finished_hand_restores_with_its_result() -> None:
    for game, text in _states(8, every=1000):
        if game.over:
            restored = Game.from_snapshot(json.loads(text))
            assert restored.result == game.result and restored.to_json() == game.to_json()


def test_snapshot_actions_round_trip_as_compact_actions() -> None:
    game, text = _states(1, every=1)[20]
    assert [Action.from_compact(a) for a in json.loads(text)["actions"]] == list(game.actions)
