"""The overlay: labels, hint arrow and warnings are drawn where asked; the annotated video is real."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from cadogan.overlay import Label, Overlay, OverlayWriter, draw
from cadogan.sources import FrameSource


def test_labels_arrow_and_banner_are_drawn_where_asked() -> None:
    frame = np.full((720, 1280, 3), 90, np.uint8)
    overlay = Overlay(
        labels=(Label("7H", (200, 300)),),
        arrow=((400, 500), (900, 200)),
        banner="red 7 on red 8 is not allowed",
        status="klondike  12 on foundations  score +$8",
    )
    image = draw(frame, overlay)
    assert np.array_equal(frame, np.full_like(frame, 90))  # the frame itself is untouched

    def changed(x0: int, y0: int, x1: int, y1: int) -> bool:
        return bool(np.any(image[y0:y1, x0:x1] != 90))

    assert changed(195, 280, 260, 305)  # the label
    assert changed(640, 340, 660, 360)  # the arrow's middle
    assert changed(10, 20, 300, 60)  # the banner
    assert changed(10, 690, 300, 715)  # the status line
    assert not changed(1100, 500, 1200, 600)  # nothing elsewhere


def test_annotated_video_is_written_and_reads_back(tmp_path: Path) -> None:
    writer = OverlayWriter(tmp_path / "out.mp4", fps=10)
    for n in range(12):
        writer.write(draw(np.zeros((240, 320, 3), np.uint8), Overlay(status=f"frame {n}")))
    writer.close()
    frames = list(FrameSource(str(tmp_path / "out.mp4")))
    assert len(frames) == 12
    assert frames[0].image.shape == (240, 320, 3)
    assert cv2.countNonZero(cv2.cvtColor(frames[5].image, cv2.COLOR_BGR2GRAY)) > 100
