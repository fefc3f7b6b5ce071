"""Tampered snapshots and logs: the mutations ``test_state_fuzz.py`` applies, and a tally for reports.

Real snapshots and logs come from seeded games (both rule systems, every phase: turns, claim and rob windows,
pre-draw declarations, finished hands). A mutation changes, deletes or duplicates a field, swaps a value's
type, moves tiles between places (some moves keep every count right and contradict only the log), truncates,
nests deeply, writes huge numbers, or sets wrong seats and phases.

Run as a script to tally outcomes by exception type (issue 9's "inputs tried, outcomes by type")::

    .venv/bin/python tests/fuzz/statefuzz.py --inputs 3000
"""

from __future__ import annotations

import argparse
import copy
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

PHASES = ["turn", "claim", "rob", "predraw", "over", "", "TURN", "draw"]
VALUES: list[Any] = [
    -1, 0, 1, 2, 3, 4, 5, 7, 13, 33, 34, 35, 135, 136, 137, 2**31, 2**63, 2**64, -(2**70), 10**30,
    True, False, 0.0, 1.0, 0.5, float("nan"), float("inf"), "", "x", "turn", "claim", "discard", "pass",
    None, [], {}, [0], [[]], {"x": 1}, [0] * 34, list(range(34)),
]
DEEP = 10_000


def deep(depth: int = DEEP) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def _nodes(root: Any) -> list[tuple[Any, ...]]:
    """Every path below ``root`` (explicit stack: the data may already be deep)."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if len(path) > 30:
            continue
        if isinstance(node, dict):
            for key, sub in node.items():
                out.append((*path, key))
                stack.append((sub, (*path, key)))
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                out.append((*path, i))
                stack.append((sub, (*path, i)))
    return out


def _parent(root: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        root = root[key]
    return root


def _get(root: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        root = root[key]
    return root


def _swap_type(value: Any, rng: random.Random) -> Any:
    options: list[Callable[[Any], Any]] = [
        lambda v: str(v) if isinstance(v, (int, float, str)) else "[]",
        lambda v: [v], lambda v: {"v": v}, lambda v: None,
        lambda v: float(v) if isinstance(v, (int, float)) else 1.5,
        lambda v: bool(v) if isinstance(v, int) else True,
        lambda v: tuple(v) if isinstance(v, list) else (v,),
    ]
    return rng.choice(options)(value)


def _tile_move(data: dict[str, Any], rng: random.Random) -> None:
    """Move or swap tiles between hands, piles and the wall's live range (counts often stay right)."""
    table = data.get("table")
    if not isinstance(table, dict):
        return
    if isinstance(table.get("state"), list):
        _compact_tile_move(table, rng)
        return
    hands, piles, wall = table.get("hands"), table.get("discards"), table.get("wall")
    try:
        how = rng.randrange(5)
        a, b = rng.randrange(len(hands)), rng.randrange(len(hands))
        if how == 0:  # one tile from a hand to another hand (or the same hand, another kind)
            k = rng.choice([k for k in range(34) if hands[a][k]])
            hands[a][k] -= 1
            hands[b][rng.randrange(34)] += 1
        elif how == 1:  # swap a held tile with one in the wall's live range: every count stays right
            tiles, head, tail = wall
            i = rng.randrange(head, tail)
            k = rng.choice([k for k in range(34) if hands[a][k]])
            hands[a][k] -= 1
            hands[a][tiles[i]] += 1
            tiles[i] = k
        elif how == 2:  # swap two seats' hands
            hands[a], hands[b] = hands[b], hands[a]
        elif how == 3:  # a discard back into a hand, or a held tile onto a pile
            if piles[a] and rng.random() < 0.5:
                hands[b][piles[a].pop()] += 1
            else:
                k = rng.choice([k for k in range(34) if hands[a][k]])
                hands[a][k] -= 1
                piles[b].append(k)
        else:  # move the wall's head or tail
            wall[rng.choice([1, 2])] += rng.choice([-2, -1, 1, 2])
    except (TypeError, ValueError, IndexError, KeyError, AttributeError):
        pass  # an earlier mutation broke the shape this one needs


