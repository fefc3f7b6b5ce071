"""Sampled worlds: games dealt from what one seat can see, for search and Monte Carlo play (``SearchBot``).

:func:`sample` reads an :class:`~hupai.observation.Observation` and nothing else. It deals the tiles the seat
cannot see (the other seats' concealed tiles, the wall's order; Wai Huzi's stock) at random among the deals
that agree with everything the observation shows, and returns a :class:`~hupai.game.Game` in the observed
state that plays on under the rules (``claim_window="eligible"``, the simulations' setting). The same
observation and seed give the same world, whatever the true game behind the observation was.

What a world keeps as observed: the seat's own tiles (and its drawn tile), every seat's hand size, melds and
discard pile, the live wall's size, the phase, the seats to act and the tile in question, and the rule
system's public facts (``extras``: Yunxiao's gold and 游 levels, Kawuxing's 亮倒 flags and shown hands, Wai
Huzi's 神 and 死手 flags) and the seat's private ones (Wai Huzi's bans and locks). Rule facts that constrain the
hidden tiles are dealt to hold:

- **Yunxiao**: the gold indicator lies at the wall's end while it has not been robbed (YX-6); a chow recorded
  with the gold's kind holds a 白板 (YX-7); a seat at a 游 level holds a hand in 游 shape (the gold and complete
  melds, YX-25, YX-26); another seat's face-down concealed kong is of a kind with four unseen copies.
- **Kawuxing**: a 亮倒 hand is shown (KW-16): its tiles are the shown ones, only a drawn tile on top is dealt.
- **Wai Huzi**: a 歪 or 溜 shows one card and holds three or four of it (WH-9).
- **Claim windows**: the seats still to answer must have a claim; deals where one has none are dealt again
  (rejection, so the deals kept are uniform among those that agree), up to a bound, then its window holds a
  lone ``pass``. Seats that answered already are taken to have passed (their answers are not shown).

Two parts are constructed rather than dealt, close to but not exactly uniform among the deals that agree: a
face-down kong's kind (uniform among the kinds that fit) and a 游 hand (the gold, then melds drawn one at a time).

Hidden facts that no observation shows are set to what the seat can assume: nobody's 漏胡 block (GD-11), no
bans or locks for other Wai Huzi seats, the melds made in turn order. A Wai Huzi seat with no group still holds
its dealt hand (the dealer: less its opening discard), so its 报听 (WH-38) is whether that hand is ready.

:func:`fork` copies a game for one rollout: the one place search copies a game (the table's fields are copied,
the flow's derived state is rebuilt from them by its ``restore``). It costs a tenth to a third of a millisecond,
8-25 times less than a snapshot and restore; once the table is plain arrays it becomes an array copy.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from . import _core
from . import rules as rules_module
from .actions import ACTIONS, Action
from .belief import WorldWeights
from .errors import HupaiError
from .game import Game
from .game.game import _flow_for
from .game.mahjong.claims import collect as collect_claims
from .game.mahjong.claims import standard_options
from .game.state.table import READY_UNKNOWN, Table
from .game.state.wall import Wall
from .game.state.zipai import MENZI_BIT, NONE, Group, ZipaiTable, card_mask
from .hand import Meld
from .observation import Observation, thaw
from .rules.base import Rules

__all__ = ["sample", "fork", "unseen_counts", "rules_of"]

#: How many deals a claim window is dealt again before its seats to act get a lone pass.
REDEALS = 64
_WHITE = 31  # 白板 (YX-7)


def rules_of(observation: Observation, cache: dict[Any, Rules] | None = None) -> Rules:
    """The rules object the observation's table plays (its name and options are public), built once per
    ``cache``."""
    key = (observation.rules, tuple(sorted((k, repr(v)) for k, v in observation.options.items())))
    if cache is not None and key in cache:
        return cache[key]
    rules = rules_module.get(observation.rules, thaw(observation.options))
    if cache is not None:
        cache[key] = rules
    return rules


def sample(observation: Observation, seed: int | random.Random, *, rules: Rules | None = None,
           weights: WorldWeights | None = None) -> Game:
    """A game dealt at random among the deals consistent with ``observation`` (module docstring), in its state.
    ``seed``: an int or a ``random.Random`` to draw from. ``weights``: deal each other seat's hidden hand from
    several candidates in proportion to how well it explains that seat's play, or at a level drawn from real
    hands' (:class:`hupai.belief.MatchedWorlds`) (:mod:`hupai.belief`; the deal still agrees with the
    observation); None (the default) deals uniformly. Raises :class:`~hupai.HupaiError`
    for an observation of a finished hand (nothing is left to play)."""
    if observation.phase == "over":
        raise HupaiError("a finished hand has no world to sample: nothing is left to play")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    if rules is None:
        rules = rules_of(observation)
    if weights is not None and not weights.weighs(observation):
        weights = None
    if rules.family == "zipai":
        return _zipai_world(observation, rules, rng, weights)
    return _mahjong_world(observation, rules, rng, weights)


# -- copying ------------------------------------------------------------------------------------------------

def _copy(value: Any) -> Any:
    """A copy of a table field: mutable containers copied all the way down, immutable values shared."""
    kind = type(value)
    if kind is list:
        return [_copy(item) for item in value]
    if kind is bytearray:
        return bytearray(value)
    if kind is dict:
        return {key: _copy(item) for key, item in value.items()}
    if kind is set:
        return set(value)
    if kind is Wall:
        return value.copy()
    return value  # ints, strs, tuples, Melds, Groups, Actions: immutable


def fork(game: Game) -> Game:
    """An independent copy of ``game`` that plays on exactly as it would (its history left behind: the copy's
    events and log start here). The one place search copies a game: the table's fields are copied, the flow's
    derived state rebuilt from them."""
    table = game.table
    copied: Any = object.__new__(type(table))
    for name in type(table).__slots__:
        if name in ("_views", "views"):
            continue
        setattr(copied, name, _copy(getattr(table, name)))
    return _game_on(game.rules, game.setup, copied, game._flow)


def _game_on(rules: Rules, setup: Mapping[str, Any], table: Any, like: Any = None) -> Game:
    """A game whose flow runs on ``table`` (no history before it)."""
    if isinstance(table, ZipaiTable):
        table.views = [np.frombuffer(hand, dtype=np.uint8) for hand in table.hands]
    else:
        table._views = None
    game = Game.__new__(Game)
    game.rules = rules
    game.setup = dict(setup)
    flow: Any = _flow_for(rules, "eligible")
    flow.restore(table)
    if like is not None and hasattr(like, "_dealer_discarded"):
        flow._dealer_discarded = like._dealer_discarded  # the zipai flow's own fact (WH-35's house rule)
    game._flow = flow
    game._prefix = []
    game._actions = []
    game._event_prefix = None
    game._legal = {}
    return game


# -- what is unseen -----------------------------------------------------------------------------------------

def unseen_counts(observation: Observation, rules: Rules | None = None) -> list[int]:
    """Copies of each kind the seat cannot see (in other hands, in the wall, under face-down kongs)."""
    if rules is None:
        rules = rules_of(observation)
    pool = [0] * len(observation.counts)
    for tile in rules.tiles():
        pool[tile] += 1
    for kind, count in enumerate(observation.counts):
        pool[kind] -= count
    for seat_melds in observation.melds:
        for meld in seat_melds:
            for tile in _meld_cards(meld, rules.family):
                pool[tile] -= 1
    for pile in observation.discards:
        for tile in pile:
            pool[tile] -= 1
    extras = observation.extras
    if rules.family == "zipai":
        if observation.phase == "claim" and observation.tile >= 0:
            pool[observation.tile] -= 1  # the offered card lies face up, in no pile yet
        return pool
    for tile in rules.set_aside(extras):
        pool[tile] -= 1
    stand_in = rules.stand_in(extras)
    if stand_in is not None:  # YX-7: a chow recorded with the gold's kind holds a 白板
        recorded, physical = stand_in
        for seat_melds in observation.melds:
            for meld in seat_melds:
                if meld.type == "chow" and recorded in meld.tiles:
                    pool[recorded] += 1
                    pool[physical] -= 1
    revealed = extras.get("revealed")
    if revealed:
        for seat, tiles in enumerate(revealed):
            if seat != observation.seat:
                for tile in tiles:
                    pool[tile] -= 1
    if any(count < 0 for count in pool):
        raise HupaiError("the observation shows more copies of a tile than the set holds")
    return pool


def _meld_cards(meld: Any, family: str) -> tuple[int, ...]:
    if family == "zipai" and meld.type in ("wai", "liu"):
        return (meld.tiles[0],) * (3 if meld.type == "wai" else 4)  # WH-9: one card shows, all are that card
    return tuple(meld.tiles)


def _deal(pool: list[int], rng: random.Random) -> list[int]:
    """The pool's tiles in a uniformly random order."""
    tiles = [kind for kind, count in enumerate(pool) for _ in range(count)]
    rng.shuffle(tiles)
    return tiles


