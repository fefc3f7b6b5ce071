"""The table engine on random games: invariants, determinism, replay, snapshots, illegal actions."""

import json
import random
from collections import Counter

import hupai
import pytest
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Action, Game, play
from hupai.tiles import kind_name


def random_game(seed: int, bots=RandomBot, **kwargs) -> Game:
    game = Game("guangdong", seed=seed, dealer=seed % 4, **kwargs)
    play(game, [bots(seed * 4 + i) for i in range(4)])
    return game


def all_tiles(game: Game) -> Counter:
    table = game.table
    held = Counter()
    for seat in range(4):
        held.update({k: c for k, c in enumerate(table.hands[seat]) if c})
        for meld in table.melds[seat]:
            held.update(meld.tiles)
        held.update(table.discards[seat])
    held.update(table.wall.tiles[table.wall.head:table.wall.tail])
    return held


@pytest.mark.parametrize("seed", range(40))
def test_random_games_finish_and_conserve_tiles(seed):
    game = Game("guangdong", seed=seed)
    bots = [RandomBot(seed + i) for i in range(4)]
    steps = 0
    while not game.over:
        decision = game.current
        assert decision.seats, "a live game always waits for someone"
        for seat in decision.seats:
            legal = game.legal_actions(seat)
            assert legal and all(a.seat == seat for a in legal)
            game.apply(bots[seat].act(game.observation(seat)))
        steps += 1
        if game.table.phase != "rob":  # while a 补杠 is offered the added tile is still in the hand
            assert sum(all_tiles(game).values()) == 136 or game.over
        assert steps < 1000
    result = game.result
    assert sum(result.payments) == 0
    assert result.drawn == (not result.winners)


@pytest.mark.parametrize("seed", range(20))
def test_greedy_games_win_and_settle(seed):
    game = random_game(seed, GreedyBot)
    result = game.result
    assert sum(result.payments) == 0
    for win in result.wins:
        assert win.score.payments[win.seat] > 0


def test_same_seed_and_actions_give_identical_logs():
    game = random_game(3, GreedyBot)
    again = random_game(3, GreedyBot)
    assert game.to_json() == again.to_json()
    log = json.loads(game.to_json())
    assert log["format"] == hupai.game.LOG_FORMAT
    assert log["options"] == hupai.rules.get("guangdong").options_dict()
    assert game.to_json() != random_game(4, GreedyBot).to_json()


@pytest.mark.parametrize("seed", range(10))
def test_replay_reproduces_every_state(seed):
    game = random_game(seed, GreedyBot if seed % 2 else RandomBot)
    log = game.to_json()
    assert Game.replay(log).to_json() == log
    # Every intermediate state: replaying a prefix equals playing that prefix.
    actions = game.actions
    for upto in range(0, len(actions) + 1, 7):
        replayed = Game.replay(log, upto=upto)
        fresh = Game("guangdong", seed=seed, dealer=seed % 4)
        for action in actions[:upto]:
            fresh.apply(action)
        assert json.dumps(replayed.snapshot()) == json.dumps(fresh.snapshot())


def test_replay_rejects_other_formats():
    with pytest.raises(hupai.HupaiError):
        Game.replay({"format": "something-else/9"})


@pytest.mark.parametrize("seed", range(12))
def test_snapshot_restore_at_every_step_gives_the_same_future(seed):
    game = random_game(seed, GreedyBot if seed % 3 == 0 else RandomBot)
    final = game.to_json()
    actions = game.actions
    live = Game("guangdong", seed=seed, dealer=seed % 4)
    for i, action in enumerate(actions):
        snap = json.loads(json.dumps(live.snapshot()))  # it must survive JSON
        restored = Game.from_snapshot(snap)
        assert json.dumps(restored.snapshot()) == json.dumps(live.snapshot())
        for seat in range(4):
            assert restored.legal_actions(seat) == live.legal_actions(seat)
            assert restored.observation(seat) == live.observation(seat)
        if i % 5 == 0:  # the restored game plays on to the same end, log included
            for rest in actions[i:]:
                restored.apply(rest)
            assert restored.to_json() == final
        live.apply(action)
    assert live.to_json() == final


