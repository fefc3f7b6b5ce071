"""The browser table end to end (issues 24 and 33): headless Chromium (Debian's, driven by Playwright) opens a table
of each rule system against server-side bots and plays it as a person would: a tile of the hand to discard it (by
mouse, and by keyboard), a claim's button when one is offered, 胡 when it can. Along the way the viewport changes
between a desktop, two portrait phones (375x667, 390x844) and a landscape phone (844x390), and at every decision
the hand and every action button must be on the screen, at least 40 px a side. It checks the layout (seats facing
each other, each seat's tiles turned to face it, you at the bottom, ponds in discard order, the centre line saying
whose turn it is), a claimed tile's flight into its meld (none with reduced motion), the result screen
(each pattern's Chinese and English name, the total, who pays whom; next hand; at the match's end new match and
back to the lobby), the language switch (remembered), the spectator page, that no id is used twice, that nothing
is logged as an error, and an automated accessibility check (axe-core) where it is installed. One server and one
Chromium serve the whole module, each system's seed has a claim and a win in its first hand, and the page is
waited on, never slept on (CI's budget). Screenshots go to tests/artifacts/table_*.png."""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import free_port, new_table, server

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
STATIC = Path(__file__).resolve().parents[2] / "python" / "hupai" / "serve" / "static"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 667}
TALL_PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
SIZES = [DESKTOP, PHONE, TALL_PHONE, LANDSCAPE]
#: A fact each system's table shows from the first state: its Chinese label.
FIRST_FACT = {"guangdong": "封顶", "yunxiao": "金", "kawuxing": "亮倒", "waihuzi": "神"}
CLAIM_KINDS = ("pung", "chow", "kong", "wai", "liu", "piao")
#: What no player should read: raw ids and developer words.
RAW = re.compile(r"\b[a-z]+_[a-z]+\b|\bseat \d\b|\bnull\b|\bundefined\b|\[object|NaN|\|")


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium: apt-get install chromium (.ci/run installs it)")


# ---- No browser needed ------------------------------------------------------------------------------------------

class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids += [value for name, value in attrs if name == "id" and value]


def test_the_page_uses_every_id_once_and_the_script_finds_each() -> None:
    """Issue 33's bug: ``id="turn"`` was both the lobby's turn-timer input and the table's centre line, so the
    centre never said whose turn it was. Every id of index.html is unique, and every ``$("id")`` of table.js
    names one of them (or one the script makes itself)."""
    parser = _Ids()
    parser.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    ids = parser.ids
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    script = (STATIC / "table.js").read_text(encoding="utf-8")
    made = set(re.findall(r'\bid: "([\w-]+)"', script))
    wanted = set(re.findall(r'\$\("([\w-]+)"\)', script))
    assert wanted - made <= set(ids), wanted - made - set(ids)


def test_every_word_the_pages_ask_for_is_in_the_dictionary_in_both_languages() -> None:
    """The words of the table, the spectator page and the replay viewer come from one dictionary (i18n.js), each
    in Chinese and English: a key the pages ask for that the dictionary lacks would show as the key itself."""
    dictionary = (STATIC / "i18n.js").read_text(encoding="utf-8")
    entries = dict(re.findall(r'^ {4}(\w+): \["([^"]*)", "[^"]*"\],', dictionary, re.M))
    english = dict(re.findall(r'^ {4}(\w+): \["[^"]*", "([^"]*)"\],', dictionary, re.M))
    assert len(entries) > 100 and all(entries.values()) and all(english.values())
    pages = (STATIC / "table.js").read_text(encoding="utf-8") + \
        (STATIC.parent.parent / "viewer" / "replay.html").read_text(encoding="utf-8")
    asked = set(re.findall(r'T\.(?:t|both)\("(\w+)"', pages)) | set(re.findall(r'data-i18n="(\w+)"', (
        STATIC / "index.html").read_text(encoding="utf-8")))
    prefixes = {key for key in asked if key.endswith("_")}  # T.t("act_" + kind): a family of entries
    assert all(any(entry.startswith(prefix) for entry in entries) for prefix in prefixes)
    assert asked - prefixes <= set(entries), asked - prefixes - set(entries)


# ---- One server and one Chromium for the module -----------------------------------------------------------------

