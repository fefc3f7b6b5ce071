"""``hupai score RULES HAND [facts...]``: one win scored without a game, what :func:`hupai.score` takes.

Every :class:`~hupai.scoring.WinContext` field but the hand's own (``win_tile``, ``concealed``, ``melds``: the hand
written in notation) is an option of the same name, dashes for underscores: ints (``--discarder 2``), flags
(``--robbed-kong``) and tiles in notation (``--gold 5p``, ``--shen-card d3``). ``--self-drawn`` says the winner
drew the tile (no discarder, the default), ``-o KEY=VALUE`` sets a rule option as ``hupai simulate -o`` does, and
``--json`` prints :meth:`hupai.ScoreResult.to_json`.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from dataclasses import fields
from typing import Any, TextIO

from .errors import HupaiError, NotAWin
from .scoring import ScoreResult, WinContext

__all__ = ["add_parser", "run"]

#: The fields the hand itself gives (its notation), never options.
_FROM_HAND = frozenset({"win_tile", "concealed", "melds"})
#: Fields holding a tile or card, given in notation.
_TILES = frozenset({"gold", "shen_card"})

_HELP = {
    "winner": "the winner's seat (default 0)",
    "discarder": "the seat that discarded the winning tile (default: none, self-drawn)",
    "dealer": "the dealer's seat (default 0)",
    "num_players": "seats at the table (default: the rule system's)",
    "seat_wind": "the winner's wind 0..3 = 东南西北 (default: from the seat and dealer)",
    "round_wind": "the round's wind 0..3 (default 0, 东)",
    "gold": "Yunxiao's gold (金) tile, in notation (default: none)",
    "shen_card": "Wai Huzi: the card turned up after the win (神腰), e.g. d3 (default: none)",
    "shen": "Wai Huzi: the session 神, odd (单神) or even (双神) (default: the rule option's)",
    "event": "a rule system's own win event (Yunxiao: rob_gold, san_jin_dao, you_jin...; default: none)",
    "kong_replacement": "won with a kong replacement tile (杠上开花)",
    "robbed_kong": "won on a tile added to a kong (抢杠)",
    "last_tile": "won with or on the wall's last tile (海底)",
    "heavenly": "the dealer wins on its dealt hand (天和/天胡)",
    "earthly": "地和/地胡, as the rule system defines it",
    "human": "a non-dealer wins on the dealer's first discard (人和)",
    "winners_on_tile": "how many players win on this one tile (default 1)",
    "liable": "the seat a liability (包) rule makes pay alone (default: none)",
    "jokers": "wild tiles held beside the hand's tiles (Yunxiao: extra golds; default 0)",
    "declared_ready": "the winner had declared its hand ready and shown it (Kawuxing 亮倒)",
    "discard_after_kong": "won on a discard made right after a kong's replacement draw (杠上炮)",
    "first_dealer": "the match's first dealer (default: the dealer)",
    "you_level": "Yunxiao's 游 level 1..3 of a you_jin win (default 0: none)",
    "ready_from_deal": "Wai Huzi: ready from the deal, no group made since (报听)",
}


def add_parser(commands: Any, parse_option: Callable[[str], tuple[str, Any]],
               non_negative: Callable[[str], int]) -> None:
    """The ``score`` subcommand on ``commands`` (argparse subparsers), with the command line's readers of
    ``KEY=VALUE`` options and of counts."""
    cmd = commands.add_parser(
        "score", help="score one win without a game (hupai.score)",
        description="Score one winning hand under a rule system's rules. The hand is in notation: mahjong tiles "
                    "with exposed melds in [] and a concealed kong in () (a 14-tile hand holds its winning tile, "
                    "the last written unless --win-tile names it; 13 tiles need --win-tile), or Wai Huzi cards "
                    "with the declared groups in brackets ('[歪 d8d8d8] x1 x1 ...'). Exit status 1 when the hand "
                    "is no win under these rules, 2 on a mistake in the command.")
    cmd.add_argument("rules", help="rule system (see hupai.rules.names())")
    cmd.add_argument("hand", help="the winning hand, e.g. 111z123m456p789s55s or '[456p] 123m789s11z55s 5s'")
    cmd.add_argument("--win-tile", default=None, help="the winning tile or card, in notation (5s, x1); default: "
                                                      "the last one written, in a complete hand")
    cmd.add_argument("--self-drawn", action="store_true", help="the winner drew the tile (no --discarder)")
    cmd.add_argument("--option", "-o", action="append", type=parse_option, default=[], metavar="KEY=VALUE",
                     help="a rule option (repeatable), e.g. -o scoring=multiplier_001 (default: the rule "
                          "system's options)")
    cmd.add_argument("--json", action="store_true", help="print the result as JSON (ScoreResult.to_json)")
    for field in fields(WinContext):
        if field.name in _FROM_HAND:
            continue
        flag = "--" + field.name.replace("_", "-")
        words = _HELP.get(field.name, f"the WinContext field {field.name}")  # the tests ask for real words
        kind = str(field.type)
        if kind == "bool":
            cmd.add_argument(flag, action="store_true", default=None, help=words)
        elif field.name in _TILES or kind.startswith("str"):
            cmd.add_argument(flag, default=None, metavar="TILE" if field.name in _TILES else "TEXT",
                             help=words)
        else:
            cmd.add_argument(flag, type=non_negative, default=None, metavar="N", help=words)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Score ``args.hand``; print the result (0), or why it is no win (1, on stderr)."""
    from . import rules

    out = out or sys.stdout
    rule_system = rules.get(args.rules, dict(args.option))
    facts = {field.name: getattr(args, field.name) for field in fields(WinContext)
             if field.name not in _FROM_HAND and getattr(args, field.name) is not None}
    if args.self_drawn and facts.get("discarder") is not None:
        raise HupaiError("--self-drawn and --discarder contradict each other: a self-drawn win has no discarder")
    try:
        result = rules.score(rule_system, args.hand, args.win_tile, **facts)
    except NotAWin as why:
        print(f"hupai: not a win under {rule_system.name}: {_as_flags(str(why))}", file=sys.stderr)
        return 1
    except HupaiError as error:  # the library names its keyword arguments; the command line has flags
        raise HupaiError(_as_flags(str(error))) from None
    if args.json:
        print(result.to_json(), file=out)
    else:
        _print(result, out)
    return 0


#: A WinContext field as :func:`hupai.score` messages name it (``win_tile=...``, ``win_tile``).
_FIELD = re.compile(r"\b(" + "|".join(sorted((f.name for f in fields(WinContext) if "_" in f.name), key=len,
                                              reverse=True)) + r")\b(=)?")


def _as_flags(message: str) -> str:
    """A library message in the command line's words: ``win_tile=...`` becomes ``--win-tile ...``."""
    return _FIELD.sub(lambda match: "--" + match.group(1).replace("_", "-") + (" " if match.group(2) else ""),
                      message)


def _print(result: ScoreResult, out: TextIO) -> None:
    if result.reading:
        print(f"reading   {result.reading}", file=out)
    if "layout" in result.details:  # Wai Huzi: the layout scored and its 息
        print(f"layout    {result.details['layout']}  ({result.details.get('xi')} 息)", file=out)
    for pattern in result.patterns:
        rule = f"  ({pattern.rule})" if pattern.rule else ""
        print(f"  {pattern.chinese or pattern.name}  {pattern.name}  {pattern.value}{rule}", file=out)
    print(f"value     {result.value}", file=out)
    print(f"payments  {list(result.payments)}", file=out)
