"""``cadogan see``: read a photograph of a table and print the position it shows."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cadogan.commands._common import SubParsers, add_command
from engine.errors import CadoganError

DESCRIPTION = (
    "Find every readable corner index (rank + suit) in IMAGE, name the cards, group them into the piles of "
    "GAME's layout and print the observed table (cards not read are left out; face-down cards are counted where "
    "their backs show). A photo taken turned, at an angle or sideways, is read upright (the camera on the player's "
    "side gives the surest reading). Two small ONNX models run on the CPU (models/, see models/MODEL_CARD.md)."
)
EXAMPLES = """\
  cadogan see photo.jpg --game klondike
  cadogan see photo.jpg --game canfield --json > seen.json
  cadogan see photo.jpg --game klondike --annotate seen.png
  cadogan see photo.jpg --game klondike --deck-profile default   # a deck enrolled with `calibrate deck`
"""


def add_parser(sub: SubParsers) -> argparse.ArgumentParser:
    p = add_command(sub, "see", "read a photo of a table (corner indices -> piles)", DESCRIPTION, EXAMPLES)
    p.add_argument("image", metavar="IMAGE", help="photograph (.jpg, .png) of the table")
    p.add_argument("--game", required=True, help="the game laid out (klondike, canfield)")
    p.add_argument("--json", action="store_true", help="print the observed table as JSON (with each read)")
    p.add_argument("--annotate", metavar="OUT.png", help="also write IMAGE with the reads drawn on it")
    p.add_argument("--models", metavar="DIR", help="model folder (default: the shipped models/)")
    p.add_argument(
        "--deck-profile",
        metavar="PROFILE",
        help="read with the deck enrolled in this profile (name or .json path; `cadogan calibrate deck`)",
    )
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    import cv2  # imported here so that `cadogan --help` works without OpenCV
    import numpy as np

    from engine.formats import dumps, table_to_json
    from vision.assemble import layout_name, to_table
    from vision.recognise import load_recogniser
    from vision.upright import read_upright

    try:
        layout_name(args.game)
    except ValueError as error:
        raise CadoganError(str(error)) from None
    path = Path(args.image)
    if not path.is_file():
        raise CadoganError(f"cannot read {args.image}: no such file")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None or min(image.shape[:2]) < 32:
        raise CadoganError(f"cannot read {args.image}: not an image OpenCV can decode")
    if args.annotate and not Path(args.annotate).resolve().parent.is_dir():
        raise CadoganError(f"cannot write {args.annotate}: its folder does not exist")
    deck = None
    if args.deck_profile:
        from calibration.profile import load_deck

        deck = load_deck(args.deck_profile)
    rec = load_recogniser(args.models, deck=deck)
    seen = read_upright(np.asarray(image, np.uint8), rec, args.game)  # a photo turned any way is read upright
    dets, obs, view = seen.detections, seen.observation, seen.upright
    if len(dets) == 0:
        raise CadoganError(f"no cards found in {args.image}")
    table, problems = to_table(obs)
    corners = view.boxes_to_frame(dets.boxes)  # each read's box in the photo (turned with the view)
    if args.json:
        data: dict[str, Any] = table_to_json(table)
        data["reads"] = [
            {
                "card": n,
                "box": [round(float(v), 1) for v in (*q.min(0), *q.max(0))],
                "confidence": round(float(c), 3),
            }
            for n, q, c in zip(dets.names, corners, dets.confidence, strict=True)
        ]
        data["turn"] = round(view.degrees + (180.0 if view.flipped else 0.0), 1)
        data["problems"] = [str(p) for p in problems]
        print(json.dumps(data, indent=1))
    else:
        print(dumps(table), end="")
        print(
            f"{len(dets)} index reads, {sum(len(v) for v in obs.piles.values())} cards placed, "
            f"{len(obs.unplaced)} not placed"
        )
    if args.annotate:
        out = image.copy()
        for name, quad, conf in zip(dets.names, corners, dets.confidence, strict=True):
            colour = (0, 200, 0) if conf >= 0.5 else (0, 160, 255)
            cv2.polylines(out, [np.round(quad).astype(np.int32)], True, colour, 2)
            x0, y0 = quad.min(0)
            cv2.putText(out, name, (int(x0), int(y0) - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2)
        if not cv2.imwrite(args.annotate, out):
            raise CadoganError(f"cannot write {args.annotate}")
    return 0
