"""hupai.env's per-table Encoder (issue 31 item 1): the arrays the environments hand out are the Python reference's
at every decision (its caches of meld, pile, fact and mask bytes never go stale), another seat's hidden tiles
change nothing through it or its batched form, and an observation a caller keeps is never written again."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="hupai.env needs the env extra (make install)")
pytest.importorskip("gymnasium", reason="hupai.env needs the env extra (make install)")

import hupai  # noqa: E402
from hidden import blind_twin  # noqa: E402
from hupai import HupaiError, InvalidHand  # noqa: E402
from hupai.bots import GreedyBot, RandomBot  # noqa: E402
from hupai.env import Encoder, Features, aec_env, vector_env  # noqa: E402
from hupai.env.features import POOL_ROWS  # noqa: E402
from hupai.game import Game  # noqa: E402

SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]


def _same(mine: dict[str, np.ndarray], reference: dict[str, np.ndarray], what: str) -> None:
    assert mine.keys() == reference.keys()
    for key in reference:
        assert mine[key].dtype == reference[key].dtype and mine[key].shape == reference[key].shape, key
        np.testing.assert_array_equal(mine[key], reference[key], err_msg=f"{what} {key}")


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("window", ["eligible", "all"])
def test_the_aec_envs_arrays_are_the_python_references_at_every_decision(system: str, window: str) -> None:
    """Every seat (the one to act and the others: the caches serve seats in any order) at every decision of
    seeded two-hand matches, scores moving between hands."""
    env = aec_env(system, hands=2, claim_window=window)
    features = env.features
    checked = 0
    kept: list[tuple[dict[str, np.ndarray], dict[str, np.ndarray]]] = []
    for seed in range(4 if window == "all" else 6):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter(max_iter=5_000):
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert env.match is not None
            for other in env.possible_agents:
                mine = observation if other == agent else env.observe(other)
                reference = features.encode_python(env.observation(other), env.match.scores)
                _same(mine, reference, f"{system} seed {seed} {other}")
                if checked % 37 == 0:
                    kept.append((mine, {key: value.copy() for key, value in mine.items()}))
                checked += 1
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert checked > 300
    for mine, copy in kept:  # handed out earlier: no later decision wrote over them
        _same(mine, copy, "kept")


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_vector_envs_rows_are_the_python_references(system: str) -> None:
    env = vector_env(system, 5, opponents="random")
    observations, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(40):
        for table, single in enumerate(env.envs):
            assert single.aec.match is not None
            reference = env.features.encode_python(single.last_observation, single.aec.match.scores)
            _same({key: value[table] for key, value in observations.items()}, reference, f"{system} {table}")
        masks = env.action_masks()
        for table, single in enumerate(env.envs):  # a table asked alone answers as the stacked masks do
            np.testing.assert_array_equal(single.action_masks(), masks[table])
        observations, *_ = env.step(np.argmax(rng.random(masks.shape) * masks, axis=1))


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_encoder_shows_nothing_of_another_seats_hidden_tiles(system: str) -> None:
    """test_env's hidden-tile test through the Encoder (one kept across the hand, as an environment keeps it) and
    through its batched form."""
    rules = hupai.rules.get(system)
    features = Features(rules)
    encoder, blind = Encoder(features), Encoder(features)
    n = rules.num_players
    game = Game(system, seed=11, claim_window="all")
    bots = [RandomBot(s) for s in range(n)]
    step = 0
    while not game.over:
        if step % 3 == 0:
            for seat in range(n):
                twin = blind_twin(game, (seat + 1) % n)
                mine, theirs = game.observation(seat), twin.observation(seat)
                _same(encoder.encode(mine), blind.encode(theirs), "hidden")
                both = Encoder.encode_many([encoder, blind], [mine, theirs], [None, None])
                for key, value in both.items():
                    np.testing.assert_array_equal(value[0], value[1], err_msg=f"{key} shows another hand")
        seat = game.seats_to_act[0]
        game.apply(bots[seat].act(game.observation(seat)))
        step += 1


def test_the_encoders_pool_moves_on_and_refuses_another_systems_observation() -> None:
    features = Features(hupai.rules.get("guangdong"))
    encoder = Encoder(features)
    observation = Game("guangdong", seed=1).observation(0)
    first = encoder.encode(observation)
    for _ in range(POOL_ROWS + 3):
        again = encoder.encode(observation)
        assert not np.shares_memory(again["hand"], first["hand"])
        _same(again, first, "pool")
    with pytest.raises(HupaiError, match="another rule system"):
        encoder.encode(Game("waihuzi", seed=1).observation(0))


def test_the_encoder_writes_again_only_arrays_nothing_else_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dropped observation's arrays are written again (no new arrays at every decision); an array, a view of one
    or a dict a caller keeps never is, and a caller's changes to a dict it was handed never reach a later one."""
    env = aec_env("guangdong", claim_window="eligible")
    env.reset(seed=4)
    made = []
    new_slot = Encoder._new_slot
    monkeypatch.setattr(Encoder, "_new_slot", lambda self: made.append(1) or new_slot(self))
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    rng = np.random.default_rng(4)
    for step in range(60):
        agent = env.agent_selection
        observation = env.observe(agent)
        if step % 7 == 0:  # a view of one array, and one array alone, each kept with a copy of what it held
            view = observation["hand"][None]
            kept += [(view, view.copy()), (observation["action_mask"], observation["action_mask"].copy())]
        if step % 11 == 0:  # a caller rewriting the dict it was handed, then dropping it
            observation["hand"] = np.zeros(3)
            observation["extra"] = np.zeros(1)
        mask = observation["action_mask"].copy()
        del observation
        again = env.observe(agent)
        assert set(again) == set(env.features.shapes()) and again["hand"].shape == (34,)
        np.testing.assert_array_equal(again["action_mask"], mask)
        env.step(int(rng.choice(np.flatnonzero(mask))))
        del again
    assert len(made) < 40  # 120 observations: without reuse, a slot made for each
    for array, copy in kept:
        np.testing.assert_array_equal(array, copy)