def _weighed_hand(obs: Observation, other: int, hand: bytearray, pool: list[int], need: int,
                  rng: random.Random, weights: WorldWeights, unseen: Sequence[int]) -> None:
    """Deal ``need`` of the pool's tiles into ``hand`` (seat ``other``'s, empty so far): ``weights.candidates``
    uniform deals, one kept in proportion to its weight (importance resampling, :mod:`hupai.belief`).

    The candidates are dealt as one array: each is the ``need`` tiles with the smallest of random keys, a uniform
    subset, from a numpy generator seeded from ``rng`` (so the same seed deals the same world). Dealt one by one
    with ``random.sample`` they were nearly half of a weighted search's time."""
    width = len(pool)
    tiles = np.repeat(np.arange(width, dtype=np.intp), pool)
    if not 0 < need <= len(tiles):
        raise HupaiError(f"seat {other} holds {need} hidden tiles, but {len(tiles)} are unseen")
    count = weights.candidates
    generator = np.random.Generator(np.random.PCG64(rng.getrandbits(64)))
    keys = generator.random((count, len(tiles)))
    dealt = tiles[np.argpartition(keys, need - 1, axis=1)[:, :need]]
    dealt += np.arange(count, dtype=np.intp)[:, None] * width  # a tile's index in the flat table of rows
    rows = np.bincount(dealt.ravel(), minlength=count * width).reshape(count, width).astype(np.uint8)
    rows += np.frombuffer(bytes(hand), dtype=np.uint8)
    hand[:] = weights.keep(obs, other, rows, pool, rng, unseen).tobytes()
    for kind, held in enumerate(hand):
        pool[kind] -= held


