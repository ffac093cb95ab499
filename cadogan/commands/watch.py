"""``cadogan watch``: the live companion on a webcam, a video or images."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cadogan.commands._common import SubParsers, add_command
from cadogan.overlay import OverlayWindow, OverlayWriter, display_available
from cadogan.session import SessionLog, read_session
from cadogan.sources import FrameSource
from cadogan.speech import Speaker
from cadogan.tracker import Event, Tracker
from cadogan.watch import Advice, Hinter, watch
from engine.games import find_game
from engine.table import Stage, Table


def add_parser(sub: SubParsers) -> None:
    parser = add_command(
        sub,
        "watch",
        "follow a game on the table: moves, mistakes, hints",
        "Watch a game through a webcam (or a video, an image, a folder of images): read the table whenever\n"
        "it is still, check the deal, follow every move, announce moves against the rules (on screen, in the\n"
        "session log, aloud with --speak), and give hints when the table has been still a while (--auto-hint).\n"
        "When a display exists and OpenCV has its GUI, the overlay is shown in a window: press h for a hint\n"
        "(drawn as an arrow from the card to move to the card it goes onto), q to stop.\n"
        "The camera may be turned at an angle or sideways (the layout is read upright); put it on the\n"
        "player's side of the table, not across it.\n"
        "Every still table goes to the session log, which `cadogan verify` reads; if the source stops, the\n"
        "log written so far is complete: start again with --resume to carry on.",
        "  cadogan watch --game klondike                      # webcam 0\n"
        "  cadogan watch --source game.mp4 --game canfield --overlay out.mp4 --log game.jsonl\n"
        "  cadogan watch --source 1 --game klondike --speak --auto-hint 5 --resume --log game.jsonl",
    )
    parser.add_argument("--source", default="0", help="webcam index, video file, image or folder (default 0)")
    parser.add_argument("--game", required=True, help="game being played (see `cadogan games`)")
    parser.add_argument("--log", default="cadogan-session.jsonl", help="session log (default cadogan-session.jsonl)")
    parser.add_argument("--resume", action="store_true", help="carry on from the last table of --log")
    parser.add_argument("--overlay", help="write the annotated video here (.mp4)")
    parser.add_argument(
        "--no-window",
        action="store_true",
        help="no live window even when a display exists (the window needs the GUI build: pip install opencv-python)",
    )
    parser.add_argument("--speak", action="store_true", help="speak announcements with espeak-ng")
    parser.add_argument("--auto-hint", type=float, metavar="SECONDS", help="hint after the table is still this long")
    parser.add_argument("--every", type=int, default=2, help="read one frame in N (default 2)")
    parser.add_argument("--models", help="folder with the recognition models (default: the shipped ones)")
    parser.add_argument(
        "--deck-profile", metavar="PROFILE", help="use the deck enrolled in this profile (calibrate deck)"
    )


def _hinter(seconds: float = 1.0) -> Hinter:
    from engine.hint import hint, nodes_for_seconds

    def advise(table: Table) -> Advice | None:
        try:
            best = hint(table, nodes_for_seconds(seconds))
        except ValueError:
            return None
        return None if best.move is None else Advice(best.sentence, best.chance, best.move)

    return advise


def _print(event: Event) -> None:
    print(f"{event.t:8.2f}s  {event.kind.value:<8} {event.text}", flush=True)


def run(args: argparse.Namespace) -> int:
    from cadogan.reading import vision_reader

    game = find_game(args.game)
    # loads (and checks) the models before the camera opens
    reader = vision_reader(game.name, args.models, deck_profile=args.deck_profile)
    source = FrameSource(args.source)
    tracker = Tracker(partial=True)
    if args.resume and Path(args.log).exists():
        record = read_session(args.log)
        if record.tables:
            tracker.model = record.tables[-1].table.copy()
            tracker.model.stage = Stage.PLAY
            tracker.check_deal = False
            print(f"resuming from {args.log}: {len(record.tables)} tables read before")
    speaker = Speaker(enabled=args.speak)
    window = None if args.no_window or not display_available() else OverlayWindow()
    overlay = OverlayWriter(Path(args.overlay), fps=source.fps / max(1, args.every)) if args.overlay else None
    with SessionLog(args.log, game.name, source.name, partial=True) as log:
        summary = watch(
            source,
            reader,
            tracker,
            log=log,
            speaker=speaker,
            overlay=overlay,
            hinter=_hinter() if args.auto_hint is not None or window is not None else None,  # (the h key)
            auto_hint_after=args.auto_hint,
            every=args.every,
            on_event=_print,
            window=window,
        )
        log.write("end", 0.0, reason=source.end_reason, frames=summary.frames)
    if overlay is not None:
        overlay.close()
    if window is not None:
        window.close()
    speaker.close()
    if source.ended_early:
        print(f"cadogan watch: {source.end_reason}; the session log {args.log} is complete", file=sys.stderr)
    print(f"{summary.frames} frames, {summary.read} read; session log: {args.log}")
    return 0
