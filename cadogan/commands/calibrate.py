"""``cadogan calibrate``: print the board, calibrate the camera, measure the table plane, enrol a deck."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from calibration import (
    DEFAULT_BOARD,
    DEFAULT_PX_PER_MM,
    MIN_VIEWS,
    BoardDetector,
    BoardNotFoundError,
    CalibrationError,
    CameraIntrinsics,
    Frame,
    Paper,
    Profile,
    TablePlane,
    calibrate_frames,
    load_profile_or_new,
    open_frames,
    plane_from_board,
    plane_from_cards,
    profile_path,
    save_profile,
    write_page,
)
from calibration.deck import EnrolmentError
from calibration.sources import IMAGE_SUFFIXES, read_image

_FORMATTER = argparse.RawDescriptionHelpFormatter

HELP = """\
Calibrate Cadogan to your camera and table. Usually once per camera set-up:

  1. cadogan calibrate board -o board.pdf          print it at 100 %, glue it to card
  2. cadogan calibrate camera --source 0           show the board to webcam 0 from many angles
  3. cadogan calibrate table --source 0            lay the board flat on the table, camera in place

Everything is saved in a profile (default: "default", in ~/.config/cadogan/profiles/).
Without step 3 Cadogan measures the table from the dealt cards themselves.
"""

BOARD_HELP = """\
Write the printable ChArUco calibration board, at true millimetre scale, with a 100 mm scale bar.

Print it at 100 % ("actual size"; no "fit to page"), then measure the bar: it must be 100 mm.
Glue the sheet to stiff card so it stays flat.

examples:
  cadogan calibrate board -o board.pdf
  cadogan calibrate board -o board.png --paper letter --dpi 600
"""

CAMERA_HELP = f"""\
Measure the camera's focal length, centre and lens distortion from views of the printed board.

Hold the board in front of the camera, still, and move it between views: fill the corners of the image,
tilt it about 30 degrees each way, near and far. Cadogan keeps a view only when it differs from the ones it
has, prints a coverage grid ('#' covered, '+' a little, '.' not yet) and says what to do next.
It stops after --views distinct views, or when a video or folder ends (Ctrl-C stops a webcam early).
At least {MIN_VIEWS} views are needed; the result's RMS error should be under about 0.5 px.

examples:
  cadogan calibrate camera --source 0
  cadogan calibrate camera --source calib.mp4 --every 10 --profile kitchen
  cadogan calibrate camera --source shots/ --profile ./desk.json
"""

TABLE_HELP = """\
Measure the table plane: where the table is, seen from the camera, in millimetres.

Put the camera where it will stay, lay the printed board flat on the table and run this. The profile's
camera intrinsics are used when present (calibrate the camera first for the best result).
Without a board, give card outlines found in the image (63 x 88 mm cards) with --cards.
--top-down writes the straightened view of the table, to check the result by eye.

examples:
  cadogan calibrate table --source 0
  cadogan calibrate table --source table.jpg --top-down check.png
  cadogan calibrate table --source deal.jpg --cards quads.json   (quads.json: [[[x, y] x 4], ...])
"""

DECK_HELP = """\
Teach Cadogan your deck: from one photo of all 52 cards, learn what its corner indices look like, so that
a deck unlike the ones the recogniser was trained on is read well. Saved in the profile; then give the
profile to `cadogan see`, `watch` and `demo` with --deck-profile.

