"""Play Klondike draw 3 seeing only what the camera sees, one hint per move: the companion's win rate.

Run: .venv/bin/python -m bench.hidden_play --deals 300 --budget 1.0 (what ``cadogan hint`` gives by default;
``--nodes N`` for a budget in solver nodes, ``--record FILE`` to keep each game's moves, ``--jobs N`` to play
N deals side by side on N cores; CPU seconds are each deal's own, summed over the processes; ``--against FILE``
to pair each deal with the same deal in another version's ``--record``)
Each move is the hint for the table with every face-down card unknown until it has been seen face up once
(a companion remembers the stock cards it has watched turn over, and the stock keeps its order from pass to
pass); the real table then makes that move. The hint gets the game's earlier positions, so it does not move
back and forth. A game ends won, blocked, when a position comes back a third time, when the hint finds
every sample of the hidden cards lost (the player resigns), or after --max-moves. Prints the win rate with
its 95 % (Wilson) interval.
Anchors: Bjarnason et al. 2009, 36.97 %; lonelybot, 44.52 %. Target: >= 45 %.

Paired games (``--against``): two versions of the hint make the same moves until their first different choice,
so the deals where they part are the whole difference between them, and most deals do not part. Each deal is
told against the other version's recorded game of the same seed (the move where the two first differ), and the
run ends with the deals each side won alone and the sign test over them: a change that touches a few positions
is judged exactly, where two win rates over 460 deals differ by noise of +-4.5 %.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import Pool

from engine.cards import UNKNOWN
from engine.games import find_game
from engine.hint import hint, nodes_for_seconds
from engine.table import Outcome, Stage, Table


def camera_memory(table: Table, seen: set[int]) -> Table:
    """``table`` as a companion knows it: face-down cards unknown unless seen face up before (``seen``); the
    game's own state (Sly's round, The Great Thirteen's re-deal) as the table has it."""
    piles = [
        [UNKNOWN if k < table.face_down_count(p) and c not in seen else c for k, c in enumerate(table.codes(p))]
        for p in table.pile_ids
    ]
    downs = [table.face_down_count(p) for p in table.pile_ids]
    return Table(
        table.game,
        piles,
        downs,
        passes=table.passes,
        waste_played=table.waste_played,
        stage=table.stage,
        faces=table.faces,
        hook_state=table.hook_state,
    )


def watch(table: Table, seen: set[int]) -> Table:
    """What a companion watching the game knows of ``table`` now: its face-up cards join ``seen``, and the
    view is ``camera_memory`` of that (one function for the games and for their replays)."""
    for pile in table.pile_ids:
        seen.update(table.codes(pile)[table.face_down_count(pile) :])
    return camera_memory(table, seen)


def play(game: str, seed: int, nodes: int, max_moves: int, made_moves: list[str] | None = None) -> tuple[str, int]:
    """How the deal ended (won, blocked, repeated, resigned, too long), and the moves made (appended to
    ``made_moves`` as text, when given, to replay the game later)."""
    table = Table.dealt(find_game(game), seed)
    table.stage = Stage.PLAY
    repeats: Counter[tuple[object, ...]] = Counter()
    seen: set[int] = set()
    history: list[Table] = []
    for made in range(max_moves):
        if table.outcome() is Outcome.WON:
            return "won", made
        repeats[table.key()] += 1
        if repeats[table.key()] >= 3:
            return "repeated", made
        view = watch(table, seen)
        advice = hint(view, nodes, seed, history=history)
        if advice.move is None:
            return "blocked", made
        if advice.chance == 0.0 and advice.samples > 1:
            return "resigned", made
        history.append(view)
        table.push(advice.move)
        if made_moves is not None:
            made_moves.append(str(advice.move))
    return "won" if table.outcome() is Outcome.WON else "too long", max_moves


@dataclass(frozen=True, slots=True)
class Recorded:
    """One deal of a ``--record`` file: how it ended and the moves made."""

    ending: str
    moves: tuple[str, ...]


