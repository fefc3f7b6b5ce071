"""The engine core is rule-agnostic: toy rule systems built only from the documented hooks run through it.

``ThreePlayerKongMoney`` has Kawuxing's shape (3 players, 84 tiles, no chow, kong money paid at once, 漏胡
over any tile until the next draw, winner deals next); ``PreDrawDeclare`` has Yunxiao's (a declaration
before the draw that wins without drawing, head-bump single winner, a discard restriction, a flag on a
discard). Neither changes the engine: they override hooks of :class:`hupai.rules.base.Rules`, declare them in
their capabilities, and change the game only through the effects they return.
"""

import json

import pytest
from hupai.bots import RandomBot
from hupai.game import Action, Game, play
from hupai.game.scripted import discard, stacked_game
from hupai.rules.base import Rules
from hupai.rules.contract import Capabilities, Pay, SetState
from hupai.scoring import Pattern, ScoreResult


class ThreePlayerKongMoney(Rules):
    name = "toy-three"
    capabilities = Capabilities(chow_seats=True)
    num_players = 3
    louhu = "any_tile"
    louhu_clears_on_claim = False

    def options_dict(self):
        return {}

    def tiles(self):
        return [kind for kind in (*range(9, 27), 31, 32, 33) for _ in range(4)]

    def chow_seats(self, table, discarder):
        return ()

    def on_kong(self, table, seat, meld):
        money = [0, 0, 0]
        if meld.claimed_from is not None and not meld.added:
            money[meld.claimed_from] -= 2
            money[seat] += 2
        else:
            for other in range(3):
                if other != seat:
                    money[other] -= 1 if meld.added else 2
                    money[seat] += 1 if meld.added else 2
        return (Pay(tuple(money), seat),)

    def score(self, context):
        payments = [0, 0, 0]
        payers = [context.discarder] if context.discarder is not None else [s for s in range(3)
                                                                           if s != context.winner]
        for payer in payers:
            payments[payer] -= 1
            payments[context.winner] += 1
        return ScoreResult((Pattern("pi_hu", "屁胡", 1),), 1, tuple(payments))

    def next_dealer(self, table, winners):
        return winners[0] if winners else table.dealer


class PreDrawDeclare(Rules):
    """Before drawing, a ready player may declare ``"float"`` and win at once (a 游金-like declaration)."""

    name = "toy-declare"
    capabilities = Capabilities(pre_draw=True, forbidden_discards=True, turn_extras=True)
    multiple_winners = False

    def options_dict(self):
        return {}

    def pre_draw_actions(self, table, seat):
        return [Action("declare", seat, -1, (), "float")] if self.ready(table, seat) else []

    def on_declare(self, table, action):
        if action.flag == "float":
            return (SetState("floats", [*table.extras.get("floats", []), action.seat]),), "declared"
        return (), None

    def forbidden_discards(self, table, seat):
        # 过张-like: never discard the tile just claimed by a pung (the engine lifts it if nothing is left).
        return frozenset({table.last_discard}) if table.drawn < 0 and table.melds[seat] else frozenset()

    def turn_extras(self, table, seat):
        return [Action("discard", seat, k, (), "show") for k in range(34) if table.hands[seat][k] == 1][:1]

    def win_context(self, table, seat, tile, source, discarder, winners_on_tile):
        if source == "declared":
            tile = next(k for k in range(34) if table.hands[seat][k])
            source = "wall"
        return super().win_context(table, seat, tile, source, discarder, winners_on_tile)

    def score(self, context):
        payments = [0, 0, 0, 0]
        payments[context.winner] = 3
        for seat in range(4):
            if seat != context.winner:
                payments[seat] = -1
        return ScoreResult((), 1, tuple(payments))


def _play(rules, seed, players=None):
    game = Game(rules, seed=seed)
    bots = [RandomBot(seed * 5 + i) for i in range(rules.num_players)]
    play(game, bots)
    return game