def test_the_cores_encoder_refuses_a_short_tail_and_rows_outside_its_outputs() -> None:
    features = Features(hupai.rules.get("guangdong"))
    smalls, hand, melds, discards, legal, tail = Encoder(features).inputs(Game("guangdong", seed=1).observation(0),
                                                                          [1, 2, 3, 4])
    ints, floats, views = features.empty(2)
    encode = hupai._core.encode_features
    with pytest.raises(InvalidHand, match="tails"):
        encode(ints, floats, smalls, hand, melds, discards, legal, features._dims, tail[:-1], 0)
    with pytest.raises(InvalidHand, match="at \\+"):
        encode(ints, floats, smalls, hand, melds, discards, legal, features._dims, tail, 2)
    with pytest.raises(HupaiError, match="at"):
        encode(ints, floats, smalls, hand, melds, discards, legal, features._dims, tail, -1)
    encode(ints, floats, smalls, hand, melds, discards, legal, features._dims, tail, 1)
    assert list(views["scores"][1]) == [1.0, 2.0, 3.0, 4.0]


def test_the_cores_encoder_reads_as_many_legal_indices_and_discards_as_the_smalls_say() -> None:
    """The legal actions go in as uint16 indices and the discards as the piles one after another, their counts in
    the smalls: a buffer of another length, an index out of range or given twice is refused."""
    from array import array

    features = Features(hupai.rules.get("guangdong"))
    game = Game("guangdong", seed=1)
    observation = game.observation(game.seats_to_act[0])
    smalls, hand, melds, discards, legal, tail = Encoder(features).inputs(observation, None)
    count = len(observation.legal_actions)
    assert smalls[9] == count > 1 and len(legal) == 2 * count
    ints, floats, views = features.empty(1)
    encode = hupai._core.encode_features
    encode(ints, floats, smalls, hand, melds, discards, legal, features._dims, tail, 0)
    assert views["action_mask"].sum() == count
    with pytest.raises(InvalidHand, match="legal"):
        encode(ints, floats, smalls, hand, melds, discards, legal[:-2], features._dims, tail, 0)
    indices = array("H", legal)
    with pytest.raises(InvalidHand, match="given twice"):
        encode(ints, floats, smalls, hand, melds, discards, array("H", [indices[0]] * count).tobytes(),
               features._dims, tail, 0)
    with pytest.raises(InvalidHand, match="legal action index"):
        encode(ints, floats, smalls, hand, melds, discards, array("H", [features.actions.n] * count).tobytes(),
               features._dims, tail, 0)
    lengths = array("i", smalls)
    lengths[10 + 4] = 2  # seat 0's discard count (after the seats' meld counts): two tiles the buffer lacks
    with pytest.raises(InvalidHand, match="discards"):
        encode(ints, floats, lengths, hand, melds, discards, legal, features._dims, tail, 0)
    lengths[10 + 4] = 10_000
    with pytest.raises(InvalidHand, match="discard count"):
        encode(ints, floats, lengths, hand, melds, discards, legal, features._dims, tail, 0)