class Site:
    def __init__(self, client: Any, browser: Any, base: str, log: Path) -> None:
        self.client, self.browser, self.base, self.log = client, browser, base, log

    @contextmanager
    def page(self, viewport: dict[str, int] = DESKTOP, **options: Any) -> Iterator[tuple[Any, list[str]]]:
        """A new page (its own storage); yields it and its errors (uncaught exceptions and console errors)."""
        context = self.browser.new_context(viewport=viewport, locale="en-US", **options)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        try:
            yield page, errors
        finally:
            context.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="the server-test extra brings playwright")
    import httpx

    executable = chromium()
    tmp = tmp_path_factory.mktemp("browser")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with server(f"sqlite:///{tmp / 'browser.db'}", port, tmp / "server.log"), \
            httpx.Client(base_url=base, timeout=10) as client, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        try:
            yield Site(client, browser, base, tmp / "server.log")
        finally:
            browser.close()


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def unique_ids(page: Any) -> None:
    ids = page.eval_on_selector_all("[id]", "els => els.map(e => e.id)")
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


#: Everything a turn of :func:`play_through` looks at, read in one call (each call to the browser costs a round
#: trip, and a loaded machine makes round trips slow).
SNAPSHOT = """() => {
  const shown = (e) => Boolean(e) && !e.hidden && e.getClientRects().length > 0;
  const box = (e) => { const r = e.getBoundingClientRect();
    return [e.id || e.dataset.kind || 'tile', r.left, r.top, r.right, r.bottom, r.width, r.height]; };
  return {
    decision: document.body.dataset.decision,
    result: shown(document.querySelector('#result')),
    boxes: [...document.querySelectorAll('#hand button, #actions button')].map(box),
    wide: [...document.querySelectorAll('body *:not(#callout *)')].filter(e =>
      e.getBoundingClientRect().right > innerWidth + 0.5 && e.getClientRects().length).map(e => e.id || e.className)
      .slice(0, 5),
    scrollWidth: document.documentElement.scrollWidth, scrollTop: document.scrollingElement.scrollTop,
    timer: shown(document.querySelector('#timer')),
    last: document.querySelectorAll('#seats .pond .tile.last').length,
    pond: document.querySelectorAll('#seats .pond .tile').length,
    rows: [...document.querySelectorAll('#seats .seat .hand-row')].map(r => [+r.dataset.count,
      r.querySelectorAll('.tile.shown').length, r.querySelectorAll('.tile.back').length]),
    turn: document.querySelector('#turn-line').textContent,
    actions: [...document.querySelectorAll('#actions button:enabled')].map(b => [b.dataset.kind, b.innerText]),
    tiles: document.querySelectorAll('#hand button.playable:enabled').length,
  };
}"""
#: A decision the page has not answered yet (its buttons live), or the hand's result: what play_through waits for.
READY = """(seen) => {
  const result = document.querySelector('#result');
  if (result && !result.hidden) return true;
  return document.body.dataset.decision !== seen &&
    document.querySelector('#actions button:enabled, #hand button.playable:enabled') !== null;
}"""


def fits(snap: dict[str, Any], size: dict[str, int]) -> None:
    """At a decision: the hand and every action button inside the viewport (no scrolling), each at least 40 px
    a side (a finger's touch target), and the page no wider than the screen."""
    assert snap["boxes"], "no hand on the page"
    for name, left, top, right, bottom, width, height in snap["boxes"]:
        where = f"{name} at ({left:.0f},{top:.0f})-({right:.0f},{bottom:.0f}) on {size['width']}x{size['height']}"
        assert left >= -0.5 and top >= -0.5 and right <= size["width"] + 0.5 and bottom <= size["height"] + 0.5, where
        assert width >= 40 - 0.5 and height >= 40 - 0.5, f"{where}: {width:.0f}x{height:.0f} px"
    assert not snap["wide"] and snap["scrollWidth"] <= size["width"], snap["wide"]
    assert snap["scrollTop"] == 0


class Played:
    """What playing through the page did."""

    def __init__(self) -> None:
        self.discards = self.claims = self.passes = self.keyboard = self.decisions = self.resizes = 0
        self.timed = self.marked = self.pond = False
        self.turn_lines: set[str] = set()
        self.sizes: set[tuple[int, int]] = set()
        self.shots: set[str] = set()
        self.labels: list[str] = []  # the claim buttons clicked, as they read
        self.shown = 0  # the most tiles a rule showed face up in another seat's hand (亮倒)


