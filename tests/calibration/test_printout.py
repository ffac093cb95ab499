from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.board import DEFAULT_BOARD, BoardDetector, BoardSpec
from calibration.errors import CalibrationError
from calibration.printout import Paper, pdf_bytes, png_bytes, render_page, write_page


@pytest.mark.parametrize("paper", list(Paper))
def test_page_is_at_true_scale(paper: Paper) -> None:
    dpi = 150
    page = render_page(paper, DEFAULT_BOARD, dpi)
    w_mm, h_mm = paper.size_mm
    assert page.shape == (round(h_mm * dpi / 25.4), round(w_mm * dpi / 25.4))
    view = BoardDetector().detect(page)
    assert view is not None
    assert view.count == DEFAULT_BOARD.corner_count
    # The chessboard corners' spacing on the page is the square size in millimetres.
    spacing_px = np.linalg.norm(view.image_points[1] - view.image_points[0])
    assert spacing_px * 25.4 / dpi == pytest.approx(DEFAULT_BOARD.square_mm, abs=0.1)


def test_png_records_its_dpi(tmp_path: Path) -> None:
    data = png_bytes(np.full((20, 30), 255, np.uint8), 300)
    at = data.index(b"pHYs")
    ppm_x, ppm_y, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert (ppm_x, ppm_y, unit) == (11811, 11811, 1)
    assert struct.unpack(">I", data[at + 13 : at + 17])[0] == zlib.crc32(data[at : at + 13])
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    assert decoded is not None
    assert decoded.shape == (20, 30)


def test_pdf_is_well_formed_and_holds_the_page() -> None:
    image = (np.arange(40 * 30) % 256).astype(np.uint8).reshape(40, 30)
    data = pdf_bytes(image, (210.0, 297.0))
    assert data.startswith(b"%PDF-1.4")
    assert data.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 595.276 841.890]" in data
    # Every xref offset points at its object.
    xref_at = int(re.search(rb"startxref\n(\d+)", data).group(1))  # type: ignore[union-attr]
    offsets = re.findall(rb"(\d{10}) 00000 n", data[xref_at:])
    for number, offset in enumerate(offsets, start=1):
        assert data[int(offset) :].startswith(f"{number} 0 obj".encode())
    stream = re.search(rb"/Length (\d+) >>\nstream\n", data)
    assert stream is not None
    start = stream.end()
    pixels = zlib.decompress(data[start : start + int(stream.group(1))])
    assert pixels == image.tobytes()


@pytest.mark.parametrize("suffix", [".pdf", ".png"])
def test_write_page(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"board{suffix}"
    write_page(path, Paper.LETTER, dpi=72)
    assert path.stat().st_size > 1000


def test_bad_output_and_oversized_board(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match=r"as \.pdf or \.png"):
        write_page(tmp_path / "board.jpg", Paper.A4, dpi=72)
    with pytest.raises(CalibrationError, match="does not fit"):
        render_page(Paper.A4, BoardSpec(10, 14, 25.0, 18.0), dpi=72)
    with pytest.raises(CalibrationError, match="cannot write"):
        write_page(tmp_path / "missing" / "board.png", Paper.A4, dpi=72)


def test_board_spec_validation_reports_all_problems() -> None:
    with pytest.raises(CalibrationError) as info:
        BoardSpec(2, 9, 25.0, 30.0, "DICT_NOPE")
    text = str(info.value)
    assert "3 x 3" in text
    assert "marker size" in text
    assert "DICT_NOPE" in text
