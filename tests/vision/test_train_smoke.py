"""The training path end to end on a tiny set: render -> cache -> train a few steps -> ONNX -> onnxruntime."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest


def test_train_path_exports_models_onnxruntime_runs(tmp_path: Path) -> None:
    try:
        importlib.import_module("torch")
        importlib.import_module("onnx")
    except ModuleNotFoundError as error:
        pytest.fail(f"the training smoke test needs the `train` extra (torch, onnx): {error}")
    from models.data import _shard, load_classifier_data, load_detector_data
    from models.glyphs import Style
    from models.train import train_classifier, train_detector
    from vision.model import load_model

    data = tmp_path / "data"
    data.mkdir()
    assert "1 scenes" in _shard((str(data), 0, 1, 0, 0.0))
    crops, labels = load_classifier_data(str(data))
    assert crops.shape[1:] == (64, 64, 3)
    assert len(crops) == len(labels) > 10
    scenes = load_detector_data(str(data))
    assert scenes[0][0].shape == (360, 640, 3)
    assert scenes[0][1].shape[1] == 6
    assert scenes[0][2]  # face-down strips are labelled in new shards
    out = tmp_path / "models"
    logs: list[str] = []
    # + a few procedural crops in the odd looks (flipped, pixel-art), cached beside the data folder
    train_classifier(str(data), out, steps=2, batch=8, odd=6, odd_style=Style(1.0, 1.0), log=logs.append)
    first = load_model(out / "index_cls.onnx")(np.full((1, 3, 40, 40), 100.0, np.float32))
    # fine-tuning: go on from the exported model (two more steps), into another folder
    tuned = tmp_path / "tuned"
    train_classifier(str(data), tuned, steps=2, batch=8, init=out / "index_cls.onnx", lr=1e-4, log=logs.append)
    assert any("starting from" in line for line in logs)
    again = load_model(tuned / "index_cls.onnx")(np.full((1, 3, 40, 40), 100.0, np.float32))
    assert 0 < np.abs(again - first).max() < 5.0  # moved a little from where it started
    assert [f.name for f in (tmp_path / "procedural").glob("*.npz")] == ["procedural-f100p100-1-000-6.npz"]
    assert any("+ 6 procedural index crops in style" in line for line in logs)
    train_detector(str(data), out, steps=2, batch=2, size=96, log=logs.append)
    assert any("cls step 2/2" in line for line in logs)
    cls = load_model(out / "index_cls.onnx")
    assert cls(np.zeros((3, 3, 40, 40), np.float32)).shape == (3, 53)
    det = load_model(out / "index_det.onnx")
    assert det(np.zeros((1, 3, 368, 640), np.float32)).shape == (1, 6, 92, 160)  # + face-down strips
    both = cls.run_all(np.zeros((3, 3, 40, 40), np.float32))
    assert set(both) == {"out", "embedding"}  # deck enrolment reads the embedding
    assert both["embedding"].shape == (3, 512)


def test_fine_tuning_starts_from_the_exported_classifier_exactly() -> None:
    # the export folds each batch norm into its convolution; the unfolded model must compute the same logits
    torch = importlib.import_module("torch")
    from models.train import load_folded_classifier
    from vision.model import CLASSIFIER, load_model, models_dir

    path = models_dir() / CLASSIFIER
    x = np.random.default_rng(0).uniform(0, 255, (5, 3, 40, 40)).astype(np.float32)
    model = load_folded_classifier(path).eval()
    with torch.no_grad():
        ours = model.logits(model.embed(torch.from_numpy(x))).numpy()
    exported = load_model(path)(x)
    assert np.abs(ours - exported).max() < 1e-3
    assert np.abs(exported).max() > 1.0  # real logits, not zeros on both sides


def test_fine_tuning_refuses_a_model_of_another_shape(tmp_path: Path) -> None:
    from models.train import load_folded_classifier
    from vision.model import DETECTOR, models_dir

    with pytest.raises(ValueError, match="not an index classifier"):
        load_folded_classifier(models_dir() / DETECTOR)


def test_shipped_classifier_gives_its_embedding() -> None:
    from vision.model import CLASSIFIER, load_model, models_dir

    out = load_model(models_dir() / CLASSIFIER).run_all(np.full((2, 3, 40, 40), 128.0, np.float32))
    assert out["out"].shape == (2, 53)
    assert out["embedding"].shape == (2, 512)
    assert np.isfinite(out["embedding"]).all()


def test_back_strips_count_the_face_down_cards_of_a_cascade() -> None:
    from vision.synth import RenderOptions, render_scene
    from vision.synth.truth import back_strips

    piles: dict[str, list[tuple[str | None, bool]]] = {
        "t1": [(None, False)] * 4 + [("7H", True)],
        "t2": [(None, False)] * 2,  # the top card face down: its whole back shows
        "s": [(None, False)] * 10,  # a squared stock: only the top card's strip shows
    }
    _, truth = render_scene("klondike", piles, deck="dondorf", seed=3, options=RenderOptions(hand_probability=0))
    visible = [s for s in back_strips(truth, (1280, 720)) if s[4] < 0.25]
    assert len(visible) == 4 + 2 + 1
