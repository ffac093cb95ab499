"""The table plane from the dealt cards alone: every card is a 63 x 88 mm rectangle lying on the table.

One card's four corners already fix a homography, but a noisy one. We take the candidate from the largest
cards that best explains all the others, then refine jointly, by Levenberg-Marquardt, the homography (or,
with known intrinsics, the camera's 6-DoF pose) and each card's 2-D pose on the table.
Card 0's pose is held fixed: it removes the freedom of choosing the table frame,
which :func:`make_plane` then replaces by the canonical one.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import PlaneError
from calibration.intrinsics import CameraIntrinsics
from calibration.plane import DEFAULT_PX_PER_MM, PlaneSource, TablePlane, make_plane

FloatArray = npt.NDArray[np.float64]

CARD_MM = (63.0, 88.0)  # poker size; bridge decks are 57 x 89 (pass card_mm)
MIN_CARD_AREA_PX = 64.0  # a smaller quad carries no usable shape
CANDIDATE_CARDS = 3  # initial guesses come from the few largest cards, whose shape is least noisy
ITERATIONS = 12
_AXES = np.eye(3)
UNIT_MM = 100.0  # solve in decimetres, so that table and (normalised) image numbers are of similar size


def plane_from_cards(
    quads: list[FloatArray],
    intrinsics: CameraIntrinsics | None,
    image_size: tuple[int, int],
    card_mm: tuple[float, float] = CARD_MM,
    px_per_mm: float = DEFAULT_PX_PER_MM,
) -> TablePlane:
    """Estimate the table plane from card corner quads ((4, 2) image pixels each, in order around the card).

    The quads may start at any corner and go either way round; cards may lie in any orientation. Raises
    :class:`PlaneError` when no quad is usable. Pure and fast: meant to run on every frame.
    Intrinsics of another resolution of the same aspect ratio are scaled to ``image_size``.
    """
    if intrinsics is not None and intrinsics.image_size != tuple(image_size):
        intrinsics = intrinsics.scaled_to((int(image_size[0]), int(image_size[1])))
    pts = _usable(quads)
    if intrinsics is not None:
        pts = intrinsics.undistort_points(pts.reshape(-1, 2)).reshape(-1, 4, 2)
    pts = _clockwise(pts)
    # Normalise the image points (Hartley) so that the solve is well conditioned.
    centre = pts.reshape(-1, 2).mean(axis=0)
    scale = float(np.sqrt(2.0) / np.mean(np.linalg.norm(pts.reshape(-1, 2) - centre, axis=1)))
    norm = np.array([[scale, 0.0, -scale * centre[0]], [0.0, scale, -scale * centre[1]], [0.0, 0.0, 1.0]])
    obs = (pts - centre) * scale
    half = np.array(card_mm) / 2.0 / UNIT_MM

    h0, flips, poses = _initial(obs, half)
    solver = _Solver(obs, half, flips, norm, intrinsics)
    h, poses, residuals = solver.solve(h0, poses)
    # A card whose corners fit far worse than the others' (occluded, misdetected) is dropped, once.
    per_card = np.sqrt(np.mean(residuals.reshape(-1, 8) ** 2, axis=1))
    bad = per_card > max(4.0 * float(np.median(per_card)), 3.0 * scale)
    if bad.any() and not bad.all():
        keep = ~bad
        if not keep[0]:
            # Card 0 anchors the frame; re-anchor on the first kept card.
            first = int(np.argmax(keep))
            order = np.r_[first, np.delete(np.arange(len(keep)), first)]
            obs, flips, poses, keep = obs[order], flips[order], poses[order], keep[order]
        solver = _Solver(obs[keep], half, flips[keep], norm, intrinsics)
        h, poses, residuals = solver.solve(h, poses[keep])

    table_to_image = np.linalg.inv(norm) @ h @ np.diag([1.0 / UNIT_MM, 1.0 / UNIT_MM, 1.0])
    rms_px = float(np.sqrt(np.mean(residuals**2))) / scale
    return make_plane(table_to_image, image_size, PlaneSource.CARDS, rms_px, intrinsics, px_per_mm)


def _usable(quads: list[FloatArray]) -> FloatArray:
    shaped = [q for q in (np.asarray(quad, np.float64) for quad in quads) if q.shape == (4, 2)]
    pts = np.stack(shaped) if shaped else np.zeros((0, 4, 2))
    ok = np.asarray(np.isfinite(pts).all(axis=(1, 2)), np.bool_)
    ok = ok & (np.abs(_signed_area(np.where(ok[:, None, None], pts, 0.0))) >= MIN_CARD_AREA_PX)
    if not ok.any():
        raise PlaneError(f"no usable card outline among {len(quads)} given; the table plane needs at least one")
    return np.asarray(pts[ok], np.float64)


def _signed_area(q: FloatArray) -> FloatArray:
    x, y = q[..., 0], q[..., 1]
    x1, y1 = x[..., [1, 2, 3, 0]], y[..., [1, 2, 3, 0]]
    return np.asarray(0.5 * np.sum(x * y1 - x1 * y, axis=-1))


def _clockwise(pts: FloatArray) -> FloatArray:
    """Make every quad go clockwise on screen, as the card model does (a plane seen from above keeps it)."""
    out = pts.copy()
    ccw = _signed_area(pts) < 0
    out[ccw] = pts[ccw][:, ::-1]
    return out


def _model(half: FloatArray, flips: npt.NDArray[np.bool_]) -> FloatArray:
    """Card corners about the card centre, clockwise from top-left; a flipped card lies sideways."""
    w, h = half
    upright = np.array([[-w, -h], [w, -h], [w, h], [-w, h]])
    sideways = np.array([[-h, -w], [h, -w], [h, w], [-h, w]])
    return np.where(flips[:, None, None], sideways, upright)


def _initial(obs: FloatArray, half: FloatArray) -> tuple[FloatArray, npt.NDArray[np.bool_], FloatArray]:
    """(H table->normalised image, flips, poses) from the best single-card guess."""
    n = len(obs)
    models = _model(half, np.array([False, True]))
    candidates = [
        np.asarray(cv2.getPerspectiveTransform(model.astype(np.float32), obs[k].astype(np.float32)), np.float64)
        for k in np.argsort(-np.abs(_signed_area(obs)))[:CANDIDATE_CARDS]
        for model in models
    ]
    # All candidates at once: map every quad back to the table and see how card-like it comes out.
    inv = np.linalg.inv(np.stack(candidates))
    pts = obs.reshape(-1, 2)
    x = np.einsum("cij,pj->cpi", inv[:, :2, :2], pts) + inv[:, None, :2, 2]
    w = np.einsum("cj,pj->cp", inv[:, 2, :2], pts) + inv[:, None, 2, 2]
    table = (x / w[..., None]).reshape(len(candidates), n, 4, 2)
    costs, _ = _rigid_fit(table, half)
    total = np.min(costs, axis=0).sum(axis=-1)
    total[~np.isfinite(total) | (w <= 0).any(axis=1)] = np.inf
    if not np.isfinite(total).any():
        raise PlaneError("the card outlines are degenerate: no card's shape gives a table plane")
    best = int(np.argmin(total))
    costs, poses = costs[:, best], _rigid_fit(table[best], half)[1]
    flips = costs[1] < costs[0]
    return candidates[best], flips, np.where(flips[:, None], poses[1], poses[0])


def _rigid_fit(table: FloatArray, half: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Best rotation + translation of the card model onto each mapped quad (..., 4, 2), upright and sideways.

    Returns costs (2, ...) (sums of squared distances) and poses (2, ..., 3) as (x, y, angle).
    """
    centre = table.mean(axis=-2)
    p = table - centre[..., None, :]
    costs, poses = [], []
    for m in _model(half, np.array([False, True])):
        cross = np.sum(m[:, 0] * p[..., 1] - m[:, 1] * p[..., 0], axis=-1)
        dot = np.sum(m[:, 0] * p[..., 0] + m[:, 1] * p[..., 1], axis=-1)
        # For a rectangle centred on its centroid the best fit leaves |p|^2 + |m|^2 - 2 * |(dot, cross)|.
        costs.append(np.sum(p**2, axis=(-1, -2)) + np.sum(m**2) - 2.0 * np.hypot(dot, cross))
        poses.append(np.concatenate([centre, np.arctan2(cross, dot)[..., None]], axis=-1))
    return np.stack(costs), np.stack(poses)


