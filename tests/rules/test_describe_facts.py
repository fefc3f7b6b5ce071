"""Each rule system describes its own public facts and names its patterns for people (issue 24 item 1): the
observation's ``extras`` as labelled :class:`~hupai.rules.facts.Fact` items (Chinese and English label, a
readable value, the tiles shown, the seat), never raw JSON; every pattern-table entry with a Chinese and an
English name, which :meth:`~hupai.rules.Rules.pattern_names` gives a client."""

from __future__ import annotations

import json
from typing import Any

import hupai
import pytest
from hupai.errors import HupaiError
from hupai.rules.facts import Fact
from hupai.rules.guangdong import patterns as gd
from hupai.rules.kawuxing import patterns as kw
from hupai.rules.patterns import PatternEntry
from hupai.rules.waihuzi import patterns as wh
from hupai.rules.yunxiao import patterns as yx
from hupai.rules.yunxiao import scoring as yx_scoring

TABLES: dict[str, tuple[tuple[PatternEntry[Any, Any], ...], ...]] = {
    "guangdong": (gd.WITHIN_LIMIT, gd.EXTRAS, gd.BEYOND_LIMIT, gd.MINIMUM_WINS, gd.FLAT_WINS),
    "kawuxing": (kw.FACTORS,),
    "waihuzi": (wh.MINGTANG,),
    "yunxiao": (yx.HAND_PATTERNS, yx_scoring.POINTS_000, yx_scoring.MULTIPLIER_001),
}


def texts(facts: list[Fact]) -> str:
    return " | ".join(f"{f.zh} {f.en}: {f.text}" for f in facts)


@pytest.mark.parametrize("system", sorted(TABLES))
def test_every_pattern_entry_has_a_chinese_and_an_english_name(system: str) -> None:
    """GD-16..21, KW-20..22, WH-35..41, YX-29..41: every entry of every table is named in both languages."""
    entries = [entry for table in TABLES[system] for entry in table]
    assert entries
    for entry in entries:
        assert entry.chinese and not entry.chinese.isascii(), entry.name
        assert entry.english and entry.english.isascii() and entry.english[0].isupper(), entry.name
        assert entry.english != entry.name and "_" not in entry.english, entry.name


@pytest.mark.parametrize("system", sorted(TABLES))
def test_pattern_names_cover_every_name_a_result_reports(system: str) -> None:
    names = hupai.rules.get(system).pattern_names()
    reported = set(yx_scoring.PATTERN_CHINESE) if system == "yunxiao" else \
        {entry.name for table in TABLES[system] for entry in table}
    assert reported <= set(names)
    for name in reported:
        zh, en = names[name]
        assert zh and en and not zh.isascii() and en.isascii() and "_" not in en, name
    # Results of real hands: every pattern a win reports is named.
    for seed in range(3):
        game = hupai.Game(system, seed=seed)
        bots = [hupai.bots.GreedyBot(seed=s) for s in range(game.rules.num_players)]
        while not game.over:
            seat = game.current.seats[0]
            game.apply(bots[seat].act(game.observation(seat)))
        result = game.observation(0).result
        assert result is not None
        for win in result.wins:
            assert all(name in names for name, _ in win.patterns), win.patterns


def test_well_known_english_names() -> None:
    assert gd.BEYOND_LIMIT[0].english == "All One Suit"
    assert hupai.rules.get("kawuxing").pattern_names()["qi_dui"] == ("七对", "Seven Pairs")
    assert hupai.rules.get("waihuzi").pattern_names()["shen_yao"] == ("神腰", "Spirit's Waist")
    assert hupai.rules.get("yunxiao").pattern_names()["dan_you_jin"] == ("单游金", "Single Swimming Gold")
    assert yx_scoring.POINTS_000[5].english == "Plain Win / Seven Pairs / Knitted Tiles"


def test_guangdong_describes_its_fan_limit() -> None:
    """GD-18: Guangdong keeps no extras; its facts name the 番 limit of this table."""
    facts = hupai.rules.get("guangdong", cap_fan=5).describe_facts({})
    assert [(f.zh, f.en) for f in facts] == [("封顶", "Fan limit")] and "5 番" in facts[0].text


