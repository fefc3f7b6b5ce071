"""The shared options base (hupai.rules.options): checks, messages, to_dict / from_mapping, descriptions.

A toy options class declares one option of each kind the four specs' tables use (a positive int, an optional
cap, a choice with ``None``, a flag, a list of ints); Guangdong's and Yunxiao's real classes are checked for the
log form and the descriptions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

import pytest
from hupai import HupaiError
from hupai.rules.guangdong.options import GuangdongOptions
from hupai.rules.options import RuleOptions, choice, flag, int_list, integer
from hupai.rules.yunxiao.options import YunxiaoOptions


@dataclass(frozen=True)
class ToyOptions(RuleOptions):
    system: ClassVar[str] = "Toy"

    base: int = integer(1, minimum=1, rule="KW-3", doc="V = base x product")
    cap: int | None = integer(None, minimum=1, optional=True, rule="KW-24", doc="limit of the product")
    shen: str | None = choice(None, "odd", "even", rule="WH-5", doc="the session 神's parity")
    haidilao: bool = flag(True, rule="WH-35", doc="海底捞 counts")
    reserve: tuple[int, int] = int_list((3, 4), minimum=0, rule="YX-12", doc="two reserves")


def test_defaults_round_trip_through_json() -> None:
    options = ToyOptions()
    assert options.to_dict() == {"base": 1, "cap": None, "shen": None, "haidilao": True, "reserve": [3, 4]}
    assert ToyOptions.from_mapping(json.loads(json.dumps(options.to_dict()))) == options
    changed = ToyOptions.from_mapping({"cap": 16, "shen": "odd", "reserve": [0, 9]})
    assert changed.reserve == (0, 9) and hash(changed) == hash(ToyOptions(cap=16, shen="odd", reserve=(0, 9)))
    assert ToyOptions.from_mapping(changed) is changed


@pytest.mark.parametrize("mapping, message", [
    ({"horses": 4}, r"unknown Toy option 'horses' \(known: base, cap, haidilao, reserve, shen\)"),
    ({"horses": 4, "buy": 1}, "unknown Toy options 'buy', 'horses'"),
    ({"base": 0}, "Toy option 'base' must be >= 1, got 0"),
    ({"base": True}, "Toy option 'base' must be an int >= 1, got True"),
    ({"base": 2.0}, "'base' must be an int >= 1"),
    ({"cap": 0}, "'cap' must be >= 1 or None"),
    ({"cap": "16"}, "'cap' must be an int >= 1 or None"),
    ({"shen": "red"}, "'shen' must be one of None, 'odd', 'even', got 'red'"),
    ({"haidilao": 1}, "'haidilao' must be true or false, got 1"),
    ({"reserve": [1]}, "'reserve' must be a list of 2 ints >= 0"),
    ({"reserve": "12"}, "'reserve' must be a list of 2 ints >= 0"),
    ({"reserve": [1, -1]}, "'reserve' must be a list of 2 ints >= 0"),
])
def test_bad_names_and_values_name_the_option_and_the_allowed_values(mapping: dict[str, object],
                                                                    message: str) -> None:
    with pytest.raises(HupaiError, match=message):
        ToyOptions.from_mapping(mapping)


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(HupaiError, match="'base' must be >= 1"):
        ToyOptions(base=0)
    with pytest.raises(HupaiError, match="must be a mapping"):
        ToyOptions.from_mapping([("base", 1)])  # type: ignore[arg-type]


def test_an_option_declared_without_a_helper_is_refused() -> None:
    @dataclass(frozen=True)
    class Sloppy(RuleOptions):
        base: int = 1

    with pytest.raises(HupaiError, match="Sloppy.base is not declared"):
        Sloppy()


def test_describe_lists_every_option_with_its_rule() -> None:
    described = {info.name: info for info in ToyOptions.describe()}
    assert list(described) == ["base", "cap", "shen", "haidilao", "reserve"]
    assert described["reserve"].default == [3, 4] and described["reserve"].rule == "YX-12"
    assert described["shen"].allowed == "None, 'odd', 'even'"


@pytest.mark.parametrize("options_class, prefix", [(GuangdongOptions, "GD-"), (YunxiaoOptions, "YX-")])
def test_rule_systems_describe_their_spec_tables(options_class: type[RuleOptions], prefix: str) -> None:
    infos = options_class.describe()
    defaults = options_class().to_dict()
    # The log form names every option, in the spec table's order, and the descriptions agree with it.
    assert [info.name for info in infos] == list(defaults)
    for info in infos:
        assert info.rule.startswith(prefix) and info.doc, info
        assert info.default == defaults[info.name]


def test_gd_yx_log_form_is_what_logs_recorded() -> None:
    """Logs record to_dict(): the exact dicts recorded before the shared base, key order included."""
    assert list(GuangdongOptions().to_dict().items()) == [
        ("base", 1), ("discard_pays", "one"), ("cap_fan", 3), ("seat_wind", "dealer_east"), ("louhu", "same_kind"),
        ("wall_reserve", 0)]
    assert list(YunxiaoOptions().to_dict().items()) == [
        ("base_points", 1), ("scoring", "points_000"), ("wall_end_reserve", [34, 38, 40]), ("max_kongs", 3),
        ("buda_loose", False), ("louhu", "same_kind")]


@dataclass(frozen=True)
class HouseToy(ToyOptions):
    scope: str = choice("spec", "seed", rule="KW-10", doc="a house rule", house=True)
    strict: bool = flag(False, rule="WH-37", doc="a house flag", house=True)


def test_house_rules_are_logged_only_when_set() -> None:
    """A house rule at its default is left out of to_dict (logs recorded before it existed replay unchanged); set,
    it is recorded and reads back; describe() lists it always, marked."""
    assert HouseToy().to_dict() == ToyOptions().to_dict()
    changed = HouseToy(scope="seed", strict=True)
    assert changed.to_dict() == {**ToyOptions().to_dict(), "scope": "seed", "strict": True}
    assert HouseToy.from_mapping(json.loads(json.dumps(changed.to_dict()))) == changed
    assert HouseToy.from_mapping(ToyOptions().to_dict()) == HouseToy()
    house = {info.name: info.house for info in HouseToy.describe()}
    assert house == {"base": False, "cap": False, "shen": False, "haidilao": False, "reserve": False, "scope": True,
                     "strict": True}
    with pytest.raises(HupaiError, match="'scope' must be one of 'spec', 'seed'"):
        HouseToy(scope="other")
