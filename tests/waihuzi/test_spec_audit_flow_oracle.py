"""An independent reading of WH-12..27 and WH-32: random hands played step by step while this file keeps its own
臭牌 / 锁牌 / 死手 bookkeeping from the spec text and predicts, before every decision, exactly which actions each
seat must be offered. It shares no code with the flow (only the hands and groups, which are plain state, are read
from the table; the bans, locks and 死手 are this file's own)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hupai import zipai
from hupai.actions import Action
from hupai.bots import GreedyBot
from hupai.game import Game
from hupai.game.state.zipai import menzi_triples
from hupai.zipai import Declared

from .flow_helpers import bits

RANK = {"liu": 3, "piao": 3, "wai": 3, "win": 2, "pung": 1, "chow": 0}  # WH-17
RUNS = [tuple(b + n for n in (a, a + 1, a + 2)) for b in (0, 10) for a in range(8)] + [(1, 6, 9), (11, 16, 19)]


def completers(a: int, b: int) -> set[int]:
    """The cards completing the 门子 a b (WH-8)."""
    return {c for run in RUNS if a in run and b in run and a != b for c in run if c not in (a, b)}


class Book:
    """The spec's per-seat sets (WH-21..27), kept from the actions alone."""

    def __init__(self) -> None:
        self.chi: list[set[int]] = [set(), set(), set()]
        self.peng: list[set[int]] = [set(), set(), set()]
        self.menzi: list[set[tuple[int, int, int]]] = [set(), set(), set()]
        self.locked: list[set[int]] = [set(), set(), set()]
        self.dead = [False, False, False]


def declared(seat: int, table: Any) -> list[Declared]:
    out = []
    for g in table.groups[seat]:
        if g.type == "chi":
            out.append(Declared.chi(list(g.cards), g.taken, own_draw=g.source == seat))
        else:
            out.append({"wai": Declared.wai, "peng": Declared.peng, "liu": Declared.liu,
                        "piao": Declared.piao}[g.type](g.cards[0]))
    return out


def held_list(hand: Any) -> list[int]:
    return [c for c in range(20) for _ in range(hand[c])]


def keeps_discard(hand: Any, book: Book, seat: int, taken: tuple[int, ...], locks: set[int]) -> bool:
    """WH-18: after the group, some hand card is neither locked nor gone."""
    left = list(hand)
    for c in taken:
        left[c] -= 1
    return any(n and c not in book.locked[seat] and c not in locks for c, n in enumerate(left))


def offer_options(g: Game, book: Book, card: int, source: int, drawn: bool) -> dict[int, set[tuple]]:
    """WH-14, WH-15, WH-18, WH-19, WH-22, WH-23, WH-27, WH-32: what each seat may do with the offered card."""
    table: Any = g.table
    order = [source, (source + 1) % 3, (source + 2) % 3] if drawn else [(source + 1) % 3, (source + 2) % 3]
    out: dict[int, set[tuple]] = {}
    for seat in order:
        opts: set[tuple] = set()
        if book.dead[seat]:
            out[seat] = opts
            continue
        hand = table.hands[seat]
        held = hand[card]
        own = drawn and seat == source
        groups = table.groups[seat]
        if own:
            if held == 3 or any(gr.type == "wai" and gr.cards[0] == card for gr in groups):
                opts.add(("liu", card))
            if held >= 2 and keeps_discard(hand, book, seat, (card, card), set()):
                opts.add(("wai", card))
            if any(gr.type == "peng" and gr.cards[0] == card for gr in groups):
                opts.add(("piao", card))
        else:
            if held == 3:
                opts.add(("piao", card))
            if held >= 2 and keeps_discard(hand, book, seat, (card, card), set()):
                opts.add(("pung", card))
        if (own or seat == (source + 1) % 3) and card not in book.chi[seat]:
            for run in RUNS:
                if card not in run:
                    continue
                a, b = (c for c in run if c != card)
                if hand[a] and hand[b] and (a, b, card) not in book.menzi[seat]:
                    locks = {card} | (completers(a, b) - {card})
                    if keeps_discard(hand, book, seat, (a, b), locks):
                        opts.add(("chow", card, run))
        if zipai.best_split(held_list(hand), declared(seat, table), card, "self" if own else "other") is not None:
            opts.add(("win", card))
        out[seat] = opts
    # WH-19 does not take wins away here: whether the drawer could 溜 or 歪 the 海底 card is its hidden hand, so
    # the others are offered their wins and the block acts when the answers are in (haidi_blocked).
    return out


