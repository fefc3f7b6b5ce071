"""Spec audit, flow oracle: over random bot games, the money the engine paid is recomputed from the public event
log by the spec's text alone: kong money by kind and 杠上杠 chain (KW-12, KW-13, KW-15, x base), robbed kongs
earning nothing (KW-14), 杠上开花/杠上炮 (KW-20) from the draws and discards around each win, the 荒庄 payments by
the number of 亮倒 seats (KW-27), and the next dealer (KW-28)."""

from __future__ import annotations

from collections import Counter

import hupai
import pytest
from hupai.bots import RandomBot
from hupai.events import Event
from hupai.game import Game
from hupai.rules.kawuxing import LIANGDAO

MONEY = {"concealed": 2, "added": 1, "exposed": 2}  # KW-12


def _expected(events: list[Event], base: int) -> tuple[list[tuple[int, ...]], Counter[str]]:
    """The kong and 荒庄 payments KW-12..15 and KW-27 call for, in order, from the log; and what was met."""
    payments: list[tuple[int, ...]] = []
    met: Counter[str] = Counter()
    chain = 0
    declared = [False] * 3
    for i, event in enumerate(events):
        if event.type == "discard" and event.info == LIANGDAO:
            declared[event.seat] = True
        if event.type == "kong":
            seat = event.seat
            before = [e for e in events[:i] if e.type != "rob"]
            last = before[-1]
            if last.type == "discard":  # a claimed 直杠: the discarder pays
                kind, payer = "exposed", last.seat
                # KW-13: on the discard made right after its maker drew a kong replacement.
                continues = before[-2].type == "draw" and before[-2].seat == last.seat \
                    and before[-2].info == "replacement"
            else:  # in its own turn, right after a draw
                kind = "added" if event.info else "concealed"
                payer = -1
                continues = last.type == "draw" and last.seat == seat and last.info == "replacement"
            chain = chain + 1 if continues else 1
            amount = MONEY[kind] * base * 2 ** (chain - 1)
            paid = [0, 0, 0]
            for other in range(3):
                if other != seat and payer in (-1, other):
                    paid[other] -= amount
                    paid[seat] += amount
            payments.append(tuple(paid))
            met[f"{kind} x{2 ** (chain - 1)}"] += 1
        if event.type == "drawn":  # KW-27: each 亮倒 seat pays base to each seat that is not
            paid = [0, 0, 0]
            for payer in range(3):
                for other in range(3):
                    if declared[payer] and not declared[other]:
                        paid[payer] -= base
                        paid[other] += base
            if any(paid):
                payments.append(tuple(paid))
                met[f"荒庄 with {sum(declared)} 亮倒"] += 1
    return payments, met


class EagerBot(RandomBot):
    """Wins, kongs and pungs whenever it may, declares 亮倒 when offered, else a random legal action: a table of
    these meets kongs, 杠上杠 chains, robbed kongs and 亮倒 hands far more often than uniform play."""

    def choose(self, legal_actions):
        for kind in ("win", "kong", "pung"):
            wanted = [a for a in legal_actions if a.kind == kind]
            if wanted:
                return wanted[0]
        declared = [a for a in legal_actions if a.flag == LIANGDAO]
        return super().choose(declared or legal_actions)


@pytest.mark.rule("KW-12", "KW-13", "KW-14", "KW-15", "KW-20", "KW-27", "KW-28")
@pytest.mark.parametrize("base", [1, 2])
def test_kw_13_kong_money_chains_and_drawn_hands_recomputed_from_the_log(base):
    rules = hupai.rules.get("kawuxing", base=base)
    bots = [(EagerBot if seat else RandomBot)(seat + 7 * base) for seat in range(3)]
    met: Counter[str] = Counter()
    for seed in range(1000):
        game = Game(rules, seed=seed, dealer=seed % 3, claim_window="eligible")
        while not game.over:
            seat = game.current.seats[0]
            game.apply(bots[seat].choose(game.legal_actions(seat)))
        events = list(game.events)
        expected, seen = _expected(events, base)
        met.update(seen)
        assert [e.tiles for e in events if e.type == "payment"] == expected, seed
        result = game.result
        for win in result.wins:
            at = max(i for i, e in enumerate(events) if e.type == "win" and e.seat == win.seat)
            before = [e for e in events[:at] if e.type not in ("win", "rob")]
            names = set(win.score.pattern_names)
            if win.source == "replacement":  # 杠上开花: the winner's own replacement draw
                assert "gang_shang_kai_hua" in names
                met["杠上开花"] += 1
            if win.source == "discard":  # 杠上炮: the discard right after the discarder's replacement draw
                pao = before[-2].type == "draw" and before[-2].info == "replacement" \
                    and before[-2].seat == before[-1].seat == win.discarder
                assert ("gang_shang_pao" in names) == pao, seed
                met["杠上炮"] += pao
            if win.source == "robbed_kong":
                met["抢杠胡"] += 1
        if result.drawn:
            assert result.next_dealer == game.table.dealer  # KW-28
        elif len(result.winners) == 1:
            assert result.next_dealer == result.winners[0]
        else:
            assert result.next_dealer == result.wins[0].discarder
    # The random games met chains beyond the first kong and drawn hands with 亮倒 seats.
    assert any(key.endswith("x2") for key in met) and met["杠上开花"] and met["杠上炮"] and met["抢杠胡"], met
    assert any(key.startswith("荒庄") for key in met), met
