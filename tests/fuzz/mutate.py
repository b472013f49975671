"""Seeds and mutations for the fuzz campaign: small built PDFs (every font kind, forms,
ToUnicode and /W tables, marked content), the hostile kinds at small sizes, and small corpus
files; mutated at the byte level (flips, cuts, duplicated runs, hostile tokens spliced in)
and at the object level (a number, name or array of some object replaced, a content stream
or CMap decoded and its tokens mutated)."""

from __future__ import annotations

import random
import zlib
from pathlib import Path

import pikepdf

from tests import hostile
from tests.pdfbuilder import PdfBuilder, cid_cmap, tounicode_cmap

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
MAX_CORPUS_SEED = 150_000

# Tokens a hostile file would splice in: extreme numbers, stray delimiters, operators.
TOKENS = [
    b"0",
    b"-1",
    b"2147483647",
    b"-2147483648",
    b"4294967296",
    b"1" + b"0" * 40,
    b"0.000001",
    b"-0",
    b"99999999999999999999.5",
    b"nan",
    b"(",
    b")",
    b"<",
    b">",
    b"<<",
    b">>",
    b"[",
    b"]",
    b"/",
    b"%",
    b"R",
    b"obj",
    b"endobj",
    b"stream",
    b"endstream",
    b"BT",
    b"ET",
    b"Tj",
    b"TJ",
    b"Tf",
    b"Tm",
    b"cm",
    b"q",
    b"Q",
    b"Do",
    b"BDC",
    b"EMC",
    b"BI",
    b"ID",
    b"EI",
    b"usecmap",
    b"beginbfrange",
    b"endbfrange",
    b"begincodespacerange",
    b"<FFFFFFFF>",
    b"<00>",
    b"/Predictor 12 /Columns 100000",
    b"/Filter /LZWDecode",
    b"/Filter /FlateDecode",
    b"/Length 0",
    b"/W [0 [1000]]",
    b"/MediaBox [0 0 1e9 1e9]",
    # Round 3 (issue 31): ToUnicode destinations UAX #9 or text has no place for, an empty
    # inline image, marked content, integers past 64 bits in a dictionary.
    b"<2066>",
    b"<0378>",
    b"<FFFF>",
    b"<D800>",
    b"BI EI",
    b"/Span <</ActualText (x)>> BDC",
    b"/P BMC",
    b"/UserUnit 1234567890123456789012345678901",
    b"/Rotate 1" + b"0" * 300,
]
CONTENT_OPERATORS = [
    b"BT",
    b"ET",
    b"Tj",
    b"TJ",
    b"'",
    b'"',
    b"Tf",
    b"Td",
    b"TD",
    b"Tm",
    b"T*",
    b"Tc",
    b"Tw",
    b"Tz",
    b"TL",
    b"Ts",
    b"Tr",
    b"q",
    b"Q",
    b"cm",
    b"Do",
    b"BDC",
    b"BMC",
    b"EMC",
]


def built_seeds() -> list[bytes]:
    """Small PDFs that reach every part of the engine."""
    seeds = []
    b = PdfBuilder()
    helvetica = b.standard_font("Helvetica")
    form = b.form_xobject(b"BT /F1 9 Tf 10 10 Td (form text) Tj ET", fonts={"F1": helvetica})
    b.add_page(
        b"BT /F1 12 Tf 72 700 Td (Hello world) Tj 0 -14 Td [(Kern)-250(ing)] TJ ET "
        b"q 2 0 0 2 0 0 cm /Fm1 Do Q /P <</MCID 0>> BDC BT /F1 10 Tf 72 600 Td (tag) Tj ET EMC",
        fonts={"F1": helvetica},
        xobjects={"Fm1": form},
    )
    seeds.append(b.to_bytes())
    b = PdfBuilder()
    cmap = tounicode_cmap({0x41: "A", 0x42: "fi"}, code_bytes=2, bfranges=[(0x50, 0x5F, "P")])
    encoding = cid_cmap({0x41: 65}, cidranges=[(0x50, 0x60, 80)])
    font = b.type0_font(encoding=encoding, to_unicode=cmap, w=[65, [500, 600], 80, 96, 700])
    vertical = b.type0_font(encoding="Identity-V", w2=[1, [-1000, 500, 880]])
    b.add_page(
        b"BT /F1 12 Tf 72 700 Td <00410042005000510052> Tj ET "
        b"BT /F2 12 Tf 300 700 Td <0001000200030004> Tj ET",
        fonts={"F1": font, "F2": vertical},
    )
    seeds.append(b.to_bytes())
    b = PdfBuilder()
    truetype = b.truetype_font(to_unicode=tounicode_cmap({0x41: "Z"}))
    type3 = b.type3_font(
        {"a": b"500 0 d0", "b": b"600 0 d0"},
        differences=[65, "a", "b"],
        widths=[500, 600],
        first_char=65,
    )
    b.add_page(
        b"BT /F1 12 Tf 72 700 Td (ABC abc) Tj /F2 12 Tf 72 650 Td (AB) Tj ET",
        fonts={"F1": truetype, "F2": type3},
        crop_box=(36, 36, 500, 720),
    )
    seeds.append(b.to_bytes())
    seeds.append(hostile.long_destinations())
    seeds.append(hostile.flate_predictor_bomb(200_000))
    seeds.append(hostile.lzw_bomb(cycles=1))
    seeds.append(hostile.tounicode_bomb(200_000))
    seeds.append(hostile.huge_text_matrix())
    seeds.append(hostile.media_box_1e9())
    seeds.append(hostile.rtl_then_lri())
    seeds.append(hostile.empty_inline_image())
    seeds.append(hostile.nested_actual_text(50))
    seeds.append(hostile.user_unit_31_digits())
    return seeds