def test_yunxiao_describes_the_gold_white_dragon_you_levels_and_kongs() -> None:
    """YX-5..7 gold and 白板 as its face, YX-30 a robbed gold, YX-23 kongs, YX-26 游 levels."""
    rules = hupai.rules.get("yunxiao")
    facts = rules.describe_facts({"gold": 2, "indicator": -1, "you": (0, 2, 0, 1), "kongs": 1, "last_kong": (),
                                  "chow_turn": ()})
    by = {f.zh: f for f in facts if f.seat is None}
    assert by["金"].tiles == (2,) and "3m 三万" in by["金"].text and by["金"].en == "Gold"
    assert by["白板"].tiles == (31,) and "plays as the gold's face, 3m" in by["白板"].text
    assert "抢金" in by["抢金"].text and "1 of 3" in by["杠"].text
    you = [(f.seat, f.text) for f in facts if f.zh == "游金"]
    assert you == [(1, "seat 1: 双游 double swim"), (3, "seat 3: 单游 single swim")]
    assert "抢金" not in texts(rules.describe_facts({"gold": 2, "indicator": 2, "you": (0, 0, 0, 0), "kongs": 0}))


def test_kawuxing_describes_liangdao_hands_once_and_the_kong_chain() -> None:
    """KW-16: a 亮倒 seat's shown tiles are its hand, face up (``hand``); KW-13: the 杠上杠 chain."""
    rules = hupai.rules.get("kawuxing")
    shown = (9, 10, 11, 12, 12)
    facts = rules.describe_facts({"liangdao": (False, True, False), "revealed": ((), shown, ()),
                                  "chain": (2, 2, 5)})
    liangdao = [f for f in facts if f.zh == "亮倒"]
    assert len(liangdao) == 1 and liangdao[0].seat == 1 and liangdao[0].hand and liangdao[0].tiles == shown
    chain = next(f for f in facts if f.zh == "杠上杠")
    assert chain.seat == 2 and "number 2 of a chain, paid ×2" in chain.text
    assert rules.describe_facts({"liangdao": (False,) * 3, "revealed": ((),) * 3, "chain": (-1, 0, 0)}) == [
        Fact("亮倒", "Declared ready", "nobody yet")]


def test_wai_huzi_describes_shen_shenyao_dead_hands_and_the_offer() -> None:
    """WH-5 神 and the card shown, WH-39 神腰, WH-21..27 死手, WH-17 where the card on offer came from."""
    rules = hupai.rules.get("waihuzi")
    facts = rules.describe_facts({"shen": "odd", "shen_shown": 6, "dead": (False, False, True), "offer": "draw"})
    by = {f.zh: f for f in facts}
    assert "单神 odd" in by["神"].text and "七" in by["神"].text and by["神"].tiles == (6,)
    assert "×2" in by["神腰"].text and "odd" in by["神腰"].text
    assert by["死手"].seat == 2 and by["死手"].en == "Dead hand"
    assert by["出牌"].text == "turned up from the stock"
    assert by["神"].to_dict(20)["tiles"] == ["x7"]


@pytest.mark.parametrize("system", sorted(TABLES))
def test_malformed_or_missing_extras_are_left_out_never_raised(system: str) -> None:
    rules = hupai.rules.get(system)
    for extras in ({}, {"gold": "x", "you": 3, "liangdao": "yes", "revealed": 5, "chain": [None, "a", 0],
                        "shen": 7, "dead": None, "offer": [], "kongs": -1, "shen_shown": 99}):
        for fact in rules.describe_facts(extras):
            assert fact.seat is None and not fact.tiles


@pytest.mark.parametrize("system", sorted(TABLES))
def test_facts_of_real_hands_are_words_not_json(system: str) -> None:
    game = hupai.Game(system, seed=1)
    bots = [hupai.bots.GreedyBot(seed=s) for s in range(game.rules.num_players)]
    kinds = 20 if system == "waihuzi" else 34
    described = 0
    while not game.over:
        seat = game.current.seats[0]
        observation = game.observation(seat)
        for fact in game.rules.describe_facts(observation.extras):
            data = fact.to_dict(kinds)
            assert Fact.from_json(json.dumps(data), kinds) == fact
            assert not any(mark in fact.text for mark in ("[", "{", "None", "True", "-1")), fact
            described += 1
        game.apply(bots[seat].act(observation))
    assert described


def test_a_fact_round_trips_and_a_malformed_one_is_a_clear_error() -> None:
    fact = Fact("亮倒", "Declared ready", "seat 1 shows its hand", (9, 10), 1, True)
    assert Fact.from_dict(fact.to_dict()) == fact and Fact.from_json(fact.to_json()) == fact
    assert fact.to_dict() == {"zh": "亮倒", "en": "Declared ready", "text": "seat 1 shows its hand",
                              "tiles": ["1p", "2p"], "seat": 1, "hand": True}
    for bad, why in (({"zh": "x", "en": "y"}, "missing text"), ({**fact.to_dict(), "tiles": ["9z"]}, "not a tile"),
                     ({**fact.to_dict(), "seat": 9}, "fact.seat"), ({**fact.to_dict(), "extra": 1}, "unknown")):
        with pytest.raises(HupaiError, match=why):
            Fact.from_dict(bad)