@pytest.mark.parametrize("seed", range(30))
def test_three_player_kong_money(seed):
    rules = ThreePlayerKongMoney()
    game = _play(rules, seed)
    table = game.table
    assert len(table.hands) == 3 and sum(rules.tiles()) and len(rules.tiles()) == 84
    assert not any(a.kind == "chow" for a in game.actions)
    money = [e.tiles for e in game.events if e.type == "payment"]
    assert table.payments == [sum(m[i] for m in money) for i in range(3)]
    assert sum(game.result.payments) == 0
    # Kong money stands in the result, whatever happened to the hand.
    wins = [0, 0, 0]
    for win in game.result.wins:
        wins = [a + b for a, b in zip(wins, win.score.payments, strict=True)]
    assert list(game.result.payments) == [a + b for a, b in zip(wins, table.payments, strict=True)]
    assert Game.replay(game.to_json(), rules=rules).to_json() == game.to_json()


def test_three_player_kong_money_is_paid():
    paid = sum(1 for seed in range(60) if _play(ThreePlayerKongMoney(), seed).table.payments != [0, 0, 0])
    assert paid > 0


def test_pre_draw_declaration_and_turn_extras():
    rules = PreDrawDeclare()
    declared = 0
    shown = 0
    for seed in range(40):
        game = Game(rules, seed=seed)
        bots = [RandomBot(seed * 4 + i) for i in range(4)]
        while not game.over:
            decision = game.current
            if decision.phase == "predraw":
                assert {a.kind for a in game.legal_actions(decision.seats[0])} == {"declare", "pass"}
            seat = decision.seats[0]
            action = bots[seat].act(game.observation(seat))
            snap = json.loads(json.dumps(game.snapshot()))
            game.apply(action)
            restored = Game.from_snapshot(snap, rules=rules)
            restored.apply(action)
            assert json.dumps(restored.snapshot()) == json.dumps(game.snapshot())
            shown += action.flag == "show"
        if game.result.winners and game.result.wins[0].source == "declared":
            declared += 1
            assert game.table.extras["floats"] == [game.result.winners[0]]
    assert shown > 0


def test_pre_draw_declaration_wins_without_drawing():
    rules = PreDrawDeclare()
    game = stacked_game(["1z2z3z4z5z6z7z1p9p1m9m7s8s9s", "123m456p789s11z23s", "", ""], rules=rules)
    discard(game, "1z")
    assert game.current == ("predraw", (1,), -1, 1)
    wall_before = game.table.wall.live
    game.apply(Action("declare", 1, -1, (), "float"))
    assert game.table.wall.live == wall_before
    assert game.result.winners == (1,) and game.result.wins[0].source == "declared"
    assert game.result.payments == (-1, 3, -1, -1)


def test_head_bump_when_the_rules_allow_one_winner():
    """With ``multiple_winners = False`` only the first claimant in turn order from the discarder wins."""
    from hupai.rules.guangdong import GuangdongRules

    class HeadBump(GuangdongRules):
        multiple_winners = False

    hands = ["5p1z2z3z4z5z6z7z9s8s5m5m9m1s", "123m456s777s99m34p", "234m678m456s11s46p", "111p123p46p789p99p"]
    game = stacked_game(hands, rules=HeadBump(), draws="2z3z4z6z")
    discard(game, "1z")
    for _ in range(3):
        seat = game.current.seats[0]
        game.apply(Action("discard", seat, game.table.drawn))
        while game.current.phase == "claim":
            game.apply(Action("pass", game.current.seats[0]))
    discard(game, "5p", then_pass=False)
    for seat in (3, 2, 1):
        game.apply(Action("win", seat, 13))
    assert game.result.winners == (1,)
    assert game.result.payments == (-1, 1, 0, 0)


def test_default_claim_meld_takes_the_physical_tiles():
    """``Rules.claim_meld`` by default: a chow's tiles are its run, the discard among them; a pung or kong is of
    the discard's kind; the hand gives up the other tiles (what the engine always did)."""
    from hupai.hand import Meld

    game = stacked_game(["1z2z3z4z5z6z7z1p9p1s9s7p8p5m", "46m5m5m5m", "", ""])
    discard(game, "5m", then_pass=False)
    rules, table = game.rules, game.table
    used, meld = rules.claim_meld(table, Action("chow", 1, 4, (3, 4, 5)))
    assert used == (3, 5) and meld == Meld("chow", (3, 4, 5), claimed_from=0) and meld.claimed_tile == 4
    used, meld = rules.claim_meld(table, Action("pung", 1, 4))
    assert used == (4, 4) and meld == Meld("pung", (4,) * 3, claimed_from=0) and meld.claimed_tile == 4
    used, meld = rules.claim_meld(table, Action("kong", 1, 4, (), "exposed"))
    assert used == (4,) * 3 and meld == Meld("kong", (4,) * 4, claimed_from=0) and meld.claimed_tile == 4


