"""``EVBot``: GreedyBot's shape play with expected-value decisions (``"ev"`` in ``simulate`` and the CLI).

It sees only its seat's :class:`~hupai.observation.Observation`; what a rule system pays is its advice's to say
(:mod:`hupai.rules.base_advice`). Where it departs from GreedyBot:

- **A discard win or a self-draw.** A self-drawn win pays more than a discard win in most systems: each other
  seat pays one share in Guangdong against the discarder's one (GD-22, GD-23), both pay V in Kawuxing against the
  discarder's V (KW-25). Offered a discard win, it estimates the chance of drawing one of its winning tiles before
  the hand ends (the unseen copies of its waits among the tiles it has not seen, over its remaining draws, against
  the chance that another seat ends the hand first) and lets the win pass when the self-draw it expects, less
  what it risks meanwhile, is worth more (:meth:`EVBot.expects_more_from_own_draw`).
- **Discards.** The best discards by shanten and unseen improving tiles (as GreedyBot ranks them; where the
  advice says so, Guangdong's ``ranks_live_copies``, the copies counted on what the seat has not seen anywhere,
  its hand and every discard pile and meld, not on four less its hand's own, and short of ready a copy a pung or
  the seat before's chow could take counted more, the advice's ``claim_access``: :func:`_live_scores`), each
  discard's improving tiles weighed by what its hand is likely to pay where the advice can say
  (:meth:`~hupai.rules.base_advice.Advice.discard_values`: Guangdong's share doubles per 番, GD-16..18, so a
  discard that keeps a 中 pung or 混一色 in reach counts its tiles twice or four times), and among them the
  safest: a tile that a shown hand wins on (Kawuxing's 亮倒: its waits are read from the face-up hand) is never
  discarded while another discard keeps the same shanten, and far from ready (two or more from a win)
  it gives up a step of shanten rather than deal into a shown hand. Otherwise the danger of dealing in breaks
  ties: how many waiting shapes the tile could complete given the copies this seat has not seen, weighted by
  how ready each other seat looks (its melds, discards and concealed tiles).
- **Kongs** (Guangdong): GreedyBot never makes one. EVBot declares a 暗杠, and claims a 明杠 on a discard, whenever
  the hand keeps its shanten: the replacement is a free draw, and a self-draw on it is 杠上开花 (at least 3 番,
  GD-20). It adds a 补杠 only of an honor (all four copies are its own, so nobody can rob it; a robbed suit tile
  would cost three shares of at least 3 番, GD-27). The advice's ``worth_kong`` says which kong is worth it.
- **Danger ties** also read which kinds each other seat has let pass since it last moved: a seat offered a win takes
  it, so the last discards after its own are not among its waits.
- Claims and declarations (亮倒 with the discard it chose, 游金) are GreedyBot's. In Wai Huzi (each loser pays the
  same whoever discarded, WH-42, WH-44) it plays as GreedyBot but for five things: while its hand has made no group
  and is ready, it holds the cards it was ready with at the deal, so a win would be paid 报听's ×4 (WH-35, WH-38),
  and it declines every 吃, 碰, 歪, 溜 and 飘 that would forfeit it (the advice's ``holds_ready_bonus``); in a hand
  within two red cards of 火火翻's ten (eight or more), it keeps its red cards where the shape does not mind, for the
  ×2 per red card past nine (WH-35, the advice's ``for_ev``); further from ten it gives them up as GreedyBot does,
  and with one or two it gives them up where the shape does not mind, toward 一点红 (×4) and 黑胡子 (×8); in a
  hand that is not ready it takes a 飘 of three held cards on another seat's card, always 外元 (×2 on its win,
  WH-34), which GreedyBot declines for the 2 息 it costs; where GreedyBot takes a 溜 at once (of a 坎 and its
  self-drawn fourth, or of four held cards in place of a discard), it takes the 歪 of the same card instead where
  the hand that leaves is ready and worth more or, neither ready, closer to a win, and keeps the four and
  discards where that leaves a ready hand worth more (the advice's ``claims`` and ``keeps_four``: the 溜 takes
  three or four cards from the hand, where the 歪 and a discard let it give up its worst card); and offered
  several 碰 and 吃 of one card that the advice would take, it takes the one that leaves the best hand, where
  GreedyBot takes the first in the flow's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from operator import attrgetter, itemgetter
from typing import Any

from . import _core
from .actions import Action
from .bots import _UNSEEN, GreedyBot, _own_groups, _public_seen, _zipai_act, _zipai_advice
from .observation import Observation
from .rules.base_advice import ANY_KIND, Advice

__all__ = ["EVBot"]

_KIND = attrgetter("kind")
_TILE = attrgetter("tile")
_FIRST, _SHANTEN = itemgetter(0), itemgetter(1)

#: Danger of discarding into a hand whose waits are known (a shown hand): above any shape estimate or step of
#: offence but the last.
KNOWN_WAIT = 8.0


def _seen(observation: Observation) -> list[int]:
    """Copies of each kind this seat can see: its hand, every face-up meld, every discard, the tile on offer."""
    seen = list(observation.counts)
    for melds in observation.melds:
        for meld in melds:
            for tile in meld.tiles:
                seen[tile] += 1
    for pile in observation.discards:
        for tile in pile:
            seen[tile] += 1
    return seen


def _suit_ranks(ranks: range) -> int:
    return sum(1 << (suit * 9 + rank) for suit in range(3) for rank in ranks)


#: The suit kinds a run can reach from above (1-7: t+1 and t+2 held), around (2-8) and from below (3-9), as bit masks.
_RUN_UP, _RUN_AROUND, _RUN_DOWN = _suit_ranks(range(7)), _suit_ranks(range(1, 8)), _suit_ranks(range(2, 9))
_ALL_KINDS = (1 << 34) - 1


def _shown_masks(observation: Observation, cache: list[Any]) -> tuple[int, int, int, int]:
    """The kinds face up on the table (every discard pile and meld) once, twice, three and four times, as bit
    masks. ``cache`` (a list, the caller's, empty at first) keeps the last piles and melds read and their counts:
    from one turn to the next the piles grow by a few tiles, and only those are counted (a claim that takes a
    discard changes the melds, and then everything is counted again)."""
    piles, melds = observation.discards, observation.melds
    if cache:
        old_piles, old_melds, old_counted, old_masks = cache
        if old_piles is piles and old_melds is melds:
            masks: tuple[int, int, int, int] = old_masks
            return masks
        if old_melds is melds and len(old_piles) == len(piles):
            counted = bytearray(old_counted)
            grown = list(old_masks)
            for pile, old in zip(piles, old_piles, strict=True):
                if pile is old:
                    continue
                size = len(old)
                if len(pile) < size or pile[:size] != old:
                    break
                for tile in pile[size:]:
                    count = counted[tile]
                    bit = 1 << tile
                    if count:
                        grown[count - 1] &= ~bit
                    grown[count] |= bit
                    counted[tile] = count + 1
            else:
                masks = (grown[0], grown[1], grown[2], grown[3])
                cache[:] = [piles, melds, counted, masks]
                return masks
    counted = bytearray(34)
    for pile in piles:
        for tile in pile:
            counted[tile] += 1
    for seat_melds in melds:
        for meld in seat_melds:
            for tile in meld.tiles:
                counted[tile] += 1
    counts = [0, 0, 0, 0, 0]
    for kind, count in enumerate(counted):
        if count:
            counts[count] |= 1 << kind
    masks = (counts[1], counts[2], counts[3], counts[4])
    cache[:] = [piles, melds, counted, masks]
    return masks


def _live_scores(observation: Observation, advice: Advice, discards: Sequence[Action],
                 cache: list[Any] | None = None) -> list[float]:
    """Per discard, the core's score (-256 x shanten + improving copies) with the copies counted on what the seat
    has not seen anywhere: four of each improving kind less the hand's own and those face up on the table (every
    discard pile and meld). The core counts four less the hand's own: a wait whose copies lie in the discard piles
    looks as good to it as a live one. ``cache``: :func:`_shown_masks`'s, kept by the caller from turn to turn. A
    discard further from a win than the best is scored by its shanten alone (-256 x shanten): it is never chosen.

    Short of ready, an improving tile may also come by a claim (the advice's ``claim_access``): a kind the hand
    holds a pair of by a pung on any other seat's discard, a kind that completes a run with two held tiles by a
    chow on the seat before's. Such copies count ``1 + pung`` or ``1 + chow`` times (both, for a kind that is
    either), scaled by ``1 / (1 + pung + chow)`` so that a count stays below the next shanten's 256."""
    once, twice, thrice, four = _shown_masks(observation, [] if cache is None else cache)
    options = _core.discard_analysis(observation.counts, 0, len(observation.melds[observation.seat]),
                                     int(advice.forms), ANY_KIND)
    pung, chow = advice.claim_access
    shanten = list(map(_SHANTEN, options))
    best = min(shanten)
    scores: dict[int, float] = {}
    if not (best and (pung or chow) and shanten.count(best) > 1):  # ready, or one best discard: no weighing
        for kind, after, improving, copies in options:
            # A discard further from a win than the best is never chosen: its shanten alone scores it.
            scores[kind] = -256 * after if after != best else -256 * after + copies - (
                (improving & once).bit_count() + 2 * (improving & twice).bit_count()
                + 3 * (improving & thrice).bit_count() + 4 * (improving & four).bit_count())
        return list(map(scores.__getitem__, map(_TILE, discards)))
    counts = observation.counts
    own = [0, 0, 0, 0, 0]  # the kinds held once..four times: the options are one per kind held
    for kind in map(_FIRST, options):
        own[counts[kind]] |= 1 << kind
    _, held_one, held_two, held_three, held_four = own
    held = held_one | held_two | held_three | held_four
    pairs = held_two | held_three | held_four
    # The copies out of sight per kind, 4 - held - shown, as three bit masks (bit-sliced binary digits: a set of
    # kinds' live copies is then three popcounts): held + shown summed digit by digit, then 4 less it.
    own_0, own_1 = held_one | held_three, held_two | held_three
    shown_0, shown_1 = once | thrice, twice | thrice
    sum_0, carry = own_0 ^ shown_0, own_0 & shown_0
    sum_1 = own_1 ^ shown_1 ^ carry
    sum_2 = held_four | four | own_1 & shown_1 | carry & (own_1 ^ shown_1)
    live_1, live_2, live_4 = sum_0, sum_0 ^ sum_1, _ALL_KINDS & ~(sum_0 | sum_1 | sum_2)
    scale = 1.0 / (1.0 + pung + chow)
    for kind, after, improving, _copies in options:
        if after != best:
            scores[kind] = -256 * after
            continue
        bit = 1 << kind
        count = counts[kind]
        kept = held & ~bit if count == 1 else held  # what the hand holds after this discard
        runs = ((kept >> 1 & kept >> 2 & _RUN_UP) | (kept << 1 & kept >> 1 & _RUN_AROUND)
                | (kept << 1 & kept << 2 & _RUN_DOWN)) & improving
        paired = (pairs & ~bit if count == 2 else pairs) & improving
        # Each improving copy once, and again ``pung`` or ``chow`` times where a claim could take it.
        total = float((improving & live_1).bit_count() + 2 * (improving & live_2).bit_count()
                      + 4 * (improving & live_4).bit_count())
        if paired:
            total += pung * ((paired & live_1).bit_count() + 2 * (paired & live_2).bit_count()
                             + 4 * (paired & live_4).bit_count())
        if runs:
            total += chow * ((runs & live_1).bit_count() + 2 * (runs & live_2).bit_count()
                             + 4 * (runs & live_4).bit_count())
        scores[kind] = -256 * after + scale * total
    return list(map(scores.__getitem__, map(_TILE, discards)))


