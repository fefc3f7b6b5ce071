"""Issue 29 item 1: notation is never guessed. Every entry point that reads a tile or card reads its rule system's
own family only (mahjong: 1m..7z, Chinese names, Unicode tiles; Wai Huzi: x1..x10, d1..d10, 一..十, 壹..拾) and
refuses the other with a hupai error naming the family and giving an example of its own: ``"2m"`` and ``"x2"``
share kind 1, and a guess would play another card. Tested for every system, both directions, at
``Action.from_dict``, ``Game.apply_json``, ``hupai.score``, an observation's JSON and the CLI; a Wai Huzi action,
error or log line prints in zipai notation."""

from __future__ import annotations

import json
import re
from typing import Any

import hupai
import pytest
from hupai.actions import Action
from hupai.cli import main
from hupai.jsonform import CARD_NAMES, tile_out
from hupai.observation import Observation
from hupai.tiles import kind_name

MAHJONG = ("guangdong", "yunxiao", "kawuxing")
SYSTEMS = (*MAHJONG, "waihuzi")
ZIPAI_SAYS = "Wai Huzi reads zipai cards such as 'x2' or 'd10' (or 二, 贰)"
MAHJONG_SAYS = "a mahjong game reads tiles such as '2m' or '7z' (or 二万, 中)"
#: A mahjong tile named in a message: what a Wai Huzi message must never hold (nor mahjong's kind range).
MAHJONG_WORDS = re.compile(r"\b[1-9][mpsz]\b|0\.\.33")
WAIHUZI_WIN = "[歪 d8d8d8] x1 x1 x1 x3 x4 x5 x4 x5 x6 d3 d4 d5 d4 d5 d6 x9 x9"
#: A winning hand one tile short, and its winning tile, per mahjong system.
WINS = {"guangdong": ("111z123m456p789s5s", "5s"), "yunxiao": ("123m456p789s1122z", "2z"),
        "kawuxing": ("123p456p789s11s77z", "7z")}


def _other_name(system: str, kind: int) -> str:
    """Kind ``kind`` written in the *other* family's notation: what a confused client would send."""
    return str(tile_out(kind)) if system == "waihuzi" else CARD_NAMES[kind]


def _own_says(system: str) -> str:
    return ZIPAI_SAYS if system == "waihuzi" else MAHJONG_SAYS


def _other_is(system: str) -> str:
    return "is a mahjong tile" if system == "waihuzi" else "is a zipai card"


def _game_and_discard(system: str) -> tuple[hupai.Game, Action]:
    """A fresh game and a legal discard of a kind below 20 (so that both families have a name for it)."""
    for seed in range(40):
        game = hupai.Game(system, seed=seed)
        seat = game.seats_to_act[0]
        for action in game.legal_actions(seat):
            if action.kind == "discard" and 0 <= action.tile < 20:
                return game, action
    raise AssertionError(f"{system}: no discard of a kind below 20 in 40 deals")


# -- Action.from_dict / from_json -----------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEMS)
def test_action_from_dict_reads_its_own_family_and_refuses_the_other(system: str) -> None:
    game, discard = _game_and_discard(system)
    kinds = game.num_kinds
    own = discard.to_dict(kinds)
    assert Action.from_dict(own, kinds) == discard == Action.from_json(json.dumps(own), kinds)
    wrong = {**own, "tile": _other_name(system, discard.tile)}
    with pytest.raises(hupai.IllegalAction) as caught:
        Action.from_dict(wrong, kinds)
    message = str(caught.value)
    assert _own_says(system) in message and _other_is(system) in message and repr(wrong["tile"]) in message
    if system == "waihuzi":
        assert "'x2'" in message and not MAHJONG_WORDS.search(message.replace(repr(wrong["tile"]), ""))


@pytest.mark.parametrize(("kinds", "tile", "kind"), [
    (34, "5m", 4), (34, "五万", 4), (34, "🀋", 4), (34, "中", 33), (34, 33, 33),
    (20, "x5", 4), (20, "五", 4), (20, "小五", 4), (20, "d10", 19), (20, "拾", 19), (20, 19, 19),
])
def test_each_family_reads_its_own_notations(kinds: int, tile: Any, kind: int) -> None:
    assert Action.from_dict({"kind": "discard", "seat": 0, "tile": tile}, kinds).tile == kind