Lay the cards out like this, then photograph them from straight above, the whole layout in the picture:
  - face up, upright (the top of every card away from you), apart (a finger's width between cards);
  - in rows, in this order, read like text (left to right, then the next row down):
        spades A 2 3 4 5 6 7 8 9 10 J Q K, then hearts, diamonds, clubs, each A to K
    (13 to a row, one suit a row, is easiest; any number per row works, the same for every row,
    the last row holding what is left);
  - a card you do not have: leave its place empty.
  - a plain, dark or coloured table is best (not white), with no glare.
The order names the cards, not the recogniser: it cannot yet read a deck it has not learnt.

Or: a folder with one photo per card, each file named by its card (AS.jpg, 10H.jpg, QC.png ...),
the card alone in the picture, upright, filling about a fifth of the frame.

Or: show the cards one by one to the camera (a webcam index) or in a video: in the order above, each card
alone, upright, held still for a second, then taken away (the table seen empty between cards). The still
moments name the cards in turn; the card expected next is printed as each is taken. With a webcam it stops after
the 52nd card (or at Ctrl-C: the cards shown so far, with --allow-missing).

If a card is not found, its name is printed and nothing is saved (exit 2); check that card and take
the photo again, or use --allow-missing to save the cards found (missing ones are then read as before).
An enrolment belongs to the recognition model that made it: after a model update, enrol again.
A deck the model already reads (it names 95 % of the enrolled indices alone) is then read as before: for such
decks the enrolled prototypes add false cards for little gain. The command says which it is.

examples:
  cadogan calibrate deck --source deck.jpg
  cadogan calibrate deck --source deck.jpg --profile kitchen
  cadogan calibrate deck --source cards/                 (AS.jpg ... KC.jpg, one card each)
  cadogan calibrate deck --source 0                      (cards shown one by one to webcam 0)
  cadogan calibrate deck --source shown.mp4              (a video of the cards shown one by one)
  cadogan see table.jpg --game klondike --deck-profile kitchen
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "calibrate", help="calibrate camera and table", description=HELP, formatter_class=_FORMATTER
    )
    sub = parser.add_subparsers(dest="calibrate_command", metavar="{board,camera,table,deck}", required=True)

    board = sub.add_parser(
        "board",
        help="write the printable calibration board",
        description=BOARD_HELP,
        formatter_class=_FORMATTER,
    )
    board.add_argument("-o", "--output", required=True, type=Path, help="board.pdf or board.png")
    board.add_argument("--paper", choices=[p.value for p in Paper], default="a4", help="paper size (default a4)")
    board.add_argument("--dpi", type=int, default=300, help="resolution of the page (default 300)")

    camera = sub.add_parser(
        "camera",
        help="calibrate the camera from views of the board",
        description=CAMERA_HELP,
        formatter_class=_FORMATTER,
    )
    camera.add_argument("--source", default="0", help="webcam index, video file or folder of images (default 0)")
    _profile_argument(camera)
    camera.add_argument("--views", type=int, default=15, help="distinct views to collect (default 15)")
    camera.add_argument("--every", type=int, default=5, help="look at one video frame in N (default 5)")

    table = sub.add_parser("table", help="measure the table plane", description=TABLE_HELP, formatter_class=_FORMATTER)
    table.add_argument("--source", default="0", help="image, video or webcam index (default 0)")
    _profile_argument(table)
    table.add_argument("--cards", type=Path, help="JSON file of card corner quads, instead of the board")
    table.add_argument(
        "--px-per-mm",
        type=float,
        default=DEFAULT_PX_PER_MM,
        help=f"scale of the top-down view (default {DEFAULT_PX_PER_MM:g})",
    )
    table.add_argument("--top-down", type=Path, help="write the straightened table view here (png/jpg)")

    deck = sub.add_parser(
        "deck",
        help="learn your deck's card faces from one photo of all 52 cards",
        description=DECK_HELP,
        formatter_class=_FORMATTER,
    )
    deck.add_argument(
        "--source",
        required=True,
        help="photo (.jpg, .png) of the 52 cards laid out in order, a folder of photos named by card, or a"
        " webcam index or video of the cards shown one by one",
    )
    _profile_argument(deck)
    deck.add_argument("--allow-missing", action="store_true", help="save even when some cards were not found")
    deck.add_argument("--models", metavar="DIR", help="model folder (default: the shipped models/)")
    return parser


def _profile_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile",
        default="default",
        help="profile name (kept in ~/.config/cadogan/profiles/) or path to a .json file",
    )


def run(args: argparse.Namespace) -> int:
    command = args.calibrate_command
    if command == "board":
        return _board(args)
    if command == "camera":
        return _camera(args)
    if command == "table":
        return _table(args)
    return _deck(args)


def _say(line: str) -> None:
    print(line, flush=True)


