"""Yunxiao options (spec §12): the option names, values and defaults of the options table, on the shared
options base.

A result or replay log records the full option set, so :meth:`YunxiaoOptions.to_dict` gives every option,
JSON-ready, and :meth:`YunxiaoOptions.from_mapping` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ..options import RuleOptions, choice, flag, int_list, integer

__all__ = ["YunxiaoOptions", "SCORING_CHOICES", "LOUHU_CHOICES"]

SCORING_CHOICES = ("points_000", "multiplier_001")
LOUHU_CHOICES = ("same_kind", "any_tile")


@dataclass(frozen=True)
class YunxiaoOptions(RuleOptions):
    """Options of the Yunxiao rule system; the defaults reproduce the spec text (:meth:`describe` lists them)."""

    system: ClassVar[str] = "Yunxiao"

    base_points: int = integer(1, minimum=1, rule="YX-3", doc="every amount is multiplied by it")
    scoring: Literal["points_000", "multiplier_001"] = choice(
        *SCORING_CHOICES, rule="YX-38, YX-41", doc="the seed-000 fixed-point table or the seed-001 multipliers")
    wall_end_reserve: tuple[int, int, int] = int_list(
        (34, 38, 40), minimum=0, rule="YX-12", doc="the live-wall reserve after 0, 1 and 2 kongs")
    # At most 16: four seats of four melds; the rules size a table by it (a larger one is refused, not built).
    max_kongs: int = integer(3, minimum=0, maximum=16, rule="YX-23", doc="kongs per hand over the whole table")
    buda_loose: bool = flag(False, rule="YX-35",
                            doc="the loose 不搭 form: 0..3 knitted tiles per suit, any distinct honors")
    louhu: Literal["same_kind", "any_tile"] = choice(
        *LOUHU_CHOICES, rule="YX-17", doc="what a declined win blocks until the player moves")

    def reserve_after(self, kongs: int) -> int:
        """YX-12: the wall-end reserve R after ``kongs`` kongs in this hand (the last entry beyond two)."""
        return self.wall_end_reserve[min(max(kongs, 0), 2)]