@pytest.mark.parametrize(("kinds", "tile"), [
    (34, "x5"), (34, "五"), (34, "d10"), (34, "拾"), (20, "5m"), (20, "五万"), (20, "🀋"), (20, "中"), (20, "5z"),
])
def test_each_family_refuses_the_others_notations_by_name(kinds: int, tile: str) -> None:
    with pytest.raises(hupai.IllegalAction, match="is a zipai card" if kinds == 34 else "is a mahjong tile"):
        Action.from_dict({"kind": "discard", "seat": 0, "tile": tile}, kinds)
    with pytest.raises(hupai.IllegalAction, match=re.escape("tiles[1]")):  # a run's entries as well
        Action.from_dict({"kind": "chow", "seat": 0, "tile": 0, "tiles": [0, tile, 2]}, kinds)


def test_a_kind_beyond_the_family_is_refused_with_its_own_range() -> None:
    with pytest.raises(hupai.IllegalAction, match=r"tile 20 is not a card kind in 0\.\.19"):
        Action.from_dict({"kind": "discard", "seat": 0, "tile": 20}, 20)
    with pytest.raises(hupai.IllegalAction, match=r"'d11' is not a tile: " + re.escape(ZIPAI_SAYS)):
        Action.from_dict({"kind": "discard", "seat": 0, "tile": "d11"}, 20)


# -- Game.apply_json --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEMS)
def test_apply_json_refuses_the_other_family_and_leaves_the_game_as_it_was(system: str) -> None:
    game, discard = _game_and_discard(system)
    before = game.to_json()
    wrong = json.dumps({"kind": "discard", "tile": _other_name(system, discard.tile)})
    with pytest.raises(hupai.IllegalAction) as caught:
        game.apply_json(discard.seat, wrong)
    assert _own_says(system) in str(caught.value) and _other_is(system) in str(caught.value)
    assert game.to_json() == before
    assert game.apply_json(discard.seat, json.dumps(discard.to_dict(game.num_kinds))) == discard


def test_the_issue_case_a_wai_huzi_game_no_longer_plays_2m_as_x2() -> None:
    game = hupai.Game("waihuzi", seed=1)
    seat = game.seats_to_act[0]
    with pytest.raises(hupai.IllegalAction, match=re.escape(f"{ZIPAI_SAYS}; '2m' is a mahjong tile")):
        game.apply_json(seat, '{"kind":"discard","tile":"2m"}')
    game = hupai.Game("guangdong", seed=1)
    with pytest.raises(hupai.IllegalAction, match=re.escape(f"{MAHJONG_SAYS}; 'x1' is a zipai card")):
        game.apply_json(game.seats_to_act[0], '{"kind":"discard","tile":"x1"}')


# -- hupai.score ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", MAHJONG)
def test_score_of_a_mahjong_system_refuses_zipai_cards(system: str) -> None:
    hand, tile = WINS[system]
    hupai.score(system, hand, win_tile=tile, **({"gold": "5p"} if system == "yunxiao" else {}))  # it scores
    with pytest.raises(hupai.InvalidHand, match=re.escape(MAHJONG_SAYS) + "; 'x1' is a zipai card"):
        hupai.score(system, hand + " x1")
    with pytest.raises(hupai.InvalidHand, match="'x5' is a zipai card"):
        hupai.score(system, hand, win_tile="x5")


def test_score_of_wai_huzi_refuses_mahjong_tiles() -> None:
    hupai.score("waihuzi", WAIHUZI_WIN)
    with pytest.raises(hupai.InvalidHand, match=re.escape(ZIPAI_SAYS) + "; '9m' is a mahjong tile"):
        hupai.score("waihuzi", WAIHUZI_WIN[:-2] + "9m")
    with pytest.raises(hupai.InvalidHand, match="'9m' is a mahjong tile"):
        hupai.score("waihuzi", WAIHUZI_WIN[:-3], win_tile="9m")
    with pytest.raises(hupai.InvalidHand, match="'中' is a mahjong tile"):
        hupai.score("waihuzi", WAIHUZI_WIN[:-3], win_tile="中")


