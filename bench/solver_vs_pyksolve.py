"""Our exact solver against pyksolve (Klondike-Solver) on the same thoughtful Klondike draw-3 deals.

Thoughtful: every card known (``Table.dealt`` keeps the face-down cards), unlimited passes, any run moves
and foundation cards may come back (``klondike/draw3``), as in Klondike-Solver. Both get the same deal;
each of our ``solved`` answers is replayed through ``Table.play``; CPU seconds are ``time.process_time``.

Run: .venv/bin/python -m bench.solver_vs_pyksolve [--deals 40] [--budget 3] [--first-seed 0]
Needs ``pip install pyksolve`` (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from typing import Any

from engine.cards import RANK_OF, SUIT_OF
from engine.errors import CadoganError
from engine.games import find_game
from engine.moves import Move
from engine.solver import Budget, Verdict, replay, solve
from engine.table import Table

# Klondike-Solver's card text is two rank digits then a suit digit: clubs 1, diamonds 2, hearts 3, spades 4.
_SUIT_DIGIT = {0: 4, 1: 3, 2: 2, 3: 1}  # our suit order is spades, hearts, diamonds, clubs


def klondike_solver_deal(table: Table) -> str:
    """The deal in Klondike-Solver's ``load_solitaire`` format: the columns row by row as dealt, then the
    stock from its top card down (checked against its own shuffles: the first talon card is turned first)."""

    def text(code: int) -> str:
        return f"{RANK_OF[code]:02d}{_SUIT_DIGIT[SUIT_OF[code]]}"

    columns = [table.codes(f"t{n}") for n in range(1, 8)]
    cards = [columns[col][row] for row in range(7) for col in range(row, 7)]
    cards += reversed(table.codes("s"))
    return "".join(text(code) for code in cards)


LONELYBOT_S = 0.67e-3
"""lonelybot's (Rust) mean time to decide a thoughtful draw-3 deal, as its authors report it."""

_SUIT_LETTER = {"S": 0, "H": 1, "D": 2, "C": 3}


def klondike_solver_moves(table: Table, text: str) -> list[Move]:
    """Klondike-Solver's move list (``moves_made``) as our moves, played on a copy of ``table`` as they are
    read (the foundation of a suit is wherever that suit's ace went; ``IllegalMoveError`` if one is not legal).

    Its notation: ``DRn`` turn the stock n times, ``NEW`` turn the waste over, ``Fn`` turn column n's top card
    (our engine turns it by itself), ``W`` the waste, digits the columns, ``S H D C`` the foundations,
    ``ab-n`` n cards from column a to column b.
    """
    copy = table.copy()
    moves: list[Move] = []

    def pile(ch: str) -> str:
        if ch.isdigit():
            return f"t{ch}"
        if ch == "W":
            return "w"
        suit = _SUIT_LETTER[ch]
        empty = None
        for f in ("f1", "f2", "f3", "f4"):
            codes = copy.codes(f)
            if codes and SUIT_OF[codes[0]] == suit:
                return f
            if not codes and empty is None:
                empty = f
        assert empty is not None
        return empty

    for token in text.split():
        if token.startswith("F") and token[1:].isdigit():
            continue
        if token == "NEW":
            steps = [Move("w", "s", len(copy.codes("w")))]
        elif token.startswith("DR"):
            steps = []
            for _ in range(int(token[2:])):
                steps.append(Move("s", "w", min(3, len(copy.codes("s")) - sum(m.count for m in steps))))
        else:
            head, _, count = token.partition("-")
            steps = [Move(pile(head[0]), pile(head[1]), int(count) if count else 1)]
        for move in steps:
            copy.play(move)
            moves.append(move)
    return moves


def run_pyksolve(solver: Any, table: Table, max_closed: int) -> tuple[Verdict, float, str]:
    """Verdict, CPU seconds and (when solved) the move list in Klondike-Solver's notation."""
    solver.load_solitaire(klondike_solver_deal(table))
    solver.reset_game(3)
    start = time.process_time()
    result = solver.solve_fast(max_closed_count=max_closed)
    spent = time.process_time() - start
    verdict = {1: Verdict.SOLVED, -1: Verdict.SOLVED, 0: Verdict.UNSOLVABLE}.get(result.value, Verdict.UNKNOWN)
    return verdict, spent, solver.moves_made() if verdict is Verdict.SOLVED else ""


