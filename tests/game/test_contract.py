"""The architecture's promises, checked (issue 8): rules read and never write, fast paths come from declared
capabilities, the engine names no rule system, and ``apply`` cannot be re-entered (the import direction:
``tests/test_import_graph.py``)."""

import ast
import pathlib

import hupai
import pytest
from hupai.bots import GreedyBot, RandomBot
from hupai.errors import HupaiError
from hupai.game import Action, Game, play
from hupai.rules.base import Rules
from hupai.rules.contract import Capabilities
from hupai.rules.guangdong.rules import GuangdongRules
from import_graph import imports

PACKAGE = pathlib.Path(hupai.__file__).parent


def _guard(rules: Rules, seen: list[str]) -> Rules:
    """Wrap every hook of ``rules`` (on the instance) so that a hook that changes the table fails the test."""
    for name in dir(type(rules)):
        if name.startswith("_") or name in ("score", "options_dict", "tiles", "seat_winds", "next_round"):
            continue
        method = getattr(rules, name)
        if not callable(method) or isinstance(getattr(type(rules), name), type):
            continue

        def guarded(*args, _method=method, _name=name, **kwargs):
            table = args[0] if args and hasattr(args[0], "to_json") else None
            before = None if table is None else (table.to_json(), list(table.ready))
            out = _method(*args, **kwargs)
            if table is not None:
                seen.append(_name)
                assert (table.to_json(), list(table.ready)) == before, f"{_name} changed the table"
            return out

        setattr(rules, name, guarded)
    return rules


@pytest.mark.parametrize("name", ["guangdong", "yunxiao", "kawuxing"])
@pytest.mark.parametrize("window", ["all", "eligible"])
def test_rule_hooks_never_change_the_table(name, window):
    """Rules read, the engine writes: every hook leaves the table exactly as it found it, in whole games."""
    seen: list[str] = []
    for seed in range(6):
        rules = _guard(hupai.rules.get(name), seen)
        n = rules.num_players
        bots = [GreedyBot(seed) if seat % 2 else RandomBot(seed) for seat in range(n)]
        game = Game(rules, seed=seed, dealer=seed % n, claim_window=window)
        play(game, bots)
    assert {"can_draw", "win_context", "next_dealer"} <= set(seen)
    if name == "yunxiao":
        assert {"on_deal", "on_discard", "claim_options", "completes", "kong_options"} <= set(seen)


def test_overriding_a_hook_needs_its_capability():
    """The engine calls only declared hooks, so an undeclared override is refused when the class is made."""
    with pytest.raises(TypeError, match="on_discard"):
        class Quiet(GuangdongRules):
            def on_discard(self, table, seat, tile):
                return ()
    with pytest.raises(TypeError, match="core_wins=False"):
        class OwnWins(GuangdongRules):
            def completes(self, table, seat, tile, in_hand):
                return False

    with pytest.raises(TypeError, match="wall_end=True"):
        class OwnWallEnd(GuangdongRules):
            def can_draw(self, table):
                return False

    class Declared(GuangdongRules):
        capabilities = Capabilities(on_discard=True)

        def on_discard(self, table, seat, tile):
            return ()

    play(Game(Declared(), seed=1), [RandomBot(i) for i in range(4)])


def test_the_wall_end_is_the_dead_wall_unless_the_rules_decide_it():
    """The engine checks ``dead_wall`` itself; a declared ``can_draw`` (``wall_end``) is asked instead."""
    class Short(GuangdongRules):
        def __init__(self):
            super().__init__()
            self.dead_wall = 60  # GD-8's option sets it too; here the engine's reading of it is checked

    class Asked(GuangdongRules):
        capabilities = Capabilities(wall_end=True)
        asked = 0

        def can_draw(self, table):
            Asked.asked += 1
            return table.wall.live > 60

    for seed in range(20):
        game = Game(Short(), seed=seed, claim_window="eligible")
        play(game, [RandomBot(i) for i in range(4)])
        assert game.table.wall.live >= 60
        if game.result.drawn:
            assert game.table.wall.live == 60
    game = Game(Asked(), seed=3, claim_window="eligible")
    play(game, [RandomBot(i) for i in range(4)])
    assert Asked.asked > 1 and game.table.wall.live >= 60


@pytest.mark.parametrize("name", ["guangdong", "yunxiao", "kawuxing", "waihuzi"])
def test_the_legal_actions_a_flow_hands_over_are_the_ones_it_would_find(name):
    """After an action the flow gives the shell the next plain turn's discards (Game.apply): they must be what
    an uncached legal_actions gives, at every step of whole games."""
    rules = hupai.rules.get(name)
    checked = 0
    for seed in range(4):
        game = Game(rules, seed=seed, claim_window="eligible")
        bots = [RandomBot(seed + i) for i in range(rules.num_players)]
        while not game.over:
            for seat, known in game._legal.items():
                assert known == game._flow.legal_actions(seat), (seed, len(game.actions), seat)
                checked += 1
            seat = game.seats_to_act[0]
            game.apply(bots[seat].act(game.observation(seat)))
    # Plain turns are handed over where the rules have them (Kawuxing's where Rules.turn_is_plain says so), and
    # every claim window's options (Yunxiao's turns ask their hooks: a gold); the zipai flow hands over every next
    # decision's (its turns and its offers).
    assert checked > 0


