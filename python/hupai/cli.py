"""Command line: ``hupai analyze`` explains hands (shanten, waits, discards, decompositions); ``hupai score``
scores one win (:mod:`hupai.cli_score`); ``hupai simulate`` plays seeded hands with bots in parallel
(:mod:`hupai.simulate`); ``hupai replay`` steps through a logged hand; ``hupai serve`` runs the game server.

A user's mistake (a bad tile, an unknown rule system or option, a negative count) prints one line on stderr and
exits 2 before any other output; Ctrl-C, a closed pipe (``hupai ... | head``) and a terminal that cannot show
Chinese never end in a traceback.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

import numpy as np

from . import cli_score
from .analysis import Decomposition, Forms, decompositions, shanten, waits
from .errors import HupaiError, missing_extra
from .hand import parse_hand
from .tiles import format_tiles, kind_name, to_counts

_FORM_NAMES = {form.name.lower(): form for form in Forms if form.name is not None}


def _parse_forms(text: str) -> Forms:
    forms = Forms(0)
    for name in text.split(","):
        key = name.strip().lower().replace("-", "_")
        if key not in _FORM_NAMES:
            raise argparse.ArgumentTypeError(f"unknown form {name!r}; choose from {', '.join(_FORM_NAMES)}")
        forms |= _FORM_NAMES[key]
    return forms


def _describe_reading(reading: Decomposition) -> str:
    parts = []
    for group in reading.groups:
        text = format_tiles(list(group.tiles))
        if group.jokers:
            text += "(*" + format_tiles(list(group.jokers)) + ")"
        parts.append(f"[{text}]")
    return f"{(reading.form.name or str(reading.form)).lower():16s} " + " ".join(parts)


def _useful_tiles(counts: np.ndarray, jokers: int, melds: int, forms: Forms, current: int) -> list[int]:
    """Kinds whose draw lowers the shanten of a waiting (3n+1) hand (a complete-size hand's shanten already
    assumes its best discard)."""
    useful = []
    for kind in range(34):
        if counts[kind] >= 4:
            continue
        counts[kind] += 1
        if shanten(counts, jokers=jokers, melds=melds, forms=forms) < current:
            useful.append(kind)
        counts[kind] -= 1
    return useful


def _form_name(form: Forms) -> str:
    return (form.name or str(form)).lower().replace("_", " ")


def _left_out_forms(counts: np.ndarray, jokers: int, melds: int, forms: Forms, value: int) -> list[tuple[str, int]]:
    """(name, shanten) of each form outside ``forms`` in which the hand is complete or ready and does better than
    ``value`` (seven pairs with quads only when plain seven pairs does not already)."""
    found: list[tuple[str, int]] = []
    for form in Forms:
        if form & forms or (melds and form != Forms.STANDARD):  # the special forms are concealed only
            continue
        other = shanten(counts, jokers=jokers, melds=melds, forms=form)
        if other < min(value, 1) and not (form == Forms.SEVEN_PAIRS_QUADS and ("seven pairs", other) in found):
            found.append((_form_name(form), other))
    return found


def analyze(hand: str, jokers: int, melds: int, forms: Forms, out: TextIO | None = None,
            left_out_by: str | None = None) -> None:
    """Print the analysis of one hand; ``left_out_by`` (``"guangdong has no"``, ``"--forms leaves out"``) names
    what left out the forms the hand does better in, which are then noted."""
    out = out or sys.stdout
    counts = to_counts(hand)
    size = int(counts.sum()) + jokers
    complete_size = 3 * (4 - melds) + 2
    print(f"{format_tiles(counts)}  ({size} tiles, {jokers} jokers, {melds} exposed melds)", file=out)
    value = shanten(counts, jokers=jokers, melds=melds, forms=forms)
    label = {-1: "complete", 0: "ready (听牌)"}.get(value, f"{value} away from ready")
    print(f"  shanten   {value}: {label}", file=out)
    if value >= 0 and left_out_by:  # complete or nearer in a form these rules (or --forms) leave out: say so
        for name, other in _left_out_forms(counts, jokers, melds, forms, value):
            state = "complete" if other == -1 else "ready"
            print(f"  note      {state} as {name}, but {left_out_by} {name}", file=out)
    if size == complete_size - 1:
        hand_waits = waits(counts, jokers=jokers, melds=melds, forms=forms)
        if hand_waits:
            print(f"  waits     {' '.join(kind_name(k) for k in hand_waits)}", file=out)
        else:
            useful = _useful_tiles(counts.copy(), jokers, melds, forms, value)
            print(f"  useful    {' '.join(kind_name(k) for k in useful)} ({len(useful)} kinds)", file=out)
    elif value == -1:
        readings = decompositions(counts, jokers=jokers, melds=melds, forms=forms)
        print(f"  readings  {len(readings)}", file=out)
        for reading in readings[:12]:
            print(f"    {_describe_reading(reading)}", file=out)
        if len(readings) > 12:
            print(f"    ... {len(readings) - 12} more", file=out)
    else:
        # A complete-size hand that is not complete: which discards keep the best shanten, and their waits.
        options = []
        for kind in np.flatnonzero(counts):
            counts[kind] -= 1
            after = shanten(counts, jokers=jokers, melds=melds, forms=forms)
            after_waits = waits(counts, jokers=jokers, melds=melds, forms=forms) if after == 0 else []
            counts[kind] += 1
            options.append((after, -len(after_waits), int(kind), after_waits))
        options.sort()
        for after, _, discard, after_waits in options[:5]:
            detail = f"waits {' '.join(kind_name(k) for k in after_waits)}" if after_waits else f"shanten {after}"
            print(f"  discard {kind_name(discard):3s} -> {detail}", file=out)


_MELD_MARKS = str.maketrans("[]()", "    ")


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line (``hupai: ...``, exit 2) like every other user error, not usage."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("hupai").strip()  # main() writes the "hupai: " before it
        raise HupaiError(f"{command + ': ' if command else ''}{message} (see {self.prog} --help)")


def _parse_option(text: str) -> tuple[str, Any]:
    """``key=value``: the value read as JSON when it is JSON (``true``, ``3``, ``[1, 2]``, ``null``; ``none``
    too), else taken as a string (``scoring=multiplier_001``); the rule system checks it."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not key=value")
    if raw.strip().lower() == "none":
        return key.strip(), None
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return key.strip(), value


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


