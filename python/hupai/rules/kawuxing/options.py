"""Kawuxing (卡五星) options: the spec's options table (kawuxing.md §11), on the shared options base.

Defaults reproduce the spec text (base 1, no cap). An unknown name or an invalid value raises
:class:`hupai.HupaiError` naming the option.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..options import RuleOptions, integer

__all__ = ["KawuxingOptions"]


@dataclass(frozen=True)
class KawuxingOptions(RuleOptions):
    """The Kawuxing option set; :meth:`describe` lists each option with its rule id."""

    system: ClassVar[str] = "Kawuxing"

    base: int = integer(1, minimum=1, rule="KW-3",
                        doc="底金: a hand is worth base x the product of its factors; kong money (KW-12) and the "
                            "荒庄 payments (KW-27) are in base units too")
    cap: int | None = integer(None, minimum=1, optional=True, rule="KW-24",
                              doc="limit of the factor product (None: no limit); kong money is never capped")
