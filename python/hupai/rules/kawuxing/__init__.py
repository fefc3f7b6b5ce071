"""卡五星 Kawuxing, spec ``rules/kawuxing.md``.

- :mod:`.options`: :class:`KawuxingOptions` (KW-3, KW-24).
- :mod:`.patterns`: the factor table (KW-19..23) as :class:`~hupai.rules.patterns.PatternEntry` rows over a
  :class:`~.patterns.Reading` (one decomposition of the winning hand).
- :mod:`.scoring`: :func:`score_win`, the best reading's product and who pays (KW-24..26).
- :mod:`.rules`: :class:`KawuxingRules`, the rule object the table engine consults (flow, 亮倒, kong money).
- :mod:`.advice`: playing advice for bots (declare 亮倒 when ready).
"""

from __future__ import annotations

from .options import KawuxingOptions
from .rules import LIANGDAO, KawuxingRules

__all__ = ["KawuxingRules", "KawuxingOptions", "LIANGDAO"]