class _DefaultsShown(argparse.ArgumentDefaultsHelpFormatter):
    """Every option's default in its help, but for flags (off unless given) and defaults the help words itself."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default in (False, "", None) or "default:" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 < value < 65536:
        raise argparse.ArgumentTypeError(f"a port is in 1..65535, got {value}")
    return value


def _build_parser() -> argparse.ArgumentParser:
    from hupai import __version__

    parser = _Parser(prog="hupai", description="Chinese mahjong hand analysis and simulation")
    parser.add_argument("--version", action="version", version=f"hupai {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    analyze_cmd = commands.add_parser("analyze", help="shanten, waits and decompositions of hands")
    analyze_cmd.add_argument("hands", nargs="+", help="hands in tile notation, e.g. 123m456p789s1122z or "
                                                      "'123m [456p] (7777z) 5s' (exposed melds in [], a concealed "
                                                      "kong in ())")
    analyze_cmd.add_argument("--jokers", type=_non_negative, default=0, help="wild tiles on top of the hand")
    analyze_cmd.add_argument("--melds", type=_non_negative, default=None,
                             help="exposed melds set aside (default: the melds written, else inferred from the size)")
    analyze_cmd.add_argument("--forms", type=_parse_forms, default=None,
                             help="comma-separated forms (default: the rule system's, else standard, seven pairs "
                                  "and thirteen orphans): " + ", ".join(_FORM_NAMES))
    analyze_cmd.add_argument("--rules", default=None,
                             help="judge the hands in this rule system's winning forms and tile set "
                                  "(see hupai.rules.names())")
    analyze_cmd.add_argument("--win", default=None, help="waihuzi: the winning card, one of the hand's (x1, d10)")
    analyze_cmd.add_argument("--source", choices=["self", "other"], default="self",
                             help="waihuzi: the winning card was turned up by the winner or came from another")
    cli_score.add_parser(commands, _parse_option, _non_negative)
    sim = commands.add_parser("simulate", help="play seeded hands with bots (in parallel) and summarise them",
                              description="Play independent seeded hands (hand i: its own wall, dealer i mod "
                                          "seats) and report per-seat rates and points with 95% intervals; "
                                          "with --rotate, a tournament: each bot's points per hand over every "
                                          "seating.")
    sim.add_argument("--rules", default="guangdong", help="rule system (see hupai.rules.names())")
    sim.add_argument("--option", "-o", action="append", type=_parse_option, default=[], metavar="KEY=VALUE",
                     help="a rule option (repeatable), e.g. -o scoring=multiplier_001")
    sim.add_argument("--hands", type=_non_negative, default=1000,
                     help="hands to play (default 1000; with --rotate, deals, each played under every seating; "
                          "at most 10**12 hands in all)")
    sim.add_argument("--bots", default=None,
                     help="one bot for every seat or one per seat, comma-separated: random, greedy, ev, search "
                          "(search:N: N rollouts a decision, search:N:margin=M with a margin of M standard "
                          "errors, :worlds=weighted for worlds weighted by the other seats' play, :worlds=matched for "
                          "worlds whose other hands are as near a win as real ones, :worlds=waiting for matched "
                          "worlds whose ready hands wait where real ones do, :top_k=K candidates, "
                          ":rollout=greedy|ev rollout players, :decisions=claims to search claim windows only; "
                          "default greedy), "
                          "e.g. greedy,random,random,random")
    sim.add_argument("--bot", dest="bots", help=argparse.SUPPRESS)  # the earlier spelling
    sim.add_argument("--seed", type=_non_negative, default=1, help="simulation seed (default 1)")
    sim.add_argument("--workers", type=_positive, default=None,
                     help="worker processes (default: every CPU here; at most 4 per CPU, never more than there are "
                          "chunks of 50 hands; the results do not depend on it)")
    sim.add_argument("--rotate", action="store_true",
                     help="a tournament: play each hand under every distinct seating of --bots (seat and dealer "
                          "luck cancel) and report each bot's points per hand with 95%% intervals")
    sim.add_argument("--league", default=None, metavar="BOTS",
                     help="a league of these bots (comma-separated, e.g. random,greedy,ev,search): every pair plays "
                          "--hands rotated deals, and each bot gets a rating (points per seat-hand) with a 95%% "
                          "bootstrap interval; with --plot, a chart of the ratings")
    sim.add_argument("--backend", choices=["local", "ray"], default="local", help="where the chunks run")
    sim.add_argument("--address", default=None, help="the Ray cluster to join (backend ray; default: start one)")
    sim.add_argument("--claim-window", choices=["eligible", "all"], default="eligible",
                     help="ask only seats with a claim (fast, default) or every seat")
    sim.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                     help="write the result as JSON to FILE (or stdout)")
    sim.add_argument("--csv", nargs="?", const="-", default=None, metavar="FILE",
                     help="write the result as CSV (metric, seat, value, ci95_low, ci95_high) to FILE (or stdout)")
    sim.add_argument("--jsonl-logs", default=None, metavar="DIR",
                     help="write every hand's replayable log to DIR (a JSONL file per chunk; see hupai replay)")
    sim.add_argument("--plot", default=None, metavar="FILE.png",
                     help="plot the points distribution per seat and the pattern frequencies, and with --rotate "
                          "each bot's points per hand (needs the plot extra)")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal")
    serve_cmd = commands.add_parser("serve", help="the reference game server (needs the `server` extra)",
                                    description="Serve the browser table and the game API (see docs/server.md).",
                                    formatter_class=_DefaultsShown)
    serve_cmd.add_argument("--db", default="sqlite:///hupai.db",
                           help="where tables are stored: sqlite:///file.db or postgresql://user:pass@host/db")
    serve_cmd.add_argument("--host", default="127.0.0.1", help="the address to listen on (0.0.0.0: every one)")
    serve_cmd.add_argument("--port", type=_port, default=8000, help="the TCP port to listen on")
    serve_cmd.add_argument("--cluster", action="store_true",
                           help="share a PostgreSQL database's tables with other `hupai serve --cluster` processes "
                                "(see docs/server.md)")
    serve_cmd.add_argument("--advertise", default="", metavar="URL",
                           help="with --cluster: this process's address as the others reach it (default: "
                                "http://HOST:PORT)")
    limits = serve_cmd.add_argument_group("limits (per client address or per table; see docs/server.md)")
    limits.add_argument("--idle-minutes", type=float, default=60.0,
                        help="a table where no human seat acted for this long expires")
    limits.add_argument("--absent-seconds", type=float, default=20.0,
                        help="a seat no connection follows for this long is played by the server's bot")
    limits.add_argument("--max-connections", type=int, default=64,
                        help="WebSockets and waiting polls per address at once")
    limits.add_argument("--max-sockets", type=int, default=128,
                        help="TCP connections per address at once (more are closed as they arrive)")
    limits.add_argument("--header-seconds", type=float, default=10.0,
                        help="a connection whose request headers are not complete this long after it opened (or "
                             "after its last response) is closed")
    limits.add_argument("--max-tables-per-address", type=int, default=100, dest="max_live_tables",
                        help="live tables created by one address")
    limits.add_argument("--tables-per-window", type=int, default=30,
                        help="tables one address may create per 10 minutes")
    limits.add_argument("--max-bot-tables", type=int, default=3,
                        help="live tables without a human seat per address")
    limits.add_argument("--max-spectators", type=int, default=100,
                        help="spectator WebSockets per table at once")
    limits.add_argument("--http-rate", type=float, default=50.0,
                        help="requests (and WebSocket hellos) per second per address")
    limits.add_argument("--http-burst", type=float, default=100.0, help="... with this burst")
    replay = commands.add_parser("replay", help="step through a logged hand (from --jsonl-logs or Game.to_json)")
    replay.add_argument("log", help="a JSON log, or a JSONL file of logs (one per line)")
    replay.add_argument("--hand", type=_non_negative, default=0, help="the line of a JSONL file (default 0)")
    replay.add_argument("--seat", type=_non_negative, default=None, help="show only what this seat sees")
    replay.add_argument("--step", action="store_true", help="wait for Enter after each action (on a terminal)")
    replay.add_argument("--html", metavar="OUT", default=None,
                        help="write the hand as a self-contained HTML viewer to OUT (every hand face up, no seed)")
    return parser


def _run_analyze(args: argparse.Namespace) -> None:
    forms = args.forms
    tile_set: set[int] | None = None
    if args.rules is not None:
        from . import rules

        rule_system = rules.get(args.rules)
        if rule_system.family == "zipai":  # Wai Huzi cards, groups and 息 (rules/waihuzi/describe.py)
            from .rules.waihuzi.describe import analyze as analyze_zipai
            for hand in args.hands:
                analyze_zipai(hand, rule_system, args.win, args.source)
            return
        if rule_system.family != "mahjong":
            raise HupaiError(f"hupai analyze reads mahjong hands; {args.rules} is a {rule_system.family} game")
        forms = rule_system.win_forms if forms is None else forms
        tile_set = set(rule_system.tiles())
    if forms is None:
        forms = Forms.STANDARD | Forms.SEVEN_PAIRS | Forms.THIRTEEN_ORPHANS
    parsed_hands = []
    for written in args.hands:  # every hand checked before the first is printed: one error line, no partial output
        if tile_set is not None:
            every = to_counts(written.translate(_MELD_MARKS))  # the melds' tiles too
            outside = sorted({int(k) for k in np.flatnonzero(every)} - tile_set)
            if outside:
                raise HupaiError(f"{written}: {format_tiles(outside)} not in the {args.rules} tile set")
        # Melds written in brackets, or --melds in all, or inferred from the size (parse_hand).
        unwritten = None if args.melds is None else max(args.melds - sum(map(written.count, "[(")), 0)
        parsed_hands.append(parse_hand(written, jokers=args.jokers, implied=unwritten))
    for parsed in parsed_hands:
        analyze(format_tiles(list(parsed.concealed)), args.jokers, parsed.meld_count, forms,
                left_out_by="--forms leaves out" if args.forms is not None else
                f"{args.rules} has no" if args.rules is not None else None)


def _writable(path: str, what: str) -> None:
    """Refuse before any hand is played an output file that could not be written after the run."""
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise HupaiError(f"{what}: no directory {directory}")
    if os.path.isdir(path):
        raise HupaiError(f"{what}: {path} is a directory, not a file")
    if not os.access(path if os.path.exists(path) else directory, os.W_OK):
        raise HupaiError(f"{what}: cannot write {path}: permission denied")


def _write(path: str, what: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as error:
        raise HupaiError(f"{what}: cannot write {path}: {error.strerror or error}") from None


def _run_simulate(args: argparse.Namespace) -> int:
    from . import rules
    from .simulate import Progress, make_progress, simulate
    from .simulate.chunk import resolve_bots

    # Every check before the first hand, so that a mistake is one line and nothing else.
    rule_system = rules.get(args.rules, dict(args.option))
    if args.league is not None:
        return _run_league(args, rule_system)
    bots = resolve_bots((args.bots or "greedy").split(","), rule_system.num_players)
    if args.json == "-" and args.csv == "-":
        raise HupaiError("--json and --csv cannot both go to stdout: give one a file")
    for path, what in ((args.json, "--json"), (args.csv, "--csv"), (args.plot, "--plot")):
        if path not in (None, "-"):
            _writable(path, what)
    if args.plot is not None:
        from .simulate.plot import check_format

        check_format(args.plot)
    if args.backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise missing_extra("--backend ray (Ray)", "ray") from None

    bars: list[Progress] = []

    def progress(done: int, total: int) -> None:
        # The bar is made at the first chunk's arrival, after the worker processes started: tqdm runs a monitor
        # thread, and workers are forked only from a process without threads.
        if not bars:
            bars.append(make_progress(total, sys.stderr, f"{rule_system.name}: "))
        bars[0].update(done - bars[0].done)

    result = simulate(rule_system, hands=args.hands, bots=bots, seed=args.seed, workers=args.workers,
                      backend=args.backend, claim_window=args.claim_window, address=args.address,
                      log_dir=args.jsonl_logs, on_interrupt="return", progress=None if args.no_progress else progress,
                      rotate=args.rotate)
    for bar in bars:
        bar.close()
    machine_out = "-" in (args.json, args.csv)
    if not machine_out:
        print(result.summary())
    for path, what, text in ((args.json, "--json", result.to_json() if args.json else ""),
                             (args.csv, "--csv", result.to_csv() if args.csv else "")):
        if path == "-":
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
        elif path is not None:
            _write(path, what, text)
    if args.plot is not None:
        from .simulate.plot import plot

        plot(result, args.plot)
    if result.interrupted:
        print(f"hupai: interrupted after {result.hands:,} of {result.hands_planned:,} hands", file=sys.stderr)
        return 130
    return 0


def _run_league(args: argparse.Namespace, rule_system: Any) -> int:
    """``hupai simulate --league a,b,c``: the league's table (and JSON, and a chart of the ratings)."""
    from .simulate.league import league

    if args.bots is not None or args.rotate:
        raise HupaiError("--league plays its own rotated tables: give the bots to --league alone")
    for path, what in ((args.json, "--json"), (args.plot, "--plot")):
        if path not in (None, "-"):
            _writable(path, what)
    if args.plot is not None:
        from .simulate.plot import check_format

        check_format(args.plot)

    def progress(what: str) -> None:
        if not args.no_progress and sys.stderr.isatty():
            print(f"{rule_system.name}: {what}", file=sys.stderr)

    result = league(rule_system, args.league.split(","), deals=args.hands, seed=args.seed, workers=args.workers,
                    progress=progress)
    if args.json == "-":
        sys.stdout.write(result.to_json() + "\n")
    else:
        print(result.table())
        if args.json is not None:
            _write(args.json, "--json", result.to_json())
    if args.plot is not None:
        result.plot(args.plot)
    return 0