def load_record(path: str) -> dict[int, Recorded]:
    """A ``--record`` file's deals by seed (the last line of a seed wins, as a rerun appends)."""
    deals: dict[int, Recorded] = {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            try:
                data = json.loads(line)
                deals[int(data["seed"])] = Recorded(str(data["ending"]), tuple(str(m) for m in data["moves"]))
            except (ValueError, KeyError, TypeError) as error:
                raise SystemExit(f"{path}, line {number}: not a --record line ({error}); record it again") from None
    return deals


def parted_at(ours: Sequence[str], theirs: Sequence[str]) -> int | None:
    """The move number (from 0) where two games of one deal first differ; None where they are the same game."""
    for made, (mine, other) in enumerate(zip(ours, theirs, strict=False)):
        if mine != other:
            return made
    return None if len(ours) == len(theirs) else min(len(ours), len(theirs))


def sign_test(wins_here: int, wins_there: int) -> float:
    """Two-sided exact sign test over the deals that only one side won: the chance of a split at least this
    uneven if both versions were as good."""
    parted = wins_here + wins_there
    if parted == 0:
        return 1.0
    tail = sum(math.comb(parted, k) for k in range(min(wins_here, wins_there) + 1))
    return min(1.0, 2.0 * tail / (1 << parted))


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _deal(job: tuple[str, int, int, int]) -> tuple[int, str, int, list[str], float]:
    """One deal played (a worker's job): seed, ending, moves made, the moves, CPU seconds."""
    game, seed, nodes, max_moves = job
    start = time.process_time()
    made_moves: list[str] = []
    ending, made = play(game, seed, nodes, max_moves, made_moves)
    return seed, ending, made, made_moves, time.process_time() - start


def _played(jobs: list[tuple[str, int, int, int]], workers: int) -> Iterator[tuple[int, str, int, list[str], float]]:
    """The deals' results in seed order, played ``workers`` at a time (in this process when 1)."""
    if workers <= 1:
        yield from map(_deal, jobs)
        return
    with Pool(workers) as pool:
        yield from pool.imap(_deal, jobs)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="klondike/draw3")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds of hint per move (as solver nodes)")
    parser.add_argument("--nodes", type=int, help="hint budget in solver nodes (instead of --budget)")
    parser.add_argument("--max-moves", type=int, default=400)
    parser.add_argument("--record", metavar="FILE", help="append one JSON line a deal: seed, ending, moves")
    parser.add_argument("--jobs", type=int, default=1, help="deals played side by side (processes)")
    parser.add_argument(
        "--against", metavar="FILE", help="another version's --record of the same deals: pair each deal with it"
    )
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    against = load_record(args.against) if args.against else {}
    only_here: list[int] = []
    only_there: list[int] = []
    paired = 0
    nodes = args.nodes if args.nodes else nodes_for_seconds(args.budget)
    wins = 0
    moves = 0
    cpu = 0.0
    endings: Counter[str] = Counter()
    jobs = [(args.game, seed, nodes, args.max_moves) for seed in range(args.first, args.first + args.deals)]
    for n, (seed, ending, made, made_moves, seconds) in enumerate(_played(jobs, args.jobs), start=1):
        if args.record:
            with open(args.record, "a", encoding="utf-8") as out:
                out.write(json.dumps({"seed": seed, "ending": ending, "moves": made_moves}) + "\n")
        endings[ending] += 1
        wins += ending == "won"
        moves += made
        cpu += seconds
        low, high = wilson(wins, n)
        pairing = ""
        if seed in against:
            other = against[seed]
            paired += 1
            made_at = parted_at(made_moves, other.moves)
            if made_at is not None:
                pairing = f"; parted at move {made_at} from the other, which {other.ending}"
            if (ending == "won") != (other.ending == "won"):
                (only_here if ending == "won" else only_there).append(seed)
        print(
            f"deal {seed}: {ending} after {made} moves{pairing}"
            f"  ({wins}/{n} = {wins / n:.1%}, 95% {low:.1%}-{high:.1%}, {cpu:.0f} s CPU)",
            flush=True,
        )
    low, high = wilson(wins, args.deals)
    print(f"{args.game}: won {wins} of {args.deals} = {wins / max(1, args.deals):.1%} (95% {low:.1%}-{high:.1%}),")
    print(
        f"hint budget {nodes} nodes a move; {moves} moves, {cpu:.0f} s CPU in all,"
        f" {cpu / max(1, moves):.2f} s CPU a move"
    )
    print("endings: " + ", ".join(f"{name} {count}" for name, count in endings.most_common()))
    if args.against:
        print(
            f"against {args.against}: {paired} deals paired; won here only {len(only_here)} {only_here},"
            f" there only {len(only_there)} {only_there};"
            f" sign test p = {sign_test(len(only_here), len(only_there)):.3f}"
        )


if __name__ == "__main__":
    main()
