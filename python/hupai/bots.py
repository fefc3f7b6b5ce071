"""Simple seeded policies: :class:`RandomBot` and :class:`GreedyBot` (shanten-driven).

A bot's :meth:`act` gets an :class:`~hupai.observation.Observation`, what its seat may see, and returns one
of ``observation.legal_actions``. It is given nothing else: no game, no table, so it cannot read another
seat's tiles. :func:`hupai.game.play` (and :class:`hupai.Match`) drive a game with bots.
Bots keep their own random stream: CPython's ``random.Random`` (Mersenne Twister seeded by an int: stable across
Python versions), its state in a buffer the core reads too (:class:`_Stream`), so that the core can play a bot's
plain turns (:meth:`RandomBot._core_turns`) drawing exactly what the bot would.
"""

from __future__ import annotations

import random
import warnings
from array import array
from collections.abc import Callable, Collection, Sequence
from functools import lru_cache, partial
from operator import attrgetter, itemgetter
from typing import Any

import numpy as np

from . import rules as rules_module
from ._core import discard_scores, stream_pick, stream_random, stream_seed
from .actions import Action
from .analysis import Forms
from .errors import HupaiError
from .observation import Observation
from .rules.base_advice import ANY_KIND, Advice
from .zipai import NUM_KINDS as ZIPAI_KINDS
from .zipai import Declared

__all__ = ["RandomBot", "GreedyBot"]

_KIND = attrgetter("kind")
_TILE = itemgetter(2)  # an Action's tile

#: The meld counts of GreedyBot's claim rows (row 0: the hand as it is, with ``melds`` melds; one row per claim,
#: each a meld more), per (melds, claims): made once, read-only, for the few shapes a claim window has (a
#: numpy array built per claim cost about as much as the core's shanten of the rows).
_CLAIM_MELDS = {(melds, claims): np.array([melds] + [melds + 1] * claims, dtype=np.int32)
                for melds in range(5) for claims in range(1, 9)}
for _rows in _CLAIM_MELDS.values():
    _rows.setflags(write=False)
del _rows


_STATE_BYTES = 4 * 625  # the generator's 624 words and its index, native uint32s (getstate()'s 625 ints)
_WORDS = array("I")  # the state's words as an array reads them (checked: 4 bytes each)
assert _WORDS.itemsize == 4


