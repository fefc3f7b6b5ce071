"""Guangdong (广东麻将) options: the spec's options table (guangdong.md §10), on the shared options base.

Defaults reproduce the spec text. An unknown name or an invalid value raises :class:`hupai.HupaiError` naming
the option, so a typo in a server's configuration fails loudly instead of silently playing another game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..options import RuleOptions, choice, integer

__all__ = ["GuangdongOptions"]


@dataclass(frozen=True)
class GuangdongOptions(RuleOptions):
    """The Guangdong option set; :meth:`describe` lists each option with its rule id."""

    system: ClassVar[str] = "Guangdong"

    base: int = integer(1, minimum=1, rule="GD-3",
                        doc="a hand worth f 番 is paid in shares of base * 2**f (so base is positive)")
    discard_pays: str = choice("one", "all_three", rule="GD-23",
                               doc="the discarder of a won tile pays one share, or three")
    cap_fan: int = integer(3, minimum=0, rule="GD-18, GD-20",
                           doc="the 爆胡 limit of within-limit hands, and the minimum of the special wins")
    seat_wind: str = choice("dealer_east", "fixed", rule="GD-5",
                            doc="the dealer is 东, or the winds stay as first assigned")
    louhu: str = choice("same_kind", "any_tile", rule="GD-11",
                        doc="what a declined win blocks until the player's next turn")
    wall_reserve: int = integer(0, minimum=0, rule="GD-8", doc="tiles left undrawn at the end of the wall")
