"""Annotation appearances as forms placed on the page (§12.5.5), for `rules.annotations`.

Beyond the spec's contract, which reads page content only: FreeText annotations and filled
form fields (Widget) carry their text in a normal appearance stream, which pdftotext reads.
Each visible annotation's /AP /N (the /AS state when /N is a dictionary of states) is a form
XObject; §12.5.5 places it by transforming its /BBox with its /Matrix, taking the bounding box
of the result, and mapping that box onto the annotation's /Rect (a scale and a translation),
so the form is drawn with the matrix Matrix × A. Annotations flagged Hidden or NoView
(§12.5.3, Table 165 bits 2 and 6) are skipped.
"""

from __future__ import annotations

from typing import NamedTuple

import pikepdf

from glyphscope.core.geometry import IDENTITY, Matrix, multiply
from glyphscope.core.interpret.clipping import transformed_box
from glyphscope.core.pdf.document import PdfPage

HIDDEN = 1 << 1
NO_VIEW = 1 << 5
# Annotations read per page: each one's appearance is a form to interpret.
MAX_ANNOTATIONS = 10_000


class Appearance(NamedTuple):
    """One annotation's normal appearance: the form, the matrix that places it in default
    user space, and the annotation's object number (0 for a direct object) and /Subtype."""

    form: pikepdf.Stream
    matrix: Matrix
    object_number: int
    subtype: str


class AnnotationSpan(NamedTuple):
    """Glyphs [start, end) in drawing order painted by one annotation's appearance."""

    start: int
    end: int
    object_number: int
    subtype: str


def annotation_label(appearance: Appearance) -> str:
    """The form path prefix of an annotation's glyphs; not a resource name, so the structure
    walk's form-chain lookup never mistakes it for one."""
    return f"[annot {appearance.object_number} /{appearance.subtype}]"


def page_appearances(page: PdfPage, warnings: list[str]) -> list[Appearance]:
    """The normal appearances of the page's visible annotations, in /Annots order. An
    annotation listed more than once is read once (§12.5.2: an annotation belongs to one
    page, once); past MAX_ANNOTATIONS the rest are skipped, with a warning."""
    annotations = page.pdf_page.obj.get("/Annots")
    if not isinstance(annotations, pikepdf.Array):
        return []
    found: list[Appearance] = []
    seen: set[tuple[int, int]] = set()
    repeated = 0
    for number, annotation in enumerate(annotations):
        if number == MAX_ANNOTATIONS:
            warnings.append(f"annotations past the first {MAX_ANNOTATIONS} skipped")
            break
        objgen = annotation.objgen if isinstance(annotation, pikepdf.Object) else (0, 0)
        if objgen != (0, 0):
            if objgen in seen:
                repeated += 1
                continue
            seen.add(objgen)
        try:
            appearance = _appearance(annotation)
        except (pikepdf.PdfError, TypeError, ValueError, KeyError) as exc:
            warnings.append(f"annotation skipped: {exc}")
            continue
        if appearance is not None:
            found.append(appearance)
    if repeated:
        warnings.append(f"annotations listed more than once read once ({repeated} repeats)")
    return found


def _appearance(annotation: object) -> Appearance | None:
    if not isinstance(annotation, pikepdf.Dictionary):
        return None
    flags = annotation.get("/F", 0)
    flags = int(flags) if isinstance(flags, int) or hasattr(flags, "as_integer_ratio") else 0
    if flags & (HIDDEN | NO_VIEW):
        return None
    normal = _normal_appearance(annotation)
    if normal is None:
        return None
    rect = _rect(annotation.get("/Rect"))
    bbox = _rect(normal.get("/BBox"))
    if rect is None or bbox is None:
        return None
    numbers = _numbers(normal.get("/Matrix"), 6)
    matrix: Matrix = (
        (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
        if numbers
        else IDENTITY
    )
    placed = multiply(matrix, _box_to_rect(matrix, bbox, rect))
    subtype = str(annotation.get("/Subtype", "/Unknown")).lstrip("/")
    return Appearance(normal, placed, annotation.objgen[0], subtype)


def _normal_appearance(annotation: pikepdf.Dictionary) -> pikepdf.Stream | None:
    appearances = annotation.get("/AP")
    if not isinstance(appearances, pikepdf.Dictionary):
        return None
    normal = appearances.get("/N")
    if isinstance(normal, pikepdf.Dictionary) and not isinstance(normal, pikepdf.Stream):
        state = annotation.get("/AS")
        normal = normal.get(str(state)) if isinstance(state, pikepdf.Name) else None
    return normal if isinstance(normal, pikepdf.Stream) else None


def _numbers(value: object, count: int) -> tuple[float, ...] | None:
    if not isinstance(value, pikepdf.Array) or len(value) != count:
        return None
    try:
        return tuple(float(item) for item in value)
    except (TypeError, ValueError):
        return None


def _rect(value: object) -> tuple[float, float, float, float] | None:
    numbers = _numbers(value, 4)
    return (numbers[0], numbers[1], numbers[2], numbers[3]) if numbers else None


def _box_to_rect(
    matrix: Matrix, bbox: tuple[float, float, float, float], rect: tuple[float, float, float, float]
) -> Matrix:
    """§12.5.5 step 2: A maps the transformed BBox's bounding box onto Rect."""
    left, bottom, right, top = transformed_box(matrix, bbox)
    rx0, rx1 = sorted((rect[0], rect[2]))
    ry0, ry1 = sorted((rect[1], rect[3]))
    sx = (rx1 - rx0) / (right - left) if right > left else 1.0
    sy = (ry1 - ry0) / (top - bottom) if top > bottom else 1.0
    return (sx, 0.0, 0.0, sy, rx0 - left * sx, ry0 - bottom * sy)
