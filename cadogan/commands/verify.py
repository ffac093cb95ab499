"""``cadogan verify RECORDING --game GAME``: a verdict on a whole recorded game (a video or a session log)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from cadogan.commands._common import SubParsers, add_command
from cadogan.session import read_session
from cadogan.verdict import Verdict, as_json, of_record, print_verdict
from engine.errors import CadoganError
from engine.games import find_game

LOG_SUFFIXES = (".jsonl", ".json", ".log")


def add_parser(sub: SubParsers) -> None:
    parser = add_command(
        sub,
        "verify",
        "check a recorded game from start to finish (a video or a session log)",
        "Replay a recorded game and report every move with its time, whether it was legal, the final score\n"
        "($5 a foundation card against $52 for Klondike and Canfield), and the first illegal move with its\n"
        "time. RECORDING is a video of the game (.mp4, .avi, .mov, ...) or a session log written by\n"
        "`cadogan watch` (.jsonl).\n\n"
        "A video goes through the same pipeline as `cadogan watch`, without a window: the recogniser reads\n"
        "the table each time it has settled (frames with a hand over the cards are skipped), the tracker\n"
        "explains every change as moves, and the session log is written next to the video (or --log). For\n"
        "the first illegal move, pictures of the table before and after it are saved and their paths printed.\n"
        "Progress goes to standard error.\n\n"
        "A session log is replayed table by table: the moves the live session announced with each still\n"
        "table are followed where the rules engine agrees (legal moves legal there, the illegal one illegal,\n"
        "leading to the logged table), and a misdeal is reported where the live session reported one; any\n"
        "other change is explained afresh. So a log says what the live session said, checked by the rules.\n\n"
        "exit status: 0 every move legal, 1 an illegal or unexplained move or a misdeal, 2 the recording is\n"
        "unreadable (or no table in it was read clearly enough to follow the game).",
        "  cadogan verify game.mp4 --game klondike\n"
        "  cadogan verify game.mp4 --game canfield --log game.jsonl --pictures shots/ --json\n"
        "  cadogan verify session.jsonl",
    )
    parser.add_argument("recording", help="a video of the game, or a session log (.jsonl)")
    parser.add_argument("--game", help="game played (required for a video; a log names its game)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    video = parser.add_argument_group("for a video")
    video.add_argument("--log", help="session log to write (default: next to the video, VIDEO.jsonl)")
    video.add_argument("--pictures", help="folder for the pictures of the first illegal move (default: the log's)")
    video.add_argument("--models", help="folder with the recognition models (default: the shipped ones)")
    video.add_argument(
        "--deck-profile", metavar="PROFILE", help="a profile with the enrolled deck (`cadogan calibrate deck`)"
    )
    video.add_argument(
        "--step",
        type=int,
        default=0,
        help="look at one frame in N (default: about 10 looks a second); the others are skipped undecoded",
    )
    video.add_argument("--quiet", action="store_true", help="no progress on standard error")


def run(args: argparse.Namespace) -> int:
    path = Path(args.recording)
    if path.suffix.lower() in LOG_SUFFIXES:
        verdict = _verify_log(path, args.game)
    else:
        verdict = _verify_video(path, args)
    if args.json:
        print(json.dumps(as_json(verdict), indent=1))
    else:
        print_verdict(verdict)
    return 0 if verdict.legal else 1


def _verify_log(path: Path, game_name: str | None) -> Verdict:
    record = read_session(path)
    game = find_game(game_name or record.game)
    if not record.tables:
        raise CadoganError(f"{path} holds no table readings to verify")
    if record.tables[0].table.game != game:
        raise CadoganError(f"{path} records {record.tables[0].table.game.name}, not {game.name}")
    verdict = of_record(record)
    if record.truncated:
        verdict.notes.append("the recording ends abruptly (its last line was cut); everything before it was checked")
    return verdict


def _verify_video(path: Path, args: argparse.Namespace) -> Verdict:
    from cadogan.reading import vision_reader
    from cadogan.sources import FrameSource
    from cadogan.videocheck import check_video

    if not args.game:
        raise CadoganError("name the game played with --game (see `cadogan games`)")
    game = find_game(args.game)
    # the models are checked before the video is read
    reader = vision_reader(game.name, args.models, deck_profile=args.deck_profile)
    source = FrameSource(str(path))
    log = Path(args.log) if args.log else path.with_suffix(".jsonl")
    pictures = Path(args.pictures) if args.pictures else log.parent
    progress = None if args.quiet else _progress(source.expected_frames, source.fps)
    result = check_video(source, reader, game.name, log, pictures, step=args.step, progress=progress)
    if not args.quiet:
        print(
            f"\r{result.frames} frames ({result.frames / source.fps:.1f} s of video) in {result.seconds:.1f} s: "
            f"{result.speed:.2f}x real time, recogniser run on {result.recognised}; session log: {log}",
            file=sys.stderr,
        )
    if result.tables == 0:
        raise CadoganError(f"{path}: no still table could be read in the whole video (is it the right game?)")
    if result.verdict.final is None:
        raise CadoganError(
            f"{path}: no still table was read clearly enough to be the deal; the game cannot be followed"
        )
    return result.verdict


def _progress(total: int, fps: float) -> Callable[[int], None]:
    start = time.monotonic()
    shown = [0.0]
    tty = sys.stderr.isatty()

    def show(frame: int) -> None:
        now = time.monotonic()
        if now - shown[0] < (0.5 if tty else 10.0):
            return
        shown[0] = now
        spent = now - start
        speed = frame / fps / spent if spent > 0 else 0.0
        if total > 0:
            share = min(1.0, frame / total)
            bar = "#" * round(share * 30)
            left = (total - frame) / fps / speed if speed > 0 else 0.0
            text = f"[{bar:<30}] {share:4.0%} frame {frame}/{total}, {speed:.2f}x real time, ~{left:.0f} s left"
        else:
            text = f"frame {frame}, {speed:.2f}x real time"
        print(("\r" + text) if tty else text, end="" if tty else "\n", file=sys.stderr, flush=True)

    return show
