"""Hidden text with its reasons (core.text.hidden, core.text.ink), on built PDFs."""

from __future__ import annotations

import json
import zlib

import pikepdf

from glyphscope.core.cli import main
from glyphscope.core.document import Document
from glyphscope.core.rules import Rules
from tests.pdfbuilder import PdfBuilder, standard_widths

SEEN = b"BT /F1 12 Tf 72 700 Td (Seen) Tj ET "


def _bytes(content: bytes, **page_args) -> bytes:
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica", widths=standard_widths("Helvetica"))
    fonts = {"F1": font}
    if "form" in page_args:
        page_args["xobjects"] = {
            "Fm1": builder.form_xobject(
                page_args.pop("form"), bbox=page_args.pop("bbox"), fonts=fonts
            )
        }
    builder.add_page(content, fonts=fonts, **page_args)
    return builder.to_bytes()


def _hidden(content: bytes, ink: bool = False, **page_args) -> dict[str, list[str]]:
    """Hidden glyph texts by reason tuple, e.g. {"invisible_render_mode": ["Gone"]}."""
    analysis = Document.open(_bytes(content, **page_args)).page(0).analysis()
    if ink:
        from glyphscope.core.analysis import analyse_page

        document = Document.open(_bytes(content, **page_args))
        analysis = analyse_page(document.page(0), Rules(), ink=True)
    found: dict[str, list[str]] = {}
    for item in analysis.hidden:
        key = ",".join(item.reasons)
        found.setdefault(key, []).append(analysis.glyphs[item.glyph].text)
    return {key: ["".join(texts)] for key, texts in found.items()}


def test_render_mode_3_is_invisible():
    content = SEEN + b"BT /F1 12 Tf 3 Tr 72 680 Td (Gone) Tj ET"
    assert _hidden(content) == {"invisible_render_mode": ["Gone"]}


def test_text_outside_a_rectangular_clip_is_clipped_and_q_restores_the_clip():
    content = (
        b"q 0 0 100 100 re W n BT /F1 12 Tf 200 700 Td (Cut) Tj ET "
        b"BT /F1 12 Tf 20 50 Td (In) Tj ET Q " + SEEN
    )
    assert _hidden(content) == {"clipped": ["Cut"]}


def test_non_rectangular_clip_clips_by_its_bounding_box():
    content = b"q 0 0 m 100 0 l 50 100 l h W n BT /F1 12 Tf 300 300 Td (Far) Tj ET Q " + SEEN
    assert _hidden(content) == {"clipped": ["Far"]}


def test_form_bbox_clips_the_forms_text():
    form = b"BT /F1 12 Tf 5 5 Td (Box) Tj ET BT /F1 12 Tf 500 500 Td (Out) Tj ET"
    content = SEEN + b"/Fm1 Do"
    assert _hidden(content, form=form, bbox=(0, 0, 100, 100)) == {"clipped": ["Out"]}


def test_tiny_text_is_flagged_by_the_height_rule():
    content = SEEN + b"BT /F1 0.5 Tf 72 680 Td (Small) Tj ET"
    assert _hidden(content) == {"tiny": ["Small"]}


def test_text_outside_the_crop_box_is_flagged():
    content = SEEN + b"BT /F1 12 Tf 72 770 Td (Slug) Tj ET"
    assert _hidden(content, crop_box=(0, 0, 612, 760)) == {"outside_visible_box": ["Slug"]}


def test_white_on_white_and_covered_text_leave_no_ink():
    content = (
        SEEN
        + b"1 1 1 rg BT /F1 12 Tf 72 650 Td (White) Tj ET "
        + b"0 0 0 rg BT /F1 12 Tf 72 600 Td (Under) Tj ET 0 0 1 rg 60 590 200 30 re f"
    )
    assert _hidden(content, ink=True) == {"no_ink": ["WhiteUnder"]}


def test_pixel_test_cost_is_recorded():
    document = Document.open(_bytes(SEEN))
    from glyphscope.core.analysis import analyse_page

    ink = analyse_page(document.page(0), Rules(), ink=True).to_json()["ink_test"]
    assert ink["no_ink"] == [] and ink["tested"] == 4 and ink["seconds"] > 0


