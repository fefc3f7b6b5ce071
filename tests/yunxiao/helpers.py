"""Small literal-hand helpers for the Yunxiao tests: our tile notation in, rule-layer objects out."""

from __future__ import annotations

from hupai.hand import Meld
from hupai.rules.yunxiao.hand import YunxiaoHand
from hupai.rules.yunxiao.options import YunxiaoOptions
from hupai.rules.yunxiao.scoring import score_win
from hupai.scoring import ScoreResult, WinContext
from hupai.tiles import parse


def kind(text: str) -> int:
    """One tile: ``kind("5z") == 31``."""
    (only,) = parse(text)
    return only


def tiles(text: str) -> tuple[int, ...]:
    return tuple(parse(text))


def meld(text: str, *, concealed: bool = False, claimed_from: int | None = None) -> Meld:
    """A declared meld from its tiles (effective kinds): a run is a chow, three alike a pung, four a kong."""
    kinds = tuple(sorted(parse(text)))
    if len(kinds) == 4:
        return Meld("kong", kinds, concealed=concealed, claimed_from=claimed_from)
    if len(set(kinds)) == 1:
        return Meld("pung", kinds, claimed_from=claimed_from)
    return Meld("chow", kinds, claimed_from=claimed_from)


def hand(text: str, gold: str, *melds: Meld) -> YunxiaoHand:
    """A hand: ``hand("123m456m789p5s111z9s", "9s")``."""
    return YunxiaoHand(tiles(text), kind(gold), melds)


def score(concealed: str, win_tile: str, *, gold: str, winner: int, event: str, discarder: int | None = None,
          melds: tuple[Meld, ...] = (), you_level: int | None = None, dealer: int = 0,
          options: YunxiaoOptions | None = None, **flags: object) -> ScoreResult:
    """Score one win the way the engine will describe it; checks the payments sum to zero."""
    context = WinContext(winner=winner, win_tile=kind(win_tile), concealed=tiles(concealed), melds=melds,
                         discarder=discarder, dealer=dealer, gold=kind(gold), event=event,
                         you_level=you_level or 0, **flags)  # type: ignore[arg-type]
    result = score_win(context, options or YunxiaoOptions())
    assert sum(result.payments) == 0
    return result
