"""The shell's guarantees in Wai Huzi: illegal actions change nothing, logs replay byte for byte, snapshots round
trip and refuse tampering, observations hide the other hands and the stock."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hupai.actions import Action
from hupai.bots import GreedyBot, RandomBot
from hupai.errors import HupaiError, IllegalAction, InvalidState
from hupai.game import Game, Observer
from hupai.game.state.wall import shuffle
from hupai.observation import Observation
from hupai.zipai.cards import card_name


def _played(seed: int, steps: int, window: str = "all") -> Game:
    game = Game("waihuzi", seed=seed, claim_window=window)
    bots = [RandomBot(seed * 3 + s) for s in range(3)]
    for _ in range(steps):
        if game.over:
            break
        seat = game.seats_to_act[0]
        game.apply(bots[seat].choose(game.legal_actions(seat)))
    return game


def test_illegal_actions_raise_and_change_nothing():
    rng = random.Random(3)
    for seed in range(30):
        game = _played(seed, rng.randrange(60))
        before = game.to_json()
        seat = game.seats_to_act[0] if not game.over else 0
        legal = {a for s in range(3) for a in game.legal_actions(s)}
        candidates = [Action(kind, s, tile) for kind in ("discard", "pung", "chow", "win", "liu", "piao", "wai", "pass")
                      for s in range(3) for tile in (-1, 0, 7, 19, 25)]
        candidates += [{"kind": "discard", "seat": 5, "tile": 1}, {"kind": "bogus", "seat": 0},
                       {"kind": "discard", "seat": 0, "tile": 40}, Action("chow", seat, 3, (1, 2, 3))]
        for action in candidates:
            if isinstance(action, Action) and action in legal:
                continue
            with pytest.raises(IllegalAction):
                game.apply(action)
            assert game.to_json() == before


def test_logs_replay_byte_for_byte_and_partly():
    for seed in range(20):
        for window in ("all", "eligible"):
            game = _played(seed, 10_000, window)
            assert game.over
            text = game.to_json()
            assert Game.replay(text).to_json() == text
            half = len(game.actions) // 2
            assert Game.replay(text, upto=half).actions == game.actions[:half]


def test_snapshots_round_trip_and_continue_alike():
    for seed in range(20):
        for steps in (0, 7, 30):
            game = _played(seed, steps)
            snap = json.loads(json.dumps(game.snapshot()))
            restored = Game.from_snapshot(snap)
            assert restored.table.to_json() == game.table.to_json()
            bots = [RandomBot(99 + s) for s in range(3)]
            twins = [RandomBot(99 + s) for s in range(3)]
            while not game.over:
                seat = game.seats_to_act[0]
                action = bots[seat].choose(game.legal_actions(seat))
                assert twins[seat].choose(restored.legal_actions(seat)) == action
                game.apply(action)
                restored.apply(action)
            assert restored.to_json() == game.to_json()


def _tampered(snap: dict) -> list[dict]:
    out = []
    for key in snap["table"]:
        edited = copy.deepcopy(snap)
        value = edited["table"][key]
        if isinstance(value, bool):
            edited["table"][key] = not value
        elif isinstance(value, int):
            edited["table"][key] = value + 1
        elif isinstance(value, str):
            edited["table"][key] = value + "x"
        elif isinstance(value, list) and value and isinstance(value[0], list) and value[0]:
            edited["table"][key] = [value[1], value[0], *value[2:]] if len(value) > 1 and value[0] != value[1] \
                else [[*value[0], 1], *value[1:]]
        else:
            edited["table"][key] = [7]
        out.append(edited)
    for change in ("drop", "extra", "deep", "type"):
        edited = copy.deepcopy(snap)
        if change == "drop":
            del edited["table"]["hands"]
        elif change == "extra":
            edited["table"]["joker"] = 1
        elif change == "deep":
            deep: list = []
            for _ in range(5000):
                deep = [deep]
            edited["table"]["groups"] = deep
        else:
            edited["table"] = "table"
        out.append(edited)
    return out


def test_tampered_snapshots_are_refused_with_a_clear_error():
    game = _played(4, 25)
    snap = json.loads(json.dumps(game.snapshot()))
    refused = 0
    for edited in _tampered(snap):
        try:
            Game.from_snapshot(edited)
        except InvalidState as error:
            assert str(error).startswith("snapshot")
            refused += 1
    assert refused == len(_tampered(snap))
    forged = copy.deepcopy(snap)
    forged["actions"][0] = ["discard", 0, 19, [], ""] if forged["actions"][0][2] != 19 else ["liu", 0, 19, [], ""]
    with pytest.raises(HupaiError):
        Game.from_snapshot(copy.deepcopy(forged), verify=True)
    # Restored from its compact table, the game finds a forged earlier action once it rebuilds its history.
    with pytest.raises(HupaiError):
        Game.from_snapshot(forged).to_json()


def test_a_finished_hand_restores_with_its_result():
    game = _played(8, 10_000)
    restored = Game.from_snapshot(json.loads(json.dumps(game.snapshot())))
    assert restored.result == game.result and restored.to_json() == game.to_json()


# -- hidden information -----------------------------------------------------------------------------------------
class _Blind:
    """Never claims; discards its lowest card (it is never in a discard state: it never claims)."""

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions
        return next((a for a in legal if a.kind == "pass"), legal[0])


def _course(game: Game, seat: int, bot: GreedyBot) -> list[dict]:
    observer, blind = Observer(game), _Blind()
    course = []
    while True:
        obs = observer.observe(seat)
        course.append(obs.to_dict())
        if game.over:
            return course
        actor = game.seats_to_act[0]
        game.apply(bot.act(obs) if actor == seat else blind.act(observer.observe(actor)))


def _leaks(window: str, seeds: range) -> list[str]:
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        dealer = seed % 3  # the observed seat deals: the blind seats then never have a hand-dependent move
        wall = shuffle(Game("waihuzi", seed=seed).rules.tiles(), seed)
        other = list(wall)
        hidden = other[20:58]
        rng.shuffle(hidden)
        other[20:58] = hidden
        first = Game("waihuzi", seed=seed, dealer=dealer, wall=wall, claim_window=window)
        second = Game("waihuzi", seed=seed, dealer=dealer, wall=other, claim_window=window)
        assert first.table.hands[dealer] == second.table.hands[dealer]
        a, b = _course(first, dealer, GreedyBot(seed)), _course(second, dealer, GreedyBot(seed))
        for step, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                found.append(f"seed {seed} step {step}: {sorted(k for k in x if x[k] != y[k])}")
                break
        else:
            if len(a) != len(b):
                found.append(f"seed {seed}: {len(a)} vs {len(b)} steps")
    return found


def test_no_observation_depends_on_other_hands_or_the_stock_order():
    """``claim_window="all"``: a seat sees the same at every step of two games whose other hands differ."""
    assert _leaks("all", range(30)) == []


def test_an_eligible_claim_window_shows_who_can_claim():
    """The same comparison with ``"eligible"`` finds the leak: the test above can fail."""
    assert _leaks("eligible", range(30)) != []


def test_an_observation_shows_no_other_hand_and_no_stock():
    game = _played(12, 20)
    obs = game.observation(1)
    data = obs.to_dict()
    cards = [c for c in range(20) for _ in range(game.table.hands[1][c])]
    assert data["hand"] == [card_name(c) for c in cards] and data["kinds"] == 20  # cards in notation (schema 2)
    assert "wall" not in data and data["wall_left"] == 80 - game.table.wall.head
    assert data["hand_sizes"] == [sum(h) for h in game.table.hands]
    assert set(data["private"]) == {"chi_ban", "peng_ban", "menzi_ban", "locked"}
    again = Observation.from_json(data)
    assert again.to_dict() == data and again.counts == obs.counts and len(again.counts) == 20
    with pytest.raises(HupaiError):
        game.observation(3)