def _shape_danger(kind: int, unseen: Sequence[int]) -> float:
    """How many waiting shapes the discard of ``kind`` could complete, each weighted by what is left of it."""
    danger = 0.0
    if unseen[kind] >= 2:  # a pair wait (双碰) on it needs two copies in the other hand
        danger += 0.6
    if unseen[kind] >= 1:  # a single wait (单钓)
        danger += 0.3
    if kind < 27:
        low = kind - kind % 9
        for a, b in ((kind - 2, kind - 1), (kind - 1, kind + 1), (kind + 1, kind + 2)):
            if a >= low and b < low + 9 and unseen[a] and unseen[b]:
                danger += min(unseen[a], unseen[b]) / 4
    return danger


def _passed(observation: Observation) -> list[frozenset[int]]:
    """Per seat, the kinds it has let pass since its hand last changed: a seat offered a win takes it, so a
    discard it did not win on is not among its waits (until it draws again). Read, on this seat's own draw from
    the wall, from the last discard of each seat that moved after it; empty otherwise."""
    n = observation.num_players
    out = [frozenset[int]()] * n
    if observation.drawn_from != "wall":
        return out
    seat = observation.seat
    piles = observation.discards
    for step in range(1, n - 1):  # the seat after this one, then the next...: the last moves before this draw
        other = (seat + step) % n
        out[other] = frozenset(piles[(seat + later) % n][-1] for later in range(step + 1, n)
                               if piles[(seat + later) % n])
    return out


