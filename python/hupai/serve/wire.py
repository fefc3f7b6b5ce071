"""The server's wire format: JSON to and from actions and observations, in one place.

Everything a client sends or receives about the game goes through these functions. They speak the versioned JSON
contract (schema version 2, :mod:`hupai.jsonform`): an action is :meth:`hupai.actions.Action.to_dict`'s dict
(tiles in notation; kinds accepted from a client), an observation :meth:`hupai.observation.Observation.to_dict`'s
(the browser page turns its tiles into kinds as it arrives, ``static/table.js``).

A client never names its seat: the seat is the one its token opened. An action that names another seat is
refused here, before the engine sees it.

Tiles travel in the table's own notation: a Wai Huzi (zipai) table's cards as ``x1``..``x10``, ``d1``..``d10``
(what its observations write), a mahjong table's tiles as ``1m``..``7z``; the stored action rows are written
the same way (:func:`action_to_wire`). An action in the other family's notation is refused with a clear error
(by :meth:`hupai.actions.Action.from_dict`, which reads one family only): ``"4p"`` and ``"d3"`` share an index, and
reading one as the other would play another card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from ..actions import Action
from ..errors import HupaiError
from ..rules.base import Rules
from ..tiles import NUM_KINDS as MAHJONG_KINDS
from ..zipai.cards import NUM_KINDS as ZIPAI_KINDS

__all__ = ["WireError", "action_from_wire", "action_from_store", "action_to_wire", "card_kinds", "facts_to_wire",
           "house_rules", "observation_to_wire", "pattern_names", "scoring_to_wire", "tile_faces"]

class WireError(HupaiError):
    """A message that is not what the wire format allows; ``code`` says which kind of refusal it is."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def card_kinds(rules: Rules) -> int:
    """How many tile kinds a table of ``rules`` plays with: 20 Wai Huzi cards (the zipai family), else 34."""
    return rules.num_kinds


def action_from_wire(data: Any, seat: int, rules: Rules) -> Action:
    """The action a client sent for ``seat`` (its token's) at a table of ``rules``: the shape and the notation
    (the table's own, :func:`action_to_wire`; :meth:`Action.from_dict` refuses the other family's) are checked
    here, legality by the game."""
    if not isinstance(data, dict):
        raise WireError("malformed", "an action is a JSON object")
    if "seat" in data and data["seat"] != seat:
        raise WireError("forbidden", f"this token plays seat {seat}, not {data['seat']!r}")
    try:
        return Action.from_dict({**data, "seat": seat}, card_kinds(rules))
    except HupaiError as error:
        raise WireError("malformed", str(error)) from None


def action_from_store(data: Any, rules: Rules) -> Action:
    """An action row the server stored (:func:`action_to_wire`'s form, its seat included), read back with the
    same checks as a client's."""
    if not isinstance(data, dict) or type(data.get("seat")) is not int:
        raise WireError("malformed", "a stored action is a JSON object with its seat")
    return action_from_wire(data, data["seat"], rules)


def action_to_wire(action: Action, rules: Rules) -> dict[str, Any]:
    """An action as the wire and the stored action rows write it: in the table's notation (a Wai Huzi card as
    ``d3``, not the mahjong tile of the same index)."""
    return action.to_dict(card_kinds(rules))


def observation_to_wire(observation: Any) -> dict[str, Any]:
    """An observation (any rule family's: each has ``to_dict``) as plain JSON data."""
    data: dict[str, Any] = observation.to_dict()
    return data


def facts_to_wire(rules: Rules, extras: Mapping[str, Any]) -> list[dict[str, Any]]:
    """An observation's public ``extras`` as the rule system describes them (:meth:`hupai.rules.Rules.describe_facts`:
    labelled items, tiles in the table's notation): a state message's ``facts``, which a client shows as they come
    (the observation itself keeps its own JSON form).

    Every seat of a table gets the same facts after a change, and most changes leave them as they were: the
    described facts of the last extras seen are kept per rule object (the extras of an observation are frozen:
    tuples, hashable) and given again, read-only, while the extras are equal."""
    try:
        key = tuple(extras.items())
        hash(key)  # frozen values only: a list could change in place under an equal-looking key
        cached = _FACTS.get(id(rules))
        if cached is not None and cached[0] is rules and cached[1] == key:
            return cached[2]
    except TypeError:  # an unhashable value (a list): described every time
        key = None
    kinds = card_kinds(rules)
    facts = [fact.to_dict(kinds) for fact in rules.describe_facts(extras)]
    if key is not None:
        if len(_FACTS) >= _FACTS_KEPT:
            _FACTS.clear()
        _FACTS[id(rules)] = (rules, key, facts)
    return facts


#: rule object's id -> (the rule object, the last extras' items, their described facts) for :func:`facts_to_wire`.
_FACTS: dict[int, tuple[Rules, tuple[tuple[str, Any], ...], list[dict[str, Any]]]] = {}
_FACTS_KEPT = 4096


def scoring_to_wire(result: Any) -> list[dict[str, Any]] | None:
    """How each win of a finished hand was counted, for the result screen: ``[{"seat", "details"}]``, the score's
    details as the rule system records them (Guangdong: the share and who pays under which rule; Wai Huzi: each
    group with its 息, the 名堂 and 元 factors; Yunxiao: its scoring row; Kawuxing: its factors). A state
    message's optional ``scoring``; None while the hand is played (the result is public once the hand is over,
    every hand laid open)."""
    if result is None:
        return None
    return [{"seat": win.seat, "details": win.score.to_dict()["details"]} for win in result.wins]


def house_rules(rules: Rules) -> list[dict[str, Any]]:
    """The rule system's house rules (options declared ``house=True`` with a few choices), for the lobby:
    ``[{"name", "rule", "doc", "choices", "default"}]``, the default (the spec's reading) first."""
    options = getattr(rules, "options", None)  # a rule package's RuleOptions (the base Rules declares none)
    if options is None or not is_dataclass(options):
        return []
    out = []
    for spec in fields(options):
        kind = spec.metadata.get("option")
        choices = getattr(kind, "choices", ())
        if kind is not None and kind.house and choices:
            out.append({"name": spec.name, "rule": kind.rule, "doc": kind.doc, "choices": list(choices),
                        "default": choices[0]})
    return out


def pattern_names(rules: Rules) -> dict[str, dict[str, str]]:
    """The Chinese and English name of every pattern a result of ``rules`` may report (``{"qing_yi_se": {"zh":
    "清一色", "en": "All One Suit"}}``), from the rule package's own tables: a table's ``patterns``."""
    return {name: {"zh": zh, "en": en} for name, (zh, en) in rules.pattern_names().items()}


def tile_faces(rules: Rules) -> list[list[str]]:
    """How the browser draws each tile kind of ``rules``: ``[glyph, label]``, the Unicode mahjong tile (or the
    zipai card's character) and its notation (``5m``, ``d10``), shown under it: readable where no font has
    the glyph."""
    if rules.family == "zipai":
        from ..zipai.cards import card_name
        return [[card_name(kind, "chinese"), card_name(kind)] for kind in range(ZIPAI_KINDS)]
    from ..tiles import format_tiles
    return [[format_tiles([kind], style="unicode"), format_tiles([kind])] for kind in range(MAHJONG_KINDS)]
