"""A hand's replay as data and as one self-contained HTML page (``hupai replay LOG --html OUT.html``).

:func:`frames` replays a finished hand's log through the engine (so a tampered log is refused with
:class:`hupai.InvalidState`, as :meth:`hupai.Game.replay` refuses it) and records the table after every action:
every seat's hand face up (the hand is over: the viewer shows what each seat held at each step), melds, discards,
the live wall's size, who was to act, the rule system's public facts as it describes them
(:func:`hupai.serve.wire.facts_to_wire`) and the result, its patterns named in Chinese and English from the rule
package's own tables (:meth:`hupai.rules.Rules.pattern_names`). It never holds the seed or
the order of the wall's undrawn tiles. :func:`replay_html` writes the viewer, with the frames of one or more
hands inside it: forwards, backwards, jump to an action, plain HTML/CSS/JS with no outside file.
:func:`viewer_html` writes the same viewer over hands it fetches one at a time, when each is picked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from ..errors import HupaiError
from ..game import Game
from ..jsonform import tile_out
from ..serve.wire import facts_to_wire, tile_faces

__all__ = ["frames", "replay_html", "viewer_html"]

#: A log longer than this many actions is not a hand this engine could have played.
MAX_ACTIONS = 5_000


def _table(game: Game, kinds: int) -> dict[str, Any]:
    n = game.rules.num_players
    public = game.observation(0)
    views = [game.observation(seat) for seat in range(n)]
    return {
        "hands": [[tile_out(tile, kinds) for tile in views[seat].hand] for seat in range(n)],
        "melds": [[{"type": meld.type, "tiles": [tile_out(t, kinds) for t in meld.tiles]}
                   for meld in views[seat].melds[seat]] for seat in range(n)],
        "discards": [[tile_out(t, kinds) for t in pile] for pile in public.discards],
        "wall": public.wall_left, "phase": public.phase, "to_act": list(public.to_act),
        "tile": tile_out(public.tile, kinds), "facts": facts_to_wire(game.rules, public.extras),
    }


def frames(log: str | Mapping[str, Any]) -> dict[str, Any]:
    """The replay of one finished hand: ``{"rules", "options", "dealer", "num_players", "faces", "frames",
    "result"}``; ``frames[i]`` is the table after ``i`` actions, with the action that led to it."""
    final = Game.replay(log)  # the whole log checked before anything is built
    if not final.over:
        raise HupaiError("the viewer shows finished hands only (every hand face up): this one is not over")
    data = json.loads(log) if isinstance(log, str) else log
    actions = data["actions"]
    if len(actions) > MAX_ACTIONS:
        raise HupaiError(f"a log of {len(actions)} actions is longer than any hand ({MAX_ACTIONS})")
    kinds = len(final.table.hands[0])
    game = Game.replay(data, upto=0)
    out = [{"action": None, **_table(game, kinds)}]
    for action in actions:
        game.apply(action)
        out.append({"action": _describe(action, kinds), **_table(game, kinds)})
    result = final.result
    assert result is not None
    names = final.rules.pattern_names()
    setup = data.get("setup", {})
    return {
        "rules": final.rules.name, "options": final.rules.options_dict(), "dealer": setup.get("dealer"),
        "num_players": final.rules.num_players,
        "faces": {label: glyph for glyph, label in tile_faces(final.rules)}, "frames": out,
        "result": {"winners": list(result.winners), "payments": list(result.payments), "drawn": result.drawn,
                   "unit": final.rules.pattern_unit,
                   "wins": [{"seat": win.seat, "tile": tile_out(win.tile, kinds), "value": win.score.value,
                             "source": win.source, "discarder": win.discarder,
                             "payments": list(win.score.payments), "details": win.score.to_dict()["details"],
                             "patterns": [{"name": p.name, "chinese": names.get(p.name, (p.chinese, ""))[0],
                                           "english": names.get(p.name, ("", p.name))[1], "value": p.value}
                                          for p in win.score.patterns]}
                            for win in result.wins]},
    }


def _describe(action: Mapping[str, Any], kinds: int) -> dict[str, Any]:
    """A logged action (format 1: tiles as ints, checked by the replay) with its tiles in notation."""
    out: dict[str, Any] = {"seat": action["seat"], "kind": action["kind"]}
    if action.get("tile", -1) >= 0:
        out["tile"] = tile_out(action["tile"], kinds)
    if action.get("tiles"):
        out["tiles"] = [tile_out(t, kinds) for t in action["tiles"]]
    if action.get("flag"):
        out["flag"] = action["flag"]
    return out


def _script_safe(data: Any) -> str:
    """JSON that cannot end the ``<script>`` element it is put in (a log's strings are untrusted)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def replay_html(logs: Sequence[str | Mapping[str, Any]], title: str = "hupai replay") -> str:
    """The viewer as one HTML page holding the replay of every hand of ``logs``."""
    if not logs:
        raise HupaiError("no hand to show")
    return viewer_html([frames(log) for log in logs], title)


def viewer_html(hands: Sequence[Mapping[str, Any]], title: str = "hupai replay") -> str:
    """The viewer page over ``hands``: each a hand's replay (:func:`frames`), or ``{"src": URL}``, a hand
    the page fetches (as :func:`frames` JSON) only when it is picked (the server's replay pages)."""
    template = resources.files(__package__).joinpath("replay.html").read_text(encoding="utf-8")
    safe_title = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (template.replace("{{TITLE}}", safe_title).replace("{{SCRIPTS}}", _shared_scripts())
            .replace("{{HANDS}}", _script_safe(list(hands))))


def _shared_scripts() -> str:
    """The browser table's words and tile art (``serve/static/i18n.js``, ``tiles.js``), inlined: the viewer draws
    the same tiles with the same words, and stays one file that needs nothing from outside."""
    static = resources.files("hupai.serve").joinpath("static")
    return "\n".join(static.joinpath(name).read_text(encoding="utf-8").replace("</", "<\\/")
                     for name in ("i18n.js", "tiles.js"))