def _rotate(m: FloatArray, angle: FloatArray) -> FloatArray:
    c, s = np.cos(angle)[:, None], np.sin(angle)[:, None]
    return np.stack([c * m[..., 0] - s * m[..., 1], s * m[..., 0] + c * m[..., 1]], axis=-1)


class _Solver:
    """Levenberg-Marquardt over (homography or camera pose) + the poses of cards 1..n-1."""

    def __init__(
        self,
        obs: FloatArray,
        half: FloatArray,
        flips: npt.NDArray[np.bool_],
        norm: FloatArray,
        intrinsics: CameraIntrinsics | None,
    ) -> None:
        self.obs = obs
        self.model = _model(half, flips)
        self.n = len(obs)
        # With intrinsics the plane has 6 degrees of freedom (camera pose), else 8 (free homography).
        self.k_norm = None if intrinsics is None else norm @ intrinsics.matrix
        self.n_plane = 8 if intrinsics is None else 6

    # The plane's state is the 8 free entries of H, or (with intrinsics) R (9, row-major) and t (3).
    # A pose step (w, dt) updates R <- exp([w]x) R: R stays a rotation and the Jacobian is analytic.

    def _h(self, state: FloatArray) -> FloatArray:
        if self.k_norm is None:
            return np.append(state, 1.0).reshape(3, 3)
        rot = state[:9].reshape(3, 3)
        return np.asarray(self.k_norm @ np.column_stack([rot[:, 0], rot[:, 1], state[9:12]]), np.float64)

    def _retract(self, state: FloatArray, step: FloatArray) -> FloatArray:
        if self.k_norm is None:
            return state + step
        turn, _ = cv2.Rodrigues(step[:3])
        rot = np.asarray(turn, np.float64) @ state[:9].reshape(3, 3)
        return np.concatenate([rot.ravel(), state[9:12] + step[3:6]])

    def _dh(self, state: FloatArray) -> FloatArray:
        """d(H entries, row-major) / d(step), shape (9, k)."""
        if self.k_norm is None:
            return np.eye(9)[:, :8]
        rot = state[:9].reshape(3, 3)
        out = np.zeros((9, 6))
        for i in range(3):
            d_rot = np.cross(_AXES[i], rot.T).T  # [e_i]x R, column by column
            out[:, i] = (self.k_norm @ np.column_stack([d_rot[:, 0], d_rot[:, 1], np.zeros(3)])).ravel()
            out[:, 3 + i] = (self.k_norm @ np.column_stack([np.zeros(3), np.zeros(3), _AXES[i]])).ravel()
        return out

    def _plane_params(self, h: FloatArray) -> FloatArray:
        if self.k_norm is None:
            return np.asarray((h / h[2, 2]).ravel()[:8], np.float64)
        # Decompose H = K [r1 r2 t] (up to scale, with the table in front of the camera).
        m = np.linalg.inv(self.k_norm) @ h
        n0, n1 = float(np.linalg.norm(m[:, 0])), float(np.linalg.norm(m[:, 1]))
        scale = (n0 + n1) / 2.0 * (1.0 if m[2, 2] > 0 else -1.0)
        r1, r2 = m[:, 0] / n0, m[:, 1] / n1
        u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
        t = m[:, 2] / scale
        return np.concatenate([(u @ vt).ravel(), t])

    def _residuals(self, plane: FloatArray, poses: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Residuals (8n,), projected points (n, 4, 2), table points (n, 4, 2) and homogeneous w (n, 4)."""
        h = self._h(plane)
        table = _rotate(self.model, poses[:, 2]) + poses[:, None, :2]
        x = table @ h[:2, :2].T + h[:2, 2]
        w = table @ h[2, :2] + h[2, 2]
        proj = x / w[..., None]
        return (proj - self.obs).ravel(), proj, np.concatenate([table, w[..., None]], axis=-1)

    def _jacobian(
        self, plane: FloatArray, poses: FloatArray, proj: FloatArray, tw: FloatArray
    ) -> tuple[FloatArray, FloatArray]:
        """Per-card Jacobian blocks: d residual / d plane (n, 8, k) and d residual / d card pose (n, 8, 3)."""
        h = self._h(plane)
        n = self.n
        table, w = tw[..., :2], tw[..., 2]
        x, y = table[..., 0], table[..., 1]
        u, v = proj[..., 0], proj[..., 1]
        # d(u, v) / d(h00 .. h22), shape (n, 4, 2, 9)
        dh = np.zeros((n, 4, 2, 9))
        base = np.stack([x, y, np.ones_like(x)], axis=-1) / w[..., None]
        dh[..., 0, 0:3] = base
        dh[..., 1, 3:6] = base
        dh[..., 0, 6:9] = -u[..., None] * base
        dh[..., 1, 6:9] = -v[..., None] * base
        dplane = dh[..., :8] if self.k_norm is None else dh @ self._dh(plane)
        # d(u, v) / d(table x, y)
        dp = np.empty((n, 4, 2, 2))
        dp[..., 0, 0] = (h[0, 0] - u * h[2, 0]) / w
        dp[..., 0, 1] = (h[0, 1] - u * h[2, 1]) / w
        dp[..., 1, 0] = (h[1, 0] - v * h[2, 0]) / w
        dp[..., 1, 1] = (h[1, 1] - v * h[2, 1]) / w
        # d(table x, y) / d(angle) for each corner
        m = self.model
        c, s = np.cos(poses[:, 2])[:, None], np.sin(poses[:, 2])[:, None]
        dtheta = np.stack([-s * m[..., 0] - c * m[..., 1], c * m[..., 0] - s * m[..., 1]], axis=-1)
        dcard = np.concatenate([dp, np.einsum("nkab,nkb->nka", dp, dtheta)[..., None]], axis=-1)
        dcard[0] = 0.0  # card 0 is the fixed anchor of the frame
        return dplane.reshape(n, 8, -1), dcard.reshape(n, 8, 3)

    def _step(self, jp: FloatArray, jc: FloatArray, res: FloatArray, damping: float) -> tuple[FloatArray, FloatArray]:
        """One damped Gauss-Newton step by the Schur complement: the card blocks are independent 3 x 3s.

        Small batched products only: one big dense solve costs far more, mostly in BLAS thread start-up.
        """
        r = res.reshape(self.n, 8)
        a = np.einsum("nij,nik->jk", jp, jp)
        b = np.einsum("nij,nik->njk", jp, jc)
        d = np.einsum("nij,nik->njk", jc, jc)
        gp = np.einsum("nij,ni->j", jp, r)
        gc = np.einsum("nij,ni->nj", jc, r)
        a = a + damping * np.diag(np.diag(a) + 1e-12)
        diag_d = np.einsum("njj->nj", d)
        d = d + (damping * diag_d + 1e-12)[:, :, None] * np.eye(3)
        d[0] = np.eye(3)  # the anchor card's block is empty; an identity keeps it invertible
        d_inv = np.linalg.inv(d)
        bd = np.einsum("njk,nkl->njl", b, d_inv)
        schur = a - np.einsum("njl,nml->jm", bd, b)
        rhs = -gp + np.einsum("njl,nl->j", bd, gc)
        dplane = np.linalg.solve(schur, rhs)
        dcards = -np.einsum("nkl,nl->nk", d_inv, gc + np.einsum("njk,j->nk", b, dplane))
        dcards[0] = 0.0
        return dplane, dcards

    def solve(self, h0: FloatArray, poses0: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        plane = self._plane_params(h0)
        poses = poses0.copy()
        res, proj, tw = self._residuals(plane, poses)
        cost = float(res @ res)
        damping = 1e-3
        for _ in range(ITERATIONS):
            jp, jc = self._jacobian(plane, poses, proj, tw)
            improved = False
            for _ in range(5):
                try:
                    dplane, dcards = self._step(jp, jc, res, damping)
                except np.linalg.LinAlgError:
                    damping *= 10
                    continue
                new_plane, new_poses = self._retract(plane, dplane), poses + dcards
                new_res, new_proj, new_tw = self._residuals(new_plane, new_poses)
                new_cost = float(new_res @ new_res)
                if math.isfinite(new_cost) and new_cost < cost and (new_tw[..., 2] > 0).all():
                    improved = cost - new_cost > 1e-6 * cost and new_cost > 1e-24
                    plane, poses, res, proj, tw = new_plane, new_poses, new_res, new_proj, new_tw
                    cost = new_cost
                    damping = max(damping / 10, 1e-9)
                    break
                damping *= 10
            if not improved:
                break
        return self._h(plane), poses, res