def _illegal_candidates(game: Game, rng: random.Random) -> list:
    seat = rng.randrange(-1, 5)
    kind = rng.choice(["discard", "chow", "pung", "kong", "win", "pass", "declare", "draw", "bogus"])
    tile = rng.randrange(-2, 36)
    run = tuple(sorted(rng.randrange(0, 34) for _ in range(3)))
    flag = rng.choice(["", "exposed", "concealed", "added", "liangdao"])
    return [
        {"kind": kind, "seat": seat, "tile": tile, "tiles": list(run), "flag": flag},
        {"kind": kind, "seat": seat},
        {"kind": "discard", "seat": rng.randrange(4), "tile": rng.randrange(34)},
        {"kind": "pung", "seat": rng.randrange(4), "tile": rng.randrange(34)},
        {"kind": "kong", "seat": rng.randrange(4), "tile": rng.randrange(34), "flag": flag},
        {"kind": "chow", "seat": rng.randrange(4), "tile": rng.randrange(27), "tiles": list(run)},
        {"kind": "win", "seat": rng.randrange(4), "tile": rng.randrange(34)},
        {"kind": "pass", "seat": rng.randrange(4)},
        {"seat": 0}, {"kind": "discard", "seat": "0", "tile": 1}, {"kind": "discard", "seat": True, "tile":
        1},
        {"kind": "discard", "seat": 0, "tile": 1, "extra": 1}, "discard 1m", None, 7,
        {"kind": "chow", "seat": 0, "tile": 1, "tiles": "123"},
    ]


@pytest.mark.parametrize("seed", range(8))
def test_illegal_actions_raise_and_change_nothing(seed):
    rng = random.Random(seed)
    game = Game("guangdong", seed=seed)
    bots = [RandomBot(seed + i) for i in range(4)] if seed % 2 else [GreedyBot(seed + i) for i in range(4)]
    injected = 0
    while not game.over:
        before = (game.to_json(), [game.observation(s).to_dict() for s in range(4)], game.snapshot())
        before = json.loads(json.dumps(before))
        for candidate in _illegal_candidates(game, rng):
            try:
                action = Action.from_json(candidate) if isinstance(candidate, dict) else candidate
            except hupai.IllegalAction:
                action = candidate
            legal_now = isinstance(action, Action) and 0 <= action.seat < 4 and action in game.legal_actions(
                action.seat)
            if legal_now:
                continue
            with pytest.raises(hupai.IllegalAction) as info:
                game.apply(candidate)
            assert str(info.value)
            injected += 1
        after = (game.to_json(), [game.observation(s).to_dict() for s in range(4)], game.snapshot())
        assert json.loads(json.dumps(after)) == before
        seat = game.current.seats[0]
        game.apply(bots[seat].act(game.observation(seat)))
    assert injected > 100
    with pytest.raises(hupai.IllegalAction, match="over"):
        game.apply(Action("pass", 0))


def test_illegal_action_messages_say_why():
    game = Game("guangdong", seed=1, dealer=0)
    with pytest.raises(hupai.IllegalAction, match="not P1's decision"):
        game.apply(Action("discard", 1, 0))
    missing = next(k for k in range(34) if not game.table.hands[0][k])
    with pytest.raises(hupai.IllegalAction, match="holds no"):
        game.apply(Action("discard", 0, missing))
    with pytest.raises(hupai.IllegalAction, match="no pung is legal"):
        game.apply(Action("pung", 0, 0))
    with pytest.raises(hupai.IllegalAction, match="not a seat"):
        game.apply(Action("pass", 9))
    with pytest.raises(hupai.IllegalAction, match="malformed"):
        game.apply({"kind": "kong", "seat": 0, "tile": 0})


