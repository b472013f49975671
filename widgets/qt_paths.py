"""QPainterPaths built from numpy arrays in one call, through QPainterPath's QDataStream form.

A page's worth of quads would otherwise be hundreds of thousands of moveTo/lineTo calls from
Python; one deserialisation per path makes that one call instead of five per glyph.

The stream layout (Qt's operator<< for QPainterPath, big-endian, stream version ≥ Qt 4):
int32 element count; per element int32 type (0 moveTo, 1 lineTo), float64 x, float64 y;
int32 index of the last subpath start; int32 fill rule.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QByteArray, QDataStream, QIODevice
from PySide6.QtGui import QPainterPath

_ELEMENT = np.dtype([("type", ">i4"), ("x", ">f8"), ("y", ">f8")])
MOVE_TO = 0
LINE_TO = 1


def path_from_polylines(polylines: np.ndarray, closed: bool = False) -> QPainterPath:
    """One subpath per row of an (N, K, 2) array; `closed` returns to each first point."""
    points = np.asarray(polylines, dtype=np.float64)
    if points.size == 0:
        return QPainterPath()
    points = points.reshape(len(points), -1, 2)
    if closed:
        points = np.concatenate([points, points[:, :1]], axis=1)
    count, per, _ = points.shape
    kinds = np.full((count, per), LINE_TO, dtype=np.int32)
    kinds[:, 0] = MOVE_TO
    return _deserialise(kinds.reshape(-1), points.reshape(-1, 2), last_start=(count - 1) * per)


def _deserialise(kinds: np.ndarray, points: np.ndarray, last_start: int) -> QPainterPath:
    # Non-finite coordinates (broken matrices) would poison the path's bounds; drop to 0.
    if not np.isfinite(points).all():  # one pass over the points: nan_to_num costs four
        points = np.nan_to_num(points, nan=0.0, posinf=0.0, neginf=0.0)
    elements = np.empty(len(kinds), dtype=_ELEMENT)
    elements["type"] = kinds
    elements["x"] = points[:, 0]
    elements["y"] = points[:, 1]
    data = (
        np.array([len(kinds)], dtype=">i4").tobytes()
        + elements.tobytes()
        + np.array([last_start, 0], dtype=">i4").tobytes()
    )
    # The stream reads the QByteArray in place: keep it referenced until the read is done.
    buffer = QByteArray(data)
    stream = QDataStream(buffer, QIODevice.OpenModeFlag.ReadOnly)
    path = QPainterPath()
    stream >> path
    return path