def play_through(page: Any, played: Played, *, claim: bool = True, limit: float = 120, resize: bool = True,
                 name: str = "") -> None:
    """Play the open hand through the page until its result shows: win when offered, claim when offered (pass
    otherwise), else discard the hand's last tile. Each decision is checked by :func:`fits`, and met at the next
    viewport size of SIZES (the first eight, then those offering more than a pass); every fourth discard is made
    by keyboard, and most passes. The page is waited on (a
    decision of its own to answer), never slept on: the bots think no time, so the table stands still while a
    decision of the page's is open."""
    seen: str | None = None
    deadline = time.monotonic() + limit
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the hand did not end"
        page.wait_for_function(READY, arg=seen, timeout=left * 1000)
        snap = page.evaluate(SNAPSHOT)
        played.pond = played.pond or snap["pond"] >= 3
        if snap["result"]:
            return
        seen = snap["decision"]
        played.decisions += 1
        size = page.viewport_size
        kinds = [kind for kind, _ in snap["actions"]]
        bare_pass = kinds == ["pass"] and not snap["tiles"]  # an offer of nothing but passing: the most common
        if resize and (played.decisions <= 2 * len(SIZES) or not bare_pass):
            played.resizes += 1
            size = SIZES[played.resizes % len(SIZES)]
            if page.viewport_size != size:
                page.set_viewport_size(size)
                page.wait_for_function("([w, h]) => innerWidth === w && innerHeight === h",
                                       arg=[size["width"], size["height"]])
                snap = page.evaluate(SNAPSHOT)
            played.sizes.add((size["width"], size["height"]))
        fits(snap, size)
        shot = f"{size['width']}x{size['height']}"
        if name and resize and shot not in played.shots:  # the table at a decision, once per size
            played.shots.add(shot)
            shoot(page, f"{name}_{shot}")
        played.timed = played.timed or snap["timer"]
        played.marked = played.marked or snap["last"] == 1
        played.shown = max(played.shown, hands_drawn_once(snap["rows"]))
        played.turn_lines.add(snap["turn"])
        claims = [(kind, label) for kind, label in snap["actions"] if kind in CLAIM_KINDS]
        by_keyboard = played.decisions % 4 == 3
        if "win" in kinds:
            page.click("#actions button[data-kind=win]:enabled")
        elif claim and claims:
            played.labels.append(claims[0][1])
            page.click(f"#actions button[data-kind={claims[0][0]}]:enabled >> nth=0")
            played.claims += 1
        elif "pass" in kinds:
            if played.passes % 4 != 1:  # most passes by key (one round trip to the browser), some by mouse
                page.keyboard.press("p")
                played.keyboard += 1
            else:
                page.click("#actions button[data-kind=pass]:enabled")
            played.passes += 1
        elif snap["tiles"]:
            last = page.locator("#hand button.playable:enabled").last
            if by_keyboard:  # focus the hand, walk it with the arrows, Enter discards
                last.focus()
                page.keyboard.press("ArrowRight")
                page.keyboard.press("ArrowLeft")
                page.keyboard.press("Enter")
                played.keyboard += 1
            else:
                last.click()
            played.discards += 1
        else:
            page.click("#actions button:enabled >> nth=0")


def hands_drawn_once(rows: list[list[int]]) -> int:
    """Every other seat's hand is drawn once: its face-up tiles (a 亮倒 hand) and face-down ones together are
    as many as the seat holds. Returns the most face-up tiles one seat shows."""
    for count, shown, hidden in rows:
        assert shown + hidden == count, rows
    return max((shown for _, shown, _ in rows), default=0)


def hand_rows(page: Any) -> list[list[int]]:
    rows: list[list[int]] = page.evaluate(SNAPSHOT)["rows"]
    return rows


def facts_panel(page: Any) -> list[tuple[str, str]]:
    """The facts panel as (label, value) pairs; no value is JSON."""
    labels, values = page.evaluate("() => ['dt', 'dd'].map(tag => [...document.querySelectorAll('#facts ' + tag)]"
                                   ".map(e => e.textContent))")  # in one call: a live page redraws them
    assert len(labels) == len(values)
    for value in values:
        assert not re.search(r"[\[\]{}]|\bnull\b|\btrue\b|\bfalse\b", value), value
    return list(zip(labels, values, strict=True))