def test_a_page_too_big_to_render_is_not_pixel_tested_and_says_so():
    # A billion-unit MediaBox at the least scale would be 6e16 pixels: no render is tried.
    document = Document.open(_bytes(SEEN, media_box=(0, 0, 1e9, 1e9)))
    from glyphscope.core.analysis import analyse_page

    analysis = analyse_page(document.page(0), Rules(), ink=True)
    ink = analysis.to_json()["ink_test"]
    assert ink["tested"] == 0 and ink["no_ink"] == []
    (warning,) = [w for w in analysis.warnings if w.startswith("pixel test skipped")]
    assert "over hidden_ink_max_pixels (25000000)" in warning
    small = analyse_page(document.page(0), Rules(hidden_ink_max_pixels=0), ink=True)
    assert small.to_json()["ink_test"]["tested"] == 0


def test_resources_pikepdf_cannot_copy_skip_the_pixel_test_with_a_warning():
    # A name key of bytes that are not UTF-8 (§7.3.5 allows any byte): rebuilding the
    # resources for the one-page copy fails inside pikepdf with std::bad_cast.
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica", widths=standard_widths("Helvetica"))
    builder.add_page(SEEN, fonts={"F1": font}, properties={"Pq": {"X": 1}})
    data = builder.to_bytes().replace(b"/Pq", b"/P\x92")
    from glyphscope.core.analysis import analyse_page

    analysis = analyse_page(Document.open(data).page(0), Rules(), ink=True)
    assert analysis.to_json()["ink_test"]["tested"] == 0
    assert [w for w in analysis.warnings if w.startswith("pixel test skipped: RuntimeError")]
    assert "".join(g.text for g in analysis.glyphs) == "Seen"


def test_a_resource_stream_over_the_cap_is_not_handed_to_pdfium():
    # pdfium reads an ICC profile whole and aborts when that fails; the copy's streams are
    # decoded under max_stream_bytes first (here 1 KB against a 4 KB profile).
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica", widths=standard_widths("Helvetica"))
    profile = builder.stream(zlib.compress(bytes(4096)), Filter="/FlateDecode", N=3)
    builder.add_page(b"/CS1 cs 1 1 1 sc " + SEEN, fonts={"F1": font})
    builder.page_object(0).Resources.ColorSpace = pikepdf.Dictionary(
        CS1=pikepdf.Array([pikepdf.Name.ICCBased, profile])
    )
    from glyphscope.core.analysis import analyse_page

    document = Document.open(builder.to_bytes())
    analysis = analyse_page(document.page(0), Rules(max_stream_bytes=1024), ink=True)
    assert analysis.to_json()["ink_test"]["tested"] == 0
    (warning,) = [w for w in analysis.warnings if w.startswith("pixel test skipped")]
    assert warning.endswith("decodes to more than 1024 bytes, which pdfium would hold whole")
    assert analyse_page(document.page(0), Rules(), ink=True).to_json()["ink_test"]["tested"] == 4


def _cli(tmp_path, capsys, content: bytes, *args: str) -> str:
    path = tmp_path / "hidden.pdf"
    path.write_bytes(_bytes(content))
    assert main([*args, str(path)]) == 0
    return capsys.readouterr().out


HIDDEN_PAGE = SEEN + b"BT /F1 12 Tf 3 Tr 72 680 Td (Gone) Tj ET"


def test_cli_hidden_selection_excludes_or_keeps_only_hidden_text(tmp_path, capsys):
    assert _cli(tmp_path, capsys, HIDDEN_PAGE) == "Seen\nGone"
    assert _cli(tmp_path, capsys, HIDDEN_PAGE, "--hidden", "exclude") == "Seen"
    assert _cli(tmp_path, capsys, HIDDEN_PAGE, "--hidden", "only") == "Gone"


def test_cli_hidden_mode_lists_runs_with_reasons(tmp_path, capsys):
    (line,) = _cli(tmp_path, capsys, HIDDEN_PAGE, "--mode", "hidden").splitlines()
    record = json.loads(line)
    assert (record["page"], record["glyphs"], record["text"]) == (1, [4, 5, 6, 7], "Gone")
    assert record["reasons"] == ["invisible_render_mode", "no_ink"]
