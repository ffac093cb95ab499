"""One detections type for every vision stage: parallel numpy arrays, validated when built.

After roboflow/supervision: ``boxes`` (n, 4) x0 y0 x1 y1 in image pixels, ``class_id`` (n,), ``confidence``
(n,), and a ``data`` dict of further per-detection arrays (first axis n). Filter with a boolean mask or an
index array (``dets[dets.confidence > 0.5]``), combine with :meth:`Detections.merge`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.cards import NAMES

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]
BACK = len(NAMES)  # class id of a face-down card's back (ids 0..51 are the cards of vision.cards.NAMES)


@dataclass(frozen=True, slots=True)
class Detections:
    boxes: F32
    class_id: I64
    confidence: F32
    data: dict[str, npt.NDArray[Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.class_id)
        if self.boxes.shape != (n, 4) or self.boxes.dtype != np.float32:
            raise ValueError(f"boxes must be float32 (n, 4); got {self.boxes.dtype} {self.boxes.shape}, n={n}")
        if self.class_id.shape != (n,) or self.class_id.dtype != np.int64:
            raise ValueError(f"class_id must be int64 (n,); got {self.class_id.dtype} {self.class_id.shape}")
        if self.confidence.shape != (n,) or self.confidence.dtype != np.float32:
            raise ValueError(f"confidence must be float32 (n,); got {self.confidence.dtype} {self.confidence.shape}")
        if n and not np.all(np.isfinite(self.boxes)):
            raise ValueError("boxes must be finite")
        if n and (self.class_id.min() < 0 or self.class_id.max() > BACK):
            raise ValueError(f"class ids must lie in 0..{BACK}")
        for key, value in self.data.items():
            if len(value) != n:
                raise ValueError(f"data[{key!r}] has {len(value)} rows, expected {n}")

    @staticmethod
    def build(
        boxes: Any, class_id: Any, confidence: Any, data: dict[str, npt.NDArray[Any]] | None = None
    ) -> Detections:
        """Convert array-likes to the right dtypes (the constructor itself is strict)."""
        return Detections(
            np.asarray(boxes, np.float32).reshape(-1, 4),
            np.asarray(class_id, np.int64).reshape(-1),
            np.asarray(confidence, np.float32).reshape(-1),
            {k: np.asarray(v) for k, v in (data or {}).items()},
        )

    @staticmethod
    def empty() -> Detections:
        return Detections(np.zeros((0, 4), np.float32), np.zeros(0, np.int64), np.zeros(0, np.float32))

    @staticmethod
    def merge(parts: Sequence[Detections]) -> Detections:
        """All detections of ``parts`` in order; ``data`` keys must agree (or a part must be empty)."""
        parts = [p for p in parts if len(p)]
        if not parts:
            return Detections.empty()
        keys = set(parts[0].data)
        if any(set(p.data) != keys for p in parts):
            raise ValueError("cannot merge detections whose data keys differ")
        return Detections(
            np.concatenate([p.boxes for p in parts]),
            np.concatenate([p.class_id for p in parts]),
            np.concatenate([p.confidence for p in parts]),
            {k: np.concatenate([p.data[k] for p in parts]) for k in sorted(keys)},
        )

    def __len__(self) -> int:
        return len(self.class_id)

    def __getitem__(self, index: npt.NDArray[Any] | slice) -> Detections:
        """A subset by boolean mask, index array or slice (an int would drop a dimension: not allowed)."""
        if isinstance(index, np.ndarray) and index.dtype == bool and index.shape != (len(self),):
            raise ValueError(f"mask has shape {index.shape}, expected ({len(self)},)")
        return Detections(
            self.boxes[index], self.class_id[index], self.confidence[index], {k: v[index] for k, v in self.data.items()}
        )

    @property
    def centres(self) -> F32:
        c: F32 = ((self.boxes[:, :2] + self.boxes[:, 2:]) / 2).astype(np.float32)
        return c

    @property
    def names(self) -> list[str]:
        """Card names (``"10H"``); ``"back"`` for a face-down card."""
        return [NAMES[i] if i < BACK else "back" for i in self.class_id.tolist()]