def haidi_blocked(g: Game, expected: dict[int, set[tuple]], source: int, drawn: bool) -> bool:
    """WH-19: the offered card is the 海底 card and its drawer could 溜 or 歪 it: nobody wins on it."""
    last = drawn and g.table.wall.head == len(g.table.wall.tiles)
    return bool(last and {k for k, *_ in expected.get(source, ())} & {"liu", "wai"})


def ready(hand: Any, groups: list[Declared]) -> bool:
    """WH-38: some card completes a winning layout, from some source."""
    cards = held_list(hand)
    used = [0] * 20
    for c in cards + [c for g in groups for c in g.cards]:
        used[c] += 1
    return any(zipai.best_split(cards, groups, c, source) is not None
               for c in range(20) if used[c] < 4 for source in ("self", "other"))


def key(action: Action) -> tuple:
    if action.kind == "chow":
        return ("chow", action.tile, tuple(action.tiles))
    return (action.kind, action.tile)


def after_discard(book: Book, seat: int, card: int, hand: Any) -> None:
    """WH-21: the card, and the far completer of every 门子 left in the hand that it would complete."""
    book.chi[seat].add(card)
    book.peng[seat].add(card)
    for run in RUNS:
        if card in run:
            a, b = (c for c in run if c != card)
            if hand[a] and hand[b]:
                book.chi[seat] |= completers(a, b) - {card}


def play_one(seed: int, rng: np.random.Generator, window: str = "all") -> int:
    """One hand; each choice is a GreedyBot's (so that wins occur) or, one time in three, a random legal one."""
    g = Game("waihuzi", seed=seed, dealer=seed % 3, claim_window=window)
    bots = [GreedyBot(seed * 3 + s) for s in range(3)]

    def pick(seat: int, legal: tuple[Action, ...]) -> Action:
        if rng.random() < 0.33:
            return legal[int(rng.integers(0, len(legal)))]
        return bots[seat].act(g.observation(seat))

    table: Any = g.table
    book = Book()
    checked = 0
    dealer = table.dealer
    # WH-38: a non-dealer's 报听 moment is its deal; the dealer's is right after its first move
    ready_at = [None if s == dealer else ready(table.hands[s], []) for s in range(3)]
    grouped = [False, False, False]
    first_move = True
    earthly_card = False  # the offered card is the dealer's first discard, made as its first move
    while not g.over:
        if g.current.phase == "turn":
            seat = g.current.seats[0]
            hand = table.hands[seat]
            heavenly = first_move and zipai.best_split(held_list(hand), [], None, None) is not None  # WH-40
            assert any(a.flag == "tianhu" for a in g.legal_actions(seat)) == heavenly
            expected = {("discard", c) for c in range(20) if hand[c] and c not in book.locked[seat]}
            if not book.dead[seat]:
                expected |= {("liu", c) for c in range(20) if hand[c] == 4}
                expected |= {("piao", gr.cards[0]) for gr in table.groups[seat] if gr.type == "peng"
                             and hand[gr.cards[0]]}
            legal = g.legal_actions(seat)
            got = {key(a) for a in legal if not (a.kind == "win" and a.flag == "tianhu")}
            assert got == expected, (seed, seat, got ^ expected)
            choice = pick(seat, legal)
            if choice.kind == "discard":
                after = bytearray(hand)
                after[choice.tile] -= 1
                after_discard(book, seat, choice.tile, after)
            elif choice.kind in ("liu", "piao") and not first_move:
                grouped[seat] = True
            opening, first_move = first_move, False
            g.apply(choice)
            if opening and choice.kind != "win":
                ready_at[dealer] = ready(table.hands[dealer], declared(dealer, table))
                earthly_card = choice.kind == "discard"
            if choice.kind == "win":
                check_win(g, seat, None, heavenly=True, earthly=False, last=False, ready_flag=False)
            checked += 1
            continue
        card, source = g.current.tile, g.current.source
        drawn = table.offer_kind == "draw"
        expected = offer_options(g, book, card, source, drawn)
        answers: dict[int, Action] = {seat: Action("pass", seat) for seat in expected}
        assert {s for s, opts in expected.items() if opts} <= set(g.current.seats)
        for seat in g.current.seats:
            legal = g.legal_actions(seat)
            got = {key(a) for a in legal if a.kind != "pass"}
            assert got == expected.get(seat, set()), (seed, seat, card, got ^ expected.get(seat, set()))
            answers[seat] = pick(seat, legal)
        checked += 1
        order = [source, (source + 1) % 3, (source + 2) % 3] if drawn else [(source + 1) % 3, (source + 2) % 3]
        taken = None
        no_wins = haidi_blocked(g, expected, source, drawn)
        for seat in order:  # WH-17
            a = answers.get(seat)
            if (a is not None and a.kind != "pass" and not (no_wins and a.kind == "win")
                    and (taken is None or RANK[a.kind] > RANK[taken.kind])):
                taken = a
        bar = -1 if taken is None else RANK[taken.kind]
        for seat, opts in expected.items():  # WH-23..25
            chosen = answers[seat].kind
            chows = [o for o in opts if o[0] == "chow"]
            if chows and chosen != "chow" and RANK["chow"] > bar:
                book.chi[seat].add(card)
                for _, _, run in chows:
                    a, b = (c for c in run if c != card)
                    book.menzi[seat] |= {(a, b, x) for x in completers(a, b) - {card}}
            pengs = [RANK[o[0]] for o in opts if o[0] in ("pung", "wai")]
            if pengs and chosen not in ("pung", "wai") and max(pengs) > bar:
                book.peng[seat].add(card)
        if taken is not None and taken.kind == "chow":  # WH-26
            a, b = (c for c in taken.tiles if c != card)
            book.locked[taken.seat] |= {card} | (completers(a, b) - {card})
        if taken is not None and taken.kind in ("pung", "wai") and card in book.peng[taken.seat]:
            book.dead[taken.seat] = True  # WH-27
        if taken is not None and taken.kind not in ("win",):
            grouped[taken.seat] = True
        last = drawn and table.wall.head == len(table.wall.tiles)
        earthly, earthly_card = earthly_card and not drawn, False
        for seat in g.current.seats:
            g.apply(answers[seat])
        if taken is not None and taken.kind == "win":
            own = drawn and taken.seat == source
            check_win(g, taken.seat, None if own else source, heavenly=False,
                      earthly=earthly and taken.seat != dealer, last=last,
                      ready_flag=bool(ready_at[taken.seat]) and not grouped[taken.seat])
    assert g.result is not None  # WH-6, WH-46: the winner deals next; after 黄庄 the 海底 drawer, nobody pays
    if g.result.winners:
        assert g.result.next_dealer == g.result.winners[0]
    else:
        turned = [e.seat for e in g.events if e.type == "turn_up"]
        assert len(turned) == 22  # WH-4, WH-20: the whole stock turned up
        haidi = turned[-1]
        assert (g.result.next_dealer, g.result.payments, table.wall.head) == (haidi, (0, 0, 0), 80)
    for seat in range(3):
        assert bits(table.chi_ban[seat]) == book.chi[seat] and bits(table.peng_ban[seat]) == book.peng[seat]
        assert set(menzi_triples(table.menzi_ban[seat])) == book.menzi[seat]
        assert bits(table.locked[seat]) == book.locked[seat]
        assert bool(table.dead >> seat & 1) == book.dead[seat]
    return checked


