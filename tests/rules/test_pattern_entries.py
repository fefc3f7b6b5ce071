"""The one pattern-entry type (hupai.rules.patterns): replacement, computed values, combination helpers, and the
tables of the rule systems built on it.

The toy tables follow the Kawuxing and Wai Huzi specs, which will be built on this type: KW-21 (七对, 龙七对
and 双龙七对 exclude each other and 暗四归一) and WH-36 (黑对子胡 replaces 对子息 and 黑胡子; 对子息 replaces 行行息),
WH-35 火火翻 (×2^(r−9) for r ≥ 10 red cards).
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from hupai import HupaiError
from hupai.rules.guangdong import patterns as gd
from hupai.rules.patterns import PatternEntry, check_table, counted, product, total
from hupai.rules.yunxiao import patterns as yx
from hupai.rules.yunxiao import scoring as yx_scoring


class Layout(NamedTuple):
    """A toy Wai Huzi subject: what the 名堂 read."""

    same_card_groups: bool
    every_unit_scores: bool
    red: int


def dui_zi_xi(layout: Layout) -> bool:
    """对子息 (WH-35), ×8."""
    return layout.same_card_groups


def xing_xing_xi(layout: Layout) -> bool:
    """行行息 (WH-35), ×4."""
    return layout.every_unit_scores


def hei_hu_zi(layout: Layout) -> bool:
    """黑胡子 (WH-35), ×8."""
    return layout.red == 0


def hei_dui_zi_hu(layout: Layout) -> bool:
    """黑对子胡 (WH-35), ×32 flat."""
    return dui_zi_xi(layout) and hei_hu_zi(layout)


def huo_huo_fan(layout: Layout) -> bool:
    """火火翻 (WH-35): ten or more red cards."""
    return layout.red >= 10


MINGTANG: tuple[PatternEntry[Layout, int], ...] = (
    PatternEntry("dui_zi_xi", "对子息", "WH-35", 8, dui_zi_xi, replaces=("xing_xing_xi",)),
    PatternEntry("xing_xing_xi", "行行息", "WH-35", 4, xing_xing_xi),
    PatternEntry("hei_hu_zi", "黑胡子", "WH-35", 8, hei_hu_zi),
    PatternEntry("hei_dui_zi_hu", "黑对子胡", "WH-36", 32, hei_dui_zi_hu, replaces=("dui_zi_xi", "hei_hu_zi")),
    PatternEntry("huo_huo_fan", "火火翻", "WH-35", 2, huo_huo_fan, value_of=lambda layout: 2 ** (layout.red - 9)),
)


@pytest.mark.rule("WH-36")
def test_wh_36_replaced_entries_do_not_count_even_through_a_replaced_entry() -> None:
    """黑对子胡 drops 对子息 and 黑胡子, and 对子息 (which holds) still drops 行行息: ×32, not 8 × 8 × 4."""
    layout = Layout(same_card_groups=True, every_unit_scores=True, red=0)
    entries = counted(MINGTANG, layout)
    assert [entry.name for entry in entries] == ["hei_dui_zi_hu"]
    assert product(entries, layout) == 32
    plain = Layout(same_card_groups=False, every_unit_scores=True, red=3)
    assert [entry.name for entry in counted(MINGTANG, plain)] == ["xing_xing_xi"]


@pytest.mark.rule("WH-35")
def test_wh_35_a_value_computed_from_the_subject() -> None:
    layout = Layout(same_card_groups=False, every_unit_scores=False, red=12)
    (entry,) = counted(MINGTANG, layout)
    assert entry.value_for(layout) == 8 and product((entry,), layout) == 8
    assert entry.pattern(entry.value_for(layout)).value == 8


def test_no_pattern_is_a_product_of_one_and_a_total_of_zero() -> None:
    nothing = Layout(same_card_groups=False, every_unit_scores=False, red=5)
    assert counted(MINGTANG, nothing) == ()
    assert product((), nothing) == 1 and total((), nothing) == 0


def test_check_table_refuses_duplicates_and_unknown_replacements() -> None:
    check_table(MINGTANG)
    with pytest.raises(HupaiError, match="'dui_zi_xi' appears twice"):
        check_table(MINGTANG, MINGTANG[:1])
    with pytest.raises(HupaiError, match=r"replaces \['qi_dui'\], not in its table"):
        check_table((PatternEntry("long_qi_dui", "龙七对", "KW-20", 8, huo_huo_fan, replaces=("qi_dui",)),))


def test_entries_name_their_rule_and_chinese() -> None:
    """Every table of the two systems is one type; hand patterns document their rule id and Chinese name."""
    for entry in (*gd.WITHIN_LIMIT, *gd.EXTRAS, *gd.BEYOND_LIMIT, *gd.MINIMUM_WINS, *gd.FLAT_WINS):
        assert isinstance(entry, PatternEntry) and entry.rule.startswith("GD-")
        assert entry.rule in entry.doc and entry.chinese in entry.doc, entry.name
    for entry in yx.HAND_PATTERNS:
        assert isinstance(entry, PatternEntry) and entry.value is None
        assert entry.rule in entry.doc and entry.chinese in entry.doc, entry.name
    for row in (*yx_scoring.POINTS_000, *yx_scoring.MULTIPLIER_001):
        assert isinstance(row, PatternEntry) and row.rule in ("YX-38", "YX-40", "YX-41")
        assert yx_scoring.row_names(row), row.name


@pytest.mark.rule("YX-37")
def test_yx_37_other_forms_replace_ping_hu() -> None:
    replacing = {entry.name for entry in yx.HAND_PATTERNS if "ping_hu" in entry.replaces}
    assert replacing == {"dui_dui_hu", "yao_jiu", "bu_da", "qing_yi_se"}
