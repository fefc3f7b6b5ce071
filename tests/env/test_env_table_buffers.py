"""The environments' encoder reads what a seat may see straight from the table's buffers (``Observer.buffers``,
``Encoder.encode_game``, ``_core.encode_table(s)``): the same arrays as the observation's fields give at every
decision of every phase, one table or many, nothing of another seat's hidden tiles, and a buffer of the wrong
size or type refused with a clear error before anything is written."""

from __future__ import annotations

import struct

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="hupai.env needs the env extra (make install)")
pytest.importorskip("gymnasium", reason="hupai.env needs the env extra (make install)")

import hupai  # noqa: E402
from hidden import blind_twin  # noqa: E402
from hupai.bots import GreedyBot, RandomBot  # noqa: E402
from hupai.env import Encoder, Features  # noqa: E402
from hupai.game import Game, Observer  # noqa: E402
from hupai.hand import Meld  # noqa: E402

SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]


def _same(mine: dict[str, np.ndarray], reference: dict[str, np.ndarray], what: str) -> None:
    assert mine.keys() == reference.keys()
    for key in reference:
        assert mine[key].dtype == reference[key].dtype and mine[key].shape == reference[key].shape, key
        np.testing.assert_array_equal(mine[key], reference[key], err_msg=f"{what} {key}")


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_tables_buffers_encode_to_the_fields_arrays_at_every_decision(system: str) -> None:
    features = Features(hupai.rules.get(system))
    by_game, by_seen = Encoder(features), Encoder(features)
    phases: set[str] = set()
    for seed in range(3):
        game = Game(system, seed=seed, claim_window="all")
        observer = Observer(game)
        n = game.table.num_players
        scores = [3, -1, 2, -4][:n]
        bots = [(GreedyBot if (seat + seed) % 2 else RandomBot)(seed * 4 + seat) for seat in range(n)]
        while True:
            phases.add(game.table.phase)
            for seat in range(n):
                _same(by_game.encode_game(observer, game, seat, scores),
                      by_seen.encode_seen(observer.seen(game, seat), scores), f"{system} {seed} {seat}")
            tables = [(observer, game, seat) for seat in range(n)]
            fields = [observer.seen(game, seat) for seat in range(n)]
            _same(Encoder.encode_many_games([by_game] * n, tables, [scores] * n),
                  Encoder.encode_many_seen([by_seen] * n, fields, [scores] * n), f"{system} {seed} many")
            if game.over:
                break
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
    assert {"turn", "claim", "over"} <= phases


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_tables_buffers_show_nothing_of_another_seats_hidden_tiles(system: str) -> None:
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
                mine, theirs = Observer(game), Observer(twin)
                _same(encoder.encode_game(mine, game, seat), blind.encode_game(theirs, twin, seat), "hidden")
                both = Encoder.encode_many_games([encoder, blind], [(mine, game, seat), (theirs, twin, seat)],
                                                 [None, None])
                for key, value in both.items():
                    np.testing.assert_array_equal(value[0], value[1], err_msg=f"{key} shows another hand")
        seat = game.seats_to_act[0]
        game.apply(bots[seat].act(game.observation(seat)))
        step += 1


def _inputs() -> tuple[Features, list[object]]:
    features = Features(hupai.rules.get("yunxiao"))
    game = Game("yunxiao", seed=2)
    observer = Observer(game)
    return features, list(Encoder(features).game_inputs(observer.buffers(game, 0), [1, 2, 3, 4]))


def _state(values: list[int]) -> bytes:
    return struct.pack("=11i", *values)


def _with_gold(fixed: object, gold: int) -> bytes:
    """``fixed`` (int32 bytes) with its flags' gold (bits 8..15, the gold + 1) set to ``gold``."""
    assert isinstance(fixed, bytes)
    values = list(struct.unpack(f"={len(fixed) // 4}i", fixed))
    values[1] = (values[1] & 0xFF) | (gold + 1) << 8
    return struct.pack(f"={len(values)}i", *values)