_CHARS = "0123456789abcdefghijklmnopqrstuvwx"  # a format-2 table's tiles and counts (hupai.game.state.compact)


def _compact_tile_move(table: dict[str, Any], rng: random.Random) -> None:
    """:func:`_tile_move` on a format-2 table: its hands are count strings, its piles tile strings."""
    try:
        hands = [list(hand) for hand in table["hands"]]
        piles = [list(pile) for pile in table["discards"]]
        how = rng.randrange(4)
        a, b = rng.randrange(len(hands)), rng.randrange(len(hands))
        held = [k for k in range(len(hands[a])) if hands[a][k] != "0"]  # 34 kinds, or Wai Huzi's 20 cards
        if how == 0:  # one tile from a hand to another hand (or the same hand, another kind)
            k, other = rng.choice(held), rng.randrange(len(hands[b]))
            hands[a][k] = _CHARS[_CHARS.index(hands[a][k]) - 1]
            hands[b][other] = _CHARS[_CHARS.index(hands[b][other]) + 1]
        elif how == 1:  # swap two seats' hands
            hands[a], hands[b] = hands[b], hands[a]
        elif how == 2:  # a discard back into a hand, or a held tile onto a pile
            if piles[a] and rng.random() < 0.5:
                k = _CHARS.index(piles[a].pop())
                hands[b][k] = _CHARS[_CHARS.index(hands[b][k]) + 1]
            else:
                k = rng.choice(held)
                hands[a][k] = _CHARS[_CHARS.index(hands[a][k]) - 1]
                piles[b].append(_CHARS[k])
        elif "head" in table:  # a Wai Huzi table: move the wall's head
            table["head"] += rng.choice([-2, -1, 1, 2])
        else:  # move the wall's head or tail
            table["wall"][rng.choice([0, 1])] += rng.choice([-2, -1, 1, 2])
        table["hands"] = ["".join(hand) for hand in hands]
        table["discards"] = ["".join(pile) for pile in piles]
    except (TypeError, ValueError, IndexError, KeyError, AttributeError):
        pass  # an earlier mutation broke the shape this one needs


def mutate(data: dict[str, Any], rng: random.Random) -> str:
    """Apply one random mutation to ``data`` in place; returns its name."""
    op = rng.choice(["replace", "replace", "delta", "delete", "duplicate", "swap_type", "tiles", "tiles",
                     "truncate", "nest", "huge", "phase", "seat", "format", "unknown_key"])
    if op == "tiles":
        _tile_move(data, rng)
        return op
    if op == "format":
        tag = data["format"] if isinstance(data.get("format"), str) else ""
        data["format"] = rng.choice([tag + "x", "hupai-game-snapshot/2", "hupai-game-log/0", None, 1,
                                     "hupai-game-log/1", "hupai-game-snapshot/1", "hupai-game-snapshot/3"])
        return op
    if op in ("phase", "seat"):
        target = data.get("table") if isinstance(data.get("table"), dict) else data
        key = "phase" if op == "phase" else rng.choice(["turn_seat", "discarder", "kong_seat", "dealer", "n",
                                                        "kong_from", "first_dealer"])
        target[key] = rng.choice(PHASES) if op == "phase" else rng.choice([-1, 0, 1, 2, 3, 4, 7, True])
        return op
    nodes = _nodes(data)
    if rng.random() < 0.5 and isinstance(data.get("table"), dict):  # favour the table's small fields
        key = rng.choice(list(data["table"]))
        nodes = [p for p in nodes if p[:2] == ("table", key)] or nodes
    path = rng.choice(nodes)
    parent, last = _parent(data, path), path[-1]
    value = parent[last]
    if op == "replace":
        parent[last] = copy.deepcopy(rng.choice(VALUES))
    elif op == "delta" and isinstance(value, int) and not isinstance(value, bool):
        parent[last] = value + rng.choice([-136, -34, -2, -1, 1, 2, 34, 136])
    elif op == "delete":
        del parent[last]
    elif op == "duplicate" and isinstance(parent, list):
        parent.insert(last, value)  # shared, not copied: it may be nested too deep to copy
    elif op == "unknown_key" and isinstance(parent, dict):
        parent["zz_" + str(last)] = 0
    elif op == "swap_type":
        parent[last] = _swap_type(value, rng)
    elif op == "truncate":
        target = value if isinstance(value, list) else parent if isinstance(parent, list) else None
        if target:
            del target[rng.randrange(len(target)):]
    elif op == "nest":
        parent[last] = deep()
    elif op == "huge":
        parent[last] = rng.choice([10**rng.randrange(19, 400), -(10**rng.randrange(19, 400)), 2**64, -(2**63) - 1])
    else:
        parent[last] = None
    return op