# -- mahjong ------------------------------------------------------------------------------------------------

def _mahjong_world(obs: Observation, rules: Rules, rng: random.Random, weights: WorldWeights | None) -> Game:
    n = obs.num_players
    seat = obs.seat
    extras = thaw(obs.extras)
    base_pool = unseen_counts(obs, rules)
    unseen = tuple(base_pool)  # what the seat cannot see, before the worlds' own choices
    # Another seat's face-down kong: a kind with four unseen copies, chosen first.
    melds: list[list[Meld]] = []
    for other, seat_melds in enumerate(obs.melds):
        built = []
        for view in seat_melds:
            if view.hidden:
                kinds = [k for k, c in enumerate(base_pool) if c >= 4]
                if not kinds:
                    raise HupaiError(f"seat {other}'s face-down kong has no kind with four unseen copies")
                kind = rng.choice(kinds)
                base_pool[kind] -= 4
                built.append(Meld("kong", (kind,) * 4, concealed=True))
            else:
                built.append(view.to_meld())
        melds.append(built)
    sizes = obs.hand_sizes
    revealed = extras.get("revealed") or [[] for _ in range(n)]
    gold = extras.get("gold")
    you = extras.get("you") or [0] * n
    # 游 seats are dealt first (the others in seat order, as before), so that no seat dealt freely takes the golds
    # they must hold (YX-25).
    order = sorted((other for other in range(n) if other != seat), key=lambda other: not you[other])
    asked = _you_asked(obs, gold, you, melds) if gold is not None else []
    table = None
    for _ in range(REDEALS):
        pool = list(base_pool)
        hands: list[bytearray] = [bytearray(34) for _ in range(n)]
        hands[seat][:] = obs.counts
        for other in order:
            hand = hands[other]
            known = list(revealed[other]) if other < len(revealed) else []  # counted out of the pool already
            if obs.phase == "rob" and other == obs.source:  # the kong being robbed: its tile (four if no pung)
                pung = any(m.type == "pung" and m.tiles[0] == obs.tile for m in melds[other])
                for _ in range(1 if pung else 4):
                    pool[obs.tile] -= 1
                    known.append(obs.tile)
            for tile in known:
                hand[tile] += 1
            need = sizes[other] - len(known)
            if not known and gold is not None and you[other] and need >= 1:
                _you_shape(hand, pool, need, gold, rng)
                need = 0
            elif weights is not None and not known and need > 0:
                _weighed_hand(obs, other, hand, pool, need, rng, weights, unseen)
                need = 0
            for tile in _deal(pool, rng)[:need]:
                hand[tile] += 1
                pool[tile] -= 1
        if asked and not _you_levels_hold(asked, gold, hands):
            continue  # a 游 seat out of shape, or a seat at level 0 in it: dealt again (rejection, as the claim
            # window below; if every deal fails, the last is kept)
        table = _mahjong_table(obs, rules, extras, hands, melds, pool, rng)
        if table is not None:
            break
    if table is None:
        table = _mahjong_table(obs, rules, extras, hands, melds, pool, rng, force=True)
    assert table is not None
    wall = table.wall.tiles
    setup = {"seed": 0, "dealer": obs.dealer, "round_wind": obs.round_wind,
             "first_dealer": _first_dealer(obs, rules), "wall": list(wall)}
    return _game_on(rules, setup, table)