def _tile_namer(family: str) -> Any:
    if family == "mahjong":
        return kind_name
    from .zipai import cards

    return cards.card_name


def _hand_text(family: str, counts: list[int]) -> str:
    """A seat's concealed tiles (mahjong) or cards (zipai) from their counts."""
    held = np.array(counts, dtype=np.uint8)
    if family == "mahjong":
        return format_tiles(held)
    from .zipai import cards

    return cards.format_cards(held)


def _describe_event(event: Any, name: Any) -> str:
    def tile(value: int) -> str:
        try:
            return str(name(value))
        except HupaiError:  # not a tile: an end event's tiles field carries the payments
            return str(value)

    parts = [f"P{event.seat}" if event.seat >= 0 else "--", event.type]
    if event.tile >= 0:
        parts.append(tile(event.tile))
    if event.tiles:
        shown = [str(t) for t in event.tiles] if event.type == "end" else [tile(t) for t in event.tiles]
        parts.append(("[" if event.tile >= 0 else "") + " ".join(shown) + ("]" if event.tile >= 0 else ""))
    if event.info:
        parts.append(f"({event.info})")
    return " ".join(parts)


def _load_log(path: str, line: int) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as source:
            text = source.read()
    except OSError as error:
        raise HupaiError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise HupaiError(f"{path} is not UTF-8 text: byte 0x{error.object[error.start]:02x} at offset "
                         f"{error.start}") from None
    stripped = text.strip()
    lines = stripped.splitlines()
    if len(lines) > 1 and not stripped.startswith("{\n"):  # JSONL: one compact log per line
        if line >= len(lines):
            raise HupaiError(f"{path} holds {len(lines)} hands; --hand {line} is past the end")
        stripped = lines[line]
    elif line:
        raise HupaiError(f"{path} holds one hand; --hand {line} is past the end")
    try:
        data = json.loads(stripped)
    except ValueError as error:
        raise HupaiError(f"{path}: not a JSON log ({error})") from None
    if not isinstance(data, dict):
        raise HupaiError(f"{path}: a log is a JSON object")
    return data


