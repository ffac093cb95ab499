"""``cadogan demo``: the whole pipeline on a built-in recording, no camera needed."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cadogan.commands._common import SubParsers, add_command, parse_size
from engine.autoplay import greedy_playout
from engine.games import find_game
from engine.status import problems
from engine.table import Outcome, Table


def add_parser(sub: SubParsers) -> None:
    parser = add_command(
        sub,
        "demo",
        "the whole pipeline on a built-in recording (no camera needed)",
        "Play the built-in recording of a Klondike game (rendered with a deck the recogniser never saw, hands\n"
        "making the moves, one move against the rules) through the live companion: recognition, tracking,\n"
        "announcements, the annotated video and the session log; then print the verify report of the log.\n"
        "The recording is rendered on the first run (a minute or two) and kept in ~/.cache/cadogan/demo.\n"
        "With --engine-only, deal a game and let the engine's greedy player play it out instead.",
        "  cadogan demo\n"
        "  cadogan demo --out demo-output --speak\n"
        "  cadogan demo --engine-only --game canfield --seed 39",
    )
    parser.add_argument("--out", default="cadogan-demo", help="folder for the overlay video, log and speech")
    parser.add_argument("--speak", action="store_true", help="also speak the announcements aloud")
    parser.add_argument("--no-window", action="store_true", help="no live window even when a display exists")
    parser.add_argument("--size", default="1280x720", help="recording size WxH (default 1280x720)")
    parser.add_argument("--moves", type=int, default=4, help="legal moves before the illegal one (default 4)")
    parser.add_argument("--engine-only", action="store_true", help="no camera pipeline: the engine plays a deal")
    parser.add_argument("--game", default="klondike", help="with --engine-only: game to play (default klondike)")
    parser.add_argument("--seed", type=int, default=2, help="with --engine-only: shuffle seed (default 2)")
    parser.add_argument(
        "--deck-profile", metavar="PROFILE", help="use the deck enrolled in this profile (calibrate deck)"
    )


def run(args: argparse.Namespace) -> int:
    if args.engine_only:
        return _engine_only(args.game, args.seed)
    return _pipeline(args)


def _pipeline(args: argparse.Namespace) -> int:
    from cadogan.demo_recording import demo_recording
    from cadogan.overlay import OverlayWindow, OverlayWriter, display_available
    from cadogan.reading import vision_reader
    from cadogan.session import SessionLog, read_session
    from cadogan.sources import FrameSource
    from cadogan.speech import Speaker, espeak_path, speak_to_file
    from cadogan.tracker import Event, EventKind, Tracker
    from cadogan.verdict import print_verdict, replay
    from cadogan.watch import watch

    width, height = parse_size(args.size)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    reader = vision_reader("klondike", deck_profile=args.deck_profile)
    print("preparing the built-in recording (rendered once, then cached) ...", flush=True)
    recording = demo_recording(size=(width, height), moves_before=args.moves)
    print(
        f"recording: {recording.video} ({len(recording.moves)} moves; move {recording.illegal_at + 1} breaks the rules)"
    )
    source = FrameSource(str(recording.video))
    spoken: list[str] = []

    def announce(event: Event) -> None:
        print(f"{event.t:7.2f}s  {event.kind.value:<8} {event.text}", flush=True)
        if event.kind in (EventKind.MISDEAL, EventKind.ILLEGAL, EventKind.END):
            spoken.append(event.text)

    log_path = out / "session.jsonl"
    log_path.unlink(missing_ok=True)
    overlay = OverlayWriter(out / "overlay.mp4", fps=source.fps)
    speaker = Speaker(enabled=args.speak)
    window = None if args.no_window or not display_available() else OverlayWindow()
    with SessionLog(log_path, "klondike", str(recording.video), partial=True) as log:
        summary = watch(
            source,
            reader,
            Tracker(partial=True),
            log=log,
            speaker=speaker,
            overlay=overlay,
            on_event=announce,
            window=window,
        )
    overlay.close()
    if window is not None:
        window.close()
    speaker.close()
    print(f"{summary.frames} frames read; annotated video: {out / 'overlay.mp4'}; session log: {log_path}")
    if spoken and espeak_path() is not None:
        wav = speak_to_file(". ".join(spoken), out / "announcements.wav")
        print(f"spoken announcements: {wav}")
    record = read_session(log_path)
    print("\nverify report of the session log:")
    if record.tables:
        print_verdict(replay(record.tables, partial=True))
    else:
        print("no still table was read: nothing to verify")
    truth = json.loads(recording.truth.read_text())
    print(f"the recording really holds: {', '.join(truth['moves'])} (move {truth['illegal_at'] + 1} illegal)")
    return 0


def _engine_only(game_name: str, seed: int) -> int:
    game = find_game(game_name)
    table = Table.dealt(game, seed)
    print(f"{game.title}, deal {seed}")
    found = problems(table)
    print("deal check: " + ("ok" if not found else "; ".join(map(str, found))))
    number = 0
    before = table.copy()
    for move in greedy_playout(table):
        number += 1
        print(f"{number:3}. {move!s:<9} {before.describe(move)}")
        before.push(move)
    outcome = table.outcome()
    result = "won" if outcome is Outcome.WON else "blocked" if outcome is Outcome.BLOCKED else "stuck"
    score = table.score()
    print(f"result: {result} after {number} moves, {table.foundation_count()} cards on the foundations")
    if score is not None:
        print(f"score: {'+' if score >= 0 else '-'}${abs(score)}")
    return 0
