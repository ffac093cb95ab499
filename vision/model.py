"""The only module that touches onnxruntime: load an ONNX model, run it on float32 NCHW input.

A missing or unreadable model file is a :class:`ModelError` (a CadoganError: the CLI prints one line, exit 2).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.errors import CadoganError

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
DETECTOR = "index_det.onnx"
CLASSIFIER = "index_cls.onnx"


class ModelError(CadoganError):
    """A vision model that is missing, corrupt, or that does not run."""


def models_dir() -> Path:
    """Where the shipped models live; ``CADOGAN_MODELS`` overrides it (tests, experiments)."""
    return Path(os.environ.get("CADOGAN_MODELS") or MODELS_DIR)


@dataclass(frozen=True, slots=True)
class OnnxModel:
    path: Path
    session: Any  # onnxruntime.InferenceSession (untyped library)
    input_name: str

    def __call__(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        try:
            out = self.session.run(None, {self.input_name: np.ascontiguousarray(x, np.float32)})
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise ModelError(f"model {self.path.name} failed to run: {str(error).splitlines()[0]}") from error
        return np.asarray(out[0], np.float32)

    def run_all(self, x: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        """Every output of the model by name (the classifier also gives its ``embedding``)."""
        try:
            out = self.session.run(None, {self.input_name: np.ascontiguousarray(x, np.float32)})
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise ModelError(f"model {self.path.name} failed to run: {str(error).splitlines()[0]}") from error
        names = [o.name for o in self.session.get_outputs()]
        return {n: np.asarray(v, np.float32) for n, v in zip(names, out, strict=True)}


def load_model(path: str | Path, *, threads: int = 0) -> OnnxModel:
    """An onnxruntime session on the CPU; ``threads`` 0 lets onnxruntime choose."""
    p = Path(path)
    if not p.is_file():
        raise ModelError(f"model file {p} is missing (retrain: python -m models.train, see models/MODEL_CARD.md)")
    try:
        import onnxruntime as ort  # imported here so that `cadogan` starts without it
    except ModuleNotFoundError as error:
        raise ModelError("onnxruntime is not installed (pip install onnxruntime)") from error
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    try:
        session = ort.InferenceSession(str(p), sess_options=opts, providers=["CPUExecutionProvider"])
    except Exception as error:  # a truncated or foreign file: onnxruntime's message is long and untyped
        raise ModelError(f"model file {p} is not a readable ONNX model") from error
    return OnnxModel(p, session, session.get_inputs()[0].name)
