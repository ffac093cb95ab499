"""The printable calibration page: the board at true millimetre scale, a scale bar and printing instructions.

Written as PNG (with its dots-per-inch recorded) or as a one-page PDF. The PDF writer is a few lines of our
own rather than a dependency: one greyscale image on one page is all it needs.
"""

from __future__ import annotations

import enum
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from calibration.board import DEFAULT_BOARD, BoardSpec, board_image
from calibration.errors import CalibrationError

MM_PER_INCH = 25.4
DEFAULT_DPI = 300
TOP_MARGIN_MM = 12.0
TEXT_SPACE_MM = 38.0  # below the board: scale bar and instructions


class Paper(enum.Enum):
    A4 = "a4"
    LETTER = "letter"

    @property
    def size_mm(self) -> tuple[float, float]:
        return (210.0, 297.0) if self is Paper.A4 else (215.9, 279.4)


def render_page(paper: Paper, board: BoardSpec = DEFAULT_BOARD, dpi: int = DEFAULT_DPI) -> npt.NDArray[np.uint8]:
    """The whole page as a grey image at ``dpi``; the board's squares are exactly ``board.square_mm``."""
    page_w, page_h = paper.size_mm
    if board.width_mm > page_w - 10 or TOP_MARGIN_MM + board.height_mm + TEXT_SPACE_MM > page_h:
        raise CalibrationError(
            f"a {board.width_mm:g} x {board.height_mm:g} mm board does not fit on {paper.value} paper"
        )
    ppm = dpi / MM_PER_INCH
    page = np.full((round(page_h * ppm), round(page_w * ppm)), 255, np.uint8)
    image = board_image(board, ppm)
    x0 = round((page_w - board.width_mm) / 2 * ppm)
    y0 = round(TOP_MARGIN_MM * ppm)
    page[y0 : y0 + image.shape[0], x0 : x0 + image.shape[1]] = image
    y = TOP_MARGIN_MM + board.height_mm + 8.0
    _scale_bar(page, ppm, (page_w - 100.0) / 2, y)
    lines = [
        "100 mm: measure this bar. If it is not 100 mm, print again at 100 % / actual size.",
        "Print at 100 % (actual size; turn off 'fit to page'). Glue the sheet to stiff card: keep it flat.",
        f"Cadogan ChArUco board: {board.squares_x} x {board.squares_y} squares of {board.square_mm:g} mm, "
        f"markers {board.marker_mm:g} mm, {board.dictionary}, {paper.value} paper.",
        "Then: cadogan calibrate camera --source 0",
    ]
    for i, text in enumerate(lines):
        _text(page, text, ppm, 15.0, y + 10.0 + 6.0 * i, page_w - 30.0)
    return page


def _scale_bar(page: npt.NDArray[np.uint8], ppm: float, x_mm: float, y_mm: float) -> None:
    x0, y0 = round(x_mm * ppm), round(y_mm * ppm)
    x1 = round((x_mm + 100.0) * ppm)
    page[y0 : y0 + round(1.0 * ppm), x0:x1] = 0
    for mm in range(0, 101, 5):
        x = round((x_mm + mm) * ppm)
        tall = 4.0 if mm % 50 == 0 else 3.0 if mm % 10 == 0 else 1.8
        page[y0 - round(tall * ppm) : y0, max(0, x - 2) : x + 2] = 0


def _text(page: npt.NDArray[np.uint8], text: str, ppm: float, x_mm: float, y_mm: float, width_mm: float) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    thickness = max(1, round(0.25 * ppm))
    (w, _), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = min(3.2 * ppm / 22.0, width_mm * ppm / max(w, 1))  # ~3 mm tall capitals, shrunk to fit the line
    cv2.putText(page, text, (round(x_mm * ppm), round(y_mm * ppm)), font, scale, 0, thickness, cv2.LINE_AA)


def write_page(path: Path, paper: Paper, board: BoardSpec = DEFAULT_BOARD, dpi: int = DEFAULT_DPI) -> None:
    """Write the page as ``.png`` or ``.pdf`` (chosen by the suffix)."""
    page = render_page(paper, board, dpi)
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        data = pdf_bytes(page, paper.size_mm)
    elif suffix == ".png":
        data = png_bytes(page, dpi)
    else:
        raise CalibrationError(f"{path}: write the board as .pdf or .png, not {suffix or 'no suffix'}")
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot write ({exc.strerror})") from None


def png_bytes(image: npt.NDArray[np.uint8], dpi: int) -> bytes:
    """PNG with a pHYs chunk, so that image viewers and printers know its physical size."""
    ok, encoded = cv2.imencode(".png", image)
    if not ok:
        raise CalibrationError("could not encode the board as PNG")
    data = encoded.tobytes()
    ppm = round(dpi / MM_PER_INCH * 1000.0)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    end_of_ihdr = 8 + 4 + 4 + 13 + 4  # signature, then IHDR's length, type, data and CRC
    return data[:end_of_ihdr] + chunk + data[end_of_ihdr:]


def pdf_bytes(image: npt.NDArray[np.uint8], size_mm: tuple[float, float]) -> bytes:
    """A one-page PDF showing ``image`` over the whole page of ``size_mm``.

    The catalogue asks viewers not to scale the page when printing (/PrintScaling /None).
    """
    h_px, w_px = image.shape
    w_pt, h_pt = (v / MM_PER_INCH * 72.0 for v in size_mm)
    pixels = zlib.compress(np.ascontiguousarray(image).tobytes(), 9)
    content = f"q {w_pt:.3f} 0 0 {h_pt:.3f} 0 0 cm /Im0 Do Q\n".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R /ViewerPreferences << /PrintScaling /None >> >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w_pt:.3f} {h_pt:.3f}] "
        "/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>".encode(),
        f"<< /Type /XObject /Subtype /Image /Width {w_px} /Height {h_px} /ColorSpace /DeviceGray "
        f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>\nstream\n".encode()
        + pixels
        + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"endstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)
