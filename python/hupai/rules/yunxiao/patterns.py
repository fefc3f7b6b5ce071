"""Yunxiao win patterns, waits, the 游 shape and the rule checks that depend only on hands (YX-18, YX-25..29,
YX-31..37).

The hand-pattern table :data:`HAND_PATTERNS` reads top to bottom as spec §7: one small named predicate per
pattern. Every function here is pure: it takes physical tiles (golds as kind ``G``, 白板 as ``5z``), the
player's declared melds in effective kinds (see :mod:`hupai.rules.yunxiao.hand`) and the gold kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple

from ...analysis import Forms, fits_with_jokers
from ...analysis import is_win as core_is_win
from ...errors import HupaiError, InvalidHand
from ...hand import Meld
from ...tiles import NUM_KINDS, TERMINALS_HONORS, format_tiles
from ..patterns import PatternEntry, check_table, counted
from .hand import (
    WHITE,
    YunxiaoHand,
    _effective_melds,
    core_waits,
    is_terminal_or_honor,
    kinds_playing_as,
    natural_counts,
)
from .options import YunxiaoOptions

__all__ = [
    "HandSubject", "HAND_PATTERNS", "EVENTS", "OTHERS_TILE_EVENTS", "BUDA_TRIPLES",
    "is_standard", "is_seven_pairs", "is_yao_jiu", "is_bu_da", "is_qing_yi_se", "is_san_jin_dao",
    "qing_yi_se_suit", "hand_patterns", "is_complete", "waits", "hand_waits", "may_wait", "may_be_you_shape",
    "you_shape_of", "in_you_shape", "is_you_shape", "you_shape_discards", "you_shape_discards_of", "next_you_level",
    "you_jin_patterns",
    "three_golds_may_win", "you_state_allows",
]

#: Win events, as the scoring context's ``extras["event"]`` names them.
EVENTS = ("discard", "self_draw", "rob_kong", "rob_gold", "an_gang", "ming_gang", "san_jin_dao", "tian_hu",
          "di_hu", "you_jin")
#: Wins on another player's tile (YX-18, YX-28): a discard, the dealer's first discard, a robbed kong.
OTHERS_TILE_EVENTS = frozenset({"discard", "di_hu", "rob_kong"})

_TERMINALS_HONORS = frozenset(TERMINALS_HONORS)
#: ``bytes.translate`` table: a natural count to the room left for golds standing for its kind (YX-8).
_ROOM = bytes(max(0, 4 - count) for count in range(256))

#: YX-35: the ten allowed 不搭 suit triples 147 148 149 158 159 169 258 259 269 369 (numbers 1..9).
BUDA_TRIPLES = tuple(t for t in combinations(range(1, 10), 3) if t[1] - t[0] >= 3 and t[2] - t[1] >= 3)
# Every set of suit numbers pairwise 3 or more apart (the loose 不搭 suit shapes); at most 3 fit in 1..9.
_KNIT_SETS = tuple(frozenset(s) for size in range(4) for s in combinations(range(1, 10), size)
                   if all(s[i + 1] - s[i] >= 3 for i in range(size - 1)))


def _suit_shape(numbers: frozenset[int]) -> tuple[int, ...]:
    """The plain counts of one suit holding each of ``numbers`` once (how :func:`is_bu_da` looks them up)."""
    return tuple(int(n in numbers) for n in range(1, 10))


# 不搭 reads each suit's nine plain counts (all 0 or 1) as one table key. Loose: the knitted shapes, each with
# how many more numbers a knitted superset can take (the golds may fill those). Strict: the shapes inside one
# of the BUDA_TRIPLES.
_KNIT_ROOM = {_suit_shape(s): max(len(t) for t in _KNIT_SETS if s <= t) - len(s) for s in _KNIT_SETS}
_BUDA_SHAPES = frozenset(_suit_shape(s) for s in _KNIT_SETS if any(s <= set(t) for t in BUDA_TRIPLES))


# --- forms --------------------------------------------------------------------------------------------------

_ALL_STRUCTURED = Forms.STANDARD | Forms.SEVEN_PAIRS_QUADS


def _structured_forms(hand: YunxiaoHand) -> Forms:
    """The core's forms for the standard and seven-pairs shapes of ``hand``: seven pairs only when nothing is
    declared (YX-33)."""
    return Forms.STANDARD if hand.melds else _ALL_STRUCTURED


def _core_joker_kinds(hand: YunxiaoHand, allowed: Iterable[int] | None) -> tuple[int, ...] | None:
    """What the core may let a gold stand for: ``None`` (every kind, its fast path) unless restricted.

    Leaving ``5z`` in when ``G != 5z`` changes nothing: no natural tile plays as 5z, so a gold standing for it
    is in a gold-only group, which some other kind (33 of them, at most 14 tiles held) can always take.
    """
    return None if allowed is None else hand.joker_kinds(allowed)


def _fits(hand: YunxiaoHand, golds: int, sets: int, pairs: int, allowed: Iterable[int] | None) -> bool:
    """The core's exact search: the hand's natural tiles and ``golds`` golds as ``sets`` melds and ``pairs`` pairs,
    each gold within YX-8 room (:meth:`~.hand.YunxiaoHand.room`, restricted to ``allowed``)."""
    return fits_with_jokers(bytes(hand.counts), golds, sets, pairs, bytes(hand.room(allowed)))


def is_standard(hand: YunxiaoHand, allowed: Iterable[int] | None = None) -> bool:
    """YX-32 平胡 form: four melds and a pair, declared melds included; golds wild within YX-8 room.

    ``allowed`` limits what a gold may stand for (YX-36 uses the 清一色 suit).
    """
    if hand.size != 3 * hand.sets_needed + 2:
        return False
    # The core reads the counts from any 34-byte buffer, cheaper to make than hand.core_counts()'s array.
    if not core_is_win(bytes(hand.counts), jokers=hand.golds, melds=len(hand.melds), forms=Forms.STANDARD,
                       joker_kinds=_core_joker_kinds(hand, allowed)):
        return False
    # With nothing declared the core's bound (four of a kind, stand-ins included) is exactly YX-8, and without
    # golds there is no stand-in to bound; declared melds also count toward the fifth copy of a gold's stand-in,
    # which only the exact search sees.
    return not (hand.melds and hand.golds) or _fits(hand, hand.golds, hand.sets_needed, 1, allowed)


def is_seven_pairs(hand: YunxiaoHand, allowed: Iterable[int] | None = None) -> bool:
    """YX-33 对对胡: fourteen concealed tiles in seven pairs, four alike = two pairs, golds pair anything.

    Any declared meld, a 暗杠 included, rules it out.
    """
    if hand.melds or hand.size != 14:
        return False
    # The core's count of pairs (golds unrestricted) is necessary and cheap; the exact search needs YX-8 room.
    if not core_is_win(bytes(hand.counts), jokers=hand.golds, forms=Forms.SEVEN_PAIRS_QUADS):
        return False
    return _fits(hand, hand.golds, 0, 7, allowed)


def is_yao_jiu(hand: YunxiaoHand) -> bool:
    """YX-34 幺九: fourteen concealed terminals/honors, no structure; 白板 is 白板; a gold counts only if
    ``G`` is a terminal or honor."""
    if hand.melds or hand.size != 14:
        return False
    if hand.golds and not is_terminal_or_honor(hand.gold):
        return False
    return _terminals_and_honors_only(hand.plain_counts)


def _terminals_and_honors_only(counts: Sequence[int]) -> bool:
    """No suited 2..8 among ``counts`` (YX-34; 34 counts)."""
    return not (any(counts[1:8]) or any(counts[10:17]) or any(counts[19:26]))


def is_bu_da(hand: YunxiaoHand, loose: bool = False) -> bool:
    """YX-35 不搭: fourteen distinct concealed tiles, 白板 as 白板, golds filling any missing tile.

    Strict (default): each suit exactly one of :data:`BUDA_TRIPLES` and five distinct honors. ``loose``
    (option ``buda_loose``): each suit 0..3 numbers pairwise 3 or more apart, any distinct honors.
    """
    if hand.melds or hand.size != 14:
        return False
    counts = hand.plain_counts
    if not _bu_da_shape(counts, loose):
        return False
    if loose:
        # Each gold needs a distinct tile that keeps its suit knitted, or a distinct honor.
        suits = (counts[0:9], counts[9:18], counts[18:27])
        return hand.golds <= sum(_KNIT_ROOM[suit] for suit in suits) + 7 - sum(counts[27:])
    return True  # 14 tiles with at most 3 per suit and 5 honors: the golds fill exactly the gaps


def _bu_da_shape(counts: tuple[int, ...], loose: bool) -> bool:
    """YX-35 without the tile count: the plain ``counts`` (a tuple of 34) are distinct and each suit is a 不搭
    shape (strict: inside one of :data:`BUDA_TRIPLES`, at most five honors; loose: knitted). Taking tiles away
    keeps a hand in shape, so :func:`waits` asks it of the waiting hand before trying 不搭 tiles."""
    if max(counts) > 1:
        return False
    suits = (counts[0:9], counts[9:18], counts[18:27])
    if loose:
        return all(suit in _KNIT_ROOM for suit in suits)
    return sum(counts[27:]) <= 5 and all(suit in _BUDA_SHAPES for suit in suits)


def qing_yi_se_suit(hand: YunxiaoHand) -> int | None:
    """YX-36: the one suit (0 m, 1 p, 2 s, 3 honors) every tile belongs to, melds included, or ``None``.

    白板 playing as ``G`` is in ``G``'s suit; a gold counts only if ``G`` is of that suit.
    """
    suits = {k // 9 for k, n in enumerate(hand.counts) if n}
    suits.update(k // 9 for meld in hand.melds for k in meld.tiles)
    if hand.golds:
        suits.add(hand.gold // 9)
    return suits.pop() if len(suits) == 1 else None


def _suit_kinds(suit: int) -> range:
    return range(27, NUM_KINDS) if suit == 3 else range(9 * suit, 9 * suit + 9)


def is_qing_yi_se(hand: YunxiaoHand) -> bool:
    """YX-36 清一色: one suit (or all honors) throughout, complete as a standard hand or seven pairs with the
    golds standing only for tiles of that suit."""
    suit = qing_yi_se_suit(hand)
    if suit is None:
        return False
    allowed = _suit_kinds(suit)
    return is_standard(hand, allowed) or is_seven_pairs(hand, allowed)


def is_san_jin_dao(hand: YunxiaoHand) -> bool:
    """YX-29 三金倒: the hand holds all three golds (the event decides whether it may be declared)."""
    return hand.golds >= 3


class HandSubject(NamedTuple):
    """What the hand patterns read: a complete-size hand and the options (``buda_loose``, YX-35)."""

    hand: YunxiaoHand
    options: YunxiaoOptions


def ping_hu(subject: HandSubject) -> bool:
    """平胡 (YX-32): four melds and a pair, golds wild within YX-8 room. Any YX-33..36 form replaces it (YX-37)."""
    return is_standard(subject.hand)


def dui_dui_hu(subject: HandSubject) -> bool:
    """对对胡 (YX-33): seven pairs, four alike are two pairs, nothing declared."""
    return is_seven_pairs(subject.hand)


def yao_jiu(subject: HandSubject) -> bool:
    """幺九 (YX-34): fourteen concealed terminals and honors, no structure."""
    return is_yao_jiu(subject.hand)


def bu_da(subject: HandSubject) -> bool:
    """不搭 (YX-35): fourteen distinct knitted tiles (the loose form with the option ``buda_loose``)."""
    return is_bu_da(subject.hand, subject.options.buda_loose)


def qing_yi_se(subject: HandSubject) -> bool:
    """清一色 (YX-36): one suit throughout, standard or seven pairs."""
    return is_qing_yi_se(subject.hand)


def san_jin_dao(subject: HandSubject) -> bool:
    """三金倒 (YX-29): the hand holds all three golds (a hand fact, not a form; the event decides the win)."""
    return is_san_jin_dao(subject.hand)


_NOT_PING_HU = ("ping_hu",)  # YX-37: 平胡 only when no other form holds

#: Spec §7, top to bottom. The patterns are facts the scoring rows select by (YX-38), so they carry no value.
HAND_PATTERNS: tuple[PatternEntry[HandSubject, None], ...] = (
    PatternEntry("ping_hu", "平胡", "YX-32", None, ping_hu, english="Plain Win"),
    PatternEntry("dui_dui_hu", "对对胡", "YX-33", None, dui_dui_hu, replaces=_NOT_PING_HU, english="Seven Pairs"),
    PatternEntry("yao_jiu", "幺九", "YX-34", None, yao_jiu, replaces=_NOT_PING_HU, english="Terminals and Honors"),
    PatternEntry("bu_da", "不搭", "YX-35", None, bu_da, replaces=_NOT_PING_HU, english="Knitted Tiles"),
    PatternEntry("qing_yi_se", "清一色", "YX-36", None, qing_yi_se, replaces=_NOT_PING_HU, english="All One Suit"),
    PatternEntry("san_jin_dao", "三金倒", "YX-29", None, san_jin_dao, english="Three Golds"),
)
check_table(HAND_PATTERNS)


def hand_patterns(hand: YunxiaoHand, options: YunxiaoOptions | None = None) -> tuple[str, ...]:
    """Names of the hand patterns that hold for a complete-size hand (14 − 3 × melds tiles), table order.

    An incomplete hand yields ``()`` or just ``("san_jin_dao",)``. YX-37: 平胡 only when no YX-33..36 form
    holds.
    """
    subject = HandSubject(hand, options or YunxiaoOptions())
    return tuple(entry.name for entry in counted(HAND_PATTERNS, subject))


def is_complete(hand: YunxiaoHand, options: YunxiaoOptions | None = None) -> bool:
    """YX-32..35: the hand is a winning hand in some form (standard, seven pairs, 幺九 or 不搭)."""
    options = options or YunxiaoOptions()
    return (is_standard(hand) or is_seven_pairs(hand) or is_yao_jiu(hand)
            or is_bu_da(hand, options.buda_loose))


def _hand(concealed: Iterable[int], gold: int, melds: Iterable[Meld]) -> YunxiaoHand:
    return YunxiaoHand(tuple(concealed), gold, tuple(melds))


def waits(concealed: Iterable[int], gold: int, melds: Sequence[Meld] = (),
          options: YunxiaoOptions | None = None) -> list[int]:
    """Physical kinds that complete a waiting hand (13 − 3 × melds concealed tiles), ascending.

    ``G`` in the list means a drawn gold completes it (YX-E12); nobody may win on a discarded gold (YX-11), so
    the engine drops ``G`` for discards. ``5z`` with ``G != 5z`` is listed when a 白板 completes the hand
    either as ``G`` or, for 幺九 / 不搭, as plain 白板 (YX-E11, YX-E12). A kind the player already holds four
    of is no wait.
    """
    return hand_waits(_hand(concealed, gold, melds), options)


def hand_waits(hand: YunxiaoHand, options: YunxiaoOptions | None = None) -> list[int]:
    """:func:`waits` of a hand already built (``hand.concealed`` the 13 − 3 × melds tiles)."""
    gold = hand.gold
    if hand.size != 3 * hand.sets_needed + 1:
        raise InvalidHand(f"a waiting hand with {len(hand.melds)} melds has {3 * hand.sets_needed + 1} "
                          f"concealed tiles, got {hand.size} ({format_tiles(list(hand.concealed))})")
    options = options or YunxiaoOptions()
    # One core call bounds the standard / seven-pairs waits (its four-of-a-kind bound is looser than YX-8 with
    # declared melds, so it may only over-report); each candidate is then checked exactly. The core gives
    # effective kinds: a 白板 is tried when G is among them, and a drawn gold whenever there is any (a gold
    # completing the hand stands for some kind, which would then be among them).
    effective = core_waits(bytes(hand.counts), hand.golds, len(hand.melds), _structured_forms(hand))
    structured = kinds_playing_as(effective, gold)
    if effective:
        structured.add(gold)
    # 幺九 and 不搭 need a fully concealed hand that is already all 幺九 tiles / in 不搭 shape; then only a
    # 幺九 tile (a gold counts only as a 幺九 G) or a tile its plain counts lack (a gold among them) can do.
    plain = hand.plain_counts
    unstructured: set[int] = set()
    if not hand.melds:
        if _terminals_and_honors_only(plain):
            unstructured.update(_TERMINALS_HONORS)
        if _bu_da_shape(plain, options.buda_loose):
            unstructured.update(kind for kind in range(NUM_KINDS) if not plain[kind])
    result = []
    for kind in sorted(structured | unstructured):
        if hand.concealed.count(kind) >= 4:
            continue
        plus = hand.plus(kind)
        if (kind in structured and (is_standard(plus) or is_seven_pairs(plus))) or \
                (kind in unstructured and (is_yao_jiu(plus) or is_bu_da(plus, options.buda_loose))):
            result.append(kind)
    return result


def may_wait(physical: bytes, gold: int, melds: int, loose: bool) -> bool:
    """A necessary condition for :func:`hand_waits` to find a wait, read off a waiting hand's 34 physical counts
    (``melds`` declared) with one core call and no hand object: False means no wait at all. The rule object asks
    it of every waiting hand, before anything costlier; most hands are not ready.

    It follows :func:`hand_waits`' candidates: the core's standard / seven-pairs waits of the same counts (a
    gold is a candidate only when they are some; any of them completes the hand as a gold would), then, with
    nothing declared, the 幺九 and 不搭 shapes of the plain counts."""
    counts, golds = natural_counts(physical, gold)
    # Some kind completes the hand only if one more gold does (standing for that kind): one evaluation, where
    # the core's waits would try all 34 kinds of a hand that is one tile short.
    if core_is_win(counts, jokers=golds + 1, melds=melds, forms=Forms.STANDARD if melds else _ALL_STRUCTURED):
        return True
    if melds:
        return False
    plain = bytearray(physical)
    plain[gold] = 0
    return _terminals_and_honors_only(plain) or _bu_da_shape(tuple(plain), loose)


def may_be_you_shape(physical: bytes, gold: int, melds: int) -> bool:
    """A quick necessary condition for the 游 shape (YX-25) of a hand given as its 34 physical counts with
    ``melds`` declared, in one core call that rejects most hands and no hand object: False means
    :func:`is_you_shape` is False.

    If the hand less its floating gold forms the melds (or six pairs), two more golds as a pair of some kind
    the hand does not use complete it within the core's four-of-a-kind bound, which is looser than YX-8 room.
    """
    counts, golds = natural_counts(physical, gold)
    if golds < 1 or sum(physical) != 13 - 3 * melds:
        return False
    return core_is_win(counts, jokers=golds + 1, melds=melds, forms=Forms.STANDARD if melds else _ALL_STRUCTURED)


def you_shape_of(physical: bytes, gold: int, melds: Sequence[Meld] = ()) -> bool:
    """:func:`is_you_shape` of a hand given as its 34 physical counts (a table's or an observation's, valid),
    its golds unrestricted: the quick test, then the exact search, with no hand object built."""
    if not may_be_you_shape(physical, gold, len(melds)):
        return False
    counts, golds = natural_counts(physical, gold)
    room = bytearray(counts.translate(_ROOM))  # YX-8: 4 - natural count, per kind
    if gold != WHITE:
        room[WHITE] = 0  # no tile plays as 白板 (see YunxiaoHand.joker_kinds)
    effective = _effective_melds(melds, gold)
    for meld in effective:
        for kind in meld.tiles:
            room[kind] = max(0, room[kind] - 1)
    return _floats(counts, golds, 4 - len(effective), not effective, bytes(room))


def _floats(counts: bytes, golds: int, sets: int, concealed: bool, room: bytes) -> bool:
    """One gold set aside as the floating half-pair; the rest are whole melds, or six pairs if concealed."""
    return (fits_with_jokers(counts, golds - 1, sets, 0, room)
            or (concealed and fits_with_jokers(counts, golds - 1, 0, 6, room)))


def _you_shape(hand: YunxiaoHand, allowed: Iterable[int] | None = None) -> bool:
    if allowed is None:
        physical = bytearray(hand.plain_counts)
        physical[hand.gold] = hand.golds
        return you_shape_of(bytes(physical), hand.gold, hand.melds)
    # (A restricted gold is rare: 游金 清一色 only.)
    if hand.golds < 1 or hand.size != 3 * hand.sets_needed + 1:
        return False
    return _floats(bytes(hand.counts), hand.golds, hand.sets_needed, not hand.melds, bytes(hand.room(allowed)))


def in_you_shape(concealed: Iterable[int], gold: int, melds: Sequence[Meld] = ()) -> bool:
    """YX-25 游 shape of a hand after its discard (13 − 3 × melds concealed tiles).

    At least one gold; setting one aside, the rest form 4 − melds complete melds (other golds wild, YX-8
    room), or with no declared meld at all six pairs. 不搭 and 幺九 are never 游 shapes.
    """
    return is_you_shape(_hand(concealed, gold, melds))


def is_you_shape(hand: YunxiaoHand) -> bool:
    """:func:`in_you_shape` of a hand already built."""
    return _you_shape(hand)


def you_shape_discards(concealed: Iterable[int], gold: int, melds: Sequence[Meld] = ()) -> list[int]:
    """Physical kinds whose discard from a complete-size hand (14 − 3 × melds) leaves the 游 shape (YX-25)."""
    hand = _hand(concealed, gold, melds)
    physical = bytearray(hand.plain_counts)
    physical[gold] = hand.golds
    return you_shape_discards_of(bytes(physical), gold, hand.melds)


def you_shape_discards_of(physical: bytes, gold: int, melds: Sequence[Meld] = ()) -> list[int]:
    """:func:`you_shape_discards` of a hand given as its 34 physical counts (a table's or an observation's).

    Each discard's quick test is made on the counts first (:func:`may_be_you_shape`): few discards come near
    the shape, and a hand object is built only when one does."""
    declared = len(melds)
    after = bytearray(physical)
    near = []
    for kind in range(NUM_KINDS):
        if after[kind]:
            after[kind] -= 1
            if may_be_you_shape(bytes(after), gold, declared):
                near.append(kind)
            after[kind] += 1
    out = []
    for kind in near:
        after[kind] -= 1
        if you_shape_of(bytes(after), gold, melds):
            out.append(kind)
        after[kind] += 1
    return out


def next_you_level(previous: int, discarded_gold: bool, you_shape: bool) -> int:
    """YX-26: the 游 level after a discard (0 none, 1 单游, 2 双游, 3 三游).

    Not in 游 shape → 0; in shape after a non-gold discard → 1; after a gold discard → 2, or 3 when the level
    just before this discard was 2 (or already 3).
    """
    if previous not in (0, 1, 2, 3):
        raise HupaiError(f"a 游 level is 0..3, got {previous!r}")
    if not you_shape:
        return 0
    if not discarded_gold:
        return 1
    return 3 if previous >= 2 else 2


def you_jin_patterns(hand: YunxiaoHand) -> tuple[str, ...]:
    """Hand patterns of a 游金 declaration (the 13 − 3 × melds tiles held, floating gold included).

    Only 清一色 combines with 游金 (YX-39 row 10): the 游 shape with every tile, golds included, of one suit.
    Raises :class:`hupai.HupaiError` if the hand is not in 游 shape.
    """
    if not _you_shape(hand):
        raise HupaiError(f"{hand} is not in 游 shape (YX-25): no 游金 declaration")
    suit = qing_yi_se_suit(hand)
    if suit is not None and _you_shape(hand, _suit_kinds(suit)):
        return ("qing_yi_se",)
    return ()


# --- who may win (hand-level parts of YX-18 and the 游 restrictions of YX-28) -------------------------------

def three_golds_may_win(hand: YunxiaoHand, event: str, options: YunxiaoOptions | None = None) -> bool:
    """YX-18: holding all three golds, a player wins on another's tile only by 地胡, 清一色 or 抢杠胡.

    ``hand`` is the complete hand with the claimed tile. Events on one's own tiles are always allowed here.
    """
    if event not in OTHERS_TILE_EVENTS or not is_san_jin_dao(hand):
        return True
    return event in ("di_hu", "rob_kong") or is_qing_yi_se(hand)


def you_state_allows(event: str, winner: int, levels: Sequence[int]) -> bool:
    """YX-28: may ``winner`` win by ``event`` while the seats are at 游 ``levels`` (one per seat)?

    单游: that player may not win on others' tiles. 双游 and 三游: nobody wins on others' tiles, no 抢金胡.
    三游: the others may win only on a kong replacement (暗杠胡 or 明杠胡).
    """
    if event not in EVENTS:
        raise HupaiError(f"unknown yunxiao win event {event!r}; known: {', '.join(EVENTS)}")
    top = max(levels, default=0)
    if event in OTHERS_TILE_EVENTS and (levels[winner] >= 1 or top >= 2):
        return False
    if event == "rob_gold" and top >= 2:
        return False
    if top == 3 and levels[winner] != 3 and event not in ("an_gang", "ming_gang"):
        return False
    return True
