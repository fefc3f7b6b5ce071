"""The replay viewer (issue 24 item 3): every finished hand's frames from its log, face up, never the seed; the
self-contained HTML page and `hupai replay LOG --html OUT`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import hupai
import pytest
from hupai.bots import GreedyBot
from hupai.game import Game, play
from hupai.serve.wire import facts_to_wire
from hupai.viewer import frames, replay_html

SEED = 2**63 + 424242
SYSTEMS = ["guangdong", "yunxiao", "kawuxing", "waihuzi"]


def _log(system: str, seed: int = SEED) -> str:
    game = Game(system, seed=seed)
    play(game, [GreedyBot(s) for s in range(game.rules.num_players)])
    return game.to_json()


@pytest.mark.parametrize("system", SYSTEMS)
def test_frames_follow_the_hand_step_by_step_and_hold_no_seed(system: str) -> None:
    log = _log(system)
    data = frames(log)
    actions = json.loads(log)["actions"]
    assert len(data["frames"]) == len(actions) + 1
    final = Game.replay(log)
    last = data["frames"][-1]
    for seat in range(final.rules.num_players):  # the last frame is the final table, every hand face up
        assert sorted(last["hands"][seat]) == sorted(
            hupai.jsonform.tile_out(t, len(final.table.hands[0])) for t in final.observation(seat).hand)
    for index, frame in enumerate(data["frames"][1:]):
        assert frame["action"]["seat"] == actions[index]["seat"]
        assert frame["action"]["kind"] == actions[index]["kind"]
    assert data["result"]["payments"] == list(final.result.payments)
    text = json.dumps(data)
    assert str(SEED) not in text and '"seed"' not in text


def test_the_page_is_self_contained_and_script_safe() -> None:
    page = replay_html([_log("guangdong"), _log("waihuzi")], title="<b>x</b>")
    assert str(SEED) not in page
    assert "<b>x</b>" not in page and "&lt;b&gt;" in page
    # Nothing from outside: no script, style, image or link fetched (an SVG namespace URI is a name, not a fetch).
    assert "src=" not in page and not re.search(r"(href|url)\s*[=(]\s*[\"']?https?:", page)
    assert "HupaiTiles" in page and "HupaiText" in page  # the table's own tile art and words, inlined
    opening = '<script id="hands" type="application/json">'
    start = page.index(opening) + len(opening)
    embedded = page[start:page.index("</script>", start)]
    assert "<" not in embedded  # no string in a log can close the script element
    assert len(json.loads(embedded)) == 2


def test_unfinished_or_tampered_logs_are_refused() -> None:
    game = Game("guangdong", seed=1)
    with pytest.raises(hupai.HupaiError):
        frames(game.to_json())  # not over
    log = json.loads(_log("kawuxing"))
    log["actions"][3]["tile"] = 33
    with pytest.raises(hupai.InvalidState):
        frames(log)
    with pytest.raises(hupai.HupaiError):
        replay_html([])


def test_cli_writes_the_viewer(tmp_path: Path) -> None:
    log = tmp_path / "hand.json"
    log.write_text(_log("yunxiao"), encoding="utf-8")
    out = tmp_path / "hand.html"
    done = subprocess.run([sys.executable, "-m", "hupai", "replay", str(log), "--html", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert "yunxiao" in page and str(SEED) not in page
    bad = subprocess.run([sys.executable, "-m", "hupai", "replay", str(log), "--html", str(tmp_path / "no" / "x.html")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "cannot write" in bad.stderr and "Traceback" not in bad.stderr


def test_the_viewer_steps_in_chromium(tmp_path: Path) -> None:
    """Headless Chromium (Debian's, driven by Playwright) opens the file, steps forwards, backwards and to the end,
    and the result with its patterns in Chinese shows; a screenshot goes to tests/artifacts/."""
    import shutil
    sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright")
    executable = next((found for name in ("chromium", "chromium-browser", "google-chrome")
                       if (found := shutil.which(name))), None)
    if executable is None:
        pytest.skip("no Chromium: apt-get install chromium (.ci/run installs it)")
    out = tmp_path / "replay.html"
    out.write_text(replay_html([_log("kawuxing"), _log("guangdong")]), encoding="utf-8")
    artifacts = Path(__file__).resolve().parent / "artifacts"
    artifacts.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone-sized viewport
        page.goto(out.as_uri())
        assert "action 0 /" in page.inner_text("#where")
        page.click("#next")
        page.click("#next")
        assert "action 2 /" in page.inner_text("#where")
        page.click("#back")
        assert "action 1 /" in page.inner_text("#where")
        page.keyboard.press("ArrowRight")
        assert "action 2 /" in page.inner_text("#where")
        page.click("#last")
        assert "payments" in page.inner_text("#result").lower()
        assert page.locator("#table .tile svg").count() > 20  # the table's SVG tiles
        page.select_option("#hand", "1")
        assert "guangdong" in page.inner_text("#info").lower()
        page.click("#last")
        page.screenshot(path=str(artifacts / "replay_viewer.png"), full_page=True)
        browser.close()


@pytest.mark.parametrize("system", SYSTEMS)
def test_facts_are_described_and_patterns_named_by_the_rule_package(system: str) -> None:
    """No raw JSON nor pattern ids for people: the facts as the rule system describes them, each pattern's
    Chinese and English name from the rule package's own table."""
    log = _log(system)
    data = frames(log)
    final = Game.replay(log)
    names = final.rules.pattern_names()
    for frame in data["frames"]:
        assert all(set(fact) >= {"zh", "en", "text"} for fact in frame["facts"])
    assert data["frames"][-1]["facts"] == facts_to_wire(final.rules, final.observation(0).extras)
    for win in data["result"]["wins"]:
        for pattern in win["patterns"]:
            assert (pattern["chinese"], pattern["english"]) == names[pattern["name"]]
    assert data["result"]["unit"] == final.rules.pattern_unit