def check_result(page: Any, patterns: dict[str, dict[str, str]]) -> bool:
    """The result screen: the headline, and for a win the winning hand laid out, each pattern line with its
    Chinese and English name from the table's names, the total and who pays whom; no raw string. Returns
    whether the hand was won."""
    text = page.inner_text("#result")
    assert not RAW.search(text.replace("fan", "")), RAW.search(text)
    assert "Match score" in text
    wins = page.locator("#result .win").count()
    if not wins:
        assert "Drawn hand" in text
        return False
    assert re.search(r"\bwon\b", page.inner_text("#result-title"))
    assert page.locator("#result .win-hand .tile").count() >= 3
    assert page.locator("#result .win-hand .tile.winning").count() == wins
    names = {(entry["zh"], entry["en"]) for entry in patterns.values()}
    for line in page.locator("#result .patterns li").all():
        zh, en = line.locator(".zh").inner_text(), line.locator(".en").inner_text()
        assert (zh, en) in names, (zh, en)
        assert re.fullmatch(r"×\d+|-?\d+ (fan|points)", line.locator(".val").inner_text())
    assert page.locator("#result .total").count() == wins
    assert re.search(r"(pays|You pay) .+ \d+", page.inner_text("#result .pays"))
    return True


#: Each system's seat-0 game: a seed whose first hand, played as play_through plays, has a claim of the page's
#: and a win (Wai Huzi's by the page itself) in a few decisions.
SYSTEMS = [("guangdong", [1, 2, 3], 10), ("yunxiao", [1, 2, 3], 17), ("kawuxing", [1, 2], 11),
           ("waihuzi", [1, 2], 13)]
#: A seat's tiles turn to face it (table.css): the angle of the art inside each tile, by the seat's place.
FACING = {"bottom": 0, "right": -90, "top": 180, "left": 90}
#: Queried and read in one call: a live page (a spectator's) may draw its seats anew between two calls.
ANGLES = """() => [...document.querySelectorAll('#seats .seat .tile')].map(e => {
  const m = new DOMMatrix(getComputedStyle(e.querySelector('svg')).transform);
  const box = e.getBoundingClientRect();
  return [e.closest('.seat').dataset.position, Math.round(Math.atan2(m.b, m.a) * 180 / Math.PI),
          box.width > box.height, e.outerHTML.slice(0, 120)]; })"""


def facing(page: Any) -> None:
    """Every seat's tiles face it, as at a real table: the seat across upside down, the side seats' lying across
    (a box wider than tall, the art turned a quarter towards the centre), yours upright."""
    for position, angle, wide, html in page.evaluate(ANGLES):
        assert angle % 360 == FACING[position] % 360, (position, angle, html)
        assert wide == (position in ("left", "right")), (position, wide, html)


