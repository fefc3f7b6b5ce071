"""歪胡子 Wai Huzi, spec ``rules/waihuzi.md`` (the cards and the split core are :mod:`hupai.zipai`).

- :mod:`.options`: :class:`WaihuziOptions` (WH-5, WH-32, WH-35, WH-37, WH-41, WH-43).
- :mod:`.patterns`: the 名堂 table (WH-35, WH-36, WH-41) as :class:`~hupai.rules.patterns.PatternEntry` rows over
  a :class:`~.patterns.Win` (the chosen layout and the facts of the win).
- :mod:`.scoring`: :func:`~.scoring.score_win`: the context checked, the best layout, the 名堂 product, 元, payments.
- :mod:`.rules`: :class:`WaihuziRules`, the rule object (``family = "zipai"``).
- :mod:`.advice`: playing advice for a 息-seeking bot over plain data (counts, groups, locked cards).
- :mod:`.advice`: playing advice for a 息-seeking bot over plain data (counts, groups, bans).
- :mod:`.describe`: ``hupai analyze --rules waihuzi``.
"""

from __future__ import annotations

from .options import WaihuziOptions
from .rules import PRIORITY, WaihuziRules
from .scoring import NotAWin, shen_of, shenyao

__all__ = ["WaihuziRules", "WaihuziOptions", "NotAWin", "PRIORITY", "shen_of", "shenyao"]
