"""Square crops around a point, the one resampling step shared by training data and recognition."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]


def square_crop(image: U8, cx: float, cy: float, side: float, out: int) -> U8:
    """The square of ``side`` px centred on (cx, cy), resampled to ``out`` px; outside the image is grey.

    INTER_AREA when shrinking, so a 54 px index from a 1080p frame and a 35 px one from a 720p render reach
    the classifier with the same softness.
    """
    s = out / max(side, 1e-3)
    m = np.array([[s, 0, out / 2 - s * cx], [0, s, out / 2 - s * cy]], np.float64)
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    crop: Any = cv2.warpAffine(
        image, m, (out, out), flags=interp, borderMode=cv2.BORDER_CONSTANT, borderValue=(128, 128, 128)
    )
    return np.asarray(crop, np.uint8)
