"""The compiled content-stream scanner agrees with qpdf's tokenizer or hands the stream back.

Differential on every page and form stream of the corpus, and by fuzzing (random token soups
and byte mutations of real streams): whenever `_scanner.scan` reads a stream, qpdf reads it
without a warning into the same operators, at the same indices, with equal operand values.
"""

from __future__ import annotations

import gc
import warnings

import pikepdf
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from glyphscope.core.interpret import content
from glyphscope.core.pdf.objects import get_entry
from glyphscope.core.pdf.streams import decode_stream
from tests.corpus import corpus_files

scanner = pytest.importorskip("glyphscope.core.interpret._scanner")

# Every operator wanted, each with the shape the interpreter uses (or none: spans for qpdf).
ALL_WANTED = frozenset(content._PDF_OPERATORS)
PDF = pikepdf.new()


def _qpdf(data: bytes):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            instructions = pikepdf.parse_content_stream(pikepdf.Stream(PDF, data))
        except (pikepdf.PdfError, RuntimeError, ValueError, TypeError) as exc:
            return None, [f"error: {exc}"]
    return instructions, [str(w.message) for w in caught]


def _same_value(plain: object, qpdf: object) -> bool:
    if isinstance(plain, bool) or plain is None:
        return False
    if isinstance(plain, int):
        return type(qpdf) is int and plain == qpdf
    if isinstance(plain, float):
        return not isinstance(qpdf, (int, pikepdf.Object)) and float(qpdf) == plain
    if isinstance(plain, bytes):
        return isinstance(qpdf, pikepdf.String) and bytes(qpdf) == plain
    if isinstance(plain, str):
        return isinstance(qpdf, pikepdf.Name) and str(qpdf) == plain
    if isinstance(plain, dict):
        return (
            isinstance(qpdf, pikepdf.Dictionary)
            and sorted(plain) == sorted(qpdf.keys())
            and all(_same_value(value, qpdf[key]) for key, value in plain.items())
        )
    if isinstance(plain, tuple):
        return (
            isinstance(qpdf, pikepdf.Array)
            and len(plain) == len(qpdf)
            and all(_same_value(p, q) for p, q in zip(plain, qpdf, strict=True))
        )
    return False


def _unparsed(operands) -> list[bytes]:
    return [o.unparse() if isinstance(o, pikepdf.Object) else repr(o) for o in operands]


def check_stream(data: bytes) -> bool:
    """Assert the scanner agrees with qpdf on data; True when it read the stream itself."""
    result = scanner.scan(data, content._operator_table(ALL_WANTED), len(data) + 1)
    if result is None:
        return False
    entries, spans, count, cut = result
    assert cut is not True
    instructions, problems = _qpdf(data)
    if cut is None:
        # Operands after the last operator: dropped by both, and by qpdf with this warning
        # (which content._scan repeats).
        assert problems == [content._DANGLING_OPERANDS], problems
        problems = []
    if instructions is None or problems:
        # qpdf refuses or warns on the stream: the scanner may only have left the operands it
        # cannot read (a dictionary holding a byte qpdf rejects) to qpdf, and then the reading
        # the interpreter gets falls back to qpdf whole (content._scan gives None).
        assert spans, (data[:200], problems)
        assert content._scan(PDF, data, ALL_WANTED, len(data) + 1) is None
        return False
    if spans and content._scan(PDF, data, ALL_WANTED, len(data) + 1) is None:
        # qpdf reads the operands left to it otherwise than one operator per span (after "/",
        # a vertical tab ends qpdf's name and starts an operator, not the scanner's): the
        # interpreter's reading then falls back to qpdf whole, so the scanner's count is moot.
        return False
    names = [content.operator_name(i.operator) for i in instructions]
    assert count == len(instructions)
    assert [entry[1] for entry in entries] == names
    assert [entry[0] for entry in entries] == list(range(count))
    span_positions = {position for position, _, _ in spans}
    for position, entry in enumerate(entries):
        operands = instructions[position].operands
        if position in span_positions:
            assert entry[2] is None
            continue
        assert len(entry[2]) == len(operands), (entry, operands)
        for plain, qpdf in zip(entry[2], operands, strict=True):
            assert _same_value(plain, qpdf), (entry, operands)
    for position, start, end in spans:
        (alone,), problems = _qpdf(data[start:end])
        assert not problems
        assert content.operator_name(alone.operator) == names[position]
        assert _unparsed(alone.operands) == _unparsed(instructions[position].operands)
    return True


def _corpus_streams(path, password):
    """Decoded page contents (joined as the interpreter joins them) and form streams."""
    with pikepdf.open(path, password=password or "") as pdf:
        seen: set[tuple[int, int]] = set()

        def forms(resources, depth):
            xobjects = get_entry(resources, "/XObject")
            if not isinstance(xobjects, pikepdf.Dictionary) or depth > 12:
                return
            for _, xobject in xobjects.items():
                if not isinstance(xobject, pikepdf.Stream) or xobject.objgen in seen:
                    continue
                seen.add(xobject.objgen)
                if xobject.get("/Subtype") == "/Form":
                    yield decode_stream(xobject, 64 << 20).data
                    yield from forms(xobject.get("/Resources", resources), depth + 1)

        for page in pdf.pages:
            contents = page.obj.get("/Contents")
            streams = [contents] if isinstance(contents, pikepdf.Stream) else list(contents or [])
            chunks = [
                decode_stream(s, 64 << 20).data for s in streams if isinstance(s, pikepdf.Stream)
            ]
            yield b"\n".join(chunks)
            yield from forms(page.obj.get("/Resources"), 0)


