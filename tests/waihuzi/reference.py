"""A slow, obviously-correct reading of Wai Huzi layouts and their score (waihuzi.md WH-7..9, WH-28..37, WH-41).

It shares nothing with the C++ core: groups are listed straight from the spec's definitions, splits are every
multiset of triples that fits the cards with a valid 2-card unit left over, and each rule is transcribed as
written. Only for tests.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations

RED = frozenset({1, 6, 9, 11, 16, 19})  # WH-2: 2, 7, 10 of both sizes
SAME_CARD_DECLARED = {"wai", "peng", "liu", "piao"}
DECLARED_XI = {"wai": 4, "liu": 4, "peng": 1, "piao": 1}  # WH-9


def runs() -> list[tuple[int, int, int]]:
    """WH-7: three consecutive values of one size, or 二七十 of one size."""
    out = []
    for base in (0, 10):
        out += [(base + v, base + v + 1, base + v + 2) for v in range(8)]
        out.append((base + 1, base + 6, base + 9))
    return out


RUNS = runs()
TRIPLES = [("triplet", (k, k, k)) for k in range(20)] + [("run", run) for run in RUNS]
# WH-8: two different cards of one size that are two cards of some run.
MENZI = sorted({pair for run in RUNS for pair in combinations(run, 2)})


def is_two_seven_ten(cards: tuple[int, ...]) -> bool:
    return all(card % 10 in (1, 6, 9) for card in cards)


@dataclass(frozen=True)
class RefDeclared:
    kind: str                   # wai / peng / liu / piao / chi
    cards: tuple[int, ...]
    external: int | None        # the card taken from another player


@dataclass(frozen=True)
class RefLayout:
    parts: tuple[tuple[str, tuple[int, ...]], ...]  # hand parts, sorted: (label, cards)
    xi: int
    score: int
    mingtang: frozenset[str]


def hand_part_xi(label: str, cards: tuple[int, ...], source: str | None) -> int:
    """WH-29, WH-30."""
    if label == "kan":
        return 3
    if label in ("win_triplet", "win_pair"):
        return 4 if source == "self" else 1
    if label == "pair":
        return 1
    return 1 if is_two_seven_ten(cards) else 0  # run or 门子


def splits(cards: Counter[int]) -> list[list[tuple[str, tuple[int, ...]]]]:
    """Every multiset of triples plus one unit that uses exactly ``cards``."""
    total = sum(cards.values())
    assert total % 3 == 2
    needed = (total - 2) // 3
    found: list[list[tuple[str, tuple[int, ...]]]] = []

    def choose(start: int, left: Counter[int], chosen: list[tuple[str, tuple[int, ...]]]) -> None:
        if len(chosen) == needed:
            rest = tuple(sorted(left.elements()))
            if len(rest) == 2 and rest[0] == rest[1]:
                found.append([*chosen, ("pair", rest)])
            elif rest in MENZI:
                found.append([*chosen, ("menzi", rest)])
            return
        for index in range(start, len(TRIPLES)):
            label, group = TRIPLES[index]
            need = Counter(group)
            if all(left[card] >= n for card, n in need.items()):
                choose(index, left - need, [*chosen, (label, group)])

    choose(0, Counter(cards), [])
    return found


def layouts(hand: list[int], declared: list[RefDeclared], win_card: int | None, source: str | None,
            strict: bool = False, daxiaozihu: bool = True, extra: bool = False) -> list[RefLayout]:
    """Every distinct layout (split and place of the winning card, WH-31), scored."""
    cards = Counter(hand)
    if win_card is not None:
        cards[win_card] += 1
    out: dict[tuple[tuple[str, tuple[int, ...]], ...], RefLayout] = {}
    for split in splits(cards):
        options = [split]
        if win_card is not None:
            options = []
            for i, (label, group) in enumerate(split):
                if win_card in group:
                    placed = list(split)
                    if label == "triplet":
                        placed[i] = ("win_triplet", group)
                    elif label == "pair":
                        placed[i] = ("win_pair", group)
                    options.append(placed)
        for option in options:
            parts = tuple(sorted(("kan" if label == "triplet" else label, group) for label, group in option))
            out[parts] = score(parts, hand, declared, win_card, source, strict, daxiaozihu, extra)
    return list(out.values())


def score(parts: tuple[tuple[str, tuple[int, ...]], ...], hand: list[int], declared: list[RefDeclared],
          win_card: int | None, source: str | None, strict: bool, daxiaozihu: bool, extra: bool) -> RefLayout:
    """WH-33: 底息 × 名堂 × 内元 × 外元, the 名堂 of WH-35..37 and WH-41 that the cards and layout decide."""
    xi = sum(DECLARED_XI.get(d.kind, 1 if is_two_seven_ten(d.cards) else 0) for d in declared)
    xi += sum(hand_part_xi(label, group, source) for label, group in parts)

    all_cards = list(hand) + [card for d in declared for card in d.cards]
    if win_card is not None:
        all_cards.append(win_card)
    reds = sum(1 for card in all_cards if card in RED)

    # units: (is a same-card group, is a pair, 息, cards, is a run)
    units = [(d.kind in SAME_CARD_DECLARED, False, DECLARED_XI.get(d.kind, 1 if is_two_seven_ten(d.cards) else 0),
              d.cards, d.kind == "chi") for d in declared]
    for label, group in parts:
        units.append((label in ("kan", "win_triplet"), label in ("pair", "win_pair"),
                      hand_part_xi(label, group, source), group, label == "run"))
    groups = [u for u in units if len(u[3]) != 2]
    unit = [u for u in units if len(u[3]) == 2]
    assert len(unit) == 1

    names: set[str] = set()
    factor = 1
    duizi = all(g[0] for g in groups) and unit[0][1]
    xingxing = all(u[2] > 0 for u in units) and not (strict and any(u[4] for u in units))
    if duizi and reds == 0:
        names.add("黑对子胡")
        factor *= 32
    else:
        if duizi:
            names.add("对子息")
            factor *= 8
        if reds == 0:
            names.add("黑胡子")
            factor *= 8
    if xingxing and not duizi:
        names.add("行行息")
        factor *= 4
    if reds == 1:
        names.add("一点红")
        factor *= 4
    if reds >= 10:
        names.add("火火翻")
        factor *= 2 ** (reds - 9)
    if daxiaozihu and all(card >= 10 for card in all_cards):
        names.add("大字胡")
        factor *= 8
    if daxiaozihu and all(card < 10 for card in all_cards):
        names.add("小字胡")
        factor *= 8
    if extra:
        all_red = [u for u in units if all(card in RED for card in u[3])]
        elsewhere = reds - sum(len(u[3]) for u in all_red)
        if len(all_red) == 1 and elsewhere == 0:
            names.add("单漂")
            factor *= 2
        if len(all_red) == 2 and elsewhere == 0:
            names.add("双漂")
            factor *= 2
        if len(all_red) == 1 and elsewhere == 1:
            names.add("印")
            factor *= 2
        if all(any(card in RED for card in u[3]) for u in units):
            names.add("花胡子")
            factor *= 64

    # WH-34: a value with all four copies in the layout is a 元; 外元 if any copy came from another player.
    external = {d.external for d in declared if d.external is not None}
    if win_card is not None and source == "other":
        external.add(win_card)
    counts = Counter(all_cards)
    for card, count in counts.items():
        if count == 4:
            factor *= 2 if card in external else 4
    return RefLayout(parts, xi, xi * factor, frozenset(names))


def best(all_layouts: list[RefLayout], min_huxi: int) -> RefLayout | None:
    """WH-31/32: the highest score among layouts with enough 息, then the most 息."""
    qualifying = [layout for layout in all_layouts if layout.xi >= min_huxi]
    if not qualifying:
        return None
    return max(qualifying, key=lambda layout: (layout.score, layout.xi))