# -- observations' JSON ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("field", ["hand", "legal_actions", "discards"])
def test_an_observation_in_the_other_familys_notation_is_refused(system: str, field: str) -> None:
    game, discard = _game_and_discard(system)
    seat = discard.seat
    game.apply(discard)
    data = game.observation(seat).to_dict()
    assert Observation.from_dict(data) == game.observation(seat)
    if field == "hand":
        data["hand"][0] = _other_name(system, discard.tile)
    elif field == "discards":
        data["discards"][seat] = [_other_name(system, discard.tile)]
    else:
        data = hupai.Game(system, seed=0).observation(seat).to_dict()
        data["legal_actions"] = [{"kind": "discard", "seat": seat, "tile": _other_name(system, discard.tile)}]
    with pytest.raises(hupai.HupaiError, match=_other_is(system)):
        Observation.from_dict(data)


# -- the CLI's tile arguments -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("argv", "says"), [
    (["score", "guangdong", "111z123m456p789s5s x5"], "'x5' is a zipai card"),
    (["score", "yunxiao", "123m456p789s1122z", "--win-tile", "x2"], "'x2' is a zipai card"),
    (["score", "kawuxing", "123p456p789s11s77z", "--win-tile", "贰"], "'贰' is a zipai card"),
    (["analyze", "123m456p789s11z x1", "--rules", "guangdong"], "'x1' is a zipai card"),
    (["score", "waihuzi", WAIHUZI_WIN[:-3] + " 9m"], "'9m' is a mahjong tile"),
    (["score", "waihuzi", WAIHUZI_WIN[:-3], "--win-tile", "9m"], "'9m' is a mahjong tile"),
    (["analyze", "x1 x2 x3 5m", "--rules", "waihuzi"], "'5m' is a mahjong tile"),
])
def test_the_cli_refuses_the_other_familys_tiles_in_one_line(argv: list[str], says: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    if "waihuzi" in argv:
        assert ZIPAI_SAYS in err
    else:
        assert MAHJONG_SAYS in err


# -- zipai actions, errors and logs print in zipai notation ------------------------------------------------------
def test_a_wai_huzi_action_prints_in_zipai_notation() -> None:
    assert Action("discard", 0, 1).describe(20) == "P0 discard x2"
    assert Action("chow", 1, 12, (11, 12, 13)).describe(20) == "P1 chow d3 d2 d3 d4"
    assert str(Action("discard", 0, 1)) == "P0 discard 2m" == Action("discard", 0, 1).describe()


def test_wai_huzi_errors_name_cards_in_zipai_notation_and_never_suggest_mahjong() -> None:
    game = hupai.Game("waihuzi", seed=1)
    seat = game.seats_to_act[0]
    hand = game.hand(seat)
    missing = next(kind for kind in range(20) if not hand[kind])
    messages = []
    for attempt in (Action("discard", seat, missing), Action("pung", seat, missing),
                    {"kind": "discard", "seat": seat, "tile": 25}, {"kind": "discard", "seat": seat, "tile": "x11"},
                    {"kind": "discard", "seat": seat, "tile": kind_name(missing)}):
        with pytest.raises(hupai.IllegalAction) as caught:
            game.apply(attempt) if isinstance(attempt, Action) else game.apply_json(seat, attempt)
        messages.append(str(caught.value))
    assert f"P{seat} discard {CARD_NAMES[missing]}: P{seat} holds no {CARD_NAMES[missing]}" in messages[0]
    assert f"P{seat} pung {CARD_NAMES[missing]}" in messages[1]
    for message in messages[:4]:
        assert not MAHJONG_WORDS.search(message), message
    assert not MAHJONG_WORDS.search(messages[4].replace(repr(kind_name(missing)), "")), messages[4]


def test_the_replay_log_lines_of_a_wai_huzi_game_name_its_cards(tmp_path: Any,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    game = hupai.Game("waihuzi", seed=3)
    hupai.game.play(game, [hupai.bots.GreedyBot(seat) for seat in range(3)])
    path = tmp_path / "hand.json"
    path.write_text(game.to_json(), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"discard [xd]\d", out) and not re.search(r"discard [1-9][mpsz]", out)
