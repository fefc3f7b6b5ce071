"""Rule systems: ``hupai.rules.get(name, **options)`` returns a rule-system object (DESIGN §4).

The registry maps a name to a factory taking the options mapping; an unknown name, option or option value
raises :class:`hupai.HupaiError`. Rule modules are imported on first use, so importing hupai stays cheap.

A rule package ``rules/<name>/`` has the same files as every other, so a new system copies one:

- ``options.py``: the spec's options table as a :class:`~hupai.rules.options.RuleOptions` subclass (checks,
  ``to_dict`` for logs, ``describe()``);
- ``patterns.py``: the spec's pattern tables, tuples of :class:`~hupai.rules.patterns.PatternEntry` (pinyin and
  Chinese name, rule id, value, predicate, what it replaces), one small named predicate per pattern;
- ``scoring.py``: how the entries combine (add, multiply, the best row) and who pays;
- ``rules.py``: the :class:`Rules` subclass the engine consults; ``advice.py``: playing advice for bots.

Helpers only one system needs sit beside them (Yunxiao's ``hand.py``: the gold and its fifth-copy room, asked
of the core's :func:`hupai.analysis.fits_with_jokers`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..errors import HupaiError
from ..scoring import ScoreResult, WinContext
from .base import Rules

if TYPE_CHECKING:  # pragma: no cover
    from .base_advice import Advice

__all__ = ["Rules", "advice", "get", "names", "score"]

# name -> (module, class name). Each class takes one positional options mapping (None = defaults).
_REGISTRY: dict[str, tuple[str, str]] = {
    "guangdong": ("hupai.rules.guangdong.rules", "GuangdongRules"),
    "yunxiao": ("hupai.rules.yunxiao.rules", "YunxiaoRules"),
    "kawuxing": ("hupai.rules.kawuxing.rules", "KawuxingRules"),
    "waihuzi": ("hupai.rules.waihuzi.rules", "WaihuziRules"),
}


def names() -> list[str]:
    """The names of the rule systems available."""
    return sorted(_REGISTRY)


def get(name: str, options: Mapping[str, Any] | None = None, /, **kwargs: Any) -> Rules:
    """The rule system ``name`` built with ``options`` (a mapping) and/or keyword options.

    >>> get("guangdong", louhu="any_tile").options_dict()["louhu"]
    'any_tile'
    """
    if not isinstance(name, str) or name not in _REGISTRY:
        raise HupaiError(f"unknown rule system {name!r} (known: {', '.join(names())})")
    if options is not None and not isinstance(options, Mapping):
        raise HupaiError(f"options must be a mapping, got {type(options).__name__}")
    merged = {**(options or {}), **kwargs}
    module_name, class_name = _REGISTRY[name]
    # Every registered class is a Rules subclass whose constructor takes the options mapping.
    system: Callable[[Mapping[str, Any]], Rules] = getattr(importlib.import_module(module_name), class_name)
    return system(merged)


# name -> the module holding that rule system's playing advice (its ``ADVICE``), imported on first use.
_ADVICE: dict[str, str] = {
    "guangdong": "hupai.rules.guangdong.advice",
    "yunxiao": "hupai.rules.yunxiao.advice",
    "kawuxing": "hupai.rules.kawuxing.advice",
    "waihuzi": "hupai.rules.waihuzi.advice",
}


def advice(name: str) -> Advice:
    """The playing advice of the rule system ``name`` for shanten-driven players (:mod:`.base_advice`),
    or the plain-tile defaults for a system that brings none (a rule system outside the registry included)."""
    module = _ADVICE.get(name)
    if module is None:
        from .base_advice import PLAIN
        return PLAIN
    found: Advice = importlib.import_module(module).ADVICE
    return found


def score(rules: Rules | str, context: WinContext) -> ScoreResult:
    """Score one win under ``rules`` (a rules object, or a rule-system name with its default options) without
    running a game (``hupai.score``)."""
    if isinstance(rules, str):
        rules = get(rules)
    elif not isinstance(rules, Rules):
        raise HupaiError(f"rules must be a rule-system name or a Rules object, got {type(rules).__name__}")
    return rules.score(context)