def _first_dealer(obs: Observation, rules: Rules) -> int:
    """The match's first dealer, from the seat winds the rules give (a dealer-relative rule gives the dealer)."""
    for first in range(obs.num_players):
        if tuple(rules.seat_winds(obs.dealer, first)) == tuple(obs.seat_winds):
            return first
    return obs.dealer


def _you_shape(hand: bytearray, pool: list[int], need: int, gold: int, rng: random.Random) -> None:
    """Deal ``need`` tiles in 游 shape (YX-25): a gold and complete melds (pungs and runs of the pool's tiles),
    the turn's extra tile, if any, at random. Falls back to random tiles where the pool cannot make a meld."""
    extra = (need - 1) % 3
    if pool[gold] > 0:
        pool[gold] -= 1
        hand[gold] += 1
        need -= 1
    for _ in range((need - extra) // 3):
        options = [(k, k, k) for k in range(34) if pool[k] >= 3]
        options += [(k, k + 1, k + 2) for k in range(27) if k % 9 <= 6 and pool[k] and pool[k + 1] and pool[k + 2]]
        if not options:
            break
        for tile in rng.choice(options):
            pool[tile] -= 1
            hand[tile] += 1
        need -= 3
    for tile in _deal(pool, rng)[:need]:
        hand[tile] += 1
        pool[tile] -= 1


def _you_asked(obs: Observation, gold: int, you: Sequence[int],
               melds: list[list[Meld]]) -> list[tuple[int, bytes, int, bool]]:
    """YX-26: the other seats whose 游 level a deal must agree with, each with its melds' tiles, their number and
    whether it is at a level: those that have discarded and are not in their turn (a hand is then what its last
    discard left, as the engine's state check reads it; a seat that never discarded is at level 0 whatever it
    holds)."""
    acting = -1
    if obs.phase in ("turn", "rob"):
        acting = obs.to_act[0] if obs.phase == "turn" else obs.source
    claimed = [0] * obs.num_players
    for seat_melds in melds:
        for meld in seat_melds:
            if meld.claimed_from is not None:
                claimed[meld.claimed_from] += 1
    return [(other, b"".join([bytes(meld.tiles) for meld in melds[other]]), len(melds[other]), bool(you[other]))
            for other in range(obs.num_players)
            if other not in (obs.seat, acting) and (obs.discards[other] or claimed[other])]


def _you_levels_hold(asked: list[tuple[int, bytes, int, bool]], gold: int, hands: list[bytearray]) -> bool:
    """YX-25, YX-26: whether each seat of ``asked`` (:func:`_you_asked`) holds a hand in 游 shape exactly when it
    is at a 游 level."""
    for other, tiles, count, level in asked:
        hand = hands[other]
        if (hand[gold] >= 1 and _core.yunxiao_you_shape(hand, gold, tiles, count)) != level:
            return False
    return True


def _mahjong_table(obs: Observation, rules: Rules, extras: dict[str, Any], hands: list[bytearray],
                   melds: list[list[Meld]], pool: list[int], rng: random.Random, force: bool = False) -> Table | None:
    """The table of one deal; None when a seat to act in the claim window has no claim on it (unless ``force``)."""
    n = obs.num_players
    seat = obs.seat
    live = _deal(pool, rng)
    if len(live) != obs.wall_left:
        raise HupaiError(f"{len(live)} unseen tiles are left for a wall of {obs.wall_left}")
    # Who discarded what, and who claimed from whom (every claimed tile left its discarder's pile).
    claimed = [0] * n
    pungs_chows = [0] * n
    claimed_kongs = [0] * n
    kongs = 0
    for other, seat_melds in enumerate(melds):
        for meld in seat_melds:
            if meld.claimed_from is not None:
                claimed[meld.claimed_from] += 1
                if meld.type == "kong" and not meld.added:
                    claimed_kongs[other] += 1
                else:
                    pungs_chows[other] += 1
            if meld.type == "kong":
                kongs += 1
    discards_made = [len(obs.discards[s]) + claimed[s] for s in range(n)]
    phase = obs.phase
    turn_seat = obs.to_act[0] if phase in ("turn", "predraw") else obs.source
    in_turn = [int(phase in ("turn", "rob") and s == turn_seat) for s in range(n)]
    wall_draws = [max(0, discards_made[s] + in_turn[s] - pungs_chows[s] - claimed_kongs[s] - (s == obs.dealer))
                  for s in range(n)]
    kongs_by = [sum(m.type == "kong" for m in melds[s]) for s in range(n)]
    draws = [wall_draws[s] + kongs_by[s] for s in range(n)]
    # The wall: the live tiles between head and tail, every other tile outside them (the gold indicator last).
    tiles = list(rules.tiles())
    total = len(tiles)
    used = [0] * 34
    for tile in tiles:
        used[tile] += 1
    for tile in live:
        used[tile] -= 1
    gold = extras.get("gold")
    tail_taken = 1 if gold is not None else 0
    from_tail = kongs if rules.replacement_from_tail else 0
    tail = total - tail_taken - from_tail
    head = tail - len(live)
    outside = [kind for kind in range(34) for _ in range(used[kind])]
    if gold is not None:
        outside.remove(gold)
        outside.append(gold)
    wall_tiles = outside[:head] + live + outside[head:]
    table = Table(n, obs.dealer, _first_dealer(obs, rules), obs.round_wind, tuple(obs.seat_winds),
                  Wall(wall_tiles, head, tail))
    table.hands = hands
    table.set_melds(melds)
    table.phase = phase
    table.turn_seat = turn_seat
    table.draws = bytearray(draws)
    table.set_discards(obs.discards, discards_made)
    table.calls = sum(len(m) for m in melds) + sum(m.added for ms in melds for m in ms)
    # The melds in turn order from the dealer, a seat's own in the order it made them (the order is not shown).
    order = []
    for index in range(max((len(m) for m in melds), default=0)):
        for offset in range(n):
            other = (obs.dealer + offset) % n
            if index < len(melds[other]):
                order.append((other, index))
    table.meld_order = order
    table.extras = extras
    if phase in ("turn", "predraw"):
        if turn_seat == seat:
            table.drawn = obs.drawn
            table.drawn_from = obs.drawn_from
            if obs.drawn_from == "replacement":
                last = melds[seat][-1] if melds[seat] else None
                if last is not None and last.type == "kong" and last.claimed_from is not None and not last.added:
                    table.kong_from = last.claimed_from
        # The last discard: the one this seat claimed, else its 上家's last.
        before = (turn_seat - 1) % n
        if obs.drawn < 0 and melds[turn_seat] and melds[turn_seat][-1].claimed_from is not None and phase == "turn":
            last_meld = melds[turn_seat][-1]
            table.discarder = last_meld.claimed_from if last_meld.claimed_from is not None else -1
            table.last_discard = last_meld.claimed_tile if last_meld.claimed_tile is not None else -1
        elif obs.discards[before]:
            table.discarder = before
            table.last_discard = obs.discards[before][-1]
        return table
    if phase == "rob":
        table.kong_tile = obs.tile
        table.kong_seat = obs.source
        pending = _rob_window(rules, table, obs)
    else:
        table.last_discard = obs.tile
        table.discarder = obs.source
        pending = _claim_window(rules, table, obs)
    asked = dict(pending)
    for other in obs.to_act:
        if other != seat and other not in asked:
            if not force:
                return None
            asked[other] = (ACTIONS.pass_[other],)
    asked[seat] = tuple(obs.legal_actions)
    table.pending = asked
    table.answers = {other: ACTIONS.pass_[other] for other in asked if other not in obs.to_act}
    if len(table.answers) >= len(asked):  # cannot happen while this seat is to act; kept for safety
        table.answers = {}
    return table


def _claim_window(rules: Rules, table: Table, obs: Observation) -> dict[int, tuple[Action, ...]]:
    tile, source = obs.tile, obs.source
    cache = table.ready_bytes
    for other in range(table.num_players):
        if other != source and cache[other] == READY_UNKNOWN:
            cache[other] = 1 if rules.ready(table, other) else 0
    options = (rules.claim_options(table, tile, source) if rules.capabilities.custom_claims
               else standard_options(rules, table, tile, source))
    if not options:
        return {}
    return collect_claims(rules, table, tile, options, source, "eligible")


def _rob_window(rules: Rules, table: Table, obs: Observation) -> dict[int, tuple[Action, ...]]:
    from .game.mahjong.claims import collect_robbers

    return collect_robbers(rules, table, obs.tile, obs.source, "eligible")


# -- Wai Huzi -----------------------------------------------------------------------------------------------

def _zipai_world(obs: Observation, rules: Rules, rng: random.Random, weights: WorldWeights | None) -> Game:
    seat = obs.seat
    extras = obs.extras
    base_pool = unseen_counts(obs, rules)
    unseen = tuple(base_pool)  # what the seat cannot see, before the worlds' own choices
    groups = [[_group(other, view) for view in seat_melds] for other, seat_melds in enumerate(obs.melds)]
    tiles = list(rules.tiles())
    game = None
    for attempt in range(REDEALS + 1):
        pool = list(base_pool)
        hands = [bytearray(20) for _ in range(3)]
        hands[seat][:] = obs.counts
        for other in range(3):
            if other != seat and weights is not None and obs.hand_sizes[other] > 0:
                _weighed_hand(obs, other, hands[other], pool, obs.hand_sizes[other], rng, weights, unseen)
            elif other != seat:
                for card in _deal(pool, rng)[:obs.hand_sizes[other]]:
                    hands[other][card] += 1
                    pool[card] -= 1
        stock = _deal(pool, rng)
        if len(stock) != obs.wall_left:
            raise HupaiError(f"{len(stock)} unseen cards are left for a stock of {obs.wall_left}")
        used = [0] * 20
        for card in tiles:
            used[card] += 1
        for card in stock:
            used[card] -= 1
        head = len(tiles) - len(stock)
        wall = [card for card in range(20) for _ in range(used[card])] + stock
        table = ZipaiTable(obs.dealer, obs.dealer, Wall(wall, head))
        table.hands = hands
        table.set_groups(groups)
        table.set_piles([bytes(pile) for pile in obs.discards])
        table.phase = obs.phase
        table.turn_seat = obs.to_act[0] if obs.phase == "turn" else obs.source
        table.shen = extras.get("shen", "odd")
        table.shen_shown = extras.get("shen_shown", -1)
        table.dead = sum(1 << other for other, flag in enumerate(extras.get("dead", ())) if flag)
        private = obs.private
        table.chi_ban[seat] = card_mask(private.get("chi_ban", ()))
        table.peng_ban[seat] = card_mask(private.get("peng_ban", ()))
        table.menzi_ban[seat] = sum({MENZI_BIT.get(tuple(t), 0) for t in private.get("menzi_ban", ())})
        table.locked[seat] = card_mask(private.get("locked", ()))
        table.ready_deal = bytearray(3)
        table.grouped = sum(1 << other for other, seat_groups in enumerate(groups) if seat_groups)
        nothing_moved = not any(obs.discards) and not any(groups)
        table.opening = obs.phase == "turn" and nothing_moved and table.turn_seat == obs.dealer
        table.calls = sum(len(g) for g in groups)
        setup = {"seed": 0, "dealer": obs.dealer, "round_wind": 0, "first_dealer": obs.dealer, "wall": list(wall)}
        game = _game_on(rules, setup, table)
        flow: Any = game._flow
        for other in range(3):  # WH-38: a seat with no group holds its dealt hand (the dealer: less its opening
            if not groups[other]:  # discard), so its 报听 is whether that hand is ready, as the flow asked then
                table.ready_deal[other] = NONE if table.opening and other == obs.dealer else flow._ready(other)
        if obs.phase != "claim":
            return game
        kind = extras.get("offer", "discard")
        drawn = kind == "draw"
        table.offer = obs.tile
        table.offer_from = obs.source
        table.offer_kind = kind
        table.dealer_opening = (not drawn and obs.source == obs.dealer and nothing_moved)
        if drawn and head == len(wall):
            table.haidi = obs.source
        options = flow._offer_options(obs.tile, obs.source, drawn)
        pending = {other: (*options.get(other, ()), ACTIONS.pass_[other]) for other in options}
        if any(other != seat and other not in pending for other in obs.to_act) and attempt < REDEALS:
            continue
        for other in obs.to_act:
            pending.setdefault(other, (ACTIONS.pass_[other],))
        pending[seat] = tuple(obs.legal_actions)
        table.pending = pending
        table.answers = {other: ACTIONS.pass_[other] for other in pending if other not in obs.to_act}
        return game
    assert game is not None
    return game


def _group(seat: int, view: Any) -> Group:
    """A declared group from its view (WH-9: a 歪 or 溜 shows one card of its three or four)."""
    cards: Sequence[int] = view.tiles
    if view.type in ("wai", "liu"):
        cards = (view.tiles[0],) * (3 if view.type == "wai" else 4)
    taken = view.claimed_tile
    source = view.claimed_from if view.claimed_from >= 0 else (seat if taken >= 0 else -1)
    return Group(view.type, tuple(cards), taken, source)
