"""The whole corpus dump: every page of every corpus file, as regenerate.page_record holds it
plus the decision log's JSON text as `--mode explain` writes it, one compressed file a corpus
file. Two dumps compare file by file, page by page; a change that must not alter output leaves
them identical.

    python tests/reference/dump_corpus.py dump OUT [--only NAME ...] [--max-pages N]
    python tests/reference/dump_corpus.py compare BEFORE AFTER [--ignore-json-text] [--common-pages]

Run `dump` with the python of the engine to dump (it imports whatever `glyphscope` that python
has). `compare` prints one line a differing page, naming the first differing value, and exits 1
when any page differs; `--ignore-json-text` leaves out the explain text (for a change of float
spelling that keeps every value).
"""

from __future__ import annotations

import argparse
import json
import lzma
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.corpus import corpus_files  # noqa: E402
from tests.reference.regenerate import _error, page_record  # noqa: E402
from tests.test_corpus_reference import first_difference  # noqa: E402


def _json_text(page: object) -> str | dict:
    from glyphscope.core.analysis import analyse_page
    from glyphscope.core.rules import Rules

    try:
        return analyse_page(page, Rules()).to_json_text()  # type: ignore[no-any-return]
    except Exception as error:  # noqa: BLE001 - a failure is output too
        return _error(error)


def dump_file(path: Path, password: str | None, max_pages: int | None = None) -> dict:
    import glyphscope

    try:
        document = glyphscope.open(path, password=password)
    except Exception as error:  # noqa: BLE001
        return {"document_error": _error(error)}
    with document:
        pages = {}
        for number, page in enumerate(document.pages[:max_pages], start=1):
            record = page_record(page)
            record["json_text"] = _json_text(page)
            pages[str(number)] = record
        return {"pages": pages}


def dump(out: Path, only: list[str], max_pages: int | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for corpus_file in corpus_files():
        if only and not any(part in corpus_file.name for part in only):
            continue
        record = dump_file(corpus_file.path, corpus_file.password, max_pages)
        data = json.dumps(record, ensure_ascii=False).encode()
        (out / f"{corpus_file.name}.json.xz").write_bytes(lzma.compress(data, preset=1))
        print(f"{len(record.get('pages', {})):4d} pages  {corpus_file.name}", flush=True)


def compare(before: Path, after: Path, ignore_json_text: bool, common_pages: bool = False) -> int:
    differing = 0
    names = sorted(
        {p.name for p in before.glob("*.json.xz")} | {p.name for p in after.glob("*.json.xz")}
    )
    for name in names:
        if not (before / name).exists() or not (after / name).exists():
            print(f"{name}: only in one dump")
            differing += 1
            continue
        left = json.loads(lzma.decompress((before / name).read_bytes()))
        right = json.loads(lzma.decompress((after / name).read_bytes()))
        if common_pages and "pages" in left and "pages" in right:
            shared = left["pages"].keys() & right["pages"].keys()
            for record in (left, right):
                record["pages"] = {n: p for n, p in record["pages"].items() if n in shared}
        if ignore_json_text:
            for record in (left, right):
                for page in record.get("pages", {}).values():
                    page.pop("json_text", None)
        found = first_difference(left, right)
        if found:
            print(f"{name}: {found[:300]}")
            differing += 1
    print(f"{len(names) - differing} of {len(names)} files identical")
    return 1 if differing else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    dump_parser = commands.add_parser("dump")
    dump_parser.add_argument("out", type=Path)
    dump_parser.add_argument("--only", action="append", default=[], help="file-name substring")
    dump_parser.add_argument("--max-pages", type=int, help="the first N pages of each file")
    compare_parser = commands.add_parser("compare")
    compare_parser.add_argument("before", type=Path)
    compare_parser.add_argument("after", type=Path)
    compare_parser.add_argument("--ignore-json-text", action="store_true")
    compare_parser.add_argument(
        "--common-pages", action="store_true", help="compare the pages both dumps hold"
    )
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.out, args.only, args.max_pages)
    else:
        sys.exit(compare(args.before, args.after, args.ignore_json_text, args.common_pages))


if __name__ == "__main__":
    main()