class LastKong(Rules):
    """Every kong is the hand's last (Yunxiao's third kong, YX-23): win on its replacement or end the hand."""

    name = "toy-last-kong"
    capabilities = Capabilities(last_kong=True)

    def options_dict(self):
        return {}

    def replacement_ends_hand(self, table, seat):
        return True

    def score(self, context):
        return PreDrawDeclare.score(self, context)


def test_a_last_kong_offers_only_win_or_pass_and_pass_ends_the_hand_drawn():
    rules = LastKong()
    game = stacked_game(["1111z2z3z4z5z6z7z1p9p1s9s", "", "", ""], rules=rules, replacements="8m")
    game.apply(Action("kong", 0, 27, (), "concealed"))
    assert game.current == ("turn", (0,), 7, 0) and game.legal_actions(0) == (Action("pass", 0),)
    snap = json.loads(json.dumps(game.snapshot()))
    game.apply(Action("pass", 0))
    assert game.over and game.result.drawn and game.result.winners == ()
    assert [e.type for e in game.events][-3:] == ["draw", "drawn", "end"]
    restored = Game.from_snapshot(snap, rules=rules)
    restored.apply(Action("pass", 0))
    assert restored.to_json() == game.to_json() == Game.replay(game.to_json(), rules=rules).to_json()


def test_a_last_kong_replacement_may_win():
    game = stacked_game(["1111z123m456p789s5s", "", "", ""], rules=LastKong(), replacements="5s")
    game.apply(Action("kong", 0, 27, (), "concealed"))
    assert game.legal_actions(0) == (Action("win", 0, 22), Action("pass", 0))
    game.apply(Action("win", 0, 22))
    assert game.result.winners == (0,) and game.result.wins[0].source == "replacement"


def test_random_games_with_a_last_kong_end_at_the_kong_and_replay():
    """Over random games, a completed kong is the hand's last move but its maker's win or ``pass``."""
    rules = LastKong()
    ended_at_a_kong = 0
    for seed in range(10):
        game = _play(rules, seed)
        kongs = [a for a in game.actions if a.kind == "kong"]
        robbed = bool(game.result.wins) and game.result.wins[0].source == "robbed_kong"
        if kongs and not robbed:
            last = game.actions[-1]
            assert last.seat == kongs[-1].seat and last.kind in ("win", "pass") and "discard" not in [
                a.kind for a in game.actions[game.actions.index(kongs[-1]):]]
            ended_at_a_kong += 1
        assert Game.replay(game.to_json(), rules=rules).to_json() == game.to_json()
    assert ended_at_a_kong > 0  # the property was exercised


class CountsDiscards(ThreePlayerKongMoney):
    """Keeps its own per-seat discard count in ``extras`` through :meth:`Rules.on_discard`."""

    capabilities = Capabilities(chow_seats=True, on_discard=True)

    def on_deal(self, table):
        return (SetState("seen", [0, 0, 0]),)

    def on_discard(self, table, seat, tile):
        assert table.last_discard == tile and table.discarder == seat  # the discard is on the table
        assert table.pending == {}  # claims are offered after the hook
        seen = list(table.extras["seen"])
        seen[seat] += 1
        return (SetState("seen", seen),)


@pytest.mark.parametrize("seed", range(10))
def test_on_discard_runs_once_per_discard_before_claims(seed):
    game = Game(CountsDiscards(), seed=seed)
    play(game, [RandomBot(seed * 3 + i) for i in range(3)])
    assert game.table.extras["seen"] == list(game.table.discards_made)
    assert sum(game.table.extras["seen"]) == sum(1 for e in game.events if e.type == "discard")