def _readiness(observation: Observation, other: int) -> float:
    """A rough chance that ``other`` is ready, from what everyone sees of it."""
    chance = 0.04 + 0.12 * len(observation.melds[other]) + 0.035 * len(observation.discards[other])
    if observation.hand_sizes[other] <= 4:
        chance += 0.3
    return min(chance, 0.95)


class EVBot(GreedyBot):
    """GreedyBot's shape play with expected-value decisions (see the module docstring). ``hazard``: the chance
    per go-around that another seat ends the hand before any looks ready (it grows with their readiness)."""

    def __init__(self, seed: int = 0, hazard: float = 0.05) -> None:
        super().__init__(seed)
        self.hazard = hazard
        self._shown: list[Any] = []  # the face-up tiles last counted (_shown_masks)

    def act(self, observation: Observation, seat: int | None = None) -> Action:
        if seat is not None:  # a deprecated call: GreedyBot's
            return super().act(observation, seat)
        if len(observation.counts) != 34:  # a zipai seat (Wai Huzi)
            return self._zipai_play(observation)
        phase = observation.phase
        legal = observation.legal_actions
        if phase == "claim" or phase == "rob":
            if any(a.kind == "win" for a in legal) and self.expects_more_from_own_draw(observation):
                return next(a for a in legal if a.kind == "pass")
            chosen = super().act(observation)
            if chosen.kind == "pass" and any(a.kind == "kong" for a in legal):  # a pung it takes lowers its shanten
                kong = self._advice_of(observation).worth_kong(observation, [a for a in legal if a.kind == "kong"])
                if kong is not None:
                    return kong
            return chosen
        kinds = list(map(_KIND, legal))  # one C-level pass: this runs at every turn
        if phase != "turn" or "win" in kinds:
            return super().act(observation)  # a win on offer, or a declaration before the draw: GreedyBot's
        if "kong" in kinds:
            kong = self._advice_of(observation).worth_kong(observation, [a for a in legal if a.kind == "kong"])
            if kong is not None:
                return kong
        # Most turns offer plain discards alone: then they are the legal actions as they stand (as GreedyBot reads
        # them).
        discards = (list(legal) if kinds.count("discard") == len(kinds) and not legal[-1].flag
                    else [a for a in legal if a.kind == "discard" and not a.flag])
        if len(discards) < 2:
            return super().act(observation)
        advice = self._advice_of(observation)
        premium = advice.premium_discards(observation)
        if premium:
            return super().act(observation)  # a discard worth more than a win (Yunxiao's 游 shape)
        chosen = self._discard(observation, advice, discards)
        return advice.declare(observation, chosen) if len(discards) < len(legal) else chosen

    def _zipai_play(self, observation: Observation) -> Action:
        """GreedyBot's zipai play, but a claim is declined while the hand keeps a ×4 bonus that any group would
        forfeit (Wai Huzi's 报听: the advice's ``holds_ready_bonus``), and the rule package's advice for expected
        value (``for_ev``) answers claims and discards, and may keep four held cards that GreedyBot declares as a
        溜 at a turn (its ``keeps_four``)."""
        advice = _zipai_advice(self._zipai, observation)
        legal = observation.legal_actions
        kinds = [a.kind for a in legal]
        if "pass" in kinds and "win" not in kinds and len(kinds) > 1 and not observation.melds[observation.seat]:
            holds = getattr(advice, "holds_ready_bonus", None)
            if holds is not None and holds(bytes(observation.counts)):
                return legal[kinds.index("pass")]
        # The rule package's own choice of discard for expected value, where it has one (Wai Huzi's red cards).
        for_ev = getattr(advice, "for_ev", None)
        playing = for_ev() if for_ev is not None else advice
        if observation.phase == "turn" and "liu" in kinds and "discard" in kinds:
            # GreedyBot declares the first 溜 or 飘 on offer at once; of a 溜 of four held cards, the advice may rather
            # keep them and discard.
            liu = next(a for a in legal if a.kind != "discard")
            keeps_four = getattr(playing, "keeps_four", None)
            if liu.kind == "liu" and keeps_four is not None and self._keeps_four(observation, liu, keeps_four):
                observation = replace(observation, legal_actions=tuple(a for a in legal if a.kind == "discard"))
        return _zipai_act(observation, playing)

    @staticmethod
    def _keeps_four(observation: Observation, liu: Action, keeps_four: Any) -> bool:
        """The advice's ``keeps_four`` asked of this seat's hand, its groups, the cards it may not discard (locked:
        the held kinds no discard is offered for) and the copies it has not seen."""
        seat = observation.seat
        counts = bytes(observation.counts)
        allowed = {a.tile for a in observation.legal_actions if a.kind == "discard"}
        forbidden = [card for card, held in enumerate(counts) if held and card not in allowed]
        seen = bytearray(counts)
        for card, shown in enumerate(_public_seen(observation.melds, observation.discards)):
            seen[card] += shown
        unseen = bytes(seen).translate(_UNSEEN)
        groups = _own_groups(seat, observation.melds[seat])
        return bool(keeps_four(counts, liu.tile, groups, forbidden, unseen))

    def _advice_of(self, observation: Observation) -> Advice:
        return self._advice.get(observation.rules) or self._advice_for(observation.rules)

    def expects_more_from_own_draw(self, observation: Observation) -> bool:
        """Whether letting this discard win pass for a self-draw is worth more than taking it."""
        advice = self._advice_of(observation)
        ratio = advice.self_draw_ratio(observation)
        if ratio <= 1.0:
            return False
        counts = bytearray(observation.counts)
        waits = advice.winning_kinds(observation, counts)
        if not waits:
            return False
        unseen = [max(0, 4 - count) for count in _seen(observation)]  # the tile on offer lies in its pile
        live = sum(unseen[kind] for kind in waits)
        hidden = sum(unseen)
        draws = observation.wall_left // observation.num_players
        if live == 0 or hidden == 0 or draws <= 0:
            return False
        per_draw = min(1.0, live / hidden)
        # The chance per go-around that another seat ends the hand: the base hazard, and more as the other seats
        # look readier (a seat that is ready when this one is wins about a quarter of its go-arounds).
        readiness = sum(_readiness(observation, other) for other in range(observation.num_players)
                        if other != observation.seat)
        hazard = min(0.9, self.hazard + 0.25 * readiness)
        keep = (1.0 - per_draw) * (1.0 - hazard)  # neither this seat wins nor another ends the hand
        self_draw = per_draw / (1.0 - keep) * (1.0 - keep ** draws)
        other_win = hazard / (1.0 - keep) * (1.0 - keep ** draws)
        # In discard-win shares: a self-draw pays `ratio`; another seat's win costs a share about half the time.
        return self_draw * ratio - 0.5 * other_win > 1.0

    def _discard(self, observation: Observation, advice: Advice, discards: list[Action]) -> Action:
        core_ranked = type(advice).rank_discards is Advice.rank_discards
        scores: Sequence[float]
        if core_ranked and advice.ranks_live_copies:
            scores = _live_scores(observation, advice, discards, self._shown)
        else:
            scores = advice.rank_discards(observation, discards)
        if core_ranked:
            shanten = [-int(score // 256) for score in scores]  # the core's copies - 256 x shanten
        else:
            shanten = [-int(score) for score in scores]  # the advice's own ranking: -shanten
        best = min(shanten)
        if shanten.count(best) > 1 and core_ranked:
            scores = self._weigh(observation, advice, discards, scores, shanten, best)
        top = max(scores)
        known = advice.known_waits(observation)
        tied = [i for i, score in enumerate(scores) if score == top]
        if len(tied) == 1 and not known:
            return discards[tied[0]]  # one best discard and no shown hand to keep out of: the common case
        seat = observation.seat
        unseen = [max(0, 4 - count) for count in _seen(observation)]
        passed = _passed(observation)
        threats = [(known.get(other), 1.0 if other in known else _readiness(observation, other), passed[other])
                   for other in range(observation.num_players) if other != seat]
        dangers: dict[int, float] = {}
        values = []
        for action, score, steps in zip(discards, scores, shanten, strict=True):
            kind = action.tile
            known_risk = sum(KNOWN_WAIT for waits, _, _ in threats if waits is not None and kind in waits)
            if steps == best:
                offence = 0.0
            elif steps == best + 1 and best >= 2 and known_risk == 0.0:
                offence = -KNOWN_WAIT + 1.0  # a step back is worth it only to stay out of a shown hand
            else:
                offence = -100.0 * (steps - best)
            if offence - known_risk < 0.0 or score != top:
                values.append((offence - known_risk, float(score), 0.0))
                continue
            danger = dangers.get(kind)
            if danger is None:
                shape = _shape_danger(kind, unseen)
                danger = dangers[kind] = sum(chance * shape for waits, chance, let_pass in threats
                                             if waits is None and kind not in let_pass)
            # Offence first (shanten, then improving copies), the known waits over a step back when far, and the
            # shape danger only to break what is left of a tie.
            values.append((offence - known_risk, score, -danger))
        return discards[values.index(max(values))]

    @staticmethod
    def _weigh(observation: Observation, advice: Advice, discards: list[Action], scores: Sequence[float],
               shanten: list[int], best: int) -> list[float]:
        """The core's scores with each best-shanten discard's improving copies weighed by what its hand is likely
        to pay (the advice's :meth:`~hupai.rules.base_advice.Advice.discard_values`)."""
        at_best = [i for i, steps in enumerate(shanten) if steps == best]
        values = advice.discard_values(observation, [discards[i] for i in at_best])
        weighed: list[float] = list(map(float, scores))
        if values is None:
            return weighed
        for i, value in zip(at_best, values, strict=True):
            weighed[i] = -256.0 * best + (scores[i] + 256 * best) * value
        return weighed