def test_a_hands_end_puts_its_rewards_in_a_new_dict_never_the_one_a_checkpoint_kept() -> None:
    """step() keeps the rewards dict while every reward is zero; gym's checkpoint holds it by reference, so a hand's
    end must not write its payments into it (a refused step would restore them)."""
    env = aec_env("guangdong", hands=10, claim_window="eligible")
    env.reset(seed=1)
    bots = [GreedyBot(seat) for seat in range(4)]  # greedy play wins hands (random play mostly draws them)
    for _ in range(20_000):
        kept, before = env.rewards, dict(env.rewards)
        agent = env.agent_selection
        _, _, terminated, truncated, _ = env.last()
        assert not (terminated or truncated)
        env.step(env.action_layout.index(bots[env._seat[agent]].act(env.observation(agent))))
        assert kept == before
        if any(env.rewards.values()):
            assert env.rewards is not kept
            return
    raise AssertionError("no hand paid anything")


def test_yunxiaos_discard_shanten_is_its_shanten_of_each_discards_row() -> None:
    """Advice.discard_shanten (one core call, what the encoder asks at every turn) against Advice.shanten of the
    hand less each kind held; the plain advice has none (the core's encoder counts it)."""
    advice = hupai.rules.advice("yunxiao")
    assert hupai.rules.advice("guangdong").discard_shanten(Game("guangdong", seed=1).observation(0), 0) is None
    checked = 0
    for seed in range(3):
        game = Game("yunxiao", seed=seed)
        bots = [GreedyBot(s) for s in range(4)]
        while not game.over:
            seat = game.seats_to_act[0]
            observation = game.observation(seat)
            hand = np.frombuffer(observation.counts, np.uint8)
            total = int(hand.sum())
            if total % 3 == 2:
                melds = (14 - total) // 3
                held = np.flatnonzero(hand)
                rows = np.repeat(hand[None, :], len(held), axis=0)
                rows[np.arange(len(held)), held] -= 1
                after = advice.discard_shanten(observation, melds)
                assert after is not None
                assert [after[kind] for kind in held] == list(advice.shanten(observation, rows, melds))
                assert all(after[kind] == 127 for kind in range(34) if not hand[kind])
                checked += 1
            game.apply(bots[seat].act(observation))
    assert checked > 30


def test_the_remembered_rule_facts_tell_equal_values_of_other_types_apart() -> None:
    """Features.fact_bytes remembers what a set of fact values encodes to; 1, 1.0 and True are equal in Python but
    a tile fact encodes 1.0 and True as no tile and a tiles fact skips True, so each must be encoded as the reference
    (Features._facts) does, in any order."""
    from dataclasses import replace
    from types import MappingProxyType

    features = Features(hupai.rules.get("yunxiao"))
    observation = Game("yunxiao", seed=1).observation(0)
    n = features.num_players
    order = [(observation.seat + i) % n for i in range(n)]
    for _ in range(2):  # the second round reads every entry the first made
        for gold in (1, 1.0, True, -0.0, 0.0, 0, [2], (1, True)):
            extras = MappingProxyType({**observation.extras, "gold": gold, "last_kong": (True, 1.0)})
            shown = replace(observation, extras=extras)
            reference = np.zeros(features.facts_size, np.float32)
            features._facts(features._public, shown.extras, order, reference)
            mine = np.frombuffer(features.fact_bytes(shown), np.float32)
            np.testing.assert_array_equal(mine[:features.facts_size], reference, err_msg=repr(gold))
            assert np.signbit(mine[:features.facts_size]).tolist() == np.signbit(reference).tolist()


def test_the_encoders_kept_scores_follow_a_list_changed_in_place_and_any_other_sequence() -> None:
    """The encoder compares a list of scores with the copy it kept (no copy made at each decision): a list changed
    in place, a tuple, a numpy array and None must each encode as Features.encode does."""
    features = Features(hupai.rules.get("guangdong"))
    encoder = Encoder(features)
    observation = Game("guangdong", seed=2).observation(1)
    scores = [10, -4, 0, -6]
    for shown in (scores, "in place", (1, 2, 3, -6), np.array([5, 0, -5, 0]), None, "in place", scores):
        if isinstance(shown, str):
            scores[2] += 7
            shown = scores
        mine = encoder.encode(observation, shown)  # type: ignore[arg-type]
        reference = features.encode(observation, shown)  # type: ignore[arg-type]
        np.testing.assert_array_equal(mine["scores"], reference["scores"], err_msg=repr(shown))


def test_the_encoders_action_takes_a_plain_int_and_what_discrete_holds_and_refuses_a_bool() -> None:
    env = aec_env("guangdong", claim_window="eligible")
    env.reset(seed=3)
    legal_index = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    game = env.game
    assert game is not None
    legal = game.legal_actions(game.seats_to_act[0])
    encoder = env.encoder
    for index in (legal_index, np.int64(legal_index), np.array(legal_index)):
        assert encoder.action(index, legal) is legal[0]
    for bad in (True, -1, env.action_layout.n, 1.0, None):
        with pytest.raises(hupai.IllegalAction):
            encoder.action(bad, legal)
