"""Light and camera effects: uneven light, cast shadows, glare, blur, colour cast, exposure, noise and JPEG.

Lighting acts on the ideal image (it belongs to the scene); optics and sensor act on the photo after the lens.
Every setting drawn is returned so the truth records how the picture was made.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[Any]  # cv2 returns loosely typed arrays; the name says the dtype
U8 = npt.NDArray[Any]  # cv2 returns loosely typed arrays; the name says the dtype


@dataclass(frozen=True, slots=True)
class Sensor:
    """The camera's settings for one shot, drawn before anything is applied (the white balance joins the light)."""

    sigma: float  # focus blur
    sharpen: float  # firmware unsharp mask amount
    motion: int  # motion blur length, px
    motion_angle: float
    wb: tuple[float, float, float]  # per-channel gain (BGR) of a white balance that guessed wrong
    exposure: float
    gamma: float
    noise: float  # grey levels
    quality: int  # JPEG

    @staticmethod
    def draw(rng: np.random.Generator, strength: float = 1.0) -> Sensor:
        sigma = float(rng.uniform(0.3, 1.2) * strength) if rng.random() < 0.5 else 0.0
        # Webcams sharpen in firmware: real index crops carry more edge energy than a clean render (docs/synth.md).
        sharpen = float(rng.uniform(0.4, 1.5) * strength) if rng.random() < 0.75 else 0.0
        length = int(rng.integers(3, 10) * strength) if rng.random() < 0.2 * strength else 0
        angle = float(rng.uniform(0, 180)) if length >= 2 else 0.0
        # Auto white balance that guessed the room light wrong: real webcams (eyeplay-dev) reach B/R ~ 1.27.
        wb = np.exp(rng.normal(0, 0.1 * strength, 3))
        exposure = float(np.exp(rng.normal(-0.05, 0.22 * strength)))  # rooms are dimmer than a lamp-lit desk
        gamma = float(rng.uniform(0.85, 1.15))
        noise = float(rng.uniform(1.0, 7.0) * strength)
        quality = int(rng.integers(45, 96))
        return Sensor(
            sigma, sharpen, length, angle, (float(wb[0]), float(wb[1]), float(wb[2])), exposure, gamma, noise, quality
        )

    def settings(self) -> dict[str, float]:
        return {
            "focus_blur_sigma": round(self.sigma, 3),
            "sharpen": round(self.sharpen, 3),
            "motion_blur_px": float(self.motion),
            "wb_b": round(self.wb[0], 3),
            "wb_r": round(self.wb[2], 3),
            "exposure": round(self.exposure, 3),
            "gamma": round(self.gamma, 3),
            "noise_std": round(self.noise, 3),
            "jpeg_quality": float(self.quality),
        }