def _board(args: argparse.Namespace) -> int:
    if not 72 <= args.dpi <= 1200:
        raise CalibrationError(f"--dpi {args.dpi}: choose between 72 and 1200")
    paper = Paper(args.paper)
    write_page(args.output, paper, DEFAULT_BOARD, args.dpi)
    print(f"wrote {args.output} ({paper.value}, {args.dpi} dpi).")
    print("Print it at 100 % (actual size, no 'fit to page'); check the scale bar measures 100 mm.")
    return 0


def _until_interrupted(frames: Iterator[Frame]) -> Iterator[Frame]:
    """Ctrl-C ends the collection (the views so far are used), not the program."""
    try:
        yield from frames
    except KeyboardInterrupt:
        print("stopped; calibrating with the views so far", file=sys.stderr)


def _camera(args: argparse.Namespace) -> int:
    if args.views < MIN_VIEWS:
        raise CalibrationError(f"--views {args.views}: at least {MIN_VIEWS} are needed")
    path = profile_path(args.profile)
    profile = load_profile_or_new(args.profile)  # a broken profile stops us before the work, not after
    frames = open_frames(args.source, every=max(1, args.every))
    _say(f"looking for the board in {args.source}; hold it still, then move it between views")
    intr = calibrate_frames(_until_interrupted(frames), DEFAULT_BOARD, args.views, _say, args.source)
    dropped = profile.table is not None
    save_profile(Profile(profile.name, intr, None, profile.deck), str(path))
    print(
        f"camera {intr.width}x{intr.height}: fx {intr.fx:.1f} fy {intr.fy:.1f} px, "
        f"centre ({intr.cx:.1f}, {intr.cy:.1f}), distortion {_fmt(intr.dist)}"
    )
    quality = "good" if intr.rms_px <= 0.5 else "poor: use a flatter board, better light, sharper views"
    print(f"RMS reprojection error {intr.rms_px:.3f} px over {intr.views} views ({quality})")
    if dropped:
        print("the profile's table plane was for the old calibration: run `cadogan calibrate table` again")
    print(f"saved profile {path}")
    return 0


def _table(args: argparse.Namespace) -> int:
    path = profile_path(args.profile)
    profile = load_profile_or_new(args.profile)
    image = read_image(args.source)
    size = (int(image.shape[1]), int(image.shape[0]))
    camera = _camera_for(profile.camera, size)
    if args.cards is not None:
        plane = plane_from_cards(_read_quads(args.cards), camera, size, px_per_mm=args.px_per_mm)
        how = "the cards"
    else:
        view = BoardDetector(DEFAULT_BOARD if camera is None or camera.board is None else camera.board).detect(image)
        if view is None:
            raise BoardNotFoundError(
                f"{args.source}: no calibration board on the table; lay it flat in view, or use --cards"
            )
        plane = plane_from_board(view, camera, size, args.px_per_mm)
        how = f"the board ({view.count} corners)"
    save_profile(Profile(profile.name, profile.camera, plane, profile.deck), str(path))
    tilt = plane.tilt_deg()
    print(
        f"table plane from {how}: fit error {plane.residual_px:.2f} px"
        + ("" if tilt is None else f", camera tilted {tilt:.1f} degrees from straight down")
    )
    if camera is None:
        print("no camera calibration in the profile: lens distortion is ignored (run `calibrate camera`)")
    if args.top_down is not None:
        _write_top_down(args.top_down, image, plane)
    print(f"saved profile {path}")
    return 0


