"""Train the two vision models from cached renders and write them as ONNX (the optional ``train`` extra).

    python -m models.data --out models/cache/data --scenes 3000      # renders -> cache (TRAIN decks only)
    python -m models.train --data models/cache/data --out models       # -> models/index_cls.onnx, index_det.onnx

- ``index_cls.onnx``: a square crop around one corner index (any rotation), 40 x 40 BGR uint8 in NCHW float
  0..255 -> 53 logits: the 52 cards in ``vision.cards.NAMES`` order, then "not an index".
- ``index_det.onnx``: a frame scaled to 640 px wide (height a multiple of 16), NCHW float 0..255 BGR ->
  stride-4 maps: index-centre heatmap logit (1), box width/height as log(px) (2), sub-cell offset (2), and
  the centre heatmap logit of face-down cards' visible top strips (1).

Everything is seeded (``--seed``); torch runs deterministically on the CPU, so one command reproduces a model.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

try:
    import torch
    import torch.nn.functional as F  # noqa: N812 (the usual torch alias)
    import torch.onnx
    from torch import nn
except ModuleNotFoundError as error:  # pragma: no cover - the message is the point
    raise SystemExit(
        "models.train needs torch and onnx (the optional `train` extra: pip install torch onnx)"
    ) from error

from models.data import BACK, BACKGROUND, CROP, CROP_INDEX, load_classifier_data, load_detector_data
from models.glyphs import Style, cached_batch

CLS_IN = 40  # classifier input side
CLS_SPAN = 1.25  # crop side / index's longer side (inference uses the same ratio)
STRIDE = 4
N_CLASSES = BACKGROUND + 1
ODD_STYLE = Style(flip=0.4, pixel=0.4)  # --procedural-odd crops: see models.glyphs.Style


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Classifier(nn.Module):
    """Small CNN with a factorised head: a card's logit is its rank's plus its suit's (13 + 4 outputs share
    what the 52 classes have in common, so each rank learns from four suits' examples), plus one logit for
    "not an index". Output: 53 logits in vision.cards.NAMES order (suit-major), then "not an index"."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            _conv(3, 16),  # 40: keep the thin strokes of "10" and the suit's outline
            _conv(16, 32, 2),  # 20
            _conv(32, 64, 2),
            _conv(64, 64),  # 10
            _conv(64, 128, 2),
            _conv(128, 128),  # 5
        )
        self.head = nn.Sequential(nn.Dropout(0.1), nn.Linear(128 * 4, 13 + 4 + 1))

    def embed(self, x: torch.Tensor) -> torch.Tensor:
        """The pooled features the head reads (512): deck enrolment compares crops by these."""
        f = self.body((x - 128.0) / 64.0)
        # 2 x 2 pooled grid, not a global mean: where the rank sits relative to the suit tells 6 from 9
        return F.avg_pool2d(f, 3, 2).flatten(1)  # 5 x 5 -> 2 x 2, overlapping (exports to ONNX as is)

    def logits(self, embedding: torch.Tensor) -> torch.Tensor:
        """53 logits from the embedding: each card's is its rank's plus its suit's, then "not an index"."""
        h = self.head(embedding)
        rank, suit, other = h[:, :13], h[:, 13:17], h[:, 17:]
        return torch.cat([(suit[:, :, None] + rank[:, None, :]).flatten(1), other], 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.logits(self.embed(x))


def load_folded_classifier(path: Path) -> Classifier:
    """A classifier with the weights of an exported ``index_cls.onnx`` (to fine-tune it). The export folds each
    batch norm into its convolution, so the convolutions get biases and the norms become identities: the
    same function as the exported graph, trainable further (no batch statistics left to drift)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    convs = [[weights[i] for i in n.input[1:]] for n in graph.node if n.op_type == "Conv"]
    gemms = [[weights[i] for i in n.input[1:]] for n in graph.node if n.op_type == "Gemm"]
    model = Classifier()
    blocks = [b for b in model.body if isinstance(b, nn.Sequential)]
    if len(convs) != len(blocks) or len(gemms) != 1 or any(len(c) != 2 for c in convs):
        raise ValueError(f"{path}: not an index classifier of this architecture")
    for block, (w, b) in zip(blocks, convs, strict=True):
        old = block[0]
        conv = nn.Conv2d(old.in_channels, old.out_channels, 3, old.stride, 1, bias=True)
        if tuple(conv.weight.shape) != w.shape:
            raise ValueError(f"{path}: convolution of shape {w.shape}, expected {tuple(conv.weight.shape)}")
        with torch.no_grad():
            conv.weight.copy_(torch.from_numpy(np.array(w)))
            conv.bias.copy_(torch.from_numpy(np.array(b)))
        block[0], block[1] = conv, nn.Identity()
    linear = model.head[1]
    w, b = gemms[0]
    if tuple(linear.weight.shape) != w.shape:
        raise ValueError(f"{path}: head of shape {w.shape}, expected {tuple(linear.weight.shape)}")
    with torch.no_grad():
        linear.weight.copy_(torch.from_numpy(np.array(w)))
        linear.bias.copy_(torch.from_numpy(np.array(b)))
    return model


class _WithEmbedding(nn.Module):
    """Export wrapper: the classifier's logits ("out") and its embedding ("embedding") from one pass."""

    def __init__(self, model: Classifier) -> None:
        super().__init__()
        self.model = model

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        e = self.model.embed(x)
        return self.model.logits(e), e


class Detector(nn.Module):
    """Tiny encoder-decoder: strides 2..16, fused back at stride 4 (CenterNet-style heads)."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = _conv(3, 16, 2)
        self.s4 = nn.Sequential(_conv(16, 32, 2), _conv(32, 32))
        self.s8 = nn.Sequential(_conv(32, 48, 2), _conv(48, 48))
        self.s16 = nn.Sequential(_conv(48, 64, 2), _conv(64, 64), _conv(64, 64))
        self.lat16 = nn.Conv2d(64, 32, 1)
        self.lat8 = nn.Conv2d(48, 32, 1)
        self.lat4 = nn.Conv2d(32, 32, 1)
        self.fuse = _conv(32, 32)
        self.heat = nn.Conv2d(32, 1, 1)
        self.box = nn.Conv2d(32, 4, 1)
        self.back = nn.Conv2d(32, 1, 1)  # face-down strips: last, so the index channels keep their places
        assert self.heat.bias is not None  # (a Conv2d has a bias unless told not to)
        assert self.back.bias is not None
        nn.init.constant_(self.heat.bias, -4.0)  # start near "no index anywhere" (focal loss prior)
        nn.init.constant_(self.back.bias, -4.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - 128.0) / 64.0
        c4 = self.s4(self.s2(x))
        c8 = self.s8(c4)
        c16 = self.s16(c8)
        p8 = self.lat8(c8) + F.interpolate(self.lat16(c16), scale_factor=2.0, mode="nearest")
        p4 = self.lat4(c4) + F.interpolate(p8, scale_factor=2.0, mode="nearest")
        f = self.fuse(p4)
        return torch.cat([self.heat(f), self.box(f), self.back(f)], 1)


# ---------------------------------------------------------------- augmentation (batched, in torch)


def _photometric(x: torch.Tensor, g: torch.Generator, k: float = 1.0) -> torch.Tensor:
    """Colour cast, exposure, contrast, gamma, blur, noise on a float batch 0..255 (N, 3, H, W); ``k``
    scales every strength (1: the renderer's own range again on top of it)."""
    n = x.shape[0]
    gain = torch.exp(torch.randn(n, 3, 1, 1, generator=g) * 0.15 * k + torch.randn(n, 1, 1, 1, generator=g) * 0.25 * k)
    x = x * gain
    mean = x.mean((1, 2, 3), keepdim=True)
    x = (x - mean) * torch.exp(torch.randn(n, 1, 1, 1, generator=g) * 0.2 * k) + mean
    x = x.clamp(0, 255)
    gamma = torch.exp(torch.randn(n, 1, 1, 1, generator=g) * 0.15 * k)
    x = 255.0 * (x / 255.0) ** gamma
    gray = torch.rand(n, 1, 1, 1, generator=g) < 0.1
    x = torch.where(gray, x.mean(1, keepdim=True).expand_as(x), x)
    sigma = float(torch.rand(1, generator=g)) * 1.6 * k
    if sigma > 0.3:
        r = math.ceil(2 * sigma)
        t = torch.arange(-r, r + 1, dtype=torch.float32)
        kern = torch.exp(-(t**2) / (2 * sigma**2))
        kern = kern / kern.sum()
        c = x.shape[1]
        x = F.conv2d(F.pad(x, (r, r, 0, 0), mode="replicate"), kern.view(1, 1, 1, -1).repeat(c, 1, 1, 1), groups=c)
        x = F.conv2d(F.pad(x, (0, 0, r, r), mode="replicate"), kern.view(1, 1, -1, 1).repeat(c, 1, 1, 1), groups=c)
    noise = torch.rand(n, 1, 1, 1, generator=g) * 8.0 * k
    x = x + torch.randn(x.shape, generator=g) * noise
    return x.clamp(0, 255)


def _jpeg(batch: npt.NDArray[np.uint8], rng: np.random.Generator, p: float) -> npt.NDArray[np.uint8]:
    out = batch.copy()
    for i in range(len(out)):
        if rng.random() < p:
            q = int(rng.integers(30, 90))
            jpeg = cv2.imencode(".jpg", out[i], [cv2.IMWRITE_JPEG_QUALITY, q])[1]
            out[i] = np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), np.uint8)
    return out