def replays(table: Table, moves: list[Move] | tuple[Move, ...]) -> bool:
    """Whether ``moves`` are legal in turn from ``table`` and end with every card on a foundation."""
    try:
        return replay(table, moves).foundation_count() == table.game.card_count
    except CadoganError:
        return False


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--budget", type=float, default=3.0, help="our CPU seconds per deal")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--max-closed", type=int, default=5_000_000, help="pyksolve's state budget")
    args = parser.parse_args(argv)
    try:
        from pyksolve import solver as pyksolve  # optional: the bench extra
    except ImportError:
        print("pyksolve is not installed: pip install pyksolve (the bench extra)", file=sys.stderr)
        return 2
    game = find_game("klondike/draw3")
    theirs_solver = pyksolve.Solitaire()
    ours_t: list[float] = []
    theirs_t: list[float] = []
    ours_v: list[Verdict] = []
    theirs_v: list[Verdict] = []
    disagree: list[int] = []
    bad_replay: list[int] = []
    print("seed  ours          cpu_s  nodes     pyksolve    cpu_s")
    for seed in range(args.first_seed, args.first_seed + args.deals):
        table = Table.dealt(game, seed)
        ours = solve(table, Budget(nodes=None, seconds=args.budget))
        if ours.verdict is Verdict.SOLVED and not replays(table, ours.moves):
            bad_replay.append(seed)
        verdict, spent, text = run_pyksolve(theirs_solver, table, args.max_closed)
        if verdict is Verdict.SOLVED:
            try:
                theirs_ok = replays(table, klondike_solver_moves(table, text))
            except CadoganError:
                theirs_ok = False
            if not theirs_ok:
                bad_replay.append(seed)
        answers = {ours.verdict, verdict} - {Verdict.UNKNOWN}
        if len(answers) == 2:
            disagree.append(seed)
        ours_t.append(ours.seconds)
        theirs_t.append(spent)
        ours_v.append(ours.verdict)
        theirs_v.append(verdict)
        print(
            f"{seed:<5} {ours.verdict.value:<11} {ours.seconds:8.4f} {ours.nodes:<9} {verdict.value:<11} {spent:6.2f}",
            flush=True,
        )
    n = args.deals

    def decided(verdicts: list[Verdict]) -> str:
        solved = verdicts.count(Verdict.SOLVED)
        lost = verdicts.count(Verdict.UNSOLVABLE)
        return f"{(solved + lost) / n:.1%}"

    print()
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(
        f"deals {args.first_seed}..{args.first_seed + n - 1} of klondike/draw3 (thoughtful), our budget"
        f" {args.budget:g} s CPU per deal, pyksolve max_closed_count={args.max_closed:,}"
    )
    print()
    print("| | decided | solved | unsolvable | median CPU s | p90 CPU s |")
    print("|---|---|---|---|---|---|")
    for name, verdicts, times in (("ours", ours_v, ours_t), ("pyksolve", theirs_v, theirs_t)):
        print(
            f"| {name} | {decided(verdicts)} | {verdicts.count(Verdict.SOLVED)} |"
            f" {verdicts.count(Verdict.UNSOLVABLE)} | {statistics.median(times):.4f} | {p90(times):.2f} |"
        )
    print()
    ours_median = statistics.median(ours_t)
    ratio = ours_median / max(statistics.median(theirs_t), 1e-9)
    print(f"median CPU ratio ours/pyksolve: {ratio:.4f} (target <= 1.0: {'met' if ratio <= 1.0 else 'not met'})")
    both = [i for i in range(n) if ours_v[i] is Verdict.SOLVED and theirs_v[i] is Verdict.SOLVED]
    if both:
        theirs_median = max(statistics.median(theirs_t[i] for i in both), 1e-9)
        ratio_solved = statistics.median(ours_t[i] for i in both) / theirs_median
        print(f"median CPU ratio on the {len(both)} deals both solved: {ratio_solved:.4f}")
    within = sum(1 for v, t in zip(ours_v, ours_t, strict=True) if v is not Verdict.UNKNOWN and t <= 10.0) / n
    print(
        f"ours decided within 10 s: {within:.1%} (target >= 99 %: {'met' if within >= 0.99 else 'not met'};"
        f" budget here {args.budget:g} s)"
    )
    print(f"solved/unsolvable disagreements: {disagree or 'none'}")
    print(f"solutions that do not replay through our engine (either side): {bad_replay or 'none'}")
    print(
        f"lonelybot decides a deal in {LONELYBOT_S * 1000:.2f} ms on average: our median is"
        f" {ours_median / LONELYBOT_S:,.1f} times that, our mean {statistics.fmean(ours_t) / LONELYBOT_S:,.0f} times"
        " (the undecided deals spend the whole budget)"
    )
    return 1 if disagree or bad_replay else 0


if __name__ == "__main__":
    sys.exit(main())
