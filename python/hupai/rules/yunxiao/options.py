"""Yunxiao options (spec §12): the option names, values and defaults of the options table.

A result or replay log records the full option set, so :meth:`YunxiaoOptions.to_dict` gives every option,
JSON-ready, and :meth:`YunxiaoOptions.from_mapping` reads it back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from ...errors import HupaiError

__all__ = ["YunxiaoOptions", "SCORING_CHOICES", "LOUHU_CHOICES"]

SCORING_CHOICES = ("points_000", "multiplier_001")
LOUHU_CHOICES = ("same_kind", "any_tile")


def _is_int(value: Any) -> bool:
    # bool is an int subclass; `True` as a point base or a kong count is a caller's mistake, not a 1.
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class YunxiaoOptions:
    """Options of the Yunxiao rule system; the defaults reproduce the spec text.

    - ``base_points`` (YX-3): every amount is multiplied by it; a positive int.
    - ``scoring`` (YX-38, YX-41): ``"points_000"`` (the seed-000 fixed-point table) or ``"multiplier_001"``.
    - ``wall_end_reserve`` (YX-12): the live-wall reserve after 0, 1 and 2 kongs.
    - ``max_kongs`` (YX-23): kongs per hand over the whole table.
    - ``buda_loose`` (YX-35): the loose 不搭 form (0..3 tiles per suit, any distinct honors).
    - ``louhu`` (YX-17): a declined win blocks ``"same_kind"`` tiles or ``"any_tile"`` until the player moves.
    """

    base_points: int = 1
    scoring: Literal["points_000", "multiplier_001"] = "points_000"
    wall_end_reserve: tuple[int, int, int] = (34, 38, 40)
    max_kongs: int = 3
    buda_loose: bool = False
    louhu: Literal["same_kind", "any_tile"] = "same_kind"

    def __post_init__(self) -> None:
        if not _is_int(self.base_points) or self.base_points <= 0:
            raise HupaiError(f"yunxiao option base_points must be a positive int, got {self.base_points!r}")
        if self.scoring not in SCORING_CHOICES:
            raise HupaiError(f"yunxiao option scoring must be one of {SCORING_CHOICES}, got {self.scoring!r}")
        reserve = self.wall_end_reserve
        if isinstance(reserve, (str, bytes)) or not hasattr(reserve, "__len__") or len(reserve) != 3 \
                or not all(_is_int(r) and r >= 0 for r in reserve):
            raise HupaiError(f"yunxiao option wall_end_reserve must be 3 non-negative ints, got {reserve!r}")
        # A list from JSON becomes a tuple so the options stay hashable and immutable.
        object.__setattr__(self, "wall_end_reserve", tuple(int(r) for r in reserve))
        if not _is_int(self.max_kongs) or self.max_kongs < 0:
            raise HupaiError(f"yunxiao option max_kongs must be a non-negative int, got {self.max_kongs!r}")
        if not isinstance(self.buda_loose, bool):
            raise HupaiError(f"yunxiao option buda_loose must be true or false, got {self.buda_loose!r}")
        if self.louhu not in LOUHU_CHOICES:
            raise HupaiError(f"yunxiao option louhu must be one of {LOUHU_CHOICES}, got {self.louhu!r}")

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any] | None = None) -> YunxiaoOptions:
        """Build options from a mapping of option names; missing names take their defaults.

        An unknown name or an invalid value raises :class:`hupai.HupaiError`.
        """
        if mapping is None:
            return cls()
        if isinstance(mapping, cls):
            return mapping
        if not isinstance(mapping, Mapping):
            raise HupaiError(f"yunxiao options must be a mapping, got {type(mapping).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(name) for name in mapping if name not in known)
        if unknown:
            raise HupaiError(f"unknown yunxiao option(s) {', '.join(unknown)}; "
                             f"known: {', '.join(sorted(known))}")
        return cls(**dict(mapping))

    def to_dict(self) -> dict[str, Any]:
        """Every option, JSON-ready (``wall_end_reserve`` as a list)."""
        return {
            "base_points": self.base_points,
            "scoring": self.scoring,
            "wall_end_reserve": list(self.wall_end_reserve),
            "max_kongs": self.max_kongs,
            "buda_loose": self.buda_loose,
            "louhu": self.louhu,
        }

    def reserve_after(self, kongs: int) -> int:
        """YX-12: the wall-end reserve R after ``kongs`` kongs in this hand (the last entry beyond two)."""
        return self.wall_end_reserve[min(max(kongs, 0), 2)]
