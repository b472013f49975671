"""`glyphscope-extract`: JSON Lines keys, 1-based pages, modes, rules and exit statuses."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from pikepdf import Dictionary, Name

from glyphscope.core.cli import main
from glyphscope.core.serialize import GLYPH_JSON_KEYS
from tests.pdfbuilder import Encrypt, PdfBuilder, tounicode_cmap, truetype_program
from tests.test_fontprogram import cff_program


@pytest.fixture
def two_pages(tmp_path):
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    builder.add_page(b"BT /F1 10 Tf 72 700 Td (Hi) Tj ET", fonts={"F1": helv})
    builder.add_page(b"BT /F1 10 Tf 72 700 Td (Yo) Tj 0 -20 Td (there) Tj ET", fonts={"F1": helv})
    path = tmp_path / "two.pdf"
    path.write_bytes(builder.to_bytes())
    return path


def _run(args, capsys):
    status = main([str(a) for a in args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_glyphs_mode_prints_one_json_object_per_glyph_with_the_stable_keys(two_pages, capsys):
    status, out, _ = _run(["--mode", "glyphs", "--pages", "2", two_pages], capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert status == 0
    assert [r["unicode"] for r in rows] == list("Yothere")
    assert set(rows[0]) == {"page", *GLYPH_JSON_KEYS}
    first = rows[0]
    assert (first["page"], first["code"], first["code_length"], first["font"]) == (2, 89, 1, "F1")
    assert first["origin"] == [72, 700] and first["mcid"] is None
    assert first["token_index"] == 3 and first["decode_source"] == "builtin_encoding"
    assert len(first["quad"]) == 4


def test_glyph_json_keys_are_those_glyph_to_json_writes_in_its_order(two_pages, capsys):
    # Derived from glyph_to_json, not kept by hand: the copy had drifted (font_name last).
    _, out, _ = _run(["--mode", "glyphs", "--pages", "2", two_pages], capsys)
    first_line = out.splitlines()[0]
    assert tuple(json.loads(first_line)) == GLYPH_JSON_KEYS
    assert GLYPH_JSON_KEYS[:6] == ("page", "unicode", "code", "code_length", "font", "font_name")


def test_text_mode_joins_pages_with_the_separator_and_optional_bom(two_pages, capsys):
    status, out, _ = _run(["--mode", "text", "--separator", "|", two_pages], capsys)
    assert (status, out) == (0, "Hi|Yo\nthere")
    main(
        ["--mode", "text", "--bom", "--output", str(two_pages.with_suffix(".txt")), str(two_pages)]
    )
    assert two_pages.with_suffix(".txt").read_bytes() == "\ufeffHi\fYo\nthere".encode()


def test_rule_override_changes_the_decision(tmp_path, capsys):
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    builder.add_page(b"BT /F1 10 Tf 72 700 Td [(a) -200 (b)] TJ ET", fonts={"F1": helv})
    path = tmp_path / "gap.pdf"
    path.write_bytes(builder.to_bytes())
    assert _run(["--mode", "text", path], capsys)[1] == "a b"
    assert _run(["--mode", "text", "--rule", "space_gap_ratio=0.5", path], capsys)[1] == "ab"


def test_rules_file_is_read_as_json(tmp_path, two_pages, capsys):
    rules = tmp_path / "rules.json"
    rules.write_text('{"line_break_ratio": 5}')
    status, out, _ = _run(["--mode", "text", "--pages", "2", "--rules", rules, two_pages], capsys)
    # One line: "there" starts clear behind "Yo", a word apart (backward_jump_spaces).
    assert (status, out) == (0, "Yo there")


def test_explain_mode_prints_the_decision_log_as_json(two_pages, capsys):
    status, out, _ = _run(["--mode", "explain", "--pages", "1", two_pages], capsys)
    report = json.loads(out)
    assert status == 0 and report["rules"]["space_gap_ratio"] == 0.15
    assert len(report["pages"]) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["--pages", "9", "FILE"],
        ["--pages", "x-y", "FILE"],
        ["--rule", "no_such_rule=1", "FILE"],
        ["--rule", "space_gap_ratio=wide", "FILE"],
    ],
)
def test_bad_options_print_one_line_and_exit_2(args, two_pages, capsys):
    status, out, err = _run([str(two_pages) if a == "FILE" else a for a in args], capsys)
    assert status == 2
    assert out == "" and len(err.strip().splitlines()) == 1


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--mode", "nope", "x.pdf"])
    assert caught.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_missing_file_and_wrong_password_exit_3_with_one_line(tmp_path, capsys):
    builder = PdfBuilder()
    builder.add_page(b"")
    locked = tmp_path / "locked.pdf"
    locked.write_bytes(builder.save(encrypt=Encrypt("u", "o", "aes-256")))
    for args in ([tmp_path / "missing.pdf"], ["--password", "bad", locked], [locked]):
        status, _, err = _run(args, capsys)
        assert status == 3 and len(err.strip().splitlines()) == 1


def test_structure_mode_on_an_untagged_document_falls_back_and_exits_3(two_pages, capsys):
    status, out, err = _run(["--mode", "structure", two_pages], capsys)
    assert status == 3
    assert out == "Hi\fYo\nthere"
    assert err.count("reading order") == 2


def test_console_script_entry_point_runs_as_a_module(two_pages):
    result = subprocess.run(
        [sys.executable, "-m", "glyphscope.core.cli", "--mode", "text", str(two_pages)],
        capture_output=True,
        check=False,
    )
    assert result.returncode == 0 and result.stdout == b"Hi\fYo\nthere"


# `main` as a caller in a process that goes on runs it, and as the console script does (script:
# no cyclic collector, the process ended by os._exit after the output is flushed).
_BY_MAIN = "import sys; from glyphscope.core.cli import main; raise SystemExit(main())"
_BY_SCRIPT = "from glyphscope.core.cli import script; script()"


def _both(args: list[object], **options: object) -> tuple[subprocess.CompletedProcess, ...]:
    return tuple(
        subprocess.run(
            [sys.executable, "-c", code, *map(str, args)], capture_output=True, **options
        )
        for code in (_BY_MAIN, _BY_SCRIPT)
    )


@pytest.mark.parametrize(
    "case",
    ["text", "several", "glyphs", "explain", "missing", "broken", "structure", "bad-option"],
)
def test_the_console_script_writes_what_main_writes_and_exits_alike(two_pages, tmp_path, case):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"not a pdf")
    args = {
        "text": ["--mode", "text", two_pages],
        "several": [two_pages, broken, two_pages],
        "glyphs": ["--mode", "glyphs", two_pages],
        "explain": ["--mode", "explain", two_pages],
        "missing": [tmp_path / "missing.pdf"],
        "broken": [broken],
        "structure": ["--mode", "structure", two_pages],
        "bad-option": ["--mode", "nope", two_pages],
    }[case]
    by_main, by_script = _both(args)
    assert by_script.stdout == by_main.stdout and by_script.stderr == by_main.stderr
    assert by_script.returncode == by_main.returncode
    expected_status = {"missing": 3, "broken": 3, "several": 1, "structure": 3, "bad-option": 2}
    assert by_script.returncode == expected_status.get(case, 0)
    if case == "text":
        assert by_script.stdout == b"Hi\fYo\nthere"


def test_the_console_script_completes_an_output_file(two_pages, tmp_path):
    outputs = [tmp_path / "by_main.jsonl", tmp_path / "by_script.jsonl"]
    for code, output in zip((_BY_MAIN, _BY_SCRIPT), outputs, strict=True):
        command = [sys.executable, "-c", code, "--mode", "glyphs", "-o", output, two_pages]
        assert subprocess.run(list(map(str, command)), check=False).returncode == 0
    assert outputs[1].read_bytes() == outputs[0].read_bytes()
    assert outputs[1].read_bytes().count(b"\n") == 9  # one line per glyph of HiYothere


def test_a_closed_stdout_ends_quietly_with_sigpipes_status(tmp_path):
    # Output larger than a pipe's buffer, to a reader that has gone (`| head`): the write
    # fails inside main, which ends as grep does, 128 + SIGPIPE and nothing on stderr.
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    for _ in range(40):
        builder.add_page(
            b"BT /F1 10 Tf 72 700 Td " + b"(word ) Tj " * 400 + b"ET", fonts={"F1": helv}
        )
    path = tmp_path / "long.pdf"
    path.write_bytes(builder.to_bytes())
    results = []
    for code in (_BY_MAIN, _BY_SCRIPT):
        process = subprocess.Popen(
            [sys.executable, "-c", code, str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        process.stdout.read(10)
        process.stdout.close()
        results.append((process.wait(timeout=120), process.stderr.read()))
    assert results == [(141, b""), (141, b"")]


def test_structure_mode_reports_the_untagged_count_of_a_structured_page(tmp_path, capsys):
    from tests.pdfbuilder import Element

    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    builder.add_page(
        b"BT /F1 10 Tf 72 700 Td /P <</MCID 0>> BDC (Hello) Tj EMC 0 -20 Td (7) Tj ET",
        fonts={"F1": helv},
    )
    builder.struct_tree([Element("Document", [Element("P", [0], page=0)])])
    path = tmp_path / "tagged.pdf"
    path.write_bytes(builder.to_bytes())
    status, out, err = _run(["--mode", "structure", path], capsys)
    assert (status, out) == (0, "Hello\n7")
    assert err.strip() == "page 1: untagged: 1 of 6 glyphs"


def test_several_files_in_one_process_follow_a_header_each(two_pages, tmp_path, capsys):
    other = tmp_path / "other.pdf"
    builder = PdfBuilder()
    builder.add_page(
        b"BT /F1 10 Tf 72 700 Td (Ok) Tj ET", fonts={"F1": builder.standard_font("Helvetica")}
    )
    other.write_bytes(builder.to_bytes())
    status, out, _ = _run(["--mode", "text", two_pages, other], capsys)
    assert status == 0
    assert out == f"==> {two_pages} <==\nHi\fYo\nthere\n==> {other} <==\nOk\n"
    status, out, _ = _run(["--file-separator", "#{file}#", two_pages, other], capsys)
    assert out == f"#{two_pages}#Hi\fYo\nthere\n#{other}#Ok\n"


def test_a_failing_file_is_reported_the_others_read_and_the_status_is_partial(
    two_pages, tmp_path, capsys
):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"not a pdf")
    status, out, err = _run(["--mode", "text", broken, two_pages], capsys)
    assert status == 1
    assert out == f"==> {broken} <==\n\n==> {two_pages} <==\nHi\fYo\nthere\n"
    assert err.startswith(f"glyphscope-extract: {broken}: ") and err.count("\n") == 1


def test_output_dir_writes_one_file_per_input(two_pages, tmp_path, capsys):
    out_dir = tmp_path / "out"
    status, out, _ = _run(["--output-dir", out_dir, two_pages], capsys)
    assert (status, out) == (0, "")
    assert (out_dir / "two.txt").read_text() == "Hi\fYo\nthere"
    status, _, _ = _run(["--mode", "glyphs", "--output-dir", out_dir, two_pages], capsys)
    rows = (out_dir / "two.jsonl").read_text().splitlines()
    assert status == 0 and [json.loads(r)["unicode"] for r in rows] == list("HiYothere")


def test_output_and_output_dir_exclude_each_other(two_pages, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--output", str(tmp_path / "a"), "--output-dir", str(tmp_path), str(two_pages)])
    assert exit_info.value.code == 2


def _loaded_modules(*cli_args: object) -> set[str]:
    """The modules a fresh interpreter holds after importing the CLI and, with arguments,
    running it (output to /dev/null): what `glyphscope-extract` pays for at start-up."""
    code = (
        "import json, os, sys, glyphscope.core.cli as cli; "
        "args = sys.argv[1:]; "
        "args and cli.main(['-o', os.devnull, *args]); "
        "print(json.dumps(sorted(sys.modules)))"
    )
    command = [sys.executable, "-c", code, *map(str, cli_args)]
    return set(json.loads(subprocess.run(command, capture_output=True, check=True).stdout))


def test_text_mode_loads_no_layout_columns_structure_or_analysis(two_pages):
    # The CLI imports the engine when it runs a mode, so that text mode is what is run here.
    loaded = _loaded_modules("--mode", "text", two_pages)
    for module in ("text.layout", "text.columns", "structure", "analysis"):
        assert f"glyphscope.core.{module}" not in loaded
    assert "glyphscope.core.text.reading" in loaded
    # Nor what only some pages need: python-bidi (right-to-left lines), statistics (a median
    # over nan), gzip (a predefined CMap's file).
    assert not {"bidi", "statistics", "gzip"} & loaded


def test_importing_the_cli_loads_no_numpy():
    # main() asks for one BLAS thread before numpy loads (core.cli), so importing the CLI
    # must not load it.
    assert "numpy" not in _loaded_modules()


def test_cli_start_up_loads_no_fonttools(tmp_path):
    # numpy is not asserted: the columnar stages read arrays on every page. A file that is
    # not there: the engine is loaded (to open it), no page is read.
    loaded = _loaded_modules("--mode", "text", tmp_path / "missing.pdf")
    assert "glyphscope.core.fonts.loader" in loaded
    assert not {m for m in loaded if m.split(".")[0] == "fontTools"}


def _font_test_pdf(tmp_path, font_kind: str):
    builder = PdfBuilder()
    if font_kind == "tounicode":
        # Codes map through the ToUnicode CMap: no glyph name, no program.
        font = builder.type0_font(to_unicode=tounicode_cmap({5: "A", 6: "B"}, code_bytes=2))
        content = b"BT /F1 10 Tf 72 700 Td <00050006> Tj ET"
    elif font_kind == "standard":
        font = builder.standard_font("Helvetica")  # WinAnsi glyph names, no program
        content = b"BT /F1 10 Tf 72 700 Td (AB) Tj ET"
    elif font_kind == "uni-name":
        font = builder.standard_font("Helvetica", differences=[65, "uni0041", "B"])
        content = b"BT /F1 10 Tf 72 700 Td (AB) Tj ET"
    elif font_kind == "type1":
        # An embedded Type 1 program's built-in encoding (read by pattern, §9.6.6.2) names
        # the glyphs: 65 is /B, 66 is /fi.
        font = builder.standard_font("GlyphscopeT1", encoding=None)
        program = b"/Encoding 256 array\ndup 65 /B put\ndup 66 /fi put\nreadonly def\neexec"
        font.FontDescriptor = builder.pdf.make_indirect(
            Dictionary(Type=Name.FontDescriptor, FontFile=builder.stream(program))
        )
        content = b"BT /F1 10 Tf 72 700 Td (AB) Tj ET"
    elif font_kind == "cff":
        # A Type1C program's built-in StandardEncoding and charset name the glyphs (65 is A,
        # 0xAE fi), read by core.fonts.cff without fontTools.
        font = builder.standard_font("GlyphscopeCFF", encoding=None)
        program = builder.stream(cff_program())
        program.Subtype = Name.Type1C
        font.FontDescriptor = builder.pdf.make_indirect(
            Dictionary(Type=Name.FontDescriptor, FontFile3=program)
        )
        content = b"BT /F1 10 Tf 72 700 Td (A\\256) Tj ET"
    elif font_kind == "unnamed-program":
        # A TrueType program without glyph names (post format 3): its Unicode cmap alone
        # gives the text, so fontTools' glyph list is not needed to name its glyphs.
        program = truetype_program("AB", glyph_names=False)
        font = builder.truetype_font(program, encoding=None, flags=4)
        content = b"BT /F1 10 Tf 72 700 Td (AB) Tj ET"
    else:
        # A symbolic TrueType font with no /Encoding: only its program's cmap knows the text.
        program = truetype_program("AB", cmap="symbol")
        font = builder.truetype_font(program, encoding=None, flags=4)
        content = b"BT /F1 10 Tf 72 700 Td (AB) Tj ET"
    builder.add_page(content, fonts={"F1": font})
    path = tmp_path / f"{font_kind}.pdf"
    path.write_bytes(builder.to_bytes())
    return path


@pytest.mark.parametrize(
    ("font_kind", "expected"),
    [
        ("tounicode", set()),
        ("standard", set()),
        ("type1", set()),
        ("cff", set()),
        ("uni-name", {"fontTools.agl"}),
        ("program", {"fontTools.ttLib"}),
        ("unnamed-program", {"fontTools.ttLib"}),
    ],
)
def test_text_mode_loads_fonttools_only_for_what_the_fonts_need(tmp_path, font_kind, expected):
    # fontTools' glyph list only for a glyph name the stored list does not hold (here
    # uni0041), its font parsers only when a font program other than Type 1 is read.
    path = _font_test_pdf(tmp_path, font_kind)
    assert main(["--mode", "text", "-o", str(tmp_path / "out.txt"), str(path)]) == 0
    expected_text = {"type1": "Bfi", "cff": "Afi"}.get(font_kind, "AB")
    assert (tmp_path / "out.txt").read_text() == expected_text
    loaded = _loaded_modules("--mode", "text", path)
    fonttools = {"fontTools.agl", "fontTools.ttLib", "fontTools.cffLib"}
    assert fonttools & loaded == expected


def test_a_usage_error_a_missing_file_and_a_partial_run_exit_differently(
    two_pages, tmp_path, capsys
):
    missing = tmp_path / "missing.pdf"
    assert _run(["--pages", "x", two_pages], capsys)[0] == 2
    assert _run([missing], capsys)[0] == 3
    assert _run([missing, two_pages], capsys)[0] == 1
    assert _run([two_pages], capsys)[0] == 0


def test_help_explains_every_mode_and_the_exit_statuses(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    for mode in ("glyphs", "text", "layout", "columns", "structure", "visible", "explain"):
        assert f"\n  {mode} " in out
    assert "exit status:" in out and "partial" in out and "141" in out


def _extract(*args: object, stdin: bytes = b"") -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "glyphscope.core.cli", *map(str, args)]
    return subprocess.run(command, input=stdin, capture_output=True, check=False)


def test_dash_reads_the_pdf_from_stdin(two_pages):
    result = _extract("--mode", "text", "-", stdin=two_pages.read_bytes())
    assert (result.returncode, result.stdout) == (0, b"Hi\fYo\nthere")


def test_dash_output_writes_to_stdout_not_a_file_named_dash(two_pages, tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "glyphscope.core.cli", "-o", "-", str(two_pages)],
        cwd=tmp_path,
        capture_output=True,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, b"Hi\fYo\nthere")
    assert not (tmp_path / "-").exists()


def test_stdin_into_an_output_dir_is_named_stdin(two_pages, tmp_path):
    result = _extract("--output-dir", tmp_path / "out", "-", stdin=two_pages.read_bytes())
    assert result.returncode == 0
    assert (tmp_path / "out" / "stdin.txt").read_text() == "Hi\fYo\nthere"
