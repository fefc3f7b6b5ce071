"""Kawuxing scoring: the best reading's factor product (KW-20, KW-21), the cap (KW-24) and who pays (KW-25,
KW-26).

KW-21: the value is the maximum over every reading of the hand, standard and seven pairs (a quad counts as two
pairs), and over the group the winning tile sits in (it matters for 卡五星: ``3455s`` + ``6s`` reads the 5 won as
the middle of 456 only if the reading puts it there).
"""

from __future__ import annotations

from collections import Counter

from ...analysis import Forms, decompositions
from ...errors import InvalidHand, NotAWin
from ...scoring import ScoreResult, WinContext
from ...tiles import format_tiles, to_counts
from ..patterns import counted, product
from .options import KawuxingOptions
from .patterns import FACTORS, Reading

__all__ = ["score_win", "best_reading", "readings", "FORMS", "KINDS", "PLAYERS", "check_seats", "check_tiles",
           "check_events"]

#: KW-19: standard, and seven pairs with a quad as two pairs (concealed only: the core refuses it with melds).
FORMS = Forms.STANDARD | Forms.SEVEN_PAIRS_QUADS
#: KW-1: the kinds of the 84 tiles, 1p..9p, 1s..9s and 5z 6z 7z (no 万, no winds).
KINDS = frozenset((*range(9, 27), 31, 32, 33))
PLAYERS = 3  # KW-2


def readings(context: WinContext, options: KawuxingOptions | None = None) -> list[Reading]:
    """Every (decomposition, group of the winning tile) of the winning hand; ``[]`` if it is not complete."""
    options = KawuxingOptions() if options is None else options
    counts = to_counts([*context.concealed, context.win_tile])
    out = []
    for decomposition in decompositions(counts, melds=len(context.melds), forms=FORMS):
        seven = bool(decomposition.form & (Forms.SEVEN_PAIRS | Forms.SEVEN_PAIRS_QUADS))
        seen: set[tuple[str, tuple[int, ...]]] = set()
        for index, group in enumerate(decomposition.groups):
            key = (group.type, group.tiles)
            if context.win_tile in group.tiles and key not in seen:  # equal groups read the same
                seen.add(key)
                out.append(Reading(context, seven, decomposition.groups, index, options))
    return out


def best_reading(context: WinContext, options: KawuxingOptions | None = None) -> tuple[Reading, int]:
    """The reading with the highest factor product, and that product (before the cap)."""
    found = readings(context, options)
    if not found:
        raise NotAWin(f"Kawuxing: {format_tiles(list(context.concealed))} with "
                          f"{format_tiles([context.win_tile])} and {len(context.melds)} meld(s) is not a "
                          f"winning hand (KW-19)")
    scored = [(product(counted(FACTORS, r), r), r) for r in found]
    value, reading = max(scored, key=lambda item: item[0])
    return reading, value


def score_win(context: WinContext, options: KawuxingOptions) -> ScoreResult:
    """KW-24: V = base x min(product, cap). KW-25: a self-draw is paid V by each other player; a discard win
    (杠上炮 included) and a robbed 补杠 by the discarder (the robbed player) alone. KW-26: each winner of a
    一炮双响 is scored on its own, so each is paid its own V."""
    check_seats(context)
    check_tiles(context)
    check_events(context)
    reading, raw = best_reading(context, options)
    entries = counted(FACTORS, reading)
    capped = raw if options.cap is None else min(raw, options.cap)
    value = options.base * capped
    n = PLAYERS  # check_seats refused any other count
    payments = [0] * n
    winner = context.winner
    if context.discarder is None:
        for seat in range(n):
            if seat != winner:
                payments[seat] = -value
        payments[winner] = value * (n - 1)
    else:
        # KW-18's house rule: the discarder into a 亮倒 hand (包胡, a robbed 补杠 included) pays double.
        paid = value * 2 if context.declared_ready and options.liangdao_discarder == "double" else value
        payments[context.discarder] = -paid
        payments[winner] = paid
    patterns = tuple(entry.pattern() for entry in entries)
    details: dict[str, object] = {"product": raw, "capped": capped != raw, "seven_pairs": reading.seven_pairs}
    if context.discarder is not None and -payments[context.discarder] != value:
        details["liangdao_double"] = True  # KW-18's house rule applied: the discarder paid 2V
    return ScoreResult(patterns, value, tuple(payments), details, reading=describe(reading))


