"""The Wai Huzi deal (WH-4, WH-5) for the zipai flow (:mod:`hupai.game.zipai.flow`): who is dealt which cards of the
wall, the card shown for the 神, and stacked walls for tests and examples.

The wall deals the dealer cards 0..19, its 下家 20..38 and the third seat 39..57; the 22 left are the stock.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from ...errors import HupaiError
from ...zipai import ALL_CARDS, format_cards

__all__ = ["SIZES", "DEALT", "deal_order", "stacked_cards", "shown_for_shen"]

SIZES = (20, 19, 19)  # WH-4: the dealer's deal first, then its 下家's, then the third seat's
DEALT = sum(SIZES)


def deal_order(dealer: int) -> tuple[int, int, int]:
    """The seats in the order they are dealt (WH-4): the dealer, its 下家, the third."""
    return (dealer, (dealer + 1) % 3, (dealer + 2) % 3)


def shown_for_shen(dealer: int, seed: int, at_random: bool) -> tuple[int, int]:
    """The wall index of the card shown for the 神 (WH-5) and the seat it is dealt to: the dealer's last dealt
    card, or with the house rule ``shen_shown="random"`` any dealt card, drawn from the game's seed (its own
    stream: the wall's shuffle does not see it, and a replay shows the same card)."""
    if not at_random:
        return SIZES[0] - 1, dealer
    index = random.Random(f"hupai-shen-{seed}").randrange(DEALT)
    return index, deal_order(dealer)[(index >= SIZES[0]) + (index >= SIZES[0] + SIZES[1])]


def stacked_cards(hands: Sequence[Sequence[int]], stock: Sequence[int] = (), dealer: int = 0) -> list[int]:
    """An 80-card wall that deals ``hands`` (per seat; the dealer's 20, its last card the one shown for 神) and
    turns up ``stock`` first; the other cards follow in kind order. For tests and examples: ``Game("waihuzi",
    wall=stacked_cards(...))``."""
    left = Counter(ALL_CARDS)
    used = Counter([c for hand in hands for c in hand]) + Counter(stock)
    short = sorted(k for k, count in used.items() if count > left[k])
    if short:
        raise HupaiError(f"a stacked wall uses more than four of {format_cards(short)}")
    for seat, size in zip(deal_order(dealer), SIZES, strict=True):
        if len(hands[seat]) != size:
            raise HupaiError(f"seat {seat} is dealt {size} cards, got {len(hands[seat])}")
    left.subtract(used)
    head = [c for seat in deal_order(dealer) for c in hands[seat]]
    return head + list(stock) + sorted(left.elements())
