"""The documentation in docs/ says only what exists: its Python examples run, and every rule id the code cites can
be looked up in the rules reference (an anchor such as ``docs/rules/guangdong.md#gd-23``).

The site itself is built strictly by ``make docs`` (MkDocs: broken links and anchors fail); these checks need no
MkDocs.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import hupai.rules
import pytest
from hupai.rules.options import RuleOptions
from hupai.rules.patterns import PatternEntry
from readme_blocks import python_blocks, run_block

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = {"GD": "guangdong.md", "YX": "yunxiao.md", "KW": "kawuxing.md", "WH": "waihuzi.md"}
RULE_ID = re.compile(r"\b(GD|YX|KW|WH)-(E?)(\d+)\b")
TEST_NAME = re.compile(r"def (test_\w+)")
NAMED_ID = re.compile(r"(?:^|_)(gd|yx|kw|wh)_(e?\d+)(?=_|$)")  # test_yx_12_wall_end_reserve: YX-12
ANCHOR = re.compile(r"^### ((GD|YX|KW|WH)-E?\d+) .*\{#([a-z]+-e?\d+)\}$", re.M)
DOC_BLOCKS = [(page, index, code) for page in sorted(DOCS.rglob("*.md"))
              for index, code in enumerate(python_blocks(page))]


def _anchors() -> dict[str, set[str]]:
    """Rule-id anchors per page prefix (``{"GD": {"gd-1", ...}}``), each heading checked against its anchor."""
    found: dict[str, set[str]] = {}
    for prefix, page in PAGES.items():
        text = (DOCS / "rules" / page).read_text(encoding="utf-8")
        anchors = set()
        for rule_id, heading_prefix, anchor in ANCHOR.findall(text):
            assert heading_prefix == prefix, f"{page}: {rule_id} on the wrong page"
            assert anchor == rule_id.lower(), f"{page}: heading {rule_id} has anchor #{anchor}"
            assert anchor not in anchors, f"{page}: #{anchor} twice"
            anchors.add(anchor)
        found[prefix] = anchors
    return found


ANCHORS = _anchors()


def _has_anchor(rule_id: str) -> bool:
    prefix = rule_id.split("-", 1)[0]
    return rule_id.lower() in ANCHORS[prefix]


@pytest.mark.parametrize(("page", "index", "code"), DOC_BLOCKS,
                         ids=[f"{page.relative_to(DOCS)}#{index}" for page, index, _ in DOC_BLOCKS])
def test_docs_python_block_runs(page: Path, index: int, code: str) -> None:
    run_block(code, index)


def test_docs_have_examples() -> None:
    assert len(DOC_BLOCKS) >= 8


@pytest.mark.parametrize("prefix", sorted(PAGES))
def test_every_rule_page_numbers_its_rules_without_gaps(prefix: str) -> None:
    """Each page has rules 1..N and examples E1..M (spec ids are never renumbered; none is retired yet)."""
    rules = sorted(int(a.split("-")[1]) for a in ANCHORS[prefix] if not a.split("-")[1].startswith("e"))
    examples = sorted(int(a.split("-")[1][1:]) for a in ANCHORS[prefix] if a.split("-")[1].startswith("e"))
    assert rules == list(range(1, len(rules) + 1)) and len(rules) >= 28
    assert examples == list(range(1, len(examples) + 1)) and len(examples) >= 19


def _tables() -> list[tuple[str, str]]:
    """(where, rule id) for every id the rule systems' pattern and scoring tables and option declarations cite."""
    cited = []
    for info in pkgutil.walk_packages(hupai.rules.__path__, "hupai.rules."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            entries = value if isinstance(value, (tuple, list)) else (value,)
            for entry in entries:
                if isinstance(entry, PatternEntry):
                    cited += [(f"{info.name}.{name}[{entry.name}]", "".join(m.group(0)))
                              for m in RULE_ID.finditer(entry.rule)]
            if isinstance(value, type) and issubclass(value, RuleOptions) and value is not RuleOptions:
                for option in value.describe():
                    cited += [(f"{info.name}.{name}.{option.name}", m.group(0))
                              for m in RULE_ID.finditer(option.rule)]
    return cited


def test_every_rule_id_of_the_pattern_tables_and_options_is_documented() -> None:
    cited = _tables()
    assert len(cited) >= 40  # the tables were found
    missing = [(where, rule_id) for where, rule_id in cited if not _has_anchor(rule_id)]
    assert not missing, missing


def test_every_rule_id_cited_in_the_code_and_tests_is_documented() -> None:
    """Docstrings, comments, messages and test names cite ids too; each must be one a reader can look up."""
    missing, seen = set(), 0
    for folder in ("python", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == Path(__file__).resolve():  # this file names ids that must not exist
                continue
            text = path.read_text(encoding="utf-8")
            cited = [m.group(0) for m in RULE_ID.finditer(text)]
            cited += [f"{prefix.upper()}-{number.upper()}" for name in TEST_NAME.findall(text)
                      for prefix, number in NAMED_ID.findall(name)]
            seen += len(cited)
            missing.update((str(path.relative_to(ROOT)), rule_id) for rule_id in cited if not _has_anchor(rule_id))
    assert seen >= 300
    assert not missing, sorted(missing)


def test_a_missing_anchor_is_caught() -> None:
    assert _has_anchor("GD-23") and _has_anchor("WH-E19")
    assert not _has_anchor("GD-99") and not _has_anchor("YX-E99")


def test_the_index_and_the_nav_list_every_page() -> None:
    """docs/index.md links every page in docs/, and mkdocs.yml's nav holds every page (`make docs` is strict)."""
    pages = {page.relative_to(DOCS).as_posix() for page in DOCS.rglob("*.md")}
    linked = set(re.findall(r"\]\(([\w/.-]+\.md)(?:#[\w-]+)?\)", (DOCS / "index.md").read_text(encoding="utf-8")))
    assert pages - {"index.md"} <= linked, sorted(pages - {"index.md"} - linked)
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("nav:", 1)[1]
    assert all(page in nav for page in pages), sorted(page for page in pages if page not in nav)


def test_the_server_page_begins_with_how_to_start_it() -> None:
    text = (DOCS / "server.md").read_text(encoding="utf-8")
    first = text.split("\n## ", 2)[1]  # the first section
    assert first.startswith("Starting the server")
    for command in ("make serve", "hupai serve --db", "hupai serve --cluster --db postgresql://"):
        assert command in first, command


def test_readme_and_docs_tell_no_story_of_their_making() -> None:
    """Users read what the project does: no commit hashes, issue numbers or machine load in README or docs."""
    commit = r"(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}"  # a hash has letters and digits
    story = re.compile(rf"\bissue \d+|\bload average\b|\bthis stop\b|`{commit}`|\b(?:against|build|commit) {commit}\b")
    for path in [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted(DOCS.rglob("*.md"))]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not story.search(line), f"{path.relative_to(ROOT)}:{number}: {line}"