CORPUS = corpus_files()


@pytest.mark.skipif(not CORPUS, reason="needs ../shared/corpus")
def test_scanner_agrees_with_qpdf_on_every_corpus_page_and_form_stream():
    read = handed_back = 0
    for item in CORPUS:
        try:
            streams = list(_corpus_streams(item.path, item.password))
        except pikepdf.PdfError:
            continue
        for data in streams:
            if check_stream(data):
                read += 1
            else:
                handed_back += 1
    # The scanner is worth having only if it reads nearly every real stream itself.
    assert read > 10 * handed_back, (read, handed_back)


# -- fuzzing --------------------------------------------------------------------------------

_FRAGMENTS = [
    *[op.encode() for op in content._PDF_OPERATORS],
    b"BI",
    b"ID",
    b"EI",
    b"true",
    b"false",
    b"null",
    b"foo",
    b"1.2.3",
    b".",
    b"-",
    b"+",
    b"0",
    b"-0",
    b"+5",
    b"12",
    b"-3.25",
    b".5",
    b"5.",
    b"-.5",
    b"00012",
    b"1e5",
    b"123456789012345",
    b"1234567890123456789",
    b"12345678901234567890123",
    b"0.000000000000000000000000001",
    b"3.14159265358979323846264338327950288419716939937510",
    b"(a)",
    b"(a(b)c)",
    b"(\\(x)",
    b"(\\101\\7\\777\\1234)",
    b"(\\n\\r\\t\\b\\f\\\\)",
    b"(\\q)",
    b"(a\\\nb)",
    b"(a\\\r\nb)",
    b"(a\\\rb)",
    b"(a\rb\r\nc)",
    b"(\x80\xff)",
    b"(",
    b")",
    b"(a",
    b"<>",
    b"<41>",
    b"<4 1 4>",
    b"<414>",
    b"<4x>",
    b"<",
    b">",
    b"<<",
    b">>",
    b"<</MCID 3>>",
    b"<</MCID 3 /ActualText (x)>>",
    b"<</E <41> /MCID -2>>",
    b"<</MCID 1 /MCID 2>>",
    b"<</MCID>>",
    b"<</MCID null>>",
    b"<</P /Q>>",
    b"<<>>",
    b"/P0",
    b"<< /A [1 (x)] /B << /C /D >> >>",
    b"[",
    b"]",
    b"[(a) 1 -2.5 <42>]",
    b"[[1]]",
    b"[/N]",
    b"{",
    b"}",
    b"/F1",
    b"/",
    b"/A#20B",
    b"/\xe9",
    b"/a.b",
    b"%comment\n",
    b"%",
    b"\\",
    b" ",
    b"\n",
    b"\r",
    b"\r\n",
    b"\t",
    b"\x00",
    b"\x0c",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.sampled_from(_FRAGMENTS), st.sampled_from([b" ", b"\n", b"", b"\r", b"  "])),
        max_size=40,
    )
)
def test_fuzz_token_soup_agrees_or_falls_back(parts):
    check_stream(b"".join(fragment + gap for fragment, gap in parts))


_SEED = (
    b"q 1 0 0 1 72 720 cm BT /F1 12 Tf 14.4 TL 0 Tc 0 Tw 100 Tz 0 Ts 0 Tr 1 0 0 1 0 0 Tm"
    b" (Hello \\(world\\)) Tj T* [(A) -120 (W) 30.5 <0041>] TJ 0 -14 Td (x) ' 1 2 (y) \""
    b" /P <</MCID 0>> BDC (tagged) Tj EMC /Span BMC EMC ET /Fm1 Do Q 0 0 m 10 10 l S"
    b" 1 0 0 RG 0.5 g 0 0 10 10 re f* % comment\n/GS1 gs [1 2] 0 d"
    b" /Span <</ActualText <FEFF0066> /MCID 7 /Lang (en)>> BDC EMC /Figure /MC1 BDC EMC"
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, len(_SEED)),
            st.sampled_from(["insert", "delete", "replace"]),
            st.binary(min_size=1, max_size=3),
        ),
        min_size=1,
        max_size=6,
    )
)
@example([(168, "insert", b"\x0b")])  # a vertical tab after a dictionary's "/": qpdf refuses
@example([(163, "insert", b"\x0b")])  # a vertical tab after "/": qpdf reads "/" and an operator
def test_fuzz_mutated_stream_agrees_or_falls_back(mutations):
    data = bytearray(_SEED)
    for position, kind, payload in mutations:
        position = min(position, len(data))
        if kind == "insert":
            data[position:position] = payload
        elif kind == "delete":
            del data[position : position + len(payload)]
        else:
            data[position : position + len(payload)] = payload
    check_stream(bytes(data))


