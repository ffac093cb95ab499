"""``cadogan render-game GAME --seed N -o game.mp4``: a whole game as a video, hands doing the moves."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cadogan.commands._common import SubParsers, add_command, parse_size
from engine.autoplay import greedy_playout
from engine.errors import CadoganError
from engine.formats import table_to_json
from engine.games import find_game
from engine.moves import Move
from engine.table import Stage, Table


def add_parser(sub: SubParsers) -> None:
    parser = add_command(
        sub,
        "render-game",
        "render a whole game as a video with hands doing the moves",
        "Deal GAME with a seed, play it (with the engine's greedy player, or the moves you give), and render\n"
        "every position as a photo-like video: the table held still, then a hand making the next move.\n"
        "With --truth, write the table after each move and the frame where it is shown.",
        "  cadogan render-game klondike --seed 2 -o game.mp4 --truth game.json\n"
        "  cadogan render-game canfield --seed 39 --moves 't2>t1,s:3>w' --max-moves 2 -o short.mp4",
    )
    parser.add_argument("game", help="game or variant name (see `cadogan games`)")
    parser.add_argument("--seed", type=int, default=0, help="deal and picture seed (default 0)")
    parser.add_argument("-o", "--output", required=True, help="video to write (.mp4)")
    parser.add_argument("--truth", help="write the tables and their frames as JSON here")
    parser.add_argument("--deck", default="dondorf", help="card artwork (default dondorf)")
    parser.add_argument("--moves", help="comma-separated moves to play instead of the greedy player")
    parser.add_argument("--max-moves", type=int, default=40, help="stop after this many moves (default 40)")
    parser.add_argument("--fps", type=float, default=15.0, help="frames per second (default 15)")
    parser.add_argument("--size", default="1280x720", help="frame size WxH (default 1280x720)")


def run(args: argparse.Namespace) -> int:
    from vision.synth import render_video  # rendering pulls in the artwork: import it only when used

    game = find_game(args.game)
    output = Path(args.output)
    if output.suffix.lower() != ".mp4":
        raise CadoganError(f"{output}: the video must be an .mp4 file")
    if not output.resolve().parent.is_dir():
        raise CadoganError(f"cannot write {output}: folder {output.resolve().parent} does not exist")
    table = Table.dealt(game, args.seed)
    tables = [table.copy()]
    moves: list[str] = []
    table.stage = Stage.PLAY
    if args.moves:
        for text in args.moves.split(",")[: args.max_moves]:
            table.play(Move.parse(text))
            moves.append(text.strip())
            tables.append(table.copy())
    else:
        for move in greedy_playout(table, max_moves=args.max_moves):
            moves.append(str(move))
            tables.append(table.copy())
    hold_s, move_s = 0.8, 1.2
    render_video(
        game.name,
        [t.piles_view() for t in tables],
        str(output),
        deck=args.deck,
        seed=args.seed,
        size=parse_size(args.size),
        fps=args.fps,
        hold_s=hold_s,
        move_s=move_s,
    )
    hold, move = max(1, round(hold_s * args.fps)), max(2, round(move_s * args.fps))
    if args.truth:
        record: dict[str, Any] = {
            "game": game.name,
            "seed": args.seed,
            "deck": args.deck,
            "fps": args.fps,
            "moves": moves,
            "tables": [
                {"first_frame": k * (hold + move), "frames": hold, "table": table_to_json(t)}
                for k, t in enumerate(tables)
            ],
        }
        Path(args.truth).write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {output}: {len(tables)} positions, {len(moves)} moves, {len(tables) * (hold + move) - move} frames")
    return 0