def check_win(g: Game, seat: int, discarder: int | None, *, heavenly: bool, earthly: bool, last: bool,
              ready_flag: bool) -> None:
    """The facts a win is scored with (WH-32, WH-35, WH-38..40) and the 神腰 card (WH-39)."""
    table: Any = g.table
    assert g.result is not None and g.result.winners == (seat,)
    ctx = g.result.wins[0].context
    tiles = table.wall.tiles
    shen_card = tiles[table.wall.head] if table.wall.head < len(tiles) else tiles[-1]
    assert (ctx.discarder, ctx.heavenly, ctx.earthly, ctx.last_tile, ctx.ready_from_deal, ctx.shen_card) == (
        discarder, heavenly, earthly, last, ready_flag, shen_card)
    value = g.result.wins[0].score.value
    assert g.result.payments == tuple(2 * value if s == seat else -value for s in range(3))  # WH-42


@pytest.mark.rule("WH-12", "WH-14", "WH-15", "WH-17", "WH-18", "WH-19", "WH-21", "WH-22", "WH-23", "WH-24",
                  "WH-25", "WH-26", "WH-27", "WH-32")
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("window", ["all", "eligible"])
def test_random_hands_offer_exactly_what_the_spec_allows(seed: int, window: str) -> None:
    rng = np.random.default_rng(seed)
    decisions = sum(play_one(100 * seed + hand, rng, window) for hand in range(10))
    assert decisions > 150
