"""A snapshot checked and restored, short of the replay (:meth:`hupai.game.Game.from_snapshot`): the version,
the setup and actions (:mod:`.validate`), then the table: format 2's compact table (:mod:`.compact`), format 1's
full one (:mod:`.consistency`), a zipai compact table (:mod:`hupai.game.zipai.codec`), or an older zipai table's
shape (checked further by the replay, :mod:`.zipai`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...rules.base import Rules
from ..zipai.codec import is_compact
from ..zipai.codec import table_from_compact as zipai_from_compact
from . import consistency
from .compact import table_from_compact
from .table import Table
from .validate import _dict, _fail, build_rules, check_actions, check_setup, check_version
from .zipai import ZipaiTable, check_table_shape

__all__ = ["check_snapshot"]

_KEYS = frozenset({"format", "rules", "options", "setup", "table", "actions"})


def check_snapshot(snap: Any, formats: Sequence[str],
                   rules: Rules | None) -> tuple[Rules, dict[str, Any], Table | ZipaiTable | None]:
    """Everything but the replay; returns the rules, a checked copy of the setup and the restored table (a zipai
    table in its compact form: :mod:`hupai.game.zipai.codec`; None for a zipai table in the full form hupai wrote
    before it: that table is checked by replaying the actions, see :func:`.zipai.check_table_shape`).
    ``formats``: the versions read, the one written last (format 1's mahjong table is the full
    :meth:`Table.to_json`; format 2's is :mod:`hupai.game.state.compact`)."""
    # (a dict first: isinstance against an ABC costs more than the test itself)
    tag = snap.get("format") if type(snap) is dict or isinstance(snap, Mapping) else None  # noqa: E721
    snap = check_version(snap, tag if isinstance(tag, str) and tag in formats else formats[-1], "snapshot")
    _dict(snap, "snapshot", _KEYS)
    rules = build_rules(snap, "snapshot", rules)
    setup = check_setup(rules, snap["setup"], "snapshot.setup")
    discards = check_actions(snap["actions"], "snapshot.actions", rules.num_players, compact=True)
    window = setup.get("claim_window", "eligible")
    if rules.family == "zipai":
        if tag != formats[0] and is_compact(snap["table"]):
            return rules, setup, zipai_from_compact(rules, setup, snap["table"], snap["actions"], discards, window)
        check_table_shape(snap["table"], "snapshot.table")  # the full form hupai wrote before: replayed
        return rules, setup, None
    if tag != formats[0]:
        return rules, setup, table_from_compact(rules, setup, snap["table"], snap["actions"], discards, window)
    consistency.check_table(rules, setup, snap["table"], discards)
    table = Table.from_json(snap["table"])
    consistency.check_against_actions(table, [answer for _, answer in snap["table"]["answers"]], snap["actions"])
    consistency.check_with_rules(rules, window, table, snap["actions"])
    if table.phase in ("claim", "rob") and table.pending != consistency.open_window(rules, window, table):
        raise _fail("snapshot.table.pending", f"is not the {table.phase} window the rules open on this "
                                              f"{'discard' if table.phase == 'claim' else 'kong'}")
    return rules, setup, table