def _run_replay(args: argparse.Namespace) -> None:
    from .game import Game

    log = _load_log(args.log, args.hand)
    if args.html is not None:
        from .viewer import replay_html

        page = replay_html([log], title=f"hupai replay: {Path(args.log).name}")
        try:
            Path(args.html).write_text(page, encoding="utf-8")
        except OSError as error:
            raise HupaiError(f"--html {args.html}: cannot write it ({error.strerror})") from None
        print(f"wrote {args.html}")
        return
    final = Game.replay(log)  # checks the whole log before anything is printed
    n = final.rules.num_players
    if args.seat is not None and args.seat >= n:
        raise HupaiError(f"--seat {args.seat}: the table has seats 0..{n - 1}")
    name = _tile_namer(final.rules.family)
    setup = log.get("setup", {})
    # A seat's view leaves the seed out: it fixes the wall, so it would show every other seat's tiles.
    seed = f"seed {setup.get('seed')}, " if args.seat is None else ""
    print(f"{final.rules.name}: {seed}dealer P{setup.get('dealer')}, "
          f"{len(log['actions'])} actions" + (f", as P{args.seat} sees it" if args.seat is not None else ""))
    interactive = args.step and sys.stdin.isatty()
    game = Game.replay(log, upto=0)
    shown = 0
    for index, action in enumerate([*log["actions"], None]):
        events = game.events if args.seat is None else game.visible_events(args.seat)
        for event in events[shown:]:
            print(f"  {_describe_event(event, name)}")
        shown = len(events)
        if action is None:
            break
        if args.seat is not None:
            print(f"      P{args.seat} holds {_hand_text(final.rules.family, game.hand(args.seat))}")
        if interactive and input(f"[{index}] Enter: next, q: quit ").strip().lower() == "q":
            return
        game.apply(action)
    result = final.result
    if result is not None:
        outcome = ("drawn" if result.drawn else
                   "; ".join(f"P{w.seat} wins {name(w.tile)} ({w.source}) {w.score.value}: "
                             f"{', '.join(w.score.pattern_names)}" for w in result.wins))
        print(f"result: {outcome}; payments {list(result.payments)}")


