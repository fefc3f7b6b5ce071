"""The zipai flow's offer scan (``_core.zipai_offer``, one core call per offered card) against the Python statement
of the same rules (WH-14, WH-15, WH-18, WH-21..23, WH-26, WH-27, WH-32): at every offer of real games (RandomBot
and GreedyBot, several option sets, both claim windows, house rules that change which hands win), and on the same
tables with random bans, locks and 死手 seats."""

from __future__ import annotations

import random
from typing import Any

import hupai
import pytest
from hupai import _core
from hupai.actions import Action
from hupai.bots import GreedyBot, RandomBot
from hupai.game import Game, play
from hupai.game.zipai import flow as flow_module
from hupai.game.zipai.flow import _ACT, _CHOW_SPEC, _ORDER, ZipaiFlow

OPTION_SETS: list[dict[str, Any]] = [
    {}, {"min_huxi": 8}, {"min_huxi": 3, "xingxingxi": "strict", "extra_mingtang": True}, {"daxiaozihu": False},
    {"sishou": "at_claim"}, {"dandiao": "plus5"}]


def reference_options(flow: ZipaiFlow, card: int, source: int, drawn: bool) -> dict[int, list[Action]]:
    """The options as the flow worked them out in Python before the core's scan (each win by zipai_best)."""
    table = flow.table
    chower = (source + 1) % 3
    out: dict[int, list[Action]] = {}
    for seat in _ORDER[drawn][source]:
        if table.dead >> seat & 1:
            continue
        held = table.hands[seat][card]
        own = drawn and seat == source
        options: list[Action] = []
        if own:
            wai = any(g.cards[0] == card and g.type == "wai" for g in table.groups[seat])
            peng = any(g.cards[0] == card and g.type == "peng" for g in table.groups[seat])
            if held == 3 or wai:
                options.append(_ACT["liu"][seat][card])
            if held >= 2 and flow._keeps_discard(seat, (card, card)):
                options.append(_ACT["wai"][seat][card])
            if peng:
                options.append(_ACT["piao"][seat][card])
        elif held >= 2:
            if held == 3:
                options.append(_ACT["piao"][seat][card])
            if flow._keeps_discard(seat, (card, card)):
                options.append(_ACT["pung"][seat][card])
        if (own or seat == chower) and not table.chi_ban[seat] >> card & 1:
            options.extend(flow._chows(seat, card))
        if flow._wins(seat, card, own):
            options.append(_ACT["win"][seat][card])
        if options:
            out[seat] = options
    return out


class _Checked:
    def __init__(self) -> None:
        self.offers = self.offered = self.chows = self.perturbed = 0
        self.rng = random.Random(3)
        self.original = ZipaiFlow._offer

    def offer(self, flow: ZipaiFlow, card: int, source: int, drawn: bool) -> None:
        table = flow.table
        table.offer, table.offer_from, table.offer_kind = card, source, "draw" if drawn else "discard"
        got = flow._offer_options(card, source, drawn)
        assert got == reference_options(flow, card, source, drawn)
        self.offers += 1
        self.offered += bool(got)
        self.chows += any(a.kind == "chow" for options in got.values() for a in options)
        saved = (table.dead, list(table.chi_ban), list(table.menzi_ban), list(table.locked))
        rng = self.rng
        for _ in range(2):  # the same hands under other bans, locks and 死手 seats
            table.dead = rng.randrange(8) if rng.random() < 0.3 else saved[0]
            for seat in range(3):
                table.chi_ban[seat] = rng.getrandbits(20) & rng.getrandbits(20)
                table.menzi_ban[seat] = rng.getrandbits(28) & rng.getrandbits(28)
                table.locked[seat] = rng.getrandbits(20) & rng.getrandbits(20) & rng.getrandbits(20)
            assert flow._offer_options(card, source, drawn) == reference_options(flow, card, source, drawn)
            self.perturbed += 1
        table.dead, table.chi_ban[:], table.menzi_ban[:], table.locked[:] = saved
        self.original(flow, card, source, drawn)


@pytest.mark.rule("WH-14", "WH-15", "WH-18", "WH-21", "WH-23", "WH-26", "WH-27", "WH-32")
def test_the_core_offer_scan_offers_what_the_rules_say(monkeypatch: Any) -> None:
    checked = _Checked()
    monkeypatch.setattr(ZipaiFlow, "_offer", lambda flow, card, source, drawn: checked.offer(flow, card, source, drawn))
    # every offer one by one (the core's run of unclaimed cards is held to this path by test_lean_offers.py)
    monkeypatch.setattr(flow_module, "LEAN_OFFERS", False)
    for index in range(240):
        options = OPTION_SETS[index % len(OPTION_SETS)]
        rules = hupai.rules.get("waihuzi", options)
        bots = [(GreedyBot if index % 3 else RandomBot)(index * 3 + seat) for seat in range(3)]
        game = Game(rules, seed=index, dealer=index % 3, claim_window="all" if index % 2 else "eligible")
        play(game, bots)
    assert checked.offers > 5000 and checked.offered > 1000 and checked.chows > 300 and checked.perturbed > 10000


