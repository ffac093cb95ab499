"""Bad inputs: missing or corrupt models, unreadable images, images without cards (one line, exit 2)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from cadogan.__main__ import main
from engine.errors import CadoganError
from vision.model import ModelError, load_model
from vision.recognise import load_recogniser


def test_missing_model_is_a_cadogan_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="missing"):
        load_model(tmp_path / "nope.onnx")
    assert issubclass(ModelError, CadoganError)


def test_corrupt_model_is_a_cadogan_error(tmp_path: Path) -> None:
    bad = tmp_path / "index_det.onnx"
    bad.write_bytes(b"not an onnx model at all")
    with pytest.raises(ModelError, match="not a readable ONNX model"):
        load_model(bad)
    with pytest.raises(ModelError):
        load_recogniser(tmp_path)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def test_see_bad_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "photo.jpg"
    text.write_text("this is not a picture")
    code, err = _run(["see", str(text), "--game", "klondike"], capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert "cannot read" in err
    code, err = _run(["see", str(tmp_path / "missing.jpg"), "--game", "klondike"], capsys)
    assert (code, err.count("\n")) == (2, 1)
    blank = tmp_path / "blank.png"
    rng = np.random.default_rng(0)
    cv2.imwrite(str(blank), (rng.normal(120, 6, (360, 640, 3))).clip(0, 255).astype(np.uint8))
    code, err = _run(["see", str(blank), "--game", "klondike"], capsys)
    assert code == 2
    assert "no cards found" in err
    code, err = _run(["see", str(blank), "--game", "klondike", "--models", str(tmp_path)], capsys)
    assert code == 2
    assert "missing" in err
    assert err.count("\n") == 1


def test_see_a_game_without_a_table_layout_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # every game has a layout today; a game added to the engine before its layout must still fail cleanly
    import vision.assemble

    layouts = {k: v for k, v in vision.assemble.LAYOUTS.items() if k != "general-sedgewick"}
    monkeypatch.setattr(vision.assemble, "LAYOUTS", layouts)
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((360, 640, 3), 90, np.uint8))
    code, err = _run(["see", str(photo), "--game", "four-seasons"], capsys)
    assert code == 2
    assert "layout" in err
    assert err.count("\n") == 1