# A decomposition group's tiles in notation, by its tiles (a few dozen distinct groups: kept once made, as every
# win's reading names its groups and format_tiles checks each kind anew).
_GROUP_TEXT: dict[tuple[int, ...], str] = {}


def _group_text(tiles: tuple[int, ...]) -> str:
    text = _GROUP_TEXT.get(tiles)
    if text is None:
        text = format_tiles(list(tiles))
        if len(_GROUP_TEXT) < 4096:  # (a bound: the decompositions' groups are of the 34 kinds only)
            _GROUP_TEXT[tiles] = text
    return text


def describe(reading: Reading) -> str:
    """A reading in words: its groups in notation (the winning tile's group marked ``*``), then the melds."""
    groups = [_group_text(group.tiles) + ("*" if index == reading.win_group else "")
              for index, group in enumerate(reading.groups)]
    melds = [str(meld) for meld in reading.context.melds]
    return " ".join(groups + melds) + (" (seven pairs)" if reading.seven_pairs else "")


def check_seats(context: WinContext) -> None:
    """Seats and tiles a Kawuxing win needs (KW-2: three players, 84 tiles), else InvalidHand naming them."""
    n = PLAYERS
    if context.num_players not in (None, n):  # None: the system's own
        raise InvalidHand(f"Kawuxing is played by three players (KW-2), got num_players={context.num_players!r}")
    for name in ("winner", "dealer", "discarder"):
        value = getattr(context, name)
        if (value is not None or name != "discarder") and (type(value) is not int or not 0 <= value < n):
            raise InvalidHand(f"{name}={value!r} is not a seat in 0..{n - 1}")
    if context.discarder == context.winner:
        raise InvalidHand(f"the winner P{context.winner} cannot also be the discarder")
    if type(context.win_tile) is not int or not 0 <= context.win_tile < 34:
        raise InvalidHand(f"win_tile={context.win_tile!r} is not a tile kind in 0..33")


def check_tiles(context: WinContext) -> None:
    """Tiles a Kawuxing hand can hold, else InvalidHand naming them: only the 84-tile set's kinds, at most four of
    each, melds included (KW-1); no chow among the melds (KW-8); 13 tiles before the winning one (a kong counts 3)."""
    melds = context.mahjong_melds()
    if any(meld.type == "chow" for meld in melds):
        raise InvalidHand("Kawuxing has no chow (KW-8): a winning hand's melds are pungs and kongs")
    held = len(context.concealed) + 3 * len(melds)
    if held != 13:
        raise InvalidHand(f"the winner must hold 13 tiles before the winning tile (a kong counts 3): "
                          f"{len(context.concealed)} concealed + {len(melds)} meld(s) = {held}")
    tiles = [*context.concealed, context.win_tile, *(kind for meld in melds for kind in meld.tiles)]
    foreign = sorted({kind for kind in tiles if type(kind) is not int or kind not in KINDS}, key=repr)
    if foreign:
        shown = ", ".join(format_tiles([k]) if type(k) is int and 0 <= k < 34 else repr(k) for k in foreign)
        raise InvalidHand(f"{shown}: not a Kawuxing tile (KW-1: 1p..9p, 1s..9s, 5z 6z 7z; no 万, no winds)")
    over = sorted(kind for kind, count in Counter(tiles).items() if count > 4)
    if over:
        raise InvalidHand(f"more than four tiles of {format_tiles(over)} in the winning hand (KW-1)")


def check_events(context: WinContext) -> None:
    """Win facts that can happen together (KW-20, KW-25), else InvalidHand saying why: a factor would silently
    not count, or the wrong seats would pay."""
    if context.kong_replacement and not context.self_drawn:
        raise InvalidHand("kong_replacement (杠上开花) is a self-draw: leave discarder None; a win on the discard made "
                          "right after a kong replacement is discard_after_kong (杠上炮)")
    if context.discard_after_kong and context.self_drawn:
        raise InvalidHand("discard_after_kong (杠上炮) is a discard win: name its discarder")
    if context.robbed_kong and (context.self_drawn or context.kong_replacement or context.discard_after_kong):
        raise InvalidHand("robbed_kong (抢杠胡) is a win on another player's 补杠 tile: name the robbed player as "
                          "discarder (KW-25: it pays alone), with neither kong_replacement nor discard_after_kong")
