"""The environments encode an observation's fields (``Observer.seen``) without making the observation at every
decision: the fields are :meth:`Observer.view`'s at every decision, the arrays are the same whichever way they
are encoded, another seat's hidden tiles change nothing through the fields either (one table or many), and
``HupaiGym.last_observation`` is made when first read, the observation of the features last returned."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="hupai.env needs the env extra (make install)")
pytest.importorskip("gymnasium", reason="hupai.env needs the env extra (make install)")

import hupai  # noqa: E402
from hidden import blind_twin  # noqa: E402
from hupai.bots import GreedyBot, RandomBot  # noqa: E402
from hupai.env import Encoder, Features, gym_env  # noqa: E402
from hupai.game import Game, Observer  # noqa: E402
from hupai.game.mahjong.observation import as_observation  # noqa: E402
from hupai.observation import Observation  # noqa: E402

SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]


def _fields(observation: Observation) -> tuple[object, ...]:
    return tuple(getattr(observation, field.name) for field in dataclasses.fields(Observation))


def _same(mine: dict[str, np.ndarray], reference: dict[str, np.ndarray], what: str) -> None:
    assert mine.keys() == reference.keys()
    for key in reference:
        assert mine[key].dtype == reference[key].dtype and mine[key].shape == reference[key].shape, key
        np.testing.assert_array_equal(mine[key], reference[key], err_msg=f"{what} {key}")


@pytest.mark.parametrize("system", SYSTEMS)
def test_seen_is_the_views_fields_and_encodes_to_the_same_arrays(system: str) -> None:
    features = Features(hupai.rules.get(system))
    by_seen, by_view = Encoder(features), Encoder(features)
    checked = 0
    for seed in range(3):
        game = Game(system, seed=seed, claim_window="all")
        observer = Observer(game)
        n = game.table.num_players
        bots = [(GreedyBot if (seat + seed) % 2 else RandomBot)(seed * 4 + seat) for seat in range(n)]
        while True:
            for seat in range(n):
                seen, view = observer.seen(game, seat), observer.view(game, seat)
                assert seen == _fields(view)
                assert as_observation(seen) == view and type(as_observation(seen)) is Observation
                _same(by_seen.encode_seen(seen, [3, -1, 2, -4][:n]), by_view.encode(view, [3, -1, 2, -4][:n]),
                      f"{system} {seed} {seat}")
                checked += 1
            if game.over:
                break
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
    assert checked > 200


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_fields_show_nothing_of_another_seats_hidden_tiles(system: str) -> None:
    rules = hupai.rules.get(system)
    features = Features(rules)
    encoder, blind = Encoder(features), Encoder(features)
    n = rules.num_players
    game = Game(system, seed=12, claim_window="all")
    bots = [RandomBot(s) for s in range(n)]
    step = 0
    while not game.over:
        if step % 3 == 0:
            for seat in range(n):
                twin = blind_twin(game, (seat + 1) % n)
                mine, theirs = Observer(game).seen(game, seat), Observer(twin).seen(twin, seat)
                _same(encoder.encode_seen(mine), blind.encode_seen(theirs), "hidden")
                both = Encoder.encode_many_seen([encoder, blind], [mine, theirs], [None, None])
                for key, value in both.items():
                    np.testing.assert_array_equal(value[0], value[1], err_msg=f"{key} shows another hand")
        seat = game.seats_to_act[0]
        game.apply(bots[seat].act(game.observation(seat)))
        step += 1


@pytest.mark.parametrize("system", ["guangdong", "waihuzi"])
def test_the_gym_envs_last_observation_is_made_when_read(system: str) -> None:
    env = gym_env(system, opponents="random")
    assert env.last_observation is None
    observation, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    kept = []
    for step in range(60):
        assert env._observation is None  # not made until read
        now = env.aec.observation(env.agent)
        if step % 4 == 0:
            read = env.last_observation
            assert read == now and env.last_observation is read  # made once
            _same(env.aec.features.encode_python(read, env.aec.match.scores), observation, "last_observation")
            kept.append((read, read.to_json()))
        observation, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if terminated or truncated:
            observation, _ = env.reset()
    for read, text in kept:  # read earlier: what it was then
        assert read.to_json() == text


def test_a_wai_huzi_observer_shows_recurring_public_facts_as_one_mapping() -> None:
    """The encoder keeps the facts' bytes by the mapping's identity: a value shown again is the same object."""
    game = Game("waihuzi", seed=5)
    observer = Observer(game)
    bots = [RandomBot(seat) for seat in range(3)]
    shown: dict[tuple[object, ...], object] = {}
    recurred = 0
    while not game.over:
        seat = game.seats_to_act[0]
        extras = observer.view(game, seat).extras
        key = tuple(sorted(dict(extras).items()))
        if key in shown:
            assert shown[key] is extras
            recurred += 1
        shown[key] = extras
        game.apply(bots[seat].act(game.observation(seat)))
    assert recurred > 10


def test_an_observation_with_a_small_field_out_of_range_is_refused_with_a_hupai_error() -> None:
    """A forged observation whose seat or wall is no int32 (or no int) gets a HupaiError, not struct's error."""
    features = Features(hupai.rules.get("guangdong"))
    encoder = Encoder(features)
    game = Game("guangdong", seed=2)
    fields = Observer(game).seen(game, 0)
    names = [field.name for field in dataclasses.fields(Observation)]
    for name, value in (("wall_left", 1 << 40), ("seat", 1.5), ("drawn", "x")):
        forged = list(fields)
        forged[names.index(name)] = value
        with pytest.raises(hupai.HupaiError, match="no int in range"):
            encoder.encode_seen(tuple(forged))
        with pytest.raises(hupai.HupaiError, match="no int in range"):
            encoder.encode(as_observation(tuple(forged)))
    _same(encoder.encode_seen(fields), features.encode_python(as_observation(fields)), "after the refusals")