def _classifier_batch(
    crops: npt.NDArray[np.uint8],
    labels: npt.NDArray[np.int64],
    idx: npt.NDArray[np.int64],
    g: torch.Generator,
    rng: np.random.Generator,
    k: float = 1.0,
    scale_sd: float = 0.1,
    shift_sd: float = 0.06,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Random crop box (shift, scale), rotation (mostly small; sometimes any angle), then photometrics.

    ``scale_sd`` (log-normal) and ``shift_sd`` (share of the index's longer side) are how far the crop box
    strays from the true index box: the detector's boxes on unseen decks stray far more than 0.1 in scale."""
    x = torch.from_numpy(crops[idx]).permute(0, 3, 1, 2).float()
    n = len(idx)
    # the stored crop has the index's longer side = CROP_INDEX of CROP px; the input spans CLS_SPAN of it
    base = CLS_SPAN * CROP_INDEX / CROP
    scale = base * torch.exp(torch.randn(n, generator=g) * scale_sd)
    any_angle = torch.rand(n, generator=g) < 0.15 * k
    angle = torch.where(any_angle, torch.rand(n, generator=g) * 2 * math.pi, torch.randn(n, generator=g) * 0.08)
    angle = angle + (torch.rand(n, generator=g) < 0.5).float() * math.pi  # upside-down indices are common
    shift = torch.randn(n, 2, generator=g) * shift_sd
    cos, sin = torch.cos(angle) * scale, torch.sin(angle) * scale
    theta = torch.stack([torch.stack([cos, -sin, shift[:, 0]], 1), torch.stack([sin, cos, shift[:, 1]], 1)], 1)
    grid = F.affine_grid(theta, [n, 3, CLS_IN, CLS_IN], align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
    x = _photometric(x, g, k)
    u8 = x.round().byte().permute(0, 2, 3, 1).contiguous().numpy()
    x = torch.from_numpy(_jpeg(u8, rng, 0.4 * k)).permute(0, 3, 1, 2).float()
    return x, torch.from_numpy(labels[idx])


def train_classifier(
    data: str,
    out: Path,
    *,
    steps: int,
    batch: int = 64,
    seed: int = 0,
    aug: float = 1.0,
    procedural: int = 0,
    scale_sd: float = 0.1,
    shift_sd: float = 0.06,
    odd: int = 0,
    odd_style: Style = ODD_STYLE,
    init: Path | None = None,
    lr: float = 3e-3,
    log: Any = print,
) -> None:
    """``procedural``: plain procedural index crops added; ``odd``: more of them in ``odd_style`` (indices
    printed the other way up, pixel-art glyphs: looks of unseen decks that no training deck has). ``init``: an
    exported classifier to go on training (fine-tuning, usually at a smaller ``lr``) instead of a fresh one."""
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    crops, labels = load_classifier_data(data)
    cache = Path(data.split(",")[0]).parent / "procedural"
    if procedural:  # indices in system fonts and drawn pips: many more "decks" than the rendered ones
        extra, extra_labels = cached_batch(cache, procedural, seed)
        crops, labels = np.concatenate([crops, extra]), np.concatenate([labels, extra_labels])
        log(f"classifier: + {procedural} procedural index crops ({cache})")
    if odd:  # another seed: not the plain crops' fonts and cards again
        extra, extra_labels = cached_batch(cache, odd, seed + 1, style=odd_style)
        crops, labels = np.concatenate([crops, extra]), np.concatenate([labels, extra_labels])
        log(f"classifier: + {odd} procedural index crops in style {odd_style}")
    log(f"classifier: {len(labels)} crops ({int((labels < BACKGROUND).sum())} indices), {steps} steps")
    if init is not None:
        log(f"classifier: starting from {init}")
    model = (Classifier() if init is None else load_folded_classifier(init)).to(memory_format=torch.channels_last)
    # (NHWC: ~25 % faster convolutions on CPU)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1), pct_start=0.15)
    model.train()
    t0, hits, seen = time.time(), 0, 0
    for step in range(steps):
        idx = rng.integers(0, len(labels), batch)
        x, y = _classifier_batch(crops, labels, idx, g, rng, aug, scale_sd, shift_sd)
        logits = model(x.contiguous(memory_format=torch.channels_last))
        loss = F.cross_entropy(logits, y, label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]  # torch's stubs leave it untyped
        opt.step()
        sched.step()
        hits += int((logits.argmax(1) == y).sum())
        seen += len(y)
        if (step + 1) % 100 == 0 or step + 1 == steps:
            log(
                f"  cls step {step + 1}/{steps} loss {float(loss.detach()):.3f} train acc {hits / seen:.3f} "
                f"{time.time() - t0:.0f} s"
            )
            hits = seen = 0
    model.eval()
    _export(
        _WithEmbedding(model), torch.zeros(1, 3, CLS_IN, CLS_IN), out / "index_cls.onnx", {0: "n"}, ["out", "embedding"]
    )


# ---------------------------------------------------------------- detector


def _detector_targets(
    boxes: npt.NDArray[np.float32], h: int, w: int, backs: bool = True
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Heatmaps (2, h, w: indices, face-down strips) with gaussian peaks, ignore masks (2, h, w: 1 where the
    loss counts; all 0 for strips when the scene has no strip labels), box targets (5, h, w)."""
    heats = np.zeros((2, h, w), np.float32)
    cares = np.ones((2, h, w), np.float32)
    if not backs:
        cares[1] = 0
    reg = np.zeros((5, h, w), np.float32)  # log w, log h, dx, dy, weight
    for x0, y0, x1, y1, hidden, cls in boxes:
        channel = 1 if cls == BACK else 0
        heat, care = heats[channel], cares[channel]
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        bw, bh = max(x1 - x0, 1.0), max(y1 - y0, 1.0)
        if not (0 <= cx < w and 0 <= cy < h):
            continue
        if hidden >= 0.6:
            continue
        if hidden >= 0.25:  # half-hidden: neither teach "index" nor "background" here
            r = max(1, round(min(bw, bh) / STRIDE / 2))
            ix, iy = int(cx), int(cy)
            care[max(iy - r, 0) : iy + r + 1, max(ix - r, 0) : ix + r + 1] = 0
            continue
        sigma = max(0.5, min(bw, bh) / STRIDE / 3)
        ix, iy = int(cx), int(cy)
        r = int(3 * sigma) + 1
        top, bottom, left, right = max(iy - r, 0), min(iy + r + 1, h), max(ix - r, 0), min(ix + r + 1, w)
        ys, xs = np.mgrid[top:bottom, left:right].astype(np.float32)
        g = np.exp(-((xs + 0.5 - cx) ** 2 + (ys + 0.5 - cy) ** 2) / (2 * sigma**2))
        heat[top:bottom, left:right] = np.maximum(heat[top:bottom, left:right], g)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(bw), math.log(bh), cx - ix, cy - iy, 1.0)
    return heats, cares, reg


def _detector_batch(
    scenes: list[tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32], bool]],
    idx: npt.NDArray[np.int64],
    size: int,
    g: torch.Generator,
    rng: np.random.Generator,
    scale_sd: float = 0.25,
    any_angle: float = 0.0,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    imgs, heats, cares, regs = [], [], [], []
    for i in idx:
        img, boxes, backs = scenes[int(i)]
        s = float(np.exp(rng.normal(0, scale_sd)))  # other camera distances / resolutions
        ih, iw = img.shape[:2]
        cx, cy = rng.uniform(0, iw), rng.uniform(0, ih)
        m = np.array([[s, 0, size / 2 - s * cx], [0, s, size / 2 - s * cy]], np.float64)
        if rng.random() < 0.1:  # real tables are turned any way: a few quarter turns
            m = np.array([[0, -1, size], [1, 0, 0]], np.float64) @ np.vstack([m, [0, 0, 1]])
        if any_angle > 0 and rng.random() < any_angle:  # (short-circuit: the stream is unchanged at 0)
            turn = cv2.getRotationMatrix2D((size / 2, size / 2), float(rng.uniform(0, 360)), 1.0)
            m = turn @ np.vstack([m, [0, 0, 1]])
        crop = cv2.warpAffine(img, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        b = boxes.copy()
        if len(b):
            corners = np.stack([b[:, [0, 1]], b[:, [2, 1]], b[:, [2, 3]], b[:, [0, 3]]], 1)
            moved = corners @ m[:, :2].T + m[:, 2]
            b[:, 0:2] = moved.min(1)
            b[:, 2:4] = moved.max(1)
        hm, care, reg = _detector_targets(b, size // STRIDE, size // STRIDE, backs)
        imgs.append(crop)
        heats.append(hm)
        cares.append(care)
        regs.append(reg)
    u8 = _jpeg(np.stack(imgs), rng, 0.3)
    x = _photometric(torch.from_numpy(u8).permute(0, 3, 1, 2).float(), g)
    return x, torch.from_numpy(np.stack(heats)), torch.from_numpy(np.stack(cares)), torch.from_numpy(np.stack(regs))


def _focal(logit: torch.Tensor, heat: torch.Tensor, care: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p**2 * (1 - heat) ** 4 * (1 - pos) * care
    return (pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def train_detector(
    data: str,
    out: Path,
    *,
    steps: int,
    batch: int = 8,
    size: int = 224,
    seed: int = 0,
    scale_sd: float = 0.25,
    any_angle: float = 0.0,
    log: Any = print,
) -> None:
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed + 1)
    rng = np.random.default_rng(seed + 1)
    scenes = load_detector_data(data)
    log(f"detector: {len(scenes)} scenes, {steps} steps of {batch} x {size}px")
    model = Detector().to(memory_format=torch.channels_last)  # NHWC: ~25 % faster convolutions on CPU
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=max(steps, 1), pct_start=0.1)
    model.train()
    t0 = time.time()
    for step in range(steps):
        x, heat, care, reg = _detector_batch(
            scenes, rng.integers(0, len(scenes), batch), size, g, rng, scale_sd, any_angle
        )
        y = model(x.contiguous(memory_format=torch.channels_last)).contiguous()
        w = reg[:, 4:5]
        npos = w.sum().clamp(min=1)
        l_heat = _focal(y[:, :1], heat[:, :1], care[:, :1])
        l_back = _focal(y[:, 5:6], heat[:, 1:2], care[:, 1:2])
        l_size = (F.smooth_l1_loss(y[:, 1:3], reg[:, 0:2], reduction="none") * w).sum() / npos
        l_off = (F.l1_loss(torch.sigmoid(y[:, 3:5]), reg[:, 2:4], reduction="none") * w).sum() / npos
        loss = l_heat + l_back + l_size + l_off
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]  # torch's stubs leave it untyped
        opt.step()
        sched.step()
        if (step + 1) % 50 == 0 or step + 1 == steps:
            log(
                f"  det step {step + 1}/{steps} heat {float(l_heat.detach()):.3f} back {float(l_back.detach()):.3f} "
                f"size {float(l_size.detach()):.3f} "
                f"off {float(l_off.detach()):.3f} {time.time() - t0:.0f} s"
            )
    model.eval()
    _export(model, torch.zeros(1, 3, 368, 640), out / "index_det.onnx", {0: "n", 2: "h", 3: "w"})


def _export(
    model: nn.Module, example: torch.Tensor, path: Path, axes: dict[int, str], outputs: list[str] | None = None
) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    model = model.to(memory_format=torch.contiguous_format)  # the ONNX graph in the usual NCHW layout
    tmp = path.with_suffix(".tmp.onnx")
    names = outputs or ["out"]
    torch.onnx.export(
        model,
        (example,),
        str(tmp),
        input_names=["image"],
        output_names=names,
        dynamic_axes={"image": axes, **{n: {0: "n"} for n in names[1:]}},
        opset_version=17,
        dynamo=False,
    )
    tmp.replace(path)


def _pair(text: str) -> tuple[float, float]:
    lo, hi = (float(v) for v in text.split(","))
    return lo, hi


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="models/cache/data", help="cache folder(s), comma-separated")
    ap.add_argument("--out", default="models")
    ap.add_argument("--cls-steps", type=int, default=3000)
    ap.add_argument("--det-steps", type=int, default=3000)
    ap.add_argument("--only", choices=("cls", "det"), help="train one model only")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cls-batch", type=int, default=64)
    ap.add_argument("--det-scale", type=float, default=0.25, help="detector crop scale, log-normal sd")
    ap.add_argument("--det-rotate", type=float, default=0.0, help="share of detector crops turned to any angle")
    ap.add_argument("--cls-aug", type=float, default=1.0, help="classifier augmentation strength")
    ap.add_argument("--cls-scale-sd", type=float, default=0.1, help="classifier crop box scale jitter, log sd")
    ap.add_argument("--cls-shift-sd", type=float, default=0.06, help="classifier crop box shift jitter, sd")
    ap.add_argument(
        "--procedural",
        type=int,
        default=0,
        help="add this many procedural index crops (models.glyphs: system fonts, drawn pips)",
    )
    ap.add_argument(
        "--procedural-odd",
        type=int,
        default=0,
        help="add this many more procedural crops, a share of them flipped / pixel-art (below)",
    )
    ap.add_argument(
        "--glyph-flip",
        type=float,
        default=0.4,
        help="--procedural-odd: share with rank and pip turned in place (bottom index printed upright)",
    )
    ap.add_argument("--glyph-pixel", type=float, default=0.4, help="--procedural-odd: share of pixel-art glyphs")
    ap.add_argument("--glyph-cells", default="6,11", help="--procedural-odd: pixel-art cells per rank height, lo,hi")
    ap.add_argument("--glyph-spare-69", action="store_true", help="--procedural-odd: no 6 or 9 flipped (any suit)")
    ap.add_argument("--cls-init", type=Path, help="fine-tune this exported classifier (index_cls.onnx) instead")
    ap.add_argument("--cls-lr", type=float, default=3e-3, help="classifier's peak learning rate (one-cycle)")
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    torch.use_deterministic_algorithms(True)
    out = Path(a.out)
    t0 = time.time()
    if a.only in (None, "cls"):
        train_classifier(
            a.data,
            out,
            steps=a.cls_steps,
            batch=a.cls_batch,
            seed=a.seed,
            aug=a.cls_aug,
            procedural=a.procedural,
            scale_sd=a.cls_scale_sd,
            shift_sd=a.cls_shift_sd,
            odd=a.procedural_odd,
            odd_style=Style(a.glyph_flip, a.glyph_pixel, _pair(a.glyph_cells), a.glyph_spare_69),
            init=a.cls_init,
            lr=a.cls_lr,
        )
    if a.only in (None, "det"):
        train_detector(a.data, out, steps=a.det_steps, seed=a.seed, scale_sd=a.det_scale, any_angle=a.det_rotate)
    print(f"done in {time.time() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
