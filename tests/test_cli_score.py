"""Issue 23 (CLI): ``hupai score``, ``hupai.score`` reading Wai Huzi notation, and the nits: one ``hupai:``
prefix, arguments that are not UTF-8 named by their byte, docs/cli.md's subcommand count, and ``analyze`` saying
which left-out form a hand is complete in."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import hupai
import pytest
from hupai.cli import _build_parser, main

ROOT = Path(__file__).resolve().parents[1]
WAIHUZI_WIN = "[歪 d8d8d8] x1 x1 x1 x3 x4 x5 x4 x5 x6 d3 d4 d5 d4 d5 d6 x9 x9"


def test_score_prints_the_patterns_value_and_payments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "guangdong", "111z123m456p789s55s", "--winner", "1", "--discarder", "2"]) == 0
    out = capsys.readouterr().out
    assert "圈风  quan_feng  1  (GD-17)" in out and "value     1" in out and "payments  [0, 2, -2, 0]" in out
    assert hupai.score("guangdong", "111z123m456p789s55s", winner=1, discarder=2).payments == (0, 2, -2, 0)


def test_score_json_is_the_score_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "yunxiao", "123m456p789s1122z", "--win-tile", "2z", "--gold", "5p", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = hupai.score("yunxiao", "123m456p789s1122z", "2z", gold="5p")
    assert data == expected.to_dict() and data["value"] == expected.value


def test_score_takes_every_winContext_field_and_rule_options(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "guangdong", "111z123m456p789s55s", "--robbed-kong", "--discarder", "2", "--dealer", "1",
            "--round-wind", "1", "-o", "cap_fan=5", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    rules = hupai.rules.get("guangdong", cap_fan=5)
    expected = hupai.score(rules, "111z123m456p789s55s", robbed_kong=True, discarder=2, dealer=1, round_wind=1)
    assert data == expected.to_dict() and "qiang_gang" in [p["name"] for p in data["patterns"]]
    options = {action.dest for action in _build_parser()._subparsers._group_actions[0].choices["score"]._actions}
    fields = {f for f in hupai.WinContext.__dataclass_fields__} - {"win_tile", "concealed", "melds"}
    assert fields <= options  # a new WinContext field is an option at once
    from hupai.cli_score import _HELP
    assert fields <= set(_HELP)  # and explained in its help


def test_score_reads_waihuzi_notation(capsys: pytest.CaptureFixture[str]) -> None:
    result = hupai.score("waihuzi", WAIHUZI_WIN)
    assert result.value == 88 and result.payments == (176, -88, -88)
    at_rest = WAIHUZI_WIN.removesuffix(" x9")
    assert hupai.score("waihuzi", at_rest, "x9") == result == hupai.score("waihuzi", at_rest, win_tile=8)
    from_other = hupai.score("waihuzi", WAIHUZI_WIN, discarder=1)
    assert from_other.payments[1] < 0
    assert main(["score", "waihuzi", WAIHUZI_WIN]) == 0
    out = capsys.readouterr().out
    assert "value     88" in out and f"layout    {result.details['layout']}  ({result.details['xi']} 息)" in out


@pytest.mark.parametrize(("hand", "win_tile", "message"), [
    (WAIHUZI_WIN.removesuffix(" x9"), None, "holds 19 cards: name the winning card"),
    (WAIHUZI_WIN + " x2", None, "21 cards; a Wai Huzi win is 20 cards with its winning card or 19"),
    (WAIHUZI_WIN.removesuffix(" x9 x9"), None, "18 cards; a Wai Huzi win is 20"),
    ("[溜 x2x2x2x2] " + WAIHUZI_WIN, None, "24 cards; a Wai Huzi win is 21"),  # a 4-card group: one more
    (WAIHUZI_WIN, "x2", "the winning card x2 is not among its concealed cards"),
    (WAIHUZI_WIN, "x1x2", "win_tile='x1x2' is not one Wai Huzi card"),
    (WAIHUZI_WIN, 20, "not one Wai Huzi card"),
    ("x1 x1 x1 x1 x1 " + WAIHUZI_WIN[23:], None, "more than 4 of x1"),
    ("[歪 d8d8d8] 5m", None, "digit '5' has no size letter"),
])
def test_score_refuses_bad_waihuzi_hands_clearly(hand: str, win_tile: object, message: str) -> None:
    with pytest.raises(hupai.InvalidHand, match=re.escape(message)):
        hupai.score("waihuzi", hand, win_tile)  # type: ignore[arg-type]


def test_score_not_a_win_exits_1_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "guangdong", "123m456p789s11234z"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("hupai: not a win under guangdong: ")
    assert captured.err.count("\n") == 1


@pytest.mark.parametrize(("argv", "message"), [
    (["score"], "hupai: score: the following arguments are required: rules, hand (see hupai score --help)"),
    (["score", "mahjong", "123m"], "unknown rule system 'mahjong'"),
    (["score", "guangdong", "123m456p789s1122z"], "holds 13 tiles: name the winning tile"),
    (["score", "guangdong", "111z123m456p789s55s", "--discarder", "-1"], "--discarder: must be >= 0, got -1"),
    (["score", "guangdong", "111z123m456p789s55s", "--discarder", "9"], "discarder"),
    (["score", "guangdong", "111z123m456p789s55s", "--self-drawn", "--discarder", "1"], "contradict"),
    (["score", "guangdong", "111z123m456p789s55s", "-o", "fan=3"], "unknown Guangdong option 'fan'"),
    (["score", "guangdong", "111z123m456p789s55s", "--gold", "5p"], "gold"),
    (["score", "guangdong", "111z123m456p789s55s", "--win-tile", "9m"], "not among its concealed tiles"),
])
def test_score_usage_errors_are_one_line_exit_2(argv: list[str], message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err and captured.err.count("\n") == 1
    assert captured.err.startswith("hupai: ") and not captured.err.startswith("hupai: hupai:")


def test_an_argparse_error_has_one_prefix(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hupai: argument command: invalid choice: 'nope'") and "hupai: hupai:" not in err
    assert main(["analyze", "--jokers", "x", "1m"]) == 2
    assert capsys.readouterr().err.startswith("hupai: analyze: argument --jokers: 'x' is not an integer")


def test_an_argument_that_is_not_utf8_is_named_by_its_byte() -> None:
    done = subprocess.run([sys.executable, "-m", "hupai", "analyze", b"12\xffm"], capture_output=True,
                          timeout=120, env={**os.environ, "LC_ALL": "C.UTF-8", "PYTHONUTF8": "1"})
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2 and done.stdout == b""
    assert err == "hupai: argument 2 is not UTF-8 text: byte 0xff at character 3 (in '12\\xffm')\n"
    assert "udcff" not in err


def test_a_log_file_that_is_not_utf8_is_named_by_its_byte(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.json"
    path.write_bytes(b'{"format": "\xfe"}')
    assert main(["replay", str(path)]) == 2
    assert f"{path} is not UTF-8 text: byte 0xfe at offset 12" in capsys.readouterr().err


def test_docs_cli_counts_the_subcommands_it_lists() -> None:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    listed = re.findall(r"^## `hupai (\w+)`", text, re.MULTILINE)
    parser_choices = _build_parser()._subparsers._group_actions[0].choices
    assert sorted(listed) == sorted(parser_choices)
    words = {3: "three", 4: "four", 5: "five", 6: "six"}
    assert f"It has {words[len(listed)]} subcommands" in text


@pytest.mark.parametrize(("argv", "note"), [
    (["analyze", "--rules", "guangdong", "1122m3344p5566s77z"],
     "complete as seven pairs, but guangdong has no seven pairs"),
    (["analyze", "--rules", "guangdong", "1122m3344p5566s7z"],
     "ready as seven pairs, but guangdong has no seven pairs"),
    (["analyze", "--forms", "standard", "19m19p19s1234567z1m"],
     "complete as thirteen orphans, but --forms leaves out thirteen orphans"),
])
def test_analyze_names_the_form_the_rules_leave_out(argv: list[str], note: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    assert f"  note      {note}\n" in capsys.readouterr().out


def test_analyze_says_nothing_of_forms_the_rules_allow(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--rules", "yunxiao", "1122m3344p5566s77z"]) == 0
    assert main(["analyze", "1122m3344p5566s77z", "123m456p789s1122z"]) == 0
    assert "note" not in capsys.readouterr().out
