"""``cadogan verify RECORDING --game GAME``: a verdict on a whole recorded game."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cadogan.commands._common import SubParsers, add_command
from cadogan.session import read_session
from engine.errors import CadoganError
from engine.games import find_game
from engine.verify import GameReport, verify_tables


def add_parser(sub: SubParsers) -> None:
    parser = add_command(
        sub,
        "verify",
        "check a recorded game from start to finish",
        "Replay a recorded game and report every move with its time, whether it was legal, the final score\n"
        "($5 a foundation card against $52 for Klondike and Canfield), and the first illegal move with its\n"
        "time. RECORDING is a session log written by `cadogan watch` (.jsonl).\n\n"
        "exit status: 0 every move legal, 1 an illegal or unexplained move, 2 the recording is unreadable.",
        "  cadogan verify session.jsonl\n  cadogan verify session.jsonl --game canfield --json",
    )
    parser.add_argument("recording", help="session log (.jsonl) of a recorded game")
    parser.add_argument("--game", help="game played (default: the one named in the recording)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    path = Path(args.recording)
    if path.suffix.lower() not in (".jsonl", ".json", ".log"):
        raise CadoganError(
            f"{path.name}: only session logs (.jsonl) can be verified in this version; "
            "record one with `cadogan watch --log session.jsonl`"
        )
    record = read_session(path)
    game = find_game(args.game or record.game)
    if not record.tables:
        raise CadoganError(f"{path} holds no table readings to verify")
    if record.tables[0].table.game != game:
        raise CadoganError(f"{path} records {record.tables[0].table.game.name}, not {game.name}")
    report = verify_tables([entry.table for entry in record.tables])
    times = [entry.t for entry in record.tables]
    if args.json:
        print(json.dumps(_as_json(report, times), indent=1))
    else:
        print_report(report, times, record.truncated)
    return 0 if report.legal else 1


def _stamp(seconds: float) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes):02d}:{rest:05.2f}"


def print_report(report: GameReport, times: list[float], truncated: bool) -> None:
    number = 0
    for step in report.steps:
        when = _stamp(times[step.index])
        explanation = step.explanation
        if explanation is None:
            print(f"      {when}  ?? a change no move explains (misread, or cards moved by hand)")
            continue
        for move, sentence in zip(explanation.moves, explanation.sentences, strict=True):
            number += 1
            mark = "ok" if explanation.legal else "ILLEGAL"
            print(f"{number:4}. {when}  {move!s:<9} {mark:<7} {sentence}")
        if not explanation.legal:
            print(f"      {'':8}  rule broken: {explanation.reason}")
    final = report.final
    score = final.score()
    print(
        f"{final.foundation_count()} cards on the foundations"
        + (f", score {'+' if score >= 0 else '-'}${abs(score)}" if score is not None else "")
    )
    if report.first_illegal is not None:
        print(f"first illegal move at {_stamp(times[report.first_illegal])}")
    if report.unexplained:
        print(f"{len(report.unexplained)} change(s) could not be explained")
    if truncated:
        print("note: the recording ends abruptly (its last line was cut); everything before it was checked")
    print("verdict: " + ("every move legal" if report.legal else "not a legal game"))


def _as_json(report: GameReport, times: list[float]) -> dict[str, object]:
    return {
        "legal": report.legal,
        "first_illegal_time": None if report.first_illegal is None else times[report.first_illegal],
        "foundation_cards": report.final.foundation_count(),
        "score": report.final.score(),
        "steps": [
            {
                "time": times[step.index],
                "moves": [] if step.explanation is None else [str(m) for m in step.explanation.moves],
                "legal": None if step.explanation is None else step.explanation.legal,
                "reason": None if step.explanation is None else step.explanation.reason,
            }
            for step in report.steps
        ],
    }
