from __future__ import annotations

import numpy as np
import pytest

from vision.detections import BACK, Detections


def _dets(n: int, start: int = 0) -> Detections:
    boxes = np.arange(n * 4, dtype=np.float32).reshape(n, 4)
    boxes[:, 2:] += 10
    return Detections.build(boxes, np.arange(start, start + n), np.linspace(0.1, 1.0, n), {"k": np.arange(n)})


def test_build_filter_merge() -> None:
    d = _dets(5)
    assert len(d) == 5
    high = d[d.confidence > 0.6]
    assert len(high) == 2
    assert high.data["k"].tolist() == [3, 4]
    both = Detections.merge([d, _dets(3, start=10), Detections.empty().__class__.merge([])])
    assert len(both) == 8
    assert both.class_id.tolist()[-3:] == [10, 11, 12]
    assert both.names[0] == "AS"
    assert Detections.merge([]).boxes.shape == (0, 4)
    assert _dets(1, start=BACK).names == ["back"]
    assert np.allclose(d.centres[0], [6.0, 7.0])


def test_validation() -> None:
    with pytest.raises(ValueError, match="boxes"):
        Detections(np.zeros((2, 3), np.float32), np.zeros(2, np.int64), np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="class_id"):
        Detections(np.zeros((2, 4), np.float32), np.zeros(2, np.int32), np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="class ids"):
        Detections.build(np.zeros((1, 4)), [BACK + 1], [1.0])
    with pytest.raises(ValueError, match="data"):
        Detections.build(np.zeros((2, 4)), [0, 1], [1.0, 1.0], {"x": np.zeros(3)})
    with pytest.raises(ValueError, match="mask"):
        _ = _dets(3)[np.array([True, False])]
    with pytest.raises(ValueError, match="data keys"):
        Detections.merge([_dets(2), Detections.build(np.zeros((1, 4)), [0], [1.0])])
