"""The Wai Huzi observer keeps frozen views between decisions (groups, public extras, each seat's bans and locks,
the piles) and rebuilds them when they move (issue 21): at every decision of many played hands, in both claim
windows, what a long-lived observer shows is what a fresh one shows, and GreedyBot decides the same from either."""

from __future__ import annotations

import pytest
from hupai.bots import GreedyBot, RandomBot, _public_seen
from hupai.game import Game, Observer
from hupai.observation import Observation


def _fresh(game: Game, seat: int) -> dict[str, object]:
    return Observer(game).observe(seat).to_dict()


@pytest.mark.parametrize("window", ["eligible", "all"])
@pytest.mark.rule("WH-21", "WH-22", "WH-23", "WH-24", "WH-26", "WH-27")
def test_a_kept_observer_shows_what_a_fresh_one_shows(window: str) -> None:
    decisions = banned = 0
    for seed in range(60):
        game = Game("waihuzi", seed=seed, dealer=seed % 3, claim_window=window)
        observe = Observer(game).observe
        bots = [GreedyBot(seed), RandomBot(seed + 1), GreedyBot(seed + 2)]
        while not game.over:
            for seat in game.seats_to_act:
                kept = observe(seat)
                assert kept.to_dict() == _fresh(game, seat), (seed, seat)
                decisions += 1
                banned += any(kept.private[name] for name in ("chi_ban", "peng_ban", "menzi_ban", "locked"))
                game.apply(bots[seat].act(kept))
    assert decisions > 1000 and banned > 300  # the bans and locks moved under the kept observer many times


def _naive_seen(observation: Observation) -> bytes:
    seen = bytearray(20)
    for melds in observation.melds:
        for meld in melds:
            if meld.type in ("wai", "liu"):  # one card face up (WH-9); three or four held
                seen[meld.tiles[0]] += 3 if meld.type == "wai" else 4
            else:
                for card in meld.tiles:
                    seen[card] += 1
    for pile in observation.discards:
        for card in pile:
            seen[card] += 1
    return bytes(seen)


def test_greedy_counts_the_public_cards_as_a_recount_does() -> None:
    """GreedyBot counts the cards the groups and piles show from what changed since its last decision (kept
    between games and seats, issue 21): always what counting them all again gives."""
    checked = 0
    for seed in range(30):
        game = Game("waihuzi", seed=seed, dealer=seed % 3, claim_window="all" if seed % 2 else "eligible")
        observe = Observer(game).observe
        bots = [GreedyBot(seed + seat) for seat in range(3)]
        while not game.over:
            for seat in game.seats_to_act:
                observation = observe(seat)
                assert _public_seen(observation.melds, observation.discards) == _naive_seen(observation)
                checked += 1
                game.apply(bots[seat].act(observation))
    assert checked > 1000


def test_public_facts_are_one_mapping_for_the_same_values_in_every_hand() -> None:
    """The public extras of two hands showing the same values are the same object (the agent encoder keeps their
    float bytes by identity from one hand to the next), and never another hand's values."""
    import hupai

    rules = hupai.rules.get("waihuzi")
    seen: dict[tuple[object, ...], object] = {}
    for seed in range(12):
        game = Game(rules, seed=seed, dealer=seed % 3, claim_window="eligible")
        observer = Observer(game)
        bots = [RandomBot(seed * 3 + seat) for seat in range(3)]
        for _ in range(8):
            if game.over:
                break
            seat = game.seats_to_act[0]
            for other in range(3):
                extras = observer.buffers(game, other)[15]
                assert extras is observer.seen(game, other)[17]
                key = tuple(sorted((name, repr(value)) for name, value in extras.items()))
                assert seen.setdefault(key, extras) is extras
            game.apply(bots[seat].choose(game.legal_actions(seat)))
    assert len(seen) > 12