def test_the_chow_table_holds_each_cards_runs() -> None:
    """_CHOW_SPEC is _CHOWS' data: per card, each run's 门子, locks and menzi bit, empty slots 255."""
    assert len(_CHOW_SPEC) == 20 * 4 * 6
    for card in range(20):
        chows = flow_module._CHOWS[0][card]
        for slot in range(4):
            spec = _CHOW_SPEC[(card * 4 + slot) * 6:(card * 4 + slot + 1) * 6]
            if slot >= len(chows):
                assert spec == b"\xff" * 6
                continue
            low, high, locks, bit, _ = chows[slot]
            assert (spec[0], spec[1], int.from_bytes(spec[2:5], "little")) == (low, high, locks)
            assert (1 << spec[5] if spec[5] != 255 else 0) == bit


HAND = bytes([3, 3, 3, 3, 3, 3, 1] + [0] * 13)
OPTIONS = (5, False, True, False)


@pytest.mark.parametrize("args", [
    (HAND, [[], [], []], 1, 0, True, 0, [0, 0, 0], [0, 0, 0], [0, 0, 0], _CHOW_SPEC, OPTIONS, True),
    ([HAND] * 3, [[], [], []], 20, 0, True, 0, [0, 0, 0], [0, 0, 0], [0, 0, 0], _CHOW_SPEC, OPTIONS, True),
    ([HAND] * 3, [[], [], []], 1, 3, True, 0, [0, 0, 0], [0, 0, 0], [0, 0, 0], _CHOW_SPEC, OPTIONS, True),
    ([HAND] * 3, [[], [], []], 1, 0, True, 8, [0, 0, 0], [0, 0, 0], [0, 0, 0], _CHOW_SPEC, OPTIONS, True),
    ([HAND] * 3, [[], [], []], 1, 0, True, 0, [0, 0], [0, 0, 0], [0, 0, 0], _CHOW_SPEC, OPTIONS, True),
    ([HAND] * 3, [[], [], []], 1, 0, True, 0, [0, 0, -1], [0, 0, 0], [0, 0, 0], _CHOW_SPEC, OPTIONS, True),
    ([HAND] * 3, [[], [], []], 1, 0, True, 0, [0, 0, 0], [0, 0, 0], [1 << 20, 0, 0], _CHOW_SPEC, OPTIONS, True),
    ([HAND] * 3, [[], [], []], 1, 0, True, 0, [0, 0, 0], [0, 0, 0], [0, 0, 0], _CHOW_SPEC[:-1], OPTIONS, True),
    ([HAND] * 3, [[], [], []], 1, 0, True, 0, [0, 0, 0], [0, 0, 0], [0, 0, 0], b"\x30" * 480, OPTIONS, True),
    ([HAND] * 3, [[], [], []], 1, 0, True, 0, [0, 0, 0], [0, 0, 0], [0, 0, 0], _CHOW_SPEC, (5, True), True),
    ([HAND, bytes(20), HAND], [[], [], []], 1, 0, True, 0, [0, 0, 0], [0, 0, 0], [0, 0, 0], _CHOW_SPEC, OPTIONS,
     True),
    ([HAND, bytes([5] * 20), HAND], [[], [], []], 1, 0, True, 0, [0, 0, 0], [0, 0, 0], [0, 0, 0], _CHOW_SPEC,
     OPTIONS, False),
    ([HAND] * 3, [[(7, 1, 1)], [], []], 1, 0, True, 0, [0, 0, 0], [0, 0, 0], [0, 0, 0], _CHOW_SPEC, OPTIONS, True),
    ([HAND] * 3, [[], [], []], 1, 0, True, 0, [0, 0, 0], [0, 0, 0], [0, 0, 0], _CHOW_SPEC, OPTIONS),
])
def test_malformed_arguments_are_refused(args: Any) -> None:
    """A hostile or malformed argument: TypeError or InvalidHand (a HupaiError, a ValueError), never a crash."""
    with pytest.raises((TypeError, ValueError)):
        _core.zipai_offer(*args)


def test_a_seat_not_asked_is_not_read() -> None:
    """A 死手 seat's hand (and a discard's discarder's) is not even read: no win, no option."""
    bad = bytes(20)
    hand = bytes([3, 3, 3, 3, 3, 3, 1] + [0] * 13)  # wins on card 6 from another seat
    args = ([hand, bad, bad], [[], [], []], 6, 1, False, 0b100, [0, 0, 0], [0, 0, 0], [0, 0, 0], _CHOW_SPEC,
            OPTIONS, True)
    got = _core.zipai_offer(*args)
    assert got & 16 and got >> 16 == 0