def corpus_seeds(limit: int = 60) -> list[bytes]:
    """Small corpus files (when ../shared/corpus is present), smallest first."""
    if not CORPUS.is_dir():
        return []
    files = sorted(
        (path for path in CORPUS.glob("*.pdf") if path.stat().st_size <= MAX_CORPUS_SEED),
        key=lambda path: path.stat().st_size,
    )
    return [path.read_bytes() for path in files[:limit]]


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """One to eight byte-level edits."""
    buffer = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not buffer:
            buffer += rng.choice(TOKENS)
        position = rng.randrange(len(buffer))
        action = rng.randrange(6)
        if action == 0:
            buffer[position] = rng.randrange(256)
        elif action == 1:
            del buffer[position : position + rng.randint(1, 64)]
        elif action == 2:
            buffer[position:position] = b" " + rng.choice(TOKENS) + b" "
        elif action == 3:
            run = buffer[position : position + rng.randint(1, 256)]
            buffer[position:position] = run * rng.randint(2, 16)
        elif action == 4:
            del buffer[position:]
        else:
            digits = [
                i
                for i in range(position, min(len(buffer), position + 400))
                if 48 <= buffer[i] <= 57
            ]
            if digits:
                buffer[rng.choice(digits)] = rng.choice(b"0123456789")
    return bytes(buffer)


def mutate_objects(data: bytes, rng: random.Random) -> bytes:
    """Edit some objects through pikepdf and save; the input when it cannot be opened."""
    try:
        pdf = pikepdf.open(__import__("io").BytesIO(data))
    except Exception:
        return mutate_bytes(data, rng)
    with pdf:
        objects = [
            obj for obj in pdf.objects if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream))
        ]
        for _ in range(rng.randint(1, 4)):
            if not objects:
                break
            target = rng.choice(objects)
            if isinstance(target, pikepdf.Stream) and rng.random() < 0.5:
                _mutate_stream(target, rng)
            else:
                _mutate_dictionary(target, rng)
        out = __import__("io").BytesIO()
        try:
            pdf.save(out, object_stream_mode=pikepdf.ObjectStreamMode.disable)
        except Exception:
            return mutate_bytes(data, rng)
    return out.getvalue()


_VALUES = [
    0,
    -1,
    1,
    2147483647,
    -2147483648,
    10**12,
    0.0001,
    -1e-5,
    3.5,
    pikepdf.Name("/Identity-H"),
    pikepdf.Name("/Foo"),
    pikepdf.Name("/FlateDecode"),
    pikepdf.String("x"),
    pikepdf.Array([]),
    pikepdf.Array([0, 0, 1e9, 1e9]),
    pikepdf.Array([0, pikepdf.Array([1000, 2000]), 5, 2, 700]),
    pikepdf.Dictionary(),
]


def _mutate_dictionary(target: pikepdf.Object, rng: random.Random) -> None:
    keys = list(target.keys())
    if keys and rng.random() < 0.8:
        key = rng.choice(keys)
        if key in ("/Length",):
            return
        if rng.random() < 0.2:
            del target[key]
        else:
            target[key] = rng.choice(_VALUES)
    else:
        key = rng.choice(
            [
                "/W",
                "/Widths",
                "/FirstChar",
                "/DecodeParms",
                "/Matrix",
                "/CropBox",
                "/Rotate",
                "/DW",
                "/ToUnicode",
            ]
        )
        target[key] = rng.choice(_VALUES)


def _mutate_stream(stream: pikepdf.Stream, rng: random.Random) -> None:
    try:
        data = stream.read_bytes()
    except Exception:
        return
    if len(data) > 1 << 20:
        return
    tokens = data.split()
    for _ in range(rng.randint(1, 6)):
        if not tokens:
            tokens.append(rng.choice(CONTENT_OPERATORS))
        position = rng.randrange(len(tokens))
        action = rng.randrange(4)
        if action == 0:
            tokens[position] = rng.choice(TOKENS + CONTENT_OPERATORS)
        elif action == 1:
            del tokens[position]
        elif action == 2:
            tokens[position:position] = tokens[
                position : position + rng.randint(1, 20)
            ] * rng.randint(2, 50)
        else:
            tokens.insert(position, str(rng.choice([1e30, -1e30, 1e-30, 65535, 0])).encode())
    body = b" ".join(tokens)
    if rng.random() < 0.5:
        stream.write(zlib.compress(body), filter=pikepdf.Name.FlateDecode)
    else:
        stream.write(body)


def mutate(data: bytes, rng: random.Random) -> bytes:
    return mutate_objects(data, rng) if rng.random() < 0.5 else mutate_bytes(data, rng)