def test_observations_hide_other_hands_and_the_wall():
    game = random_game(5, RandomBot)
    fresh = Game("guangdong", seed=11)
    for seat in range(4):
        obs = fresh.observation(seat).to_dict()
        assert obs["hand"] == [kind_name(k) for k in fresh.table.concealed_kinds(seat)]  # tiles in notation
        text = json.dumps(obs)
        assert "wall" not in obs or isinstance(obs["wall_left"], int)
        assert obs["wall_left"] == fresh.table.wall.live
        for other in range(4):
            if other != seat:
                # Only the size of another hand shows.
                assert obs["hand_sizes"][other] == sum(fresh.table.hands[other])
        wall = fresh.table.wall.tiles[fresh.table.wall.head:][:20]
        assert json.dumps([kind_name(k) for k in wall])[1:-1] not in text
    # After a draw, only the drawer sees the drawn tile.
    obs_other = game.observation(0)
    assert obs_other.phase == "over"
    for seat in range(4):
        for event, seen in zip(game.events, game.visible_events(seat), strict=True):
            if event.type in ("deal", "draw") and event.seat != seat:
                assert seen.tile == -1 and seen.tiles == ()
            else:
                assert seen == event


def test_events_record_the_hand():
    game = random_game(2, GreedyBot)
    types = [e.type for e in game.events]
    assert types[:5] == ["deal"] * 5 and types[-1] == "end"
    assert types.count("discard") == sum(1 for a in game.actions if a.kind == "discard")


def test_current_lists_only_seats_that_must_answer():
    for seed in range(30):
        game = Game("guangdong", seed=seed)
        bots = [RandomBot(seed + i) for i in range(4)]
        while not game.over:
            decision = game.current
            for seat in range(4):
                assert bool(game.legal_actions(seat)) == (seat in decision.seats)
            seat = decision.seats[-1]
            game.apply(bots[seat].act(game.observation(seat)))


def test_game_arguments_are_checked():
    with pytest.raises(hupai.HupaiError):
        Game("nope")
    with pytest.raises(hupai.HupaiError):
        Game("guangdong", dealer=4)
    with pytest.raises(hupai.HupaiError):
        Game("guangdong", seed=-1)
    with pytest.raises(hupai.HupaiError):
        Game(hupai.rules.get("guangdong"), options={"base": 2})
    with pytest.raises(hupai.HupaiError):
        Game("guangdong", options={"colour": "red"})
    with pytest.raises(hupai.HupaiError):
        Game("guangdong", wall=[0] * 136)


@pytest.mark.parametrize("name", ["yunxiao", "guangdong"])
def test_visible_events_hide_a_concealed_kong_where_the_rules_lay_it_face_down(name):
    """Yunxiao lays a 暗杠 face down (its kind hidden from the others), Guangdong shows it: the event log a seat
    sees follows ``rules.shows_concealed_kongs``; exposed kongs (claimed, added, Yunxiao's declared 明杠) show."""
    seen_concealed = 0
    for seed in range(400):
        game = Game(name, seed=seed, claim_window="eligible")
        play(game, [RandomBot(seed * 4 + i) for i in range(4)])
        concealed = [(a.seat, a.tile) for a in game.actions if a.kind == "kong" and a.flag == "concealed"]
        if not concealed:
            continue
        seen_concealed += 1
        for seat in range(4):
            for event, seen in zip(game.events, game.visible_events(seat), strict=True):
                if event.type == "kong" and (event.seat, event.tiles[0]) in concealed and event.seat != seat:
                    assert seen.tiles == (() if name == "yunxiao" else event.tiles)
                elif event.type == "kong":
                    assert seen == event
        if seen_concealed >= 3:
            break
    assert seen_concealed


def test_table_views_are_the_hands_themselves():
    """``table.views`` (made when first asked for) are zero-copy numpy views: they follow every change of the
    hands, in a restored table too."""
    game = Game("guangdong", seed=4, claim_window="eligible")
    views = game.table.views
    play(game, [RandomBot(i) for i in range(4)])
    for seat in range(4):
        assert views[seat].tolist() == list(game.table.hands[seat])
    restored = Game.from_snapshot(Game("guangdong", seed=4).snapshot())
    assert [v.tolist() for v in restored.table.views] == [list(h) for h in restored.table.hands]