def _deck(args: argparse.Namespace) -> int:
    from vision.deckmatch import enrol_cards, enrol_image
    from vision.recognise import load_recogniser

    path = profile_path(args.profile)
    profile = load_profile_or_new(args.profile)  # a broken profile stops us before the work
    source = Path(args.source)
    if args.source.isdigit() or (source.is_file() and source.suffix.lower() not in IMAGE_SUFFIXES):
        rec = load_recogniser(args.models)
        enrolled = _enrol_shown(args.source, rec)
    elif source.is_dir():
        photos = [(Path(f.label).stem, f.image) for f in open_frames(args.source)]
        rec = load_recogniser(args.models)
        enrolled = enrol_cards(photos, rec, source=Path(args.source).name)
    else:
        image = read_image(args.source)
        rec = load_recogniser(args.models)
        enrolled = enrol_image(image, rec, source=Path(args.source).name)
    deck, missing = enrolled.deck, enrolled.missing
    found = 52 - len(missing)
    if missing and not args.allow_missing:
        raise EnrolmentError(
            f"{args.source}: found {found} of 52 cards; missing: {', '.join(missing)}"
            " (check those places of the layout and take the photo again, or use --allow-missing)"
        )
    save_profile(Profile(profile.name, profile.camera, profile.table, deck), str(path))
    views = len(deck.labels) // max(found, 1)
    print(f"enrolled {found} of 52 cards from {args.source} ({len(deck.labels)} prototypes, about {views} a card)")
    if missing:
        print(f"warning: not enrolled, read as before: {', '.join(missing)}", file=sys.stderr)
    if deck.classifier_named is not None:
        share = f"the model alone names {deck.classifier_named:.0%} of this deck's enrolled indices"
        if deck.needed():
            print(f"{share}: recognition will use the enrolled deck")
        else:
            print(f"{share}: it already knows this deck, so recognition reads it as before (fewer false cards)")
    print(f"saved profile {path}; use it with --deck-profile {args.profile}")
    return 0


def _enrol_shown(spec: str, rec: Any) -> Any:
    """Enrolment from cards shown one by one (webcam or video): the still moments, named in order."""
    from cadogan.enrol_stream import Shown, cards_shown
    from cadogan.sources import FrameSource
    from vision.cards import NAMES
    from vision.deckmatch import enrol_cards

    frames = FrameSource(spec, stride=1 if spec.isdigit() else 2)

    shown: list[Shown] = []  # kept as each card is taken: a Ctrl-C keeps the cards shown so far

    def taken(card: Shown) -> None:
        shown.append(card)
        following = NAMES[NAMES.index(card.name) + 1] if card.name != NAMES[-1] else None
        _say(f"{card.t:7.2f}s  {card.name} taken" + (f"; now show {following}" if following else "; all 52 shown"))

    if spec.isdigit():
        _say(f"show the cards one by one, in order, each held still for a second: first {NAMES[0]}")
    try:
        cards_shown(frames, rec, on_card=taken)
    except KeyboardInterrupt:
        _say("stopped: enrolling the cards shown so far")
    if not shown:
        raise EnrolmentError(
            f"{spec}: no card was seen held still: show each card alone, upright and still for a second"
        )
    return enrol_cards([(card.name, card.image) for card in shown], rec, source=Path(spec).name)


def _camera_for(camera: CameraIntrinsics | None, size: tuple[int, int]) -> CameraIntrinsics | None:
    # The profile stores the plane beside the camera: both must be for one resolution.
    if camera is not None and camera.image_size != size:
        raise CalibrationError(
            f"the image is {size[0]}x{size[1]}, the camera was calibrated at {camera.width}x{camera.height}:"
            " use the same resolution (or calibrate the camera at this one)"
        )
    return camera


def _read_quads(path: Path) -> list[np.ndarray[Any, np.dtype[np.float64]]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CalibrationError(f"{path}: cannot read the card quads ({exc})") from None
    try:
        quads = [np.asarray(q, np.float64) for q in data]
    except (TypeError, ValueError):
        quads = []
    if not quads or any(q.shape != (4, 2) for q in quads):
        raise CalibrationError(f"{path}: expected a list of card quads, each four [x, y] image points")
    return quads


def _write_top_down(out: Path, image: np.ndarray[Any, np.dtype[np.uint8]], plane: TablePlane) -> None:
    import cv2

    w, h = plane.image_size
    corners = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64)
    table = np.clip(plane.image_to_table(corners), -600.0, 600.0)  # a steep view reaches far: cap it
    lo, hi = table.min(axis=0), table.max(axis=0)
    s = min(plane.px_per_mm, 2000.0 / float(max(hi - lo)))  # a picture to look at, not to measure on
    size = (int((hi - lo)[0] * s), int((hi - lo)[1] * s))
    view = plane.top_down(image, (float(lo[0]), float(lo[1])), size, s)
    if not cv2.imwrite(str(out), view):
        raise CalibrationError(f"{out}: cannot write the top-down view (use .png or .jpg)")
    print(f"wrote the top-down view to {out}")


def _fmt(values: tuple[float, ...]) -> str:
    return "[" + ", ".join(f"{v:.4f}" for v in values) + "]"
