"""Verify a video: the watch pipeline without a window, gated for speed, with pictures of the first mistake."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2

from cadogan.gate import MotionGate
from cadogan.overlay import Overlay, draw
from cadogan.session import SessionLog
from cadogan.sources import FrameSource, TimedFrame
from cadogan.tracker import Event, EventKind, Tracker
from cadogan.verdict import Verdict, from_events
from cadogan.watch import Image, Reader, watch
from engine.errors import CadoganError

LOOKS_PER_SECOND = 10.0
"""How often the gate looks at the video: a hand over the cards lasts far longer than a tenth of a second."""


@dataclass(frozen=True, slots=True)
class VideoCheck:
    verdict: Verdict
    frames: int
    """Frames in the video (looked at or skipped)."""
    recognised: int
    """Frames the recogniser read."""
    tables: int
    """Still tables accepted by the tracker's vote."""
    seconds: float
    """Wall-clock time of the check."""
    fps: float
    cpu_seconds: float = 0.0
    """Processor time of this process during the check (all its threads): the speed on an idle machine."""

    @property
    def speed(self) -> float:
        """Seconds of video per second of work: >= 1 is faster than real time."""
        return self.frames / self.fps / self.seconds if self.seconds > 0 else 0.0


def check_video(
    source: FrameSource,
    reader: Reader,
    game: str,
    log_path: Path,
    pictures: Path | None,
    *,
    step: int = 0,
    progress: Callable[[int], None] | None = None,
    tracker: Tracker | None = None,
) -> VideoCheck:
    """Follow the game in ``source``; write the session log at ``log_path`` (replacing one there) and, for the
    first illegal move, pictures of the table before and after it into ``pictures``."""
    source.stride = step if step > 0 else max(1, round(source.fps / LOOKS_PER_SECOND))
    tracker = tracker or Tracker(partial=True)
    stills: list[Image] = []
    saved: list[Path] = []
    seen_frames = [0]

    def frames() -> Iterator[TimedFrame]:
        for frame in source:
            seen_frames[0] = frame.index + 1
            if progress is not None:
                progress(frame.index)
            yield frame

    def keep(event: Event, frame: TimedFrame) -> None:
        if event.kind is EventKind.STILL:
            stills[:] = [*stills[-1:], frame.image]
        elif event.kind is EventKind.ILLEGAL and not saved and pictures is not None and len(stills) >= 2:
            saved.extend(_save_pictures(pictures, log_path.stem, stills[0], stills[1], event))

    log_path.unlink(missing_ok=True)
    start, cpu = time.monotonic(), time.process_time()
    with SessionLog(log_path, game, source.spec, partial=True) as log:
        summary = watch(frames(), reader, tracker, log=log, gate=MotionGate(), on_frame_event=keep)
        log.write("end", seen_frames[0] / source.fps, reason=source.end_reason, frames=seen_frames[0])
    seconds, cpu = time.monotonic() - start, time.process_time() - cpu
    verdict = from_events(summary.events, summary.model)
    if source.ended_early:
        verdict.notes.append(f"{source.end_reason}; everything before it was checked")
    if len(saved) == 2:
        verdict.pictures = (saved[0], saved[1])
    tables = sum(1 for _ in _tables(log_path))
    return VideoCheck(verdict, seen_frames[0], summary.recognised, tables, seconds, source.fps, cpu)


def _tables(log_path: Path) -> Iterator[str]:
    with log_path.open(encoding="utf-8") as file:
        for line in file:
            if '"event": "table"' in line:
                yield line


def _save_pictures(folder: Path, stem: str, before: Image, after: Image, event: Event) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    minutes, seconds = divmod(event.t, 60)
    when = f"{int(minutes):02d}:{seconds:05.2f}"
    paths = [folder / f"{stem}-illegal-before.png", folder / f"{stem}-illegal-after.png"]
    images = [
        draw(before, Overlay(status=f"before the illegal move at {when}")),
        draw(after, Overlay(banner=event.text, status=f"after it: {' '.join(event.moves)} at {when}")),
    ]
    for path, image in zip(paths, images, strict=True):
        if not cv2.imwrite(str(path), image):
            raise CadoganError(f"cannot write the picture {path}")
    return paths
