"""Wai Huzi (歪胡子) 80-card zipai: cards and notation (:mod:`.cards`), layouts, 息 and 名堂 (:mod:`.analysis`).

Spec: ``waihuzi.md`` (rule ids WH-n). The game flow and the rule system live elsewhere; this package answers
what a game and a scorer need from the cards: notation, splits, the best layout, waits and batch calls.
"""

from __future__ import annotations

from .analysis import (
    MINGTANG,
    BatchResult,
    Declared,
    Layout,
    Mingtang,
    Part,
    PartType,
    Source,
    Wait,
    best_split,
    best_split_batch,
    best_xi_batch,
    context_score,
    is_win_batch,
    parse_groups,
    splits,
    waits,
)
from .cards import (
    ALL_CARDS,
    COPIES,
    NUM_KINDS,
    RED_KINDS,
    RUNS,
    card_name,
    completing_cards,
    format_cards,
    is_big,
    is_menzi,
    is_red,
    is_run,
    menzi_for,
    parse,
    to_counts,
    to_kinds,
    value_of,
)

__all__ = [
    "ALL_CARDS", "COPIES", "MINGTANG", "NUM_KINDS", "RED_KINDS", "RUNS", "BatchResult", "Declared", "Layout",
    "Mingtang", "Part", "PartType", "Source", "Wait", "best_split", "best_split_batch", "best_xi_batch", "card_name",
    "completing_cards", "context_score", "format_cards", "is_big", "is_menzi", "is_red", "is_run", "is_win_batch",
    "menzi_for", "parse", "parse_groups", "splits", "to_counts", "to_kinds", "value_of", "waits",
]