def _tolerant_streams() -> None:
    """Unencodable characters (Chinese on a Latin-1 or ASCII terminal) print as '?' instead of raising."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and (stream.encoding or "").lower().replace("-", "") != "utf8":
            stream.reconfigure(errors="replace")


def _quiet_stdout() -> None:
    """After a closed pipe: point stdout at /dev/null, so that the interpreter's last flush stays silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass  # not a real file (a test's capture): nothing will flush at exit


def _check_utf8(argv: Sequence[str]) -> None:
    """Every argument is text: bytes that are not UTF-8 reach Python as lone surrogates (``'\\udcff'`` for
    0xff), which no message should echo. The first one found is named by its byte."""
    for number, arg in enumerate(argv, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as error:
            code = ord(arg[error.start])
            what = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"character U+{code:04X}"
            shown = arg.encode("utf-8", "surrogateescape" if "byte" in what else "replace")
            raise HupaiError(f"argument {number} is not UTF-8 text: {what} at character {error.start + 1} "
                             f"(in '{shown.decode('utf-8', 'backslashreplace')}')") from None


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant_streams()
    status = 0
    try:
        _check_utf8(sys.argv[1:] if argv is None else argv)
        args = _build_parser().parse_args(argv)
        if args.command == "analyze":
            _run_analyze(args)
        elif args.command == "score":
            status = cli_score.run(args)
        elif args.command == "simulate":
            return _run_simulate(args)
        elif args.command == "replay":
            _run_replay(args)
        elif args.command == "serve":
            from .serve import run

            run(args.db, args.host, args.port, idle_minutes=args.idle_minutes, absent_seconds=args.absent_seconds,
                max_connections=args.max_connections, max_live_tables=args.max_live_tables,
                tables_per_window=args.tables_per_window, max_bot_tables=args.max_bot_tables,
                max_spectators=args.max_spectators, cluster=args.cluster, advertise=args.advertise,
                http_rate=args.http_rate, http_burst=args.http_burst, max_sockets=args.max_sockets,
                header_seconds=args.header_seconds)
        sys.stdout.flush()  # a closed pipe shows here, inside the handlers, not at exit
    except HupaiError as error:
        print(f"hupai: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("hupai: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 141  # what a process killed by SIGPIPE reports to the shell
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