@pytest.mark.parametrize(("system", "bots", "seed"), SYSTEMS, ids=[s[0] for s in SYSTEMS])
def test_a_table_of_each_system_through_the_page(site: Site, system: str, bots: list[int], seed: int) -> None:
    table = new_table(site.client, rules=system, bots=bots, think_ms=0, claim_seconds=30, hands=3, seed=seed)
    with site.page() as (page, errors):
        page.goto(f"{site.base}/?table={table['id']}")
        page.wait_for_selector("#hand button")
        unique_ids(page)
        n = len(bots) + 1
        # Seats facing each other: you at the bottom, the others right/top/left in turn order (下家 on the right).
        positions = page.eval_on_selector_all("#seats .seat",
                                              "els => els.map(e => [+e.dataset.seat, e.dataset.position])")
        assert positions == ([[0, "bottom"], [1, "right"], [2, "top"], [3, "left"]] if n == 4 else
                             [[0, "bottom"], [1, "right"], [2, "left"]])
        box = {p: page.locator(f"#seats .seat.{p} .plate").bounding_box() for p in ("bottom", "right", "left")}
        assert box["left"]["x"] < box["bottom"]["x"] < box["right"]["x"]  # around the centre
        assert box["bottom"]["y"] > page.locator("#center").bounding_box()["y"]
        panel = facts_panel(page)
        assert any(label.startswith(FIRST_FACT[system]) for label, _ in panel), panel
        assert page.locator("#hand button .tile-art, #hand button svg").count() >= 10  # drawn tiles, no font
        label = page.get_attribute("#hand button >> nth=0", "aria-label")
        assert re.fullmatch(r"(\d (characters|dots|bamboo)|\w+ (wind|dragon)|(small|big) \d+) / \S+.*", label), label
        # A spectator meanwhile: the centre line names the seat to act, by its wind or its place.
        with site.page(PHONE) as (watcher, watch_errors):
            watcher.goto(f"{site.base}/watch/{table['id']}")
            watcher.wait_for_selector("#seats .seat")
            watcher.wait_for_function("() => document.querySelector('#turn-line').textContent")
            line = watcher.inner_text("#turn-line")
            assert re.fullmatch(r"(East|South|West|North|Seat \d) to discard|Waiting for .+", line), line
            assert not watcher.is_visible("#mine") and not watch_errors, watch_errors
        patterns = site.client.get(f"/api/tables/{table['id']}").json()["patterns"]
        played = Played()
        won = False
        for _hand in range(3):  # the seed's first hand has a claim and a win; a slower machine may play more
            play_through(page, played, name=f"table_{system}")
            unique_ids(page)
            facing(page)
            # The claimed tiles flew from the discarder's pond into the claimer's meld (no reduced motion here).
            assert not played.claims or int(page.get_attribute("body", "data-flights") or 0) >= 1
            for size, suffix in ((PHONE, "_phone"), (DESKTOP, "")):
                page.set_viewport_size(size)
                won = check_result(page, patterns) or won
                shoot(page, f"table_{system}_result{suffix}")
            if won and played.claims:
                break
            page.click("#next")
            page.wait_for_function("() => document.querySelector('#result').hidden")
        assert won and played.claims, "no hand had a claim of the page's and a win"
        assert played.discards >= 2 and played.marked and played.pond, vars(played)
        assert played.keyboard >= 1 and len(played.sizes) == len(SIZES), vars(played)
        # The centre says whose turn it is, in words: "Your move", "West to discard", "Claim it?" ...
        assert {"Your move", "Claim it?"} <= played.turn_lines, played.turn_lines
        readable = r"(Pung|Chow|Kong|(Exposed|Concealed|Added) kong|Wai|Liu|Piao)"
        assert all(re.fullmatch(readable + r"\s*", text) for text in played.labels), played.labels
        assert played.timed  # a decision's timer showed
        assert not errors, errors


#: Counts every claim offer the page shows live (a pass button enabled) once the page has drawn it.
WATCH_OFFERS = """() => { window.offers = 0; new MutationObserver(() => {
  if (document.querySelector('#actions button[data-kind=pass]:enabled') &&
      !document.querySelector('#actions button[data-kind=win]:enabled')) window.offers++;
}).observe(document.querySelector('#actions'), { childList: true, subtree: true, attributes: true }); }"""