class _Stream:
    """A bot's random stream: what ``random.Random(seed)`` draws (``random()``, ``seed``, ``getstate``,
    ``setstate``), from a state held in a bytearray (``state``) that the core draws from too when it plays the bot's
    turns (``_core.lean_chain``), so that both paths make the same choices. ``seed(n)`` of an int is the same
    MT19937 seeding as CPython's (its 32-bit words, by the core); any other seed goes through ``random.Random``."""

    __slots__ = ("state", "random")

    def __init__(self, seed: Any = 0) -> None:
        self.state = bytearray(_STATE_BYTES)
        #: the next float in [0, 1), as random.Random.random() (a C-level call)
        self.random = partial(stream_random, self.state)
        self.seed(seed)

    def seed(self, seed: Any = None) -> None:
        if type(seed) is int:
            n = abs(seed)
            stream_seed(self.state, n.to_bytes(max(4, -(-n.bit_length() // 32) * 4), "little"))
        else:  # None, a str, bytes: random.Random's own seeding (a hash, a digest or the OS's randomness)
            self.setstate(random.Random(seed).getstate())

    def getstate(self) -> tuple[Any, ...]:
        """The state as ``random.Random.getstate()`` gives it (``random.Random().setstate`` takes it)."""
        words = array("I")
        words.frombytes(self.state)
        return (3, tuple(words), None)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """A state from :meth:`getstate` or ``random.Random.getstate()``, checked by ``random.Random`` first."""
        check = random.Random()
        check.setstate(state)  # raises as random.Random would; the words are then read back as it holds them
        self.state[:] = array("I", check.getstate()[1]).tobytes()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restored_stream, (bytes(self.state),))


def _restored_stream(state: bytes) -> _Stream:
    """A pickled or copied :class:`_Stream` (its own buffer: a copy never draws from the original's)."""
    if type(state) is not bytes or len(state) != _STATE_BYTES or memoryview(state).cast("I")[624] > 624:
        raise HupaiError("a bot's random stream must be restored from 2500 bytes of a generator's state")
    stream = _Stream()
    stream.state[:] = state
    return stream


def _observed(game: Any, seat: int) -> Observation:
    """The deprecated call ``bot.act(game, seat)``: the seat's observation, built here."""
    warnings.warn("bot.act(game, seat) is deprecated: pass game.observation(seat)", DeprecationWarning,
                  stacklevel=3)
    built: Observation = game.observation(seat)
    return built


class RandomBot:
    """Uniform over the legal actions."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = _Stream(seed)

    def reseed(self, seed: int) -> None:
        """Restart the bot's random stream at ``seed``: it plays on as a new bot of that seed would."""
        self._rng.seed(seed)

    def _core_turns(self, rules: str) -> tuple[int, int, bytearray] | None:
        """How the core may play this bot's plain turns (``_core.lean_chain``: kind 1, uniform over the discards,
        from its stream), asked by :func:`hupai.game.match.play_until`; None for a subclass or a bot whose ``choose``,
        ``act`` or stream was replaced: the core plays only what it knows this class would do."""
        return _core_bot(self, RandomBot, 1, 1)

    def act(self, observation: Observation, seat: int | None = None) -> Action:
        """One of ``observation.legal_actions`` at random. (``act(game, seat)`` is deprecated.)"""
        if seat is not None:
            observation = _observed(observation, seat)
        return self.choose(observation.legal_actions)

    def choose(self, legal_actions: Sequence[Action]) -> Action:
        """The same decision from the legal actions alone (:func:`hupai.game.play` asks this first: the rest of
        an observation would cost more to build than this bot's decision)."""
        # Uniform: int(random() * n) on the bot's stream, in one core call (cheaper than randrange, and than
        # random() and the arithmetic here).
        return legal_actions[stream_pick(self._rng.state, len(legal_actions))]


class GreedyBot:
    """Wins when it can; claims when that lowers its shanten; discards to minimise shanten, then to maximise
    the number of tiles (counting unseen copies of its own hand) that would lower it. Ties break at
    random.

    How a hand is counted and when a declaration beats a plain win is the rule system's advice
    (:func:`hupai.rules.advice`, found by the observation's rules name): golds as jokers, discards into
    Yunxiao's 游 shape before a self-drawn win, a discard win let pass by a gold holder. A declaration before
    the draw (游金, 抢金) is always taken. ``forms`` replaces the advice by plain tiles judged in those forms.

    In a zipai game (Wai Huzi: an observation of 20 card kinds) it plays toward 息 with that system's advice
    (:func:`_zipai_act`).
    """

    def __init__(self, seed: int = 0, forms: Forms | int | None = None) -> None:
        self._rng = _Stream(seed)
        self._forms = forms
        self._advice: dict[str, Advice] = {}  # by rules name: the registry's answer, looked up once
        self._zipai: dict[Any, Any] = {}  # zipai advice by (rules name, options)

    def reseed(self, seed: int) -> None:
        """Restart the bot's random stream at ``seed``: it plays on as a new bot of that seed would (its tie
        breaks are its only random choices), and keeps the rule advice it has looked up. A search that plays many
        rollouts reseeds its rollout players instead of building new ones."""
        self._rng.seed(seed)

    def _core_turns(self, rules: str) -> tuple[int, int, bytearray] | None:
        """How the core may play this bot's plain turns (``_core.lean_chain``: kind 2, the best
        ``_core.discard_scores`` in the advice's forms, ties broken from its stream, as :meth:`act` does), asked by
        :func:`hupai.game.match.play_until`; None where the rule system's advice ranks discards its own way (a
        subclass of :class:`Advice` that overrides ``rank_discards`` or ``premium_discards``), or for a subclass or
        a bot whose ``choose``, ``act`` or stream was replaced."""
        if type(self) is not GreedyBot:  # first: a subclass (EVBot) is asked at every play_until too
            return None
        advice = self._advice_for(rules)
        plain = all(getattr(type(advice), name) is getattr(Advice, name)
                    for name in ("rank_discards", "premium_discards"))
        return _core_bot(self, GreedyBot, 2, advice._forms) if plain else None

    def _table_chooser(self, table: Any, forms: int) -> Callable[[Sequence[Action]], Action | None]:
        """The ``choose`` :func:`hupai.game.match.play_until` gives this bot where the core plays its plain turns
        (its advice ranks discards the plain way, in ``forms``): the same choice read from the game's ``table``
        (:func:`_table_turn`), so that a turn the core did not reach (after a claim, the deal) builds no
        observation either."""
        return partial(_table_turn, self._rng.state, forms, table)

    def _advice_for(self, name: str) -> Advice:
        advice = self._advice.get(name)
        if advice is None:
            advice = self._advice[name] = (rules_module.advice(name) if self._forms is None
                                           else Advice(self._forms))
        return advice

    def choose(self, legal_actions: Sequence[Action]) -> Action | None:
        """A lone ``pass`` (a claim window with nothing to claim) needs no observation; anything else does
        (None). What :meth:`act` would answer, asked first by :func:`hupai.game.play`."""
        if len(legal_actions) == 1 and legal_actions[0].kind == "pass":
            return legal_actions[0]
        return None

    def act(self, observation: Observation, seat: int | None = None) -> Action:
        """The greedy choice among ``observation.legal_actions``. (``act(game, seat)`` is deprecated.)"""
        if seat is not None:
            observation = _observed(observation, seat)
        if not observation.legal_actions:  # asked for a seat with nothing to decide: a driver's bug, said plainly
            raise HupaiError(f"GreedyBot: seat {observation.seat} has nothing to decide now "
                             f"(phase {observation.phase}, no legal action)")
        if len(observation.counts) == ZIPAI_KINDS:  # a zipai (Wai Huzi) seat: 20 card kinds, not 34 tiles
            return _zipai_act(observation, _zipai_advice(self._zipai, observation))
        legal = observation.legal_actions
        phase = observation.phase
        if phase == "predraw":
            return legal[0]  # declarations (游金, 抢金: wins) come before ``pass``
        advice = self._advice.get(observation.rules) or self._advice_for(observation.rules)
        claiming = phase == "claim" or phase == "rob"
        kinds = list(map(_KIND, legal))  # a C-level loop: this runs at every decision
        premium: tuple[int, ...] | None = None
        if "win" in kinds and not (claiming and advice.prefers_own_draw(observation)):
            win = legal[kinds.index("win")]
            if claiming:
                return win
            premium = advice.premium_discards(observation)
            if not premium:
                return win
        if claiming:
            return self._claim(legal, advice, observation)
        # Most turns offer plain discards alone: then they are the legal actions as they stand. A discard with a
        # declaration (亮倒) is the advice's to choose, once the discard is chosen.
        discards = (legal if kinds.count("discard") == len(kinds) and not legal[-1].flag
                    else [a for a in legal if a.kind == "discard" and not a.flag])
        if not discards:  # only declarations or kongs are on offer
            return legal[0]
        if premium is None:
            premium = advice.premium_discards(observation)
        if premium:
            chosen = [a for kind in premium for a in discards if a.tile == kind]
            if chosen:
                return chosen[0]
        scores = advice.rank_discards(observation, discards)
        # The best at random among the tied: the pick-th of them, found without listing them all.
        best = max(scores)
        pick = stream_pick(self._rng.state, scores.count(best))  # int(random() * ties)
        index = scores.index(best)
        for _ in range(pick):
            index = scores.index(best, index + 1)
        return advice.declare(observation, discards[index]) if len(discards) < len(legal) else discards[index]

    def _claim(self, legal: tuple[Action, ...], advice: Advice, observation: Observation) -> Action:
        claims = [a for a in legal if a.kind in ("pung", "chow", "kong")]
        passing = next(a for a in legal if a.kind == "pass")
        if not claims:
            return passing
        # Row 0: the hand now; row i: the hand after claim i (the tiles it takes out), built as bytes.
        rows = bytearray(observation.counts) * (1 + len(claims))
        for row, action in enumerate(claims, 1):
            base = 34 * row
            if action.kind == "chow":
                for kind in action.tiles:
                    if kind != action.tile:
                        rows[base + kind] -= 1
            else:
                rows[base + action.tile] -= 3 if action.kind == "kong" else 2
        melds = len(observation.melds[observation.seat])
        meld_counts = _CLAIM_MELDS.get((melds, len(claims)))
        if meld_counts is None:  # more melds or claims than a mahjong table has: made here
            meld_counts = np.array([melds] + [melds + 1] * len(claims), dtype=np.int32)
        shanten = advice.shanten(observation, np.frombuffer(rows, dtype=np.uint8).reshape(-1, 34),
                                 meld_counts).tolist()
        after = shanten[1:]
        best = min(after)
        return claims[after.index(best)] if best < shanten[0] else passing


def _table_turn(stream: bytearray, forms: int, table: Any, legal_actions: Sequence[Action]) -> Action | None:
    """GreedyBot's decision under the plain advice (winning forms ``forms``) read from the game's ``table`` instead
    of an observation: under that advice a turn reads only the seat's concealed counts and its number of melds, so
    the choice is :meth:`GreedyBot.act`'s, tie breaks included (drawn from ``stream``, the bot's). A win if one is
    offered; on a turn of plain discards alone the best ``discard_scores``; a lone ``pass``; else None (a kong or a
    declaration on offer, a claim: :meth:`GreedyBot.act` decides)."""
    first = legal_actions[0]
    if table.phase != "turn":
        return first if len(legal_actions) == 1 and first.kind == "pass" else None
    kinds = list(map(_KIND, legal_actions))  # C-level loops: this runs at nearly every turn
    if "win" in kinds:  # the plain advice: no discard is worth more than a win (GreedyBot.act's rule)
        return legal_actions[kinds.index("win")]
    if kinds.count("discard") != len(kinds) or legal_actions[-1].flag:
        return None
    seat = first.seat
    scores_by_kind = discard_scores(table.hands[seat], 0, len(table.melds[seat]), forms, ANY_KIND)
    scores = list(map(scores_by_kind.__getitem__, map(_TILE, legal_actions)))
    best = max(scores)
    pick = stream_pick(stream, scores.count(best))  # int(random() * ties)
    index = scores.index(best)
    for _ in range(pick):
        index = scores.index(best, index + 1)
    return legal_actions[index]


def _core_bot(bot: Any, cls: type, kind: int, forms: int) -> tuple[int, int, bytearray] | None:
    """``(kind, forms, stream)`` for the core (``_core.lean_chain``) if ``bot`` is exactly ``cls`` as built: its
    own ``choose`` and ``act`` (none set on the instance) and its :class:`_Stream`."""
    stream = bot.__dict__.get("_rng")
    if type(bot) is not cls or type(stream) is not _Stream or "choose" in bot.__dict__ or "act" in bot.__dict__:
        return None
    return (kind, forms, stream.state)


# -- Wai Huzi (zipai) --------------------------------------------------------------------------------------------

_GROUP_FACTORIES = {"wai": Declared.wai, "peng": Declared.peng, "liu": Declared.liu, "piao": Declared.piao}
_GROUP_SIZES = {"wai": 3, "liu": 4}  # a 歪 or 溜 shows one card up (WH-9); it holds three or four
#: The engine's action kinds as the zipai advice names its claims.
_UNSEEN = bytes(max(0, 4 - seen) for seen in range(256))  # copies seen -> copies unseen, for bytes.translate
_CLAIM_NAMES = {"pung": "peng", "chow": "chi", "wai": "wai", "liu": "liu", "piao": "piao"}


def _zipai_advice(cache: dict[Any, Any], observation: Observation) -> Any:
    """The rule system's zipai advice under the observation's options (``WaihuziAdvice.for_rules``), built once
    per option set."""
    options = observation.options
    last = cache.get(None)  # (options, rules, advice): one game's observations share their options object
    if last is not None and last[0] is options and last[1] == observation.rules:
        return last[2]
    key = (observation.rules, tuple(options.items()))
    advice = cache.get(key)
    if advice is None:
        advice = rules_module.advice(observation.rules)
        if hasattr(advice, "for_rules"):
            advice = advice.for_rules(rules_module.get(observation.rules, dict(options)))
        if not (hasattr(advice, "claim") and hasattr(advice, "discard")):
            raise HupaiError(f"GreedyBot: {observation.rules} gives no zipai advice (claim and discard)")
        cache[key] = advice
    cache[None] = (options, observation.rules, advice)
    return advice


@lru_cache(maxsize=4096)  # a memo of a pure function: a seat's groups are the same action after action
def _declared_group(kind: str, tiles: tuple[int, ...], taken: int, own_draw: bool) -> Declared:
    return Declared.chi(tiles, taken, own_draw=own_draw) if kind == "chi" else _GROUP_FACTORIES[kind](tiles[0])


@lru_cache(maxsize=4096)  # a memo of a pure function: the flow offers the same shared Action objects again and again
def _zipai_offer(action: Action) -> tuple[str, int, tuple[int, ...] | None]:
    """An offered claim as the advice takes it: (its name, the card, a 吃's two held cards or None)."""
    menzi = tuple(c for c in action.tiles if c != action.tile) if action.kind == "chow" else None
    return _CLAIM_NAMES[action.kind], action.tile, menzi


def _zipai_claims(advice: Any, offers: list[tuple[str, int, tuple[int, ...] | None]], counts: Any,
                  groups: Sequence[Declared], locked: Collection[int], unseen: Any) -> list[bool]:
    """The advice's answer to each offer, in one call when it has ``claims`` (else one ``claim`` each)."""
    if hasattr(advice, "claims"):
        answers: list[bool] = advice.claims(offers, counts, groups, forbidden=locked, unseen=unseen)
        return answers
    return [advice.claim(name, np.frombuffer(counts, dtype=np.uint8).copy(), tile, groups, menzi=menzi,
                         forbidden=locked, unseen=np.frombuffer(unseen, dtype=np.uint8).copy())
            for name, tile, menzi in offers]


#: The last public facts read, as (every seat's melds, the piles, the copies both show, the copies the melds
#: show, the copies the piles show): an observer hands out the same frozen melds object until a group is made,
#: and each seat's pile as the same tuple until it grows, so most decisions count only the new cards. Holding
#: the objects keeps them alive, so their identity cannot be reused by others. One tuple, replaced whole.
_PUBLIC: list[tuple[Any, Any, bytes, bytes, bytes]] = [((), (), bytes(ZIPAI_KINDS), bytes(ZIPAI_KINDS),
                                                        bytes(ZIPAI_KINDS))]
#: Per seat, its last melds object and the groups read from it.
_OWN: dict[int, tuple[Any, tuple[Declared, ...]]] = {}


_FROM_BYTES = int.from_bytes


def _plus(a: bytes, b: bytes) -> bytes:
    """Two count vectors added card by card, as one integer sum in C (no count reaches 256: no carry)."""
    return (_FROM_BYTES(a, "little") + _FROM_BYTES(b, "little")).to_bytes(ZIPAI_KINDS, "little")


def _public_seen(melds: Any, piles: Any) -> bytes:
    """The copies of each card every seat's groups and the piles show (a 歪 or 溜 holds three or four)."""
    last = _PUBLIC[0]
    if last[0] is melds and last[1] is piles:
        return last[2]
    if last[0] is melds:
        in_melds = last[3]
    else:
        counted = bytearray(ZIPAI_KINDS)
        for seat_melds in melds:
            for meld in seat_melds:
                size = _GROUP_SIZES.get(meld.type)
                if size:
                    counted[meld.tiles[0]] += size
                else:
                    for card in meld.tiles:
                        counted[card] += 1
        in_melds = bytes(counted)
    counted = bytearray(last[4])
    before = last[1]
    if len(before) != len(piles):
        before = ((),) * len(piles)
        counted = bytearray(ZIPAI_KINDS)
    for pile, old in zip(piles, before, strict=True):
        if pile is old:
            continue
        size = len(old)
        if len(pile) < size or pile[:size] != old:  # not the same pile grown: count it all again
            return _recount(melds, piles, in_melds)
        for card in pile[size:]:
            counted[card] += 1
    in_piles = bytes(counted)
    _PUBLIC[0] = (melds, piles, _plus(in_melds, in_piles), in_melds, in_piles)
    return _PUBLIC[0][2]


def _recount(melds: Any, piles: Any, in_melds: bytes) -> bytes:
    counted = bytearray(ZIPAI_KINDS)
    for pile in piles:
        for card in pile:
            counted[card] += 1
    in_piles = bytes(counted)
    _PUBLIC[0] = (melds, piles, _plus(in_melds, in_piles), in_melds, in_piles)
    return _PUBLIC[0][2]


def _own_groups(seat: int, melds: Any) -> tuple[Declared, ...]:
    """The seat's declared groups as the advice reads them (a tuple: the advice keeps its reading of it)."""
    last = _OWN.get(seat)
    if last is not None and last[0] is melds:
        return last[1]
    groups = tuple([_declared_group(m.type, m.tiles, m.claimed_tile, m.claimed_from < 0) for m in melds])
    _OWN[seat] = (melds, groups)
    return groups


def _zipai_act(observation: Observation, advice: Any) -> Action:
    """GreedyBot in Wai Huzi, from its observation and the rule system's advice (``rules/waihuzi/advice.py``:
    waits worth unseen copies × score from the core, then shape, then 息): win when it can; declare a 溜 or 飘 in
    a discard state; take an offered card when the advice says the hand is better for it, but never a 碰 or 歪
    that would make the seat 死手 (WH-27); discard what the advice ranks best among the unlocked cards."""
    legal = observation.legal_actions
    kinds = list(map(_KIND, legal))
    if "win" in kinds:
        return legal[kinds.index("win")]
    private = observation.private
    turn = observation.phase == "turn"
    offered = []
    if not (turn and kinds.count("discard") == len(kinds)):  # a turn of plain discards offers nothing else
        peng_ban = private.get("peng_ban", ())
        for action in legal:  # in the flow's order: 溜 飘 歪 first, then 碰, then 吃
            if action.kind not in _CLAIM_NAMES or (action.kind in ("wai", "pung") and action.tile in peng_ban):
                continue
            if turn:  # a 溜 of four held or a 飘 onto its 碰: 息 and 元 at no cost, in place of a discard
                return action
            offered.append(action)
        if not turn and not offered:
            return legal[kinds.index("pass")]
    seat = observation.seat
    groups = _own_groups(seat, observation.melds[seat])
    counts = observation.counts
    # copies this seat knows of: its hand, every group, every pile (and the offered card)
    seen = _FROM_BYTES(counts, "little") + _FROM_BYTES(_public_seen(observation.melds, observation.discards), "little")
    if not turn and observation.tile >= 0:
        seen += 1 << 8 * observation.tile
    unseen = seen.to_bytes(ZIPAI_KINDS, "little").translate(_UNSEEN)
    if offered:  # the first claim the advice takes, every offer judged in one call
        offers = list(map(_zipai_offer, offered))
        taken = _zipai_claims(advice, offers, counts, groups, private.get("locked", ()), unseen)
        if True in taken:
            return offered[taken.index(True)]
        return legal[kinds.index("pass")]
    discards = legal if kinds.count("discard") == len(kinds) else [a for a in legal if a.kind == "discard"]
    # the held cards it may not discard (locked, WH-26): none unless the discards are fewer than the held kinds
    forbidden: Any = ()
    if len(discards) != ZIPAI_KINDS - bytes(counts).count(0):
        allowed = {a.tile for a in discards}
        forbidden = [c for c, n in enumerate(counts) if n and c not in allowed]
    card = advice.discard(counts, groups, forbidden=forbidden, unseen=unseen)
    return next(a for a in discards if a.tile == card)
