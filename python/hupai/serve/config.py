"""A table's configuration: the create request checked (:func:`parse_config`) into a :class:`TableConfig`, public
(the seed is kept with the match, server-side), stored with the table and read back with defaults for any field
added since (:meth:`TableConfig.from_dict`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from .. import rules as rules_module
from ..errors import HupaiError
from ..game.game import FLOWS
from ..jsonform import json_text
from ..rules.base import Rules
from .wire import WireError

__all__ = ["TableConfig", "parse_config", "playable"]

MAX_HANDS = 64
MAX_THINK_MS = 10_000
MAX_CLAIM_SECONDS = 600.0  # and of turn_seconds
MAX_BANK_SECONDS = 3600.0
MAX_OPTIONS = 32
#: The bots a table may seat (``"search"`` thinks within the turn timer:
#: :meth:`hupai.serve.tables.Table.search_budget_ms`).
BOT_NAMES = ("greedy", "random", "ev", "search")


@dataclass(frozen=True)
class TableConfig:
    """What a table's creator chose; public (no seed: that is kept with the match, server-side; ``seeded`` says
    whether the creator chose it, and so knows every wall)."""

    rules: str
    options: dict[str, Any]
    bots: tuple[int, ...]
    bot: str = "greedy"
    think_ms: int = 500
    hands: int = 4
    claim_seconds: float = 20.0
    seeded: bool = False
    turn_seconds: float = 30.0   # base seconds of any other decision of a human seat (0: no timer)
    bank_seconds: float = 60.0   # each human seat's time bank, refilled per hand (see .seats)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["bots"] = list(self.bots)
        return data

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json_text(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableConfig:
        """A stored config; fields added since it was stored take their defaults."""
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        return cls(**{**known, "bots": tuple(data["bots"])})

    @classmethod
    def from_json(cls, data: str | Mapping[str, Any]) -> TableConfig:
        return cls.from_dict(json.loads(data) if isinstance(data, str) else data)


def _seconds(data: Mapping[str, Any], key: str, default: float, high: float) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= high:
        raise WireError("malformed", f"{key} must be a number in 0..{high:g} (0: no timer)")
    return float(value)


def _int_in(data: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise WireError("malformed", f"{key} must be an int in {low}..{high}, got {value!r}")
    return value


def parse_config(data: Any) -> tuple[TableConfig, Rules, int | None]:
    """A create-table request checked: the config, the rules object, and the seed (None: drawn by the OS)."""
    if not isinstance(data, dict):
        raise WireError("malformed", "a table request is a JSON object")
    unknown = set(data) - {"rules", "options", "bots", "bot", "think_ms", "hands", "claim_seconds", "seed",
                           "turn_seconds", "bank_seconds"}
    if unknown:
        raise WireError("malformed", f"unknown field(s) {sorted(unknown)}")
    name = data.get("rules", "guangdong")
    if name not in rules_module.names():
        raise WireError("malformed", f"unknown rule system {name!r} (known: {', '.join(rules_module.names())})")
    options = data.get("options") or {}
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise WireError("malformed", "options must be a JSON object of at most 32 entries")
    try:
        rules = rules_module.get(name, options)
    except HupaiError as error:
        raise WireError("malformed", str(error)) from None
    if not playable(rules):
        raise WireError("malformed", f"{name}: this engine has no flow for the {rules.family} family yet")
    n = rules.num_players
    bots = data.get("bots", list(range(1, n)))
    if (not isinstance(bots, list) or any(type(s) is not int or not 0 <= s < n for s in bots)
            or len(set(bots)) != len(bots)):
        raise WireError("malformed", f"bots must be a list of distinct seats in 0..{n - 1}")
    bot = data.get("bot", "greedy")
    if bot not in BOT_NAMES:
        raise WireError("malformed", f"bot must be one of {', '.join(repr(name) for name in BOT_NAMES)}")
    claim_seconds = _seconds(data, "claim_seconds", 20.0, MAX_CLAIM_SECONDS)
    turn_seconds = _seconds(data, "turn_seconds", 30.0, MAX_CLAIM_SECONDS)
    bank_seconds = _seconds(data, "bank_seconds", 60.0, MAX_BANK_SECONDS)
    seed = data.get("seed")
    if seed is not None and (type(seed) is not int or not 0 <= seed < 1 << 64):
        raise WireError("malformed", "seed must be an int in 0..2**64-1 (or absent: drawn by the server)")
    if seed is not None and n - len(bots) > 1:
        # A seed fixes every wall: its sender would know the other humans' tiles.
        raise WireError("malformed", "a seed is accepted only for a table with at most one human seat (it fixes "
                                     "every wall, so whoever chose it knows every seat's tiles)")
    config = TableConfig(name, rules.options_dict(), tuple(sorted(bots)), bot,
                         _int_in(data, "think_ms", 500, 0, MAX_THINK_MS), _int_in(data, "hands", 4, 1, MAX_HANDS),
                         claim_seconds, seed is not None, turn_seconds, bank_seconds)
    return config, rules, seed


def playable(rules: Rules) -> bool:
    """Whether the engine hosts this rule system's family (a rule package may land before its flow)."""
    return rules.family in FLOWS