def test_plain_turns_follow_the_declaration():
    assert Capabilities().plain_turns
    assert not Capabilities(core_wins=False).plain_turns
    assert not Capabilities(forbidden_discards=True).plain_turns
    assert Capabilities(pre_draw=True, on_discard=True).plain_turns


def test_apply_cannot_be_reentered_from_a_rule_hook():
    """A hook that calls back into the game is refused, and the game is not changed by the inner call."""
    holder: dict[str, Game] = {}

    class Meddling(GuangdongRules):
        capabilities = Capabilities(on_discard=True)

        def on_discard(self, table, seat, tile):
            game = holder["game"]
            with pytest.raises(HupaiError, match="re-entered"):
                game.apply(Action("pass", (seat + 1) % 4))
            with pytest.raises(HupaiError, match="being applied"):
                game.legal_actions((seat + 2) % 4)
            holder["refused"] = holder.get("refused", 0) + 1
            return ()

    game = holder["game"] = Game(Meddling(), seed=5, claim_window="eligible")
    play(game, [RandomBot(i) for i in range(4)])
    assert holder["refused"] == sum(1 for a in game.actions if a.kind == "discard")
    assert Game.replay(game.to_json()).to_json() == game.to_json()  # nothing of the inner calls was logged


class _Sneaky(int):
    """An int whose comparison would call back into the game."""

    calls = 0

    def __eq__(self, other):
        _Sneaky.calls += 1
        return int(self) == other

    __hash__ = int.__hash__


def test_apply_cannot_be_reentered_while_legal_actions_are_found():
    class Asking(GuangdongRules):
        capabilities = Capabilities(forbidden_discards=True)

        def forbidden_discards(self, table, seat):
            with pytest.raises(HupaiError, match="finding legal actions"):
                game.apply(Action("discard", seat, table.drawn))
            return frozenset()

    game = Game(Asking(), seed=8, claim_window="eligible")
    play(game, [RandomBot(i) for i in range(4)])
    assert Game.replay(game.to_json()).to_json() == game.to_json()


def test_an_action_with_odd_field_types_runs_none_of_their_code():
    """``apply`` makes a plain copy of an unusual action before comparing it, and logs its own action."""
    game = Game("guangdong", seed=2, claim_window="eligible")
    seat = game.current.seats[0]
    tile = game.table.drawn
    game.apply(Action("discard", _Sneaky(seat), _Sneaky(tile)))
    assert _Sneaky.calls == 0
    assert type(game.actions[0].tile) is int and type(game.actions[0].seat) is int
    assert Game.replay(game.to_json()).to_json() == game.to_json()


def test_a_rule_bug_mid_action_leaves_a_game_that_refuses_to_go_on():
    """An exception inside a legal action's application (a rule system's bug) is reported as a HupaiError and the
    half-changed game refuses every further action instead of playing on from a corrupt state."""

    class Buggy(GuangdongRules):
        capabilities = Capabilities(on_discard=True)

        def on_discard(self, table, seat, tile):
            raise RuntimeError("boom")

    game = Game(Buggy(), seed=3, claim_window="eligible")
    seat = game.current.seats[0]
    with pytest.raises(HupaiError, match="boom"):
        game.apply(Action("discard", seat, game.table.drawn))
    with pytest.raises(HupaiError, match="can no longer be used"):
        game.apply(Action("pass", 1))
    with pytest.raises(HupaiError, match="can no longer be used"):
        game.legal_actions(2)


def test_the_engine_names_no_rule_system():
    """The engine has no branch on a rule system: nothing under game/ imports a rule package or names one."""
    systems = [name for name in hupai.rules.names()]
    wrong = []
    for edge in imports(PACKAGE):
        if edge.source.startswith("hupai.game") and any(edge.target.startswith(f"hupai.rules.{name}")
                                                         for name in systems):
            wrong.append(f"{edge.source} imports {edge.target}")
    for path in sorted((PACKAGE / "game").rglob("*.py")):
        code = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                         if not line.lstrip().startswith("#"))
        tree = ast.parse(code)
        defaults = {id(d) for f in ast.walk(tree) if isinstance(f, ast.arguments)
                    for d in (*f.defaults, *f.kw_defaults)}
        for node in ast.walk(tree):  # a default argument (``rules="guangdong"``) is a default, not a branch
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in systems
                    and id(node) not in defaults):
                wrong.append(f"{path.name} names {node.value!r}")
    assert not wrong, "\n".join(wrong)
