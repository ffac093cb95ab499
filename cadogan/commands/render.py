"""``cadogan render``: a photo-like image of a table, with exact ground truth on request."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from cadogan.commands._common import parse_size
from engine.errors import CadoganError

DESCRIPTION = (
    "Draw TABLE.json as a webcam would see it on a real table: real card artwork (Debian's card decks), "
    "a random table, camera angle, light, blur, noise and sometimes a hand. The same --seed gives the same "
    "picture. With --truth, also write every card's outline and corner-index boxes (image and table mm), how "
    "much of each is hidden, and the camera used."
)
EXAMPLES = """\
  cadogan deal klondike --seed 7 > deal.json
  cadogan render deal.json -o deal.png
  cadogan render deal.json -o deal.jpg --deck paris --seed 3 --truth deal.truth.json
  cadogan render deal.json -o clean.png --clean --size 1920x1080
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "render",
        help="photo-like image of a table (+ ground truth)",
        description=DESCRIPTION,
        epilog="examples:\n" + EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("table", metavar="TABLE.json", help="a table file, as `cadogan deal` writes")
    p.add_argument("-o", "--output", required=True, help="image to write (.png or .jpg)")
    p.add_argument("--deck", default="dondorf", help="card artwork (default dondorf; a wrong name lists them)")
    p.add_argument("--seed", type=int, default=0, help="picks table, camera, light, dealing untidiness")
    p.add_argument("--truth", metavar="OUT.json", help="write the ground truth as JSON here")
    p.add_argument("--size", default="1280x720", help="image size WxH (default 1280x720)")
    p.add_argument("--clean", action="store_true", help="no hands, clutter, light or camera effects")
    p.add_argument("--surface", help="table surface: wood, felt, cloth, plastic, check or stripes (default: random)")
    p.set_defaults(run=run)
    return p


def _writable(path: str) -> None:
    parent = Path(path).resolve().parent
    if not parent.is_dir():
        raise CadoganError(f"cannot write {path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (Path(path).exists() and not os.access(path, os.W_OK)):
        raise CadoganError(f"cannot write {path}: permission denied")


def run(args: argparse.Namespace) -> int:
    import cv2  # imported here so that `cadogan --help` works without OpenCV

    from vision.synth import RenderOptions, find_deck, render_scene
    from vision.synth.tablefile import load_piles

    deck = find_deck(args.deck)
    size = parse_size(args.size)
    _writable(args.output)
    if args.truth:
        _writable(args.truth)
    if Path(args.output).suffix.lower() not in (".png", ".jpg", ".jpeg", ".bmp", ".webp"):
        raise CadoganError(f"cannot write {args.output}: use a .png or .jpg name")
    game, piles = load_piles(args.table)
    options = RenderOptions(table=args.surface)
    if args.clean:
        options = RenderOptions(table=args.surface, hand_probability=0.0, clutter=False, effects=0.0)
    image, truth = render_scene(game, piles, deck=deck, seed=args.seed, size=size, options=options)
    try:
        ok = cv2.imwrite(args.output, image)
    except cv2.error:
        ok = False
    if not ok:
        raise CadoganError(f"cannot write {args.output}")
    if args.truth:
        try:
            Path(args.truth).write_text(truth.to_json(), encoding="utf-8")
        except OSError as error:
            raise CadoganError(f"cannot write {args.truth}: {error.strerror}") from None
    return 0