def test_the_language_switch_the_phone_and_the_end_of_a_match(site: Site) -> None:
    """At 390x844 with auto-pass on: no claim offer waits for the player (the page answers pass). The language
    switch turns every word Chinese and is remembered after a reload; sound is off until turned on. At the
    match's end (one hand) the result offers a new match (a new table, same settings) and the way back to the
    lobby, whose rule systems read by their names. With reduced motion asked for, no tile flies."""
    table = new_table(site.client, rules="kawuxing", bots=[1, 2], think_ms=0, claim_seconds=30, hands=1, seed=3)
    with site.page(TALL_PHONE, reduced_motion="reduce") as (page, errors):
        page.goto(f"{site.base}/?table={table['id']}")
        page.wait_for_selector("#hand button")
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        assert page.inner_text("#lang") == "中文"
        page.click("#lang")
        assert page.evaluate("document.documentElement.lang") == "zh-CN"
        page.wait_for_function("() => /[\u4e00-\u9fff]/.test(document.querySelector('#turn-line').textContent)")
        shoot(page, "table_kawuxing_zh_phone")
        page.reload()
        page.wait_for_selector("#hand button")
        assert page.inner_text("#lang") == "English"  # remembered
        page.click("#lang")
        page.evaluate(WATCH_OFFERS)
        page.check("#autopass")
        played = Played()
        play_through(page, played, resize=False)
        assert page.evaluate("window.offers") == 0 and played.passes == 0 and played.discards >= 2
        assert hand_rows(page) and hands_drawn_once(hand_rows(page)) >= 10  # seed 3: the bots' 亮倒, face up once
        melds = page.locator("#seats .meld").count()
        assert melds and not page.get_attribute("body", "data-flights"), melds  # reduced motion: melds, no flight
        page.wait_for_selector("#to-lobby")
        assert "Match over" in page.inner_text("#result")
        assert "You's" not in page.inner_text("#result")  # "on your discard", the reader's own seat as "you"
        shoot(page, "table_kawuxing_match_over_phone")
        page.click("#new-match")
        page.wait_for_url(re.compile(r"/t/\w+"))
        page.wait_for_selector("#hand button")
        assert page.url.split("/t/")[1] != table["id"]
        page.goto(site.base)
        page.wait_for_selector("#systems .system")
        systems = page.inner_text("#systems")
        for name in ("Guangdong mahjong", "Yunxiao mahjong", "Kawuxing", "Wai Huzi"):
            assert name in systems
        assert "ms" not in page.inner_text("#create")  # time in seconds
        page.click("#systems .system[data-rules=waihuzi]")
        assert page.locator("#house-rules select").count() >= 1  # Wai Huzi's house rules, as choices
        shoot(page, "lobby_phone")
        page.click("#systems .system[data-rules=kawuxing]")
        page.click("#create button[type=submit]")
        page.wait_for_selector("#hand button")
        assert page.locator("#seats .seat").count() == 3
        assert not errors, errors


def test_the_spectator_page_shows_every_hand_face_down_and_plays_nothing(site: Site) -> None:
    """/watch/{id}: the same page, read-only: seat 0 at the bottom, every hand face down with its count (a 亮倒
    hand face up, once), the described facts, live as the bots play; no hand of one's own, no action, no link."""
    with site.page(PHONE) as (page, errors):
        table = new_table(site.client, rules="kawuxing", bots=[0, 1, 2], think_ms=100, hands=1, seed=3)
        page.goto(f"{site.base}/watch/{table['id']}")
        page.wait_for_selector("#seats .seat")
        unique_ids(page)
        positions = page.eval_on_selector_all("#seats .seat",
                                              "els => els.map(e => [+e.dataset.seat, e.dataset.position])")
        assert positions == [[0, "bottom"], [1, "right"], [2, "left"]]
        assert "watching" in page.inner_text("#status").lower() or "watching" in page.get_attribute("body", "class")
        assert not page.is_visible("#mine") and not page.is_visible("#copy-link")
        rows = hand_rows(page)
        assert len(rows) == 3  # seat 0's hand too: face down (but a 亮倒 hand, face up)
        assert any(hidden for _, _, hidden in rows) or all(shown == count for count, shown, _ in rows), rows
        page.wait_for_function("document.querySelectorAll('#seats .pond .tile').length >= 6")
        assert page.locator("#seats .pond .tile.last").count() == 1
        hands_drawn_once(hand_rows(page))
        facing(page)
        assert any(label.startswith("亮倒") for label, _ in facts_panel(page))
        shoot(page, "table_watch_phone")
        page.wait_for_selector("#result:not([hidden])", timeout=120_000)
        assert page.locator("#next").count() == 0
        hands_drawn_once(hand_rows(page))
        assert not errors, errors


def test_no_serious_accessibility_violation(site: Site) -> None:
    """axe-core (the PyPI package axe-playwright-python bundles it) finds no serious or critical violation on
    the lobby, nor on a table at a decision."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python not installed")
    table = new_table(site.client, rules="guangdong", bots=[1, 2, 3], think_ms=0, claim_seconds=30, hands=1, seed=11)
    with site.page(PHONE) as (page, errors):
        for url in (site.base, f"{site.base}/?table={table['id']}"):
            page.goto(url)
            page.wait_for_selector("#systems .system" if url == site.base else "#hand button")
            results = axe.Axe().run(page).response
            serious = [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in results["violations"]
                       if v["impact"] in ("serious", "critical")]
            assert not serious, serious
        assert not errors, errors