def sample_states(count: int = 40) -> tuple[list[str], list[str]]:
    """Snapshots and logs (JSON text) of seeded games of both mahjong systems and Wai Huzi and both claim windows:
    snapshots taken in every phase that occurs (a few per system, window and phase), logs of finished and
    unfinished hands."""
    from hupai.bots import GreedyBot, RandomBot
    from hupai.game import Game

    snapshots: list[str] = []
    logs: list[str] = []
    taken: Counter[tuple[str, str, str]] = Counter()
    for index in range(count):
        system = ("guangdong", "yunxiao")[index % 2]
        window = ("all", "eligible")[index // 2 % 2]
        rng = random.Random(index)
        game = Game(system, seed=1000 + index, dealer=index % 4, claim_window=window)
        bots = [GreedyBot(index * 4 + s) if rng.random() < 0.6 else RandomBot(index * 4 + s) for s in range(4)]
        stop = rng.randrange(20, 80)
        while True:
            key = (system, window, game.table.phase)
            if taken[key] < 3 and rng.random() < 0.3:
                taken[key] += 1
                snapshots.append(json.dumps(game.snapshot()))
            if len(game.actions) == stop:
                logs.append(game.to_json())
            if game.over:
                break
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
        logs.append(game.to_json())
    for index in range(count // 4):  # Wai Huzi (3 seats; its compact table, hupai.game.zipai.codec)
        window = ("all", "eligible")[index % 2]
        rng = random.Random(index)
        game = Game("waihuzi", seed=2000 + index, dealer=index % 3, claim_window=window)
        bots = [GreedyBot(index * 3 + s) if rng.random() < 0.5 else RandomBot(index * 3 + s) for s in range(3)]
        while True:
            key = ("waihuzi", window, game.table.phase)
            if taken[key] < 4 and rng.random() < 0.2:
                taken[key] += 1
                snapshots.append(json.dumps(game.snapshot()))
            if game.over:
                break
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
        logs.append(game.to_json())
    for game in _scripted_windows():
        snapshots.append(json.dumps(game.snapshot()))
        logs.append(game.to_json())
    return snapshots, logs


def _scripted_windows() -> list[Any]:
    """The rare phases, set up by hand: a rob window (GD-E13, both claim windows) and a Yunxiao pre-draw
    declaration (YX-E4's 抢金 offer)."""
    from hupai.game import Action
    from hupai.game.scripted import answer, discard, discard_drawn, stacked_game
    from hupai.rules.yunxiao import YunxiaoRules
    from hupai.tiles import parse

    out = []
    hands = ["7m1z2z3z4z5z6z7z9p9s1s2p8p3s", "56m111p234s888s9p4z", "77m1z2z3z4z5z6z7z1p4p7p2s", ""]
    for window in ("all", "eligible"):
        game = stacked_game(hands, draws="9m9m9p7m", claim_window=window)
        discard(game, "7m", then_pass=False)
        answer(game, P2=Action("pung", 2, parse("7m")[0]))
        discard(game, "1z")
        discard_drawn(game, 2)
        discard(game, "4z")
        game.apply(Action("kong", 2, parse("7m")[0], (), "added"))
        out.append(game)
    for window in ("all", "eligible"):
        game = stacked_game(["", "", "123m456m789p111z5p", ""], draws="6z9s7z6z3p9s", replacements="5p",
                            rules=YunxiaoRules(), claim_window=window)
        for _ in range(20):  # to P2's 抢金 offer; with claim_window="all" every seat gets a pre-draw window
            if game.table.phase == "predraw" and game.table.turn_seat == 2:
                break
            seat = game.seats_to_act[0]
            if game.table.phase == "predraw":
                game.apply(Action("pass", seat))
            else:
                discard_drawn(game, 1)
        out.append(game)
    return out


def _agrees(data: Any, game: Any, what: str) -> bool:
    """Does a loaded snapshot (log) say what its own setup and actions give? Checked by replaying them."""
    from hupai.game import Game

    try:
        if what == "log":
            full = game.log()
            return all(data[key] == full[key] for key in ("events", "result") if key in data)
        log = {"format": "hupai-game-log/1", "rules": data["rules"], "options": data["options"],
               "setup": data["setup"], "events": [], "result": None,
               "actions": [{"kind": a[0], "seat": a[1], **({"tile": a[2]} if a[2] >= 0 else {}),
                            **({"tiles": a[3]} if a[3] else {}), **({"flag": a[4]} if a[4] else {})}
                           for a in data["actions"]]}
        log.pop("events")
        log.pop("result")
        past = Game.replay(log)
        mine = past.table.to_json() if data.get("format") == "hupai-game-snapshot/1" else past.snapshot()["table"]
        return json.dumps(mine, sort_keys=True) == json.dumps(data["table"], sort_keys=True)
    except Exception:  # noqa: BLE001 (anything wrong with it is a disagreement)
        return False


def tally(inputs: int, seed: int = 0, what: str = "snapshot", verify: bool = False) -> Counter[str]:
    """Load ``inputs`` tampered snapshots (or logs) and count the outcomes by kind."""
    import hupai
    from hupai.bots import RandomBot
    from hupai.game import Game, play

    rng = random.Random(seed)
    snapshots, logs = sample_states()
    bases = [json.dumps(json.loads(text), sort_keys=True) for text in (snapshots if what == "snapshot" else logs)]
    outcomes: Counter[str] = Counter()
    for _ in range(inputs):
        base = rng.choice(bases)
        data = json.loads(base)
        for _ in range(rng.choice([1, 1, 2, 3])):
            mutate(data, rng)
        try:
            unchanged = json.dumps(data, sort_keys=True) == base
        except (ValueError, RecursionError):
            unchanged = False
        try:
            if what == "log":
                game = Game.replay(data)
            else:
                game = Game.from_snapshot(data, verify=True) if verify else Game.from_snapshot(data)
        except hupai.HupaiError as error:
            outcomes[f"refused: {type(error).__name__}"] += 1
            continue
        except Exception as error:  # noqa: BLE001 (the tally is of exactly these)
            outcomes[f"CRASH on load: {type(error).__name__}"] += 1
            continue
        if unchanged:
            kind = "loaded: unchanged by the mutation"
        elif _agrees(data, game, what):
            kind = "loaded: changed, still what its setup and actions give"
        else:
            kind = "loaded SILENTLY: contradicts its own log"
        try:
            play(game, [RandomBot(s) for s in range(game.rules.num_players)])
            game.to_json()
            outcomes[f"{kind}; played on"] += 1
        except hupai.HupaiError as error:
            outcomes[f"{kind}; later refused: {type(error).__name__}"] += 1
        except Exception as error:  # noqa: BLE001
            outcomes[f"{kind}; CRASH later: {type(error).__name__}"] += 1
    return outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description="tally outcomes of tampered snapshots and logs")
    parser.add_argument("--inputs", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--verify", action="store_true", help="restore snapshots with verify=True")
    args = parser.parse_args()
    for what in ("snapshot", "log"):
        outcomes = tally(args.inputs, args.seed, what, args.verify)
        mode = " (verify=True)" if args.verify and what == "snapshot" else ""
        print(f"{what}s: {args.inputs} tampered inputs{mode}")
        for name, count in sorted(outcomes.items()):
            print(f"  {count:6d}  {name}")


if __name__ == "__main__":
    main()