def test_seed_stream_is_read_by_the_scanner():
    assert check_stream(_SEED)


@pytest.mark.parametrize(
    "data",
    [
        b"BI /W 1 /H 1 /CS /G /BPC 8 ID \x00 EI Q",  # inline image: qpdf's business
        b"1 2 foo",  # unknown operator
        b"q Tx Q",  # unknown words as short as operators (looked up by their packed bytes)
        b"q BDX Q",
        b"q J' Q",
        b"1.2.3 Tc",  # a word qpdf reads as an operator
        b"] Tj",  # unbalanced delimiter
        b"<4x> Tj",  # malformed hex string
        b"(abc",  # unterminated string
        b"[ (a) Tj ]",  # operator inside an array
    ],
)
def test_scanner_hands_unusual_streams_back_to_qpdf(data):
    assert scanner.scan(data, content._operator_table(ALL_WANTED), 100) is None


def test_operands_after_the_last_operator_are_dropped_with_qpdfs_warning():
    entries, spans, count, cut = scanner.scan(
        b"BT ET 1 2", content._operator_table(ALL_WANTED), 100
    )
    assert ([entry[1] for entry in entries], spans, count, cut) == (["BT", "ET"], [], 2, None)
    assert check_stream(b"BT ET 1 2")
    parsed = content.read_operators(
        PDF, [pikepdf.Stream(PDF, b"BT ET 1 2")], "page", 1000, ALL_WANTED, 100
    )
    assert parsed.warnings == ["page: Unexpected end of stream"]


def test_every_operator_of_annex_a_is_read_by_its_word():
    operators = list(content._PDF_OPERATORS)
    data = b" ".join(name.encode("ascii") for name in operators)
    entries, _, count, _ = scanner.scan(data, content._operator_table(ALL_WANTED), 1000)
    assert count == len(operators)
    assert [name for _, name, _ in entries] == operators


def test_operands_qpdf_reads_otherwise_are_left_to_qpdf():
    data = b"12345678901234567890 Tc /F#201 12 Tf /P <</A [1]>> BDC [(a) [1]] TJ true Tw"
    entries, spans, count, _ = scanner.scan(data, content._operator_table(ALL_WANTED), 100)
    assert count == 5
    assert [position for position, _, _ in spans] == [0, 1, 2, 3, 4]
    assert check_stream(data)


def test_plain_property_lists_are_read_by_the_scanner():
    data = (
        b"/P <</MCID 3 /Lang (en) /ActualText <FEFF0041>>> BDC EMC"
        b" /Span /MC0 BDC EMC /Artifact <<>> BDC EMC /X <</Type /Pagination>> BDC EMC"
    )
    entries, spans, count, _ = scanner.scan(data, content._operator_table(ALL_WANTED), 100)
    assert not spans
    assert [entry[2] for entry in entries if entry[1] == "BDC"] == [
        ("/P", {"/MCID": 3, "/Lang": b"en", "/ActualText": b"\xfe\xff\x00A"}),
        ("/Span", "/MC0"),
        ("/Artifact", {}),
        ("/X", {"/Type": "/Pagination"}),
    ]
    assert check_stream(data)


@pytest.mark.parametrize(
    "properties",
    [
        b"<</MCID 1 /MCID 2>>",  # a key twice: qpdf keeps the last
        b"<</MCID>>",  # a key without its value
        b"<</MCID null>>",  # qpdf drops null entries
        b"<</MCID true>>",
        b"<</MCID 1.0>>",  # a real: read by qpdf, as int() of its Decimal
        b"<</MCID 12345678901234567890>>",  # past 64 bits: qpdf's null
        b"<<3 /X>>",  # a key that is not a name: qpdf makes one up
        b"<</A#20B 1>>",  # a key with a # escape
        b"<</A /B#20C>>",
        b"<</A [1]>>",  # nested array
        b"<</A <</B 1>>>>",  # nested dictionary
    ],
)
def test_property_lists_qpdf_reads_otherwise_are_left_to_qpdf(properties):
    data = b"/P " + properties + b" BDC EMC"
    entries, spans, count, _ = scanner.scan(data, content._operator_table(ALL_WANTED), 100)
    assert [position for position, _, _ in spans] == [0]
    check_stream(data)


def test_scanned_operators_are_left_out_of_the_garbage_collector():
    data = b"BT /F1 12 Tf [(a) -20 <41>] TJ /P <</MCID 1 /Lang (en)>> BDC EMC 1 0 0 1 5 5 Tm ET"
    entries, spans, _, _ = scanner.scan(data, content._operator_table(ALL_WANTED), 100)
    assert not spans
    containers = [*entries, *(entry[2] for entry in entries)]
    containers += [value for entry in entries for value in entry[2] if not isinstance(value, str)]
    assert not any(gc.is_tracked(container) for container in containers)


def test_scan_stops_after_the_budget_plus_one_operator():
    entries, spans, count, cut = scanner.scan(
        b"q " * 1000, content._operator_table(frozenset({"q"})), 10
    )
    assert (count, cut, len(entries)) == (11, True, 11)