def test_the_core_counts_yunxiaos_discard_shanten_with_the_gold_its_fixed_flags_give() -> None:
    features = Features(hupai.rules.get("yunxiao"))
    forms = features._dims[8]
    assert forms and not features._dims[7]  # the gold count, not the plain one
    turns = 0
    for seed in range(4):
        game = Game("yunxiao", seed=seed)
        observer = Observer(game)
        bot = RandomBot(seed)
        gold = game.table.extras["gold"]
        while not game.over:
            seat = game.seats_to_act[0]
            inputs = list(Encoder(features).game_inputs(observer.buffers(game, seat), None))
            hand = bytes(game.table.hands[seat])
            if sum(hand) % 3 == 2:
                turns += 1
                after = hupai._core.yunxiao_discard_shanten(hand, gold, (14 - sum(hand)) // 3, forms)
                expected = [99 if value == 127 else value for value in after]
                ints, floats, views = features.empty(1)
                hupai._core.encode_table(ints, floats, features._dims, 0, *inputs)
                assert views["discard_shanten"].tolist() == expected
                inputs[1] = _with_gold(inputs[1], -1)  # no gold given: not counted here
                hupai._core.encode_table(ints, floats, features._dims, 0, *inputs)
                assert (views["discard_shanten"] == 99).all()
            game.apply(bot.act(game.observation(seat)))
    assert turns > 40


def test_a_face_down_kong_of_another_seat_gives_its_count_and_never_its_kind() -> None:
    features, inputs = _inputs()
    kong = Meld("kong", (5, 5, 5, 5), concealed=True).record
    out = []
    for kind in (5, 30):
        record = bytes([kong[0], kind, *kong[2:]])
        inputs[5] = [b"", record, b"", b""]
        ints, floats, views = features.empty(1)
        hupai._core.encode_table(ints, floats, features._dims, 0, *inputs)
        assert views["hidden_melds"].tolist() == [0, 1, 0, 0] and not views["melds"].any()
        out.append(ints.copy())
    np.testing.assert_array_equal(out[0], out[1])
    inputs[5] = [kong, b"", b"", b""]  # the seat's own: shown
    ints, floats, views = features.empty(1)
    hupai._core.encode_table(ints, floats, features._dims, 0, *inputs)
    assert views["hidden_melds"].tolist() == [0, 0, 0, 0] and views["melds"][0, 5] == 4


def test_the_cores_table_encoder_refuses_a_wrong_buffer_before_writing_anything() -> None:
    features, good = _inputs()
    n = 4
    piles = good[3]
    assert isinstance(piles, list)
    wrong: list[tuple[int, object]] = [
        (0, good[0][:-4]),  # type: ignore[index]  # a short state
        (0, _state([0, -1, -1, 50, 0, 0, 0, 0, 1, 0, 7])),  # a hand-size mode of no seat
        (1, b"\0" * 4),  # a short fixed
        (1, _with_gold(good[1], 34)),  # a gold of no kind
        (1, _with_gold(good[1], -2)),
        (2, bytes(33)),  # a hand of 33 kinds
        (2, np.zeros(34, np.int32)),  # a hand of int32 items
        (2, None),  # no buffer
        (3, piles[:3]),  # three piles
        (3, [*piles[:3], 7]),  # a pile that is no buffer
        (3, [np.zeros(256, np.int16)] * n),  # piles of 2-byte items
        (4, bytes([0, 0, 0, 5])),  # a count longer than its (empty) pile...
        (4, bytes(3)),  # ... and counts of three seats
        (5, [b"\0" * 7, b"", b"", b""]),  # a 7-byte record at a mahjong table
        (5, [bytes([99, 1, 0, 0, 255, 255]), b"", b"", b""]),  # no meld type
        (5, [bytes([12, 33, 0, 0, 255, 255]), b"", b"", b""]),  # a chow off the end of the kinds
        (5, [Meld("pung", (1, 1, 1)).record * 9, b"", b"", b""]),  # more melds than a seat has room for
        (6, b"\0"),  # half an index
        (6, b"\xff\xff"),  # an index not in the space (and more than the state's count)
        (7, b"\0" * 3),  # a short tail
    ]
    for at, value in wrong:
        inputs = list(good)
        if at == 4:
            inputs[3] = [bytearray(0)] * n
        inputs[at] = value
        ints, floats, _ = features.empty(2)
        ints[:] = 7
        floats[:] = 7
        with pytest.raises(hupai.HupaiError):
            hupai._core.encode_table(ints, floats, features._dims, 0, *inputs)
        with pytest.raises(hupai.HupaiError):  # the batch: the good first table is not written either
            hupai._core.encode_tables(ints, floats, features._dims, 0, [tuple(good), tuple(inputs)])
        assert (ints == 7).all() and (floats == 7).all(), (at, value)
    ints, floats, _ = features.empty(2)
    for tables in ([tuple(good)] * 3, [tuple(good)[:7]], 5, [list(good)]):  # more tables than rows, no table
        with pytest.raises(hupai.HupaiError):
            hupai._core.encode_tables(ints, floats, features._dims, 0, tables)
    with pytest.raises(hupai.HupaiError):
        hupai._core.encode_table(ints, floats, features._dims, 2, *good)  # a row outside the outputs
    with pytest.raises(TypeError):
        hupai._core.encode_table(ints, floats, features._dims, 0, *good[:7])
    hupai._core.encode_table(ints, floats, features._dims, 1, *good)  # and the good one is taken
    assert ints[1].any()


def test_wai_huzi_masks_give_the_private_facts_of_their_decoded_mapping_and_no_other_system_takes_them() -> None:
    from types import MappingProxyType

    from hupai.game.state.zipai import MENZI, mask_cards, menzi_triples

    features = Features(hupai.rules.get("waihuzi"))
    rng = np.random.default_rng(4)
    for _ in range(200):
        chi, peng, locked = (int(rng.integers(0, 1 << 20)) for _ in range(3))
        menzi = int(rng.integers(0, 1 << len(MENZI)))
        mapping = MappingProxyType({"chi_ban": mask_cards(chi), "peng_ban": mask_cards(peng),
                                    "menzi_ban": menzi_triples(menzi), "locked": mask_cards(locked)})
        assert features.mask_fact_bytes((chi, peng, menzi, locked)) == features._part_bytes(1, mapping, 0)
    for system in ("guangdong", "kawuxing"):
        with pytest.raises(hupai.HupaiError, match="not Wai Huzi's"):
            Features(hupai.rules.get(system)).mask_fact_bytes((0, 0, 0, 0))


def test_an_index_is_found_among_the_legal_actions_bytes_only_where_one_starts() -> None:
    """The legal indices' bytes 05 00 00 00 hold index 0's bytes at offset 1 too (little-endian): not an index."""
    from hupai.actions import Action

    features = Features(hupai.rules.get("guangdong"))
    encoder = Encoder(features)
    legal = (Action("discard", 0, 5), Action("discard", 0, 0))
    indices = [features.actions.index(action) for action in legal]
    encoder._legal_entry(legal)
    assert encoder.action(indices[1], legal) is legal[1] and encoder.action(indices[0], legal) is legal[0]
    with pytest.raises(hupai.IllegalAction):
        encoder.action(3, legal)
