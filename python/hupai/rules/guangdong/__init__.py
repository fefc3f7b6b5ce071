"""广东麻将 Guangdong, spec ``rules/guangdong.md``.

- :mod:`.options`: :class:`GuangdongOptions`.
- :mod:`.patterns`: the 番 table (GD-15..25).
- :mod:`.scoring`: :func:`score_win` and the limits (GD-16..25).
- :mod:`.settlement`: who pays and liability (GD-26..30).
- :mod:`.rules`: :class:`GuangdongRules`, the rule object the table engine consults.
"""

from __future__ import annotations

from .options import GuangdongOptions
from .rules import GuangdongRules

__all__ = ["GuangdongRules", "GuangdongOptions"]
