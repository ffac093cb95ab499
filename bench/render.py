"""Benchmark: synthetic scenes per second at 1280 x 720 on one core.

Run from the repository root: ``OMP_NUM_THREADS=1 .venv/bin/python -m bench.render [--scenes 40]``.
Deterministic seeds; the deck cache is filled before timing (first use of a deck rasterises its SVG, seconds
per deck, not counted). Prints scenes per CPU second of this process (steady on a shared machine) and per wall
second, with the load average, since a loaded machine slows both.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

import cv2

from vision.synth import RenderOptions, render_scene
from vision.synth.artwork import all_cards, load_deck
from vision.synth.decks import find_deck
from vision.synth.layout import Piles

DECKS = ("dondorf", "anglo", "paris")


def deal(game: str, seed: int) -> Piles:
    cards = all_cards()
    random.Random(seed).shuffle(cards)
    if game == "canfield":
        piles: Piles = {"r": [(c, i == 12) for i, c in enumerate(cards[:13])]}
        piles.update({f"f{i}": [(cards[13], True)] if i == 1 else [] for i in range(1, 5)})
        piles.update({f"t{i}": [(cards[13 + i], True)] for i in range(1, 5)})
        piles["s"] = [(c, False) for c in cards[18:]]
        piles["w"] = []
        return piles
    piles = {f"f{i}": [] for i in range(1, 5)}
    k = 0
    for col in range(1, 8):
        piles[f"t{col}"] = [(cards[k + j], j == col - 1) for j in range(col)]
        k += col
    piles["s"] = [(c, False) for c in cards[k:]]
    piles["w"] = []
    return piles


def run(n: int, options: RenderOptions, label: str) -> float:
    jobs = [(("klondike", "canfield")[i % 2], DECKS[i % len(DECKS)], i) for i in range(n)]
    tables = [deal(g, s) for g, _, s in jobs]
    start, cpu = time.perf_counter(), time.process_time()
    for (game, deck, seed), piles in zip(jobs, tables, strict=True):
        render_scene(game, piles, deck=deck, seed=seed, size=(1280, 720), options=options)
    wall = n / (time.perf_counter() - start)
    # CPU time of this process: steadier than wall time on a shared machine (one thread, so the same when idle).
    rate = n / (time.process_time() - cpu)
    print(f"{label:<28} {rate:6.2f} scenes/s CPU ({1000 / rate:6.1f} ms/scene), {wall:6.2f}/s wall, {n} scenes")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=40)
    args = parser.parse_args()
    cv2.setNumThreads(1)  # single core, as the figure is quoted
    for d in DECKS:
        load_deck(find_deck(d))
    print(
        f"cadogan render bench: {platform.processor() or platform.machine()}, python {platform.python_version()},"
        f" opencv {cv2.__version__}, 1 thread, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    run(4, RenderOptions(), "warm-up")
    run(args.scenes, RenderOptions(), "full (hands, light, camera)")
    run(args.scenes, RenderOptions(hand_probability=0.0, clutter=False, effects=0.0), "clean (no effects)")


if __name__ == "__main__":
    main()
