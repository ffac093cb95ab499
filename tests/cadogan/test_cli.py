"""The `cadogan` command as a user runs it: a real subprocess, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from engine.formats import schema_path
from engine.games import GAMES
from engine.moves import Move


def cadogan(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cadogan", *args], capture_output=True, text=True, input=stdin, timeout=120
    )


def test_games_lists_every_game_with_its_source() -> None:
    result = cadogan("games")
    assert result.returncode == 0
    for game in GAMES:
        assert game.name in result.stdout
        assert game.source in result.stdout


@pytest.mark.parametrize("game", [g.name for g in GAMES])
def test_deal_prints_a_valid_table_that_checks_clean(game: str, tmp_path: Path) -> None:
    result = cadogan("deal", game, "--seed", "9")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    jsonschema.validate(data, json.loads(schema_path().read_text()))
    assert data["stage"] == "deal"
    path = tmp_path / "deal.json"
    path.write_text(result.stdout)
    check = cadogan("check", str(path))
    assert check.returncode == 0, check.stdout
    assert check.stdout.startswith("ok")


def test_check_reports_problems_with_exit_1(tmp_path: Path) -> None:
    data = json.loads(cadogan("deal", "klondike", "--seed", "3").stdout)
    data["piles"]["t1"] = ["2C"]  # the 2 of clubs twice, the 3 of hearts missing
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = cadogan("check", str(path))
    assert result.returncode == 1
    assert "2 of clubs is on the table twice" in result.stdout
    assert "3H" in result.stdout
    as_json = json.loads(cadogan("check", "--json", str(path)).stdout)
    assert {p["kind"] for p in as_json} == {"duplicate_card", "missing_card"}


def test_moves_prints_legal_moves_one_per_line() -> None:
    deal = cadogan("deal", "klondike", "--seed", "3").stdout
    result = cadogan("moves", "-", stdin=deal)
    assert result.returncode == 0
    moves = [Move.parse(line) for line in result.stdout.splitlines()]
    assert Move("s", "w") in moves
    explained = cadogan("moves", "--explain", "-", stdin=deal).stdout
    assert "turn the top card of the stock onto the waste" in explained


def test_engine_only_demo_plays_a_game_to_its_end() -> None:
    result = cadogan("demo", "--engine-only")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[1] == "deal check: ok"
    assert lines[-2].startswith("result: won")
    assert lines[-1] == "score: +$208"


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("{not json", "is not JSON"),
        ("[1, 2, 3]", "is not a table"),
        ('{"game": "spider", "piles": {}}', "no game called 'spider'"),
        ('{"game": "klondike", "piles": {"t1": ["1X"]}}', "'1X' is not a card"),
        ("", "is empty"),
        ('{"game": "klondike"}', "no 'piles'"),
        ('{"game": "klondike", "piles": {"t1": "KH"}}', "is not a list"),
        ('{"format": "other", "game": "klondike", "piles": {}}', "not a 'cadogan-table'"),
    ],
)
def test_unreadable_table_is_one_line_and_exit_2(tmp_path: Path, content: str, needle: str) -> None:
    path = _write(tmp_path, "table.json", content)
    for command in ("check", "moves"):
        result = cadogan(command, path)
        assert result.returncode == 2
        assert needle in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.stderr


@pytest.mark.parametrize("target", ["directory", "missing"])
def test_directory_or_missing_file_is_exit_2(tmp_path: Path, target: str) -> None:
    path = str(tmp_path) if target == "directory" else str(tmp_path / "nope.json")
    result = cadogan("check", path)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["check", "moves", "hint"])
def test_a_game_name_where_a_table_file_is_wanted_says_how_to_deal_one(command: str) -> None:
    result = cadogan(command, "klondike/draw3")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"cadogan {command}: klondike/draw3 is a game, not a table file: deal one with `cadogan deal klondike/draw3"
        " --seed 1 > table.json` (or pipe it in: `cadogan deal ... | cadogan COMMAND -`)"
    ]


def test_unknown_game_for_deal_lists_the_known_ones() -> None:
    result = cadogan("deal", "spider")
    assert result.returncode == 2
    assert "klondike" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["games", "deal", "check", "moves", "demo"])
def test_every_subcommand_help_teaches_with_an_example(command: str) -> None:
    result = cadogan(command, "--help")
    assert result.returncode == 0
    assert "examples:" in result.stdout
    assert f"cadogan {command}" in result.stdout.split("examples:")[1]
