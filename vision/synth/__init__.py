"""Synthetic table renderer: photo-like scenes of patience layouts with exact ground truth.

Public entry points: :func:`render_scene` (one image + :class:`SceneTruth`), :func:`render_video` (a recording
with a hand making the moves), :func:`find_deck` and :data:`DECKS` (the usable artwork), :class:`RenderOptions`.
See docs/synth.md.
"""

from vision.synth.decks import DECKS, Deck, DeckSplit, find_deck
from vision.synth.scene import RenderOptions, Shot, render_frame, render_scene, renderer_version
from vision.synth.truth import CameraTruth, CardTruth, IndexTruth, SceneTruth
from vision.synth.video import render_video

__all__ = [
    "DECKS",
    "CameraTruth",
    "CardTruth",
    "Deck",
    "DeckSplit",
    "IndexTruth",
    "RenderOptions",
    "SceneTruth",
    "Shot",
    "find_deck",
    "render_frame",
    "render_scene",
    "render_video",
    "renderer_version",
]
