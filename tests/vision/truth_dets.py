"""Helpers for the vision tests: perfect detections and visible cards straight from a render's truth (the same
perfect reader as ``bench.vision --only assembly``)."""

from __future__ import annotations

from bench.vision import VISIBLE, CardScore, expected_piles, truth_detections

__all__ = ["VISIBLE", "CardScore", "expected_piles", "truth_detections"]
