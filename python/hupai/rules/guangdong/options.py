"""Guangdong (广东麻将) options: the spec's options table (guangdong.md §10), validated.

Defaults reproduce the spec text. An unknown name or an invalid value raises :class:`hupai.HupaiError` naming
the option, so a typo in a server's configuration fails loudly instead of silently playing another game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ...errors import HupaiError

__all__ = ["GuangdongOptions"]

# The allowed values of the string options; the first is the default.
_CHOICES: dict[str, tuple[str, ...]] = {
    "discard_pays": ("one", "all_three"),   # GD-23
    "seat_wind": ("dealer_east", "fixed"),  # GD-5
    "louhu": ("same_kind", "any_tile"),     # GD-11
}
# The lower bound of each integer option.
_MINIMUM: dict[str, int] = {
    "base": 1,          # GD-3: a share is base * 2^fan, so base must be positive
    "cap_fan": 0,       # GD-18
    "wall_reserve": 0,  # GD-8
}


@dataclass(frozen=True)
class GuangdongOptions:
    """The Guangdong option set.

    - ``base`` (GD-3): a hand worth f 番 is paid in shares of ``base * 2**f``.
    - ``discard_pays`` (GD-23): ``"one"`` = the discarder pays one share; ``"all_three"`` = three shares.
    - ``cap_fan`` (GD-18, GD-20): the 爆胡 limit of within-limit hands, and the minimum of the special wins.
    - ``seat_wind`` (GD-5): ``"dealer_east"`` = the dealer is 东; ``"fixed"`` = winds stay as first assigned.
    - ``louhu`` (GD-11): ``"same_kind"`` or ``"any_tile"``, what a declined win blocks.
    - ``wall_reserve`` (GD-8): tiles left undrawn at the end of the wall.
    """

    base: int = 1
    discard_pays: str = "one"
    cap_fan: int = 3
    seat_wind: str = "dealer_east"
    louhu: str = "same_kind"
    wall_reserve: int = 0

    def __post_init__(self) -> None:
        # Validate here too, so direct construction cannot build an option set the spec does not allow.
        for name, minimum in _MINIMUM.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise HupaiError(f"Guangdong option {name!r} must be an int, got {value!r}")
            if value < minimum:
                raise HupaiError(f"Guangdong option {name!r} must be >= {minimum}, got {value}")
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                allowed = ", ".join(repr(c) for c in choices)
                raise HupaiError(f"Guangdong option {name!r} must be one of {allowed}, got {value!r}")

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any] | None) -> GuangdongOptions:
        """Build from a mapping of option names to values; missing names take their defaults."""
        if options is None:
            return cls()
        if not isinstance(options, Mapping):
            raise HupaiError(f"Guangdong options must be a mapping, got {type(options).__name__}")
        known = {f.name for f in fields(cls)}
        for name in options:
            if name not in known:
                raise HupaiError(f"unknown Guangdong option {name!r} (known: {', '.join(sorted(known))})")
        return cls(**dict(options))

    def to_dict(self) -> dict[str, Any]:
        """The full option set, every option named (for results and replay logs). Every value is a plain
        int or str, so no deep copy (``dataclasses.asdict`` makes one) is needed."""
        return {field.name: getattr(self, field.name) for field in fields(self)}
