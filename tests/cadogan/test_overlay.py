"""The overlay: labels, hint arrow and warnings are drawn where asked; the annotated video is real."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

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


def test_no_display_means_no_window(monkeypatch: pytest.MonkeyPatch) -> None:
    from cadogan.overlay import display_available

    display_available.cache_clear()
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert not display_available()
    display_available.cache_clear()
    # A display that does not answer (or a build without a GUI) is probed in a child process: never a crash.
    monkeypatch.setenv("DISPLAY", ":97")
    assert not display_available()
    display_available.cache_clear()


def test_the_window_shows_the_overlay_and_its_keys_ask_for_a_hint_and_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    from cadogan.overlay import OverlayWindow
    from cadogan.sources import TimedFrame
    from cadogan.tracker import Tracker
    from cadogan.watch import Advice, Reading, watch
    from engine.games import find_game
    from engine.table import Table
    from engine.testing import camera_view

    shown: list[np.ndarray] = []
    keys = iter([-1] * 6 + [ord("h")] + [-1] * 2 + [ord("q")] + [-1] * 50)
    monkeypatch.setattr(cv2, "namedWindow", lambda *a: None)
    monkeypatch.setattr(cv2, "imshow", lambda name, image: shown.append(image))
    monkeypatch.setattr(cv2, "waitKey", lambda delay: next(keys))
    monkeypatch.setattr(cv2, "destroyWindow", lambda name: None)
    table = camera_view(Table.dealt(find_game("klondike"), 2))
    frames = [TimedFrame(n, n / 10, np.zeros((90, 160, 3), np.uint8)) for n in range(40)]
    hints: list[Table] = []

    def hinter(model: Table) -> Advice:
        hints.append(model)
        return Advice("move the ace of spades to foundation 1", 0.4)

    window = OverlayWindow()
    summary = watch(frames, lambda image: Reading(table, 0.97), Tracker(partial=True), hinter=hinter, window=window)
    window.close()
    assert len(shown) == 10  # stopped by the q key
    assert summary.end_reason == "stopped by the player"
    assert len(hints) == 1  # asked for with h


def test_a_hint_asked_for_is_drawn_as_an_arrow_from_the_card_to_the_card_it_goes_onto(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cadogan.overlay import OverlayWindow
    from cadogan.sources import TimedFrame
    from cadogan.tracker import Tracker
    from cadogan.watch import Advice, Reading, hint_arrow, watch
    from engine.games import find_game
    from engine.moves import Move
    from engine.table import Table
    from engine.testing import camera_view

    shown: list[np.ndarray] = []
    keys = iter([-1] * 6 + [ord("h")] + [-1] * 60)
    monkeypatch.setattr(cv2, "namedWindow", lambda *a: None)
    monkeypatch.setattr(cv2, "imshow", lambda name, image: shown.append(image))
    monkeypatch.setattr(cv2, "waitKey", lambda delay: next(keys))
    monkeypatch.setattr(cv2, "destroyWindow", lambda name: None)
    table = camera_view(Table.dealt(find_game("klondike"), 2))
    move = Move("t1", "t2")  # (the arrow does not judge the move: the hint did)
    at = {table.codes("t1")[-1]: (100.0, 200.0), table.codes("t2")[-1]: (500.0, 300.0)}
    frames = [TimedFrame(n, n / 10, np.zeros((360, 640, 3), np.uint8)) for n in range(20)]

    def hinter(model: Table) -> Advice:
        return Advice("move the card onto the other", 0.5, move)

    window = OverlayWindow()
    watch(frames, lambda image: Reading(table, 0.97, at=at), Tracker(partial=True), hinter=hinter, window=window)
    window.close()
    assert hint_arrow(table, move, at) == ((100.0, 200.0), (500.0, 300.0))
    assert hint_arrow(table, Move("s", "w"), at) is None  # a stock turn: no card at either end was read
    middle = (slice(240, 260), slice(290, 310))  # the line's middle, (300, 250)
    assert not np.any(shown[5][middle])  # before the hint: nothing there
    assert np.any(shown[-1][middle])  # while the hint is on screen: the arrow
