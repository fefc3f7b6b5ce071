"""Yunxiao scoring and settlement (YX-38..YX-43): two declarative row tables and the YX-39 selection.

A win is described by its *facts*: the hand patterns that hold (:func:`~.patterns.hand_patterns`) plus the
event's own pattern (自摸, 抢杠胡, 单游金, ...). A row applies when its required facts hold and it has an
amount for the win's type (discard-type or self-draw-type, YX-38). The applicable row with the largest total
paid to the winner is used; on equal totals the earlier row (YX-39). Amounts are in base units, multiplied by
``base_points``.

How :class:`hupai.scoring.WinContext` carries a Yunxiao win (``YunxiaoRules.context_fields``):

- ``concealed`` are the winner's physical tiles before the winning tile: golds as kind ``G``, 白板 as ``5z``.
  ``jokers`` (default 0) adds that many more golds, for callers that keep golds out of ``concealed``.
- ``win_tile`` is the physical winning tile (a drawn gold is ``G``; 抢金胡 takes the indicator, so ``G``).
  For 天胡 and 三金倒 it is any one tile of the hand (the last drawn). For a 游金 declaration, where no tile
  is added, it is the floating gold (``G``) and ``concealed`` the rest of the hand (13 − 3 × melds in all).
- ``melds`` are the winner's declared melds in effective kinds (白板 recorded as ``G``, see ``hand.py``).
- ``gold`` is ``G`` (required). ``event`` is one of :data:`~.patterns.EVENTS`; when ``None`` it is derived from
  the flags: ``heavenly`` → tian_hu; ``earthly`` or ``human`` → di_hu (YX-31's 地胡 is a non-dealer's win on the
  dealer's first discard, the situation Guangdong calls 人和); ``robbed_kong`` → rob_kong;
  ``kong_replacement`` → an_gang / ming_gang from the last declared kong; otherwise discard or self_draw from
  ``discarder``. A flag that names another event than ``event`` is refused. ``you_level`` (1..3) is required
  for ``you_jin`` and must stay 0 otherwise.
- ``discarder`` is the seat that paid the discard (``discard``; ``di_hu`` defaults to the dealer). It is
  ignored for self-draw-type events: a robbed konger pays like the others (YX-39).
- A discarded gold is never won on (YX-11): a discard-type win with ``win_tile == gold`` is :class:`NotAWin`.

:func:`score_win` checks the hand (a winning form for the event, 游 shape for 游金, three golds for 三金倒,
and YX-18) and raises :class:`hupai.NotAWin` otherwise (:class:`hupai.InvalidHand` for a malformed context).
Table-state checks (YX-17 漏胡, YX-28 游 restrictions, the 抢金 window) belong to the engine;
:func:`~.patterns.you_state_allows` helps with YX-28.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...errors import InvalidHand, NotAWin
from ...scoring import Pattern, ScoreResult, WinContext
from ..patterns import PatternEntry, check_table, counted
from .hand import YunxiaoHand
from .options import YunxiaoOptions
from .patterns import EVENTS, HAND_PATTERNS, hand_patterns, is_complete, three_golds_may_win, you_jin_patterns

__all__ = [
    "Row", "Payout", "Needs", "row_names", "POINTS_000", "MULTIPLIER_001", "DISCARD_TYPE_EVENTS", "EVENT_PATTERNS",
    "PATTERN_CHINESE", "PATTERN_ENGLISH", "win_facts", "select_row", "score_win", "row_name",
]

#: Discard-type wins (YX-38): the discarder pays the first amount, the other two the second. All else is
#: self-draw-type (each opponent pays the same).
DISCARD_TYPE_EVENTS = frozenset({"discard", "di_hu"})

#: The pattern an event contributes to the facts of a win (游金 by level, see :func:`win_facts`).
EVENT_PATTERNS: Mapping[str, str] = {
    "discard": "dian_pao", "self_draw": "zi_mo", "rob_kong": "qiang_gang_hu", "rob_gold": "qiang_jin_hu",
    "an_gang": "an_gang_hu", "ming_gang": "ming_gang_hu", "san_jin_dao": "san_jin_dao", "tian_hu": "tian_hu",
    "di_hu": "di_hu",
}
_YOU_LEVEL_PATTERNS = {1: "dan_you_jin", 2: "shuang_you_jin", 3: "san_you_jin"}

PATTERN_CHINESE: Mapping[str, str] = {
    **{p.name: p.chinese for p in HAND_PATTERNS},
    "dian_pao": "点炮", "zi_mo": "自摸", "qiang_gang_hu": "抢杠胡", "qiang_jin_hu": "抢金胡",
    "an_gang_hu": "暗杠胡", "ming_gang_hu": "明杠胡", "tian_hu": "天胡", "di_hu": "地胡",
    "dan_you_jin": "单游金", "shuang_you_jin": "双游金", "san_you_jin": "三游金", "san_pu": "三铺",
}

#: The English of every name a Yunxiao result reports (:data:`PATTERN_CHINESE`'s): the hand patterns' own,
#: the events' and the 游金 levels' (游金 "swimming gold": waiting with a gold as the floating half-pair, YX-25).
PATTERN_ENGLISH: Mapping[str, str] = {
    **{p.name: p.english for p in HAND_PATTERNS},
    "dian_pao": "Win on a Discard", "zi_mo": "Self-Drawn", "qiang_gang_hu": "Robbing the Kong",
    "qiang_jin_hu": "Robbing the Gold", "an_gang_hu": "Win on a Concealed Kong",
    "ming_gang_hu": "Win on an Exposed Kong", "tian_hu": "Heavenly Hand", "di_hu": "Earthly Hand",
    "dan_you_jin": "Single Swimming Gold", "shuang_you_jin": "Double Swimming Gold",
    "san_you_jin": "Triple Swimming Gold", "san_pu": "Three Exposed Melds",
}


@dataclass(frozen=True)
class Payout:
    """What one scoring row pays (YX-38 / YX-41), in base units, and its row number in the spec table.

    ``discard`` = (discarder, each other) for discard-type wins, ``self_draw`` = each opponent for self-draw-type
    wins; ``None`` where the table has no amount (the row then does not apply to that type of win).
    """

    row: int
    discard: tuple[int, int] | None = None
    self_draw: int | None = None

    def pays(self, discard_type: bool) -> bool:
        return (self.discard if discard_type else self.self_draw) is not None

    def amounts(self, discard_type: bool) -> tuple[int, int]:
        """(discarder's amount, each other's amount); equal for self-draw-type wins."""
        if discard_type:
            assert self.discard is not None
            return self.discard
        assert self.self_draw is not None
        return self.self_draw, self.self_draw

    def total(self, discard_type: bool, num_payers: int = 3) -> int:
        first, other = self.amounts(discard_type)
        return first + (num_payers - 1) * other


@dataclass(frozen=True)
class Needs:
    """A row's condition on the facts of a win: every fact of ``all_of`` and, if ``any_of`` is not empty, at least
    one of those (YX-39: a row names its event and its hand pattern)."""

    all_of: frozenset[str] = frozenset()
    any_of: frozenset[str] = frozenset()

    def __call__(self, facts: frozenset[str]) -> bool:
        return self.all_of <= facts and (not self.any_of or bool(self.any_of & facts))

    @property
    def names(self) -> frozenset[str]:
        return self.all_of | self.any_of


#: One scoring row: a pattern entry over the facts of a win, valued by what it pays.
Row = PatternEntry[frozenset[str], Payout]


def _row(row: int, name: str, chinese: str, *, all_of: tuple[str, ...] = (), any_of: tuple[str, ...] = (),
         discard: tuple[int, int] | None = None, self_draw: int | None = None, rule: str = "YX-38") -> Row:
    # A row's English is its facts': "All One Suit, Single Swimming Gold"; "Plain Win / Seven Pairs / ...".
    english = ", ".join([*(PATTERN_ENGLISH[fact] for fact in all_of),
                         *([" / ".join(PATTERN_ENGLISH[fact] for fact in any_of)] if any_of else [])])
    return PatternEntry(name, chinese, rule, Payout(row, discard, self_draw),
                        Needs(frozenset(all_of), frozenset(any_of)), english=english)


def row_names(row: Row) -> frozenset[str]:
    """The facts a row names (its condition's)."""
    return row.holds.names if isinstance(row.holds, Needs) else frozenset()


_QYS = "qing_yi_se"
_PLAIN = ("ping_hu", "dui_dui_hu", "bu_da")
_M = "YX-41"

#: YX-38, ``scoring = "points_000"``: spec rows 1..10 in order (rows 9 and 10 one entry per level).
POINTS_000: tuple[Row, ...] = (
    _row(1, "tian_hu", "天胡", all_of=("tian_hu",), self_draw=10),
    _row(2, "di_hu", "地胡", all_of=("di_hu",), discard=(10, 9)),
    _row(3, "san_pu_qing_yi_se", "三铺清一色", all_of=(_QYS, "san_pu"), discard=(26, 1), rule="YX-40"),
    _row(4, "qing_yi_se", "清一色", all_of=(_QYS,), discard=(10, 9), self_draw=10),
    _row(5, "yao_jiu", "幺九", all_of=("yao_jiu",), discard=(2, 2), self_draw=4),
    _row(6, "ping_hu", "平胡/对对胡/不搭", any_of=_PLAIN, discard=(2, 1), self_draw=2),
    _row(7, "qiang_gang_hu", "抢杠胡/抢金胡/暗杠胡/三金倒",
         any_of=("qiang_gang_hu", "qiang_jin_hu", "an_gang_hu", "san_jin_dao"), self_draw=2),
    _row(8, "ming_gang_hu", "明杠胡", all_of=("ming_gang_hu",), self_draw=4),
    _row(9, "dan_you_jin", "单游金", all_of=("dan_you_jin",), self_draw=4),
    _row(9, "shuang_you_jin", "双游金", all_of=("shuang_you_jin",), self_draw=8),
    _row(9, "san_you_jin", "三游金", all_of=("san_you_jin",), self_draw=16),
    _row(10, "qing_yi_se_dan_you_jin", "清一色单游金", all_of=(_QYS, "dan_you_jin"), self_draw=12),
    _row(10, "qing_yi_se_shuang_you_jin", "清一色双游金", all_of=(_QYS, "shuang_you_jin"), self_draw=16),
    _row(10, "qing_yi_se_san_you_jin", "清一色三游金", all_of=(_QYS, "san_you_jin"), self_draw=24),
    _row(10, "qing_yi_se_ming_gang_hu", "清一色明杠胡", all_of=(_QYS, "ming_gang_hu"), self_draw=12),
)

#: YX-41, ``scoring = "multiplier_001"``: every opponent pays M (discard-type rows give (M, M)); the table's
#: rows in order, numbered 1..9. No 三铺 liability.
MULTIPLIER_001: tuple[Row, ...] = (
    _row(1, "ping_hu", "平胡/对对胡/不搭", any_of=_PLAIN, discard=(1, 1), self_draw=2, rule=_M),
    _row(2, "yao_jiu", "幺九", all_of=("yao_jiu",), discard=(2, 2), self_draw=4, rule=_M),
    _row(3, "san_jin_dao", "三金倒/抢金胡/暗杠胡/抢杠胡",
         any_of=("san_jin_dao", "qiang_jin_hu", "an_gang_hu", "qiang_gang_hu"), self_draw=2, rule=_M),
    _row(4, "ming_gang_hu", "明杠胡", all_of=("ming_gang_hu",), self_draw=4, rule=_M),
    _row(5, "tian_hu", "天胡", all_of=("tian_hu",), self_draw=8, rule=_M),
    _row(5, "di_hu", "地胡", all_of=("di_hu",), discard=(4, 4), rule=_M),
    _row(6, "dan_you_jin", "单游金", all_of=("dan_you_jin",), self_draw=4, rule=_M),
    _row(6, "shuang_you_jin", "双游金", all_of=("shuang_you_jin",), self_draw=8, rule=_M),
    _row(6, "san_you_jin", "三游金", all_of=("san_you_jin",), self_draw=16, rule=_M),
    _row(7, "qing_yi_se", "清一色", all_of=(_QYS,), discard=(9, 9), self_draw=10, rule=_M),
    _row(8, "qing_yi_se_dan_you_jin", "清一色单游金", all_of=(_QYS, "dan_you_jin"), self_draw=12, rule=_M),
    _row(8, "qing_yi_se_shuang_you_jin", "清一色双游金", all_of=(_QYS, "shuang_you_jin"), self_draw=16, rule=_M),
    _row(8, "qing_yi_se_san_you_jin", "清一色三游金", all_of=(_QYS, "san_you_jin"), self_draw=24, rule=_M),
    _row(8, "qing_yi_se_ming_gang_hu", "清一色明杠胡", all_of=(_QYS, "ming_gang_hu"), self_draw=12, rule=_M),
)
check_table(POINTS_000)
check_table(MULTIPLIER_001)

_TABLES = {"points_000": POINTS_000, "multiplier_001": MULTIPLIER_001}


#: The event each flag names (YX-31: Yunxiao's 地胡 is the situation of ``human`` as well as ``earthly``).
_FLAG_EVENTS = (("heavenly", "tian_hu"), ("earthly", "di_hu"), ("human", "di_hu"), ("robbed_kong", "rob_kong"))


def _event_of(context: WinContext) -> str:
    named = {event for flag, event in _FLAG_EVENTS if getattr(context, flag)}
    event = context.event
    if event is not None:
        if event not in EVENTS:
            raise InvalidHand(f"unknown yunxiao win event {event!r}; known: {', '.join(EVENTS)}")
        if named - {event}:
            raise InvalidHand(f"event={event!r} contradicts the flags naming {', '.join(sorted(named))}")
        return str(event)
    if len(named) > 1:
        raise InvalidHand(f"the flags name several win events: {', '.join(sorted(named))}")
    if named:
        return named.pop()
    if context.kong_replacement:
        kongs = [meld for meld in context.mahjong_melds() if meld.type == "kong"]
        if not kongs:
            raise InvalidHand("a kong-replacement win needs a declared kong, or an event")
        return "an_gang" if kongs[-1].concealed else "ming_gang"
    return "self_draw" if context.discarder is None else "discard"


def _you_level(context: WinContext, event: str) -> int:
    level = context.you_level
    if event != "you_jin":
        if level != 0:
            raise InvalidHand(f"you_level={level!r} belongs to a you_jin win, not {event}")
        return 0
    if type(level) is not int or level not in (1, 2, 3):
        raise InvalidHand(f"a you_jin win needs you_level in 1..3, got {level!r}")
    return level


def win_facts(hand: YunxiaoHand, event: str, options: YunxiaoOptions, you_level: int = 0) -> frozenset[str]:
    """The facts rows are matched against: hand patterns + the event's pattern (+ 三铺, YX-40).

    Raises :class:`hupai.HupaiError` if the hand does not support the event (YX-18, YX-25, YX-29, YX-31..37).
    """
    if event == "you_jin":
        if you_level not in (1, 2, 3):
            raise InvalidHand(f"a 游金 win needs a level in 1..3, got {you_level!r}")
        return frozenset((*you_jin_patterns(hand), _YOU_LEVEL_PATTERNS[you_level]))
    facts = set(hand_patterns(hand, options))
    complete = is_complete(hand, options)
    if event == "san_jin_dao" or (event == "tian_hu" and not complete):
        if hand.golds < 3 or hand.size != 3 * hand.sets_needed + 2:
            raise NotAWin(f"{hand} does not hold three golds in a complete-size hand (YX-29, YX-31)")
        facts.add("san_jin_dao")
    elif not complete:
        raise NotAWin(f"{hand} is not a winning hand (YX-32..YX-35)")
    if not three_golds_may_win(hand, event, options):
        raise NotAWin(f"{hand} holds three golds: no win on another player's tile except 地胡, 清一色 or "
                         f"抢杠胡 (YX-18)")
    facts.add(EVENT_PATTERNS[event])
    if "qing_yi_se" in facts and hand.exposed_melds >= 3:
        facts.add("san_pu")
    return frozenset(facts)


def select_row(facts: frozenset[str], discard_type: bool, table: tuple[Row, ...]) -> Row:
    """YX-39: among applicable rows, the largest total to the winner; the earlier row on equal totals."""
    best: Row | None = None
    for row in _applicable(table, facts, discard_type):
        if best is None or row.value.total(discard_type) > best.value.total(discard_type):
            best = row
    if best is None:
        raise NotAWin(f"no scoring row applies to a {'discard' if discard_type else 'self-draw'}-type win "
                         f"with {', '.join(sorted(facts))}")
    return best


def _applicable(table: tuple[Row, ...], facts: frozenset[str], discard_type: bool) -> tuple[Row, ...]:
    """Rows whose facts hold and that have an amount for this type of win (YX-38)."""
    return tuple(row for row in counted(table, facts) if row.value.pays(discard_type))


def _pattern_values(facts: frozenset[str], discard_type: bool, table: tuple[Row, ...], base: int
                    ) -> tuple[Pattern, ...]:
    """Each fact as a Pattern valued at the best total of the rows that name it (0 when none does)."""
    applicable = _applicable(table, facts, discard_type)
    patterns = []
    for name in sorted(facts, key=_fact_order):
        values = [row.value.total(discard_type) for row in applicable if name in row_names(row)]
        rules = [row.rule for row in applicable if name in row_names(row)]
        rule = _HAND_RULES.get(name) or (rules[0] if rules else "YX-38")
        patterns.append(Pattern(name, PATTERN_CHINESE.get(name, name), max(values, default=0) * base, rule))
    return tuple(patterns)


_HAND_RULES = {p.name: p.rule for p in HAND_PATTERNS}
_ORDER = [p.name for p in HAND_PATTERNS] + ["san_pu", *EVENT_PATTERNS.values(), *_YOU_LEVEL_PATTERNS.values()]


def _fact_order(name: str) -> int:
    return _ORDER.index(name) if name in _ORDER else len(_ORDER)


def _check_event_seats(context: WinContext, event: str, gold: int) -> None:
    """Who may win by which event, as far as the context shows it (YX-30, YX-31)."""
    if event == "tian_hu" and context.winner != context.dealer:
        raise InvalidHand(f"天胡 is the dealer's win (YX-31); the dealer is P{context.dealer}")
    if event == "di_hu":
        if context.winner == context.dealer:
            raise InvalidHand("地胡 is a non-dealer's win on the dealer's first discard (YX-31)")
        if context.discarder not in (None, context.dealer):
            raise InvalidHand(f"地胡 is won on the dealer's discard (YX-31), not P{context.discarder}'s")
    if event == "rob_gold" and (context.winner == context.dealer or context.win_tile != gold):
        raise InvalidHand("抢金胡 is a non-dealer taking the gold indicator as its winning tile (YX-30)")


def score_win(context: WinContext, options: YunxiaoOptions | None = None) -> ScoreResult:
    """Score one Yunxiao win (YX-38..YX-43).

    ``value`` is the total the winner receives; ``payments`` the signed per-seat vector (sums to zero);
    ``details`` holds ``row`` (spec row number), ``row_name``, ``table``, ``event``, ``amounts``
    (discarder's / each other's, in points) and ``gold``.
    """
    options = options or YunxiaoOptions()
    if context.num_players not in (None, 4):  # None: the system's own
        raise InvalidHand(f"Yunxiao is played by four players (YX-2), got num_players={context.num_players!r}")
    for name in ("winner", "dealer", "discarder"):
        value = getattr(context, name)
        if (value is not None or name != "discarder") and (type(value) is not int or not 0 <= value < 4):
            raise InvalidHand(f"{name}={value!r} is not a seat in 0..3")
    gold = context.gold
    if type(gold) is not int or not 0 <= gold < 34:
        raise InvalidHand(f"a yunxiao win needs gold (the gold kind 0..33), got {gold!r}")
    if type(context.jokers) is not int or context.jokers < 0:
        raise InvalidHand(f"jokers={context.jokers!r} is not a count of golds")
    event = _event_of(context)
    you_level = _you_level(context, event)
    if event in DISCARD_TYPE_EVENTS and context.win_tile == gold:
        raise NotAWin(f"a discarded gold can never be won on (YX-11): {context.describe()}")
    _check_event_seats(context, event, gold)
    melds = context.mahjong_melds()
    tiles = (*context.concealed, context.win_tile, *([gold] * context.jokers))
    hand = YunxiaoHand(tuple(tiles), gold, melds)
    facts = win_facts(hand, event, options, you_level)

    discard_type = event in DISCARD_TYPE_EVENTS
    discarder = context.discarder
    if discard_type:
        if event == "di_hu" and discarder is None:
            discarder = context.dealer
        if discarder is None or not 0 <= discarder < 4 or discarder == context.winner:
            raise InvalidHand(f"a {event} win needs a discarder seat other than the winner, got {discarder!r}")
    table = _TABLES[options.scoring]
    row = select_row(facts, discard_type, table)
    first, other = row.value.amounts(discard_type)
    base = options.base_points
    payments = [0] * 4
    for seat in range(4):
        if seat != context.winner:
            payments[seat] = -(first if discard_type and seat == discarder else other) * base
    payments[context.winner] = -sum(payments)
    name = row_name(row, facts)
    return ScoreResult(
        patterns=_pattern_values(facts, discard_type, table, base),
        value=payments[context.winner],
        payments=tuple(payments),
        details={"row": row.value.row, "row_name": name, "table": options.scoring, "event": event,
                 "amounts": (first * base, other * base), "gold": gold, "you_level": you_level,
                 "options": options.to_dict()},
        reading=f"{options.scoring} row {row.value.row}: {name} ({PATTERN_CHINESE.get(name, row.chinese)})",
    )


def row_name(row: Row, facts: frozenset[str]) -> str:
    """The name of the row as this win used it: a row that any of several patterns select (row 6: 平胡 / 对对胡 /
    不搭) is named by the pattern that selected it, so a 对对胡 hand does not read "ping_hu"."""
    needs = row.holds
    if not isinstance(needs, Needs) or not needs.any_of or needs.all_of:
        return row.name
    found = sorted(needs.any_of & facts, key=_fact_order)
    return found[0] if found else row.name