def light(
    rng: np.random.Generator,
    canvas: U8,
    strength: float = 1.0,
    wb: tuple[float, float, float] = (1.0, 1.0, 1.0),
) -> dict[str, float]:
    """Multiply by a smooth illumination field (lamp falloff, a person's shadow) tinted by the light's colour and
    by the camera's white balance ``wb`` (both per channel, so one gain does both), and add specular glare."""
    h, w = canvas.shape[:2]
    gh, gw = 9, 16
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    lx, ly = rng.uniform(-0.5, 1.5) * gw, rng.uniform(-0.5, 1.5) * gh
    falloff = float(rng.uniform(0.0, 0.45)) * strength
    field = 1 - falloff * np.hypot(xx - lx, yy - ly) / np.hypot(gw, gh)
    shadow = 0.0
    if rng.random() < 0.35 * strength:  # a soft cast shadow (the player, a lamp arm) across part of the table
        shadow = float(rng.uniform(0.15, 0.45))
        a = rng.uniform(0, np.pi)
        edge = (xx - gw / 2) * np.cos(a) + (yy - gh / 2) * np.sin(a) - rng.uniform(-4, 4)
        field *= 1 - shadow * (1 / (1 + np.exp(-edge * rng.uniform(0.8, 3))))
    tint = np.array([1.0, 1.0, 1.0], np.float32) + rng.normal(0, 0.03, 3).astype(np.float32)
    gain = np.maximum(field, 0).astype(np.float32)[:, :, None] * np.array(tint * np.array(wb), np.float32)
    # The gain is upsampled and applied in 8 bits (several times faster than in float), scaled to fill the byte
    # with a little room for the cubic's overshoot: its steps (< 0.5 % of the gain) vanish under the noise.
    scale = 250.0 / max(float(gain.max()), 1e-3)
    gain_full = cv2.resize(cv2.convertScaleAbs(gain, alpha=scale), (w, h), interpolation=cv2.INTER_CUBIC)
    cv2.multiply(canvas, gain_full, dst=canvas, scale=1.0 / scale)
    glare = 0.0
    if rng.random() < 0.4 * strength:  # a lamp reflected in glossy card stock or a varnished table
        glare = float(rng.uniform(0.15, 0.7))
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(0.03, 0.15) * w, rng.uniform(0.03, 0.12) * h
        # Smooth, so computed at 1/8 resolution and upsampled.
        yy2, xx2 = np.mgrid[0 : h // 8 + 1, 0 : w // 8 + 1].astype(np.float32) * 8
        blob = np.exp(-(((xx2 - cx) / sx) ** 2 + ((yy2 - cy) / sy) ** 2) / 2).astype(np.float32)
        small = cv2.convertScaleAbs(blob, alpha=255.0 * glare)
        add = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        cv2.add(canvas, cv2.cvtColor(add, cv2.COLOR_GRAY2BGR), dst=canvas)
    return {"light_falloff": round(falloff, 3), "cast_shadow": round(shadow, 3), "glare": round(glare, 3)}


def camera_effects(img: U8, sensor: Sensor, noise_rng: np.random.Generator) -> U8:
    """Optics and sensor on the (lit, white-balanced) photo: focus and motion blur, sharpening, exposure and tone
    curve, noise, JPEG. ``noise_rng`` draws only the sensor noise: a video keeps its settings, changes its noise."""
    if sensor.sigma > 0.25:
        img = cv2.GaussianBlur(img, (0, 0), sensor.sigma)
    if sensor.sharpen > 0:
        img = cv2.addWeighted(img, 1 + sensor.sharpen, cv2.GaussianBlur(img, (0, 0), 1.2), -sensor.sharpen, 0)
    length = sensor.motion
    if length >= 2:
        k = np.zeros((length, length), np.float32)
        k[length // 2, :] = 1.0
        rot = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), sensor.motion_angle, 1.0)
        kern: F32 = cv2.warpAffine(k, rot, (length, length))
        img = cv2.filter2D(img, -1, kern / max(float(kern.sum()), 1e-6))
    # Exposure and the tone curve in one table lookup, the same for every channel (white balance went earlier).
    ramp = np.arange(256, dtype=np.float64) / 255.0
    lut = np.clip(ramp * sensor.exposure, 0, 1) ** sensor.gamma
    img = cv2.LUT(img, np.round(lut * 255).astype(np.uint8))
    if sensor.noise > 0.5:
        img = _add_noise(noise_rng, img, sensor.noise)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, sensor.quality])
    dec = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return np.asarray(dec if dec is not None else img, np.uint8)


@functools.lru_cache(maxsize=4)
def _noise_bank(h: int, w: int) -> npt.NDArray[np.int16]:
    # Fresh Gaussian noise per frame costs more than the rest of the camera model; a fixed bank read at a
    # random offset (and flipped) looks the same to a detector and keeps scenes deterministic.
    gen = np.random.default_rng(12345)
    return np.clip(np.round(gen.standard_normal((h + 128, w + 128, 3)) * 64), -320, 320).astype(np.int16)


def _add_noise(rng: np.random.Generator, img: U8, std: float) -> U8:
    h, w = img.shape[:2]
    oy, ox = (int(v) for v in rng.integers(0, 128, 2))
    n = _noise_bank(h, w)[oy : oy + h, ox : ox + w]
    if rng.random() < 0.5:
        n = n[::-1]
    # Shot noise grows with brightness, read noise does not: std = std * (0.5 + 0.5 * img / 128). The bank holds
    # 64 units per sigma, so the noise is bank * level / 512 with level = std / 8 * (32 + img / 4): 8-bit level,
    # 16-bit product, a shift for the division.
    level = cv2.convertScaleAbs(img, alpha=std / 32.0, beta=4.0 * std)
    if std <= 8:  # 320 * 12 * std fits 16 bits
        noise = (n * level.astype(np.int16)) >> 9
    else:  # effects stronger than the default
        noise = np.clip((n * level.astype(np.int32)) >> 9, -128, 127)
    noise += 128  # |noise| < 128: as unsigned bytes around 128, one saturating add puts it on the image
    out: U8 = cv2.addWeighted(img, 1.0, noise.astype(np.uint8), 1.0, -128.0)
    return out
