"""The spreadsheet reader that runs inside the sandbox child (see ``sandbox.py``).

Run as ``python -I sheet_worker.py MEMORY_BYTES CPU_SECONDS KIND FILE_NAME DELIMITER SHEET
[CHECKED]`` with the file on stdin (an empty DELIMITER or SHEET: none given; CHECKED "extent
checked" when the parent checks a workbook's extent itself), or as ``python -I
sheet_worker.py MEMORY_BYTES CPU_SECONDS`` started ahead of time (``sandbox_run_warm``), the
other arguments then the first line of stdin as a JSON list. It lowers its own limits first
(as ``pdf_worker`` does), imports the reader, then runs the project's pure reader
(``apps.quotes.parsing.readers_local``: CSV, or a workbook through python-calamine) and prints
one record a line: the lines as they are read, a batch of ``table.LINE_BATCH`` a line (``L``
then a JSON list of ``ParsedLine``), then the answer, ``{"quote": <ParsedQuote without its
lines>}`` or ``{"error": {"message": ..., "row": ...}}`` (with ``"sheets": [...]`` when two
sheets look like quotes and the person must choose). The parent matches each batch while this
child reads on, and keeps none of them unless the answer is a quote. A reader
that aborts (calamine's Rust allocator under the address-space limit) kills only this
child; the parent reads that as a refusal.
"""

import sys

# This script's directory must not be on the path: its modules (numbers.py, text.py) would
# shadow the standard library's. Python 3.13's -I (which implies -P) already leaves it off;
# an interpreter that prepends it has it removed here. The project root goes first instead,
# so the child runs the same checkout as the parent (not whichever one an editable install
# of the project points at: sys.path.pop(0) used to drop the standard library's zip instead,
# and the child imported `apps` through that finder).
_HERE = __file__.rsplit("/", 1)[0]
if sys.path and sys.path[0] == _HERE:
    sys.path.pop(0)

import json  # noqa: E402
import resource  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(_HERE).resolve().parents[2]))


def limits_apply(memory_bytes: int, cpu_seconds: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def main() -> None:
    limits_apply(int(sys.argv[1]), int(sys.argv[2]))
    from dataclasses import asdict

    from pydantic import TypeAdapter

    from apps.quotes.parsing.errors import QuoteParseError, SheetChoiceNeeded
    from apps.quotes.parsing.readers_local import sheet_parse_local
    from apps.quotes.parsing.schemas import ParsedLine
    from apps.quotes.parsing.table import lines_stream_to

    batch_json = TypeAdapter(list[ParsedLine])

    def lines_write(batch: list[ParsedLine]) -> None:
        try:
            text = batch_json.dump_json(batch).decode()
        except ValueError:  # a text pydantic cannot write as UTF-8: json.dumps escapes it
            text = json.dumps([line.model_dump(mode="json") for line in batch])
        sys.stdout.write("L" + text + "\n")
        sys.stdout.flush()

    arguments = sys.argv[3:]
    if not arguments:
        # Started ahead of time (sandbox.sandbox_run_warm): the arguments are stdin's first
        # line, a JSON list; end-of-file instead means the parent is gone.
        first = sys.stdin.buffer.readline(64 * 1024)
        if not first:
            return
        arguments = [str(a) for a in json.loads(first)]
    kind, file_name, delimiter = arguments[0], arguments[1], arguments[2] or None
    sheet = arguments[3] if len(arguments) > 3 and arguments[3] else None
    # "extent checked": the parent checks a workbook's extent while this child reads it.
    extent_checked = len(arguments) > 4 and arguments[4] == "extent checked"
    data = sys.stdin.buffer.read()

    try:
        lines_stream_to(lines_write)
        quote = sheet_parse_local(
            data,
            kind=kind,
            file_name=file_name,
            delimiter=delimiter,
            sheet=sheet,
            extent_checked=extent_checked,
        )
        try:
            # pydantic's own JSON, straight from the model: a fifth of the time of a dict of
            # every cell through json.dumps (bench/README.md). The lines went ahead.
            answer = '{"quote":' + quote.model_dump_json(exclude={"lines"}) + "}"
        except ValueError:  # a text pydantic cannot write as UTF-8: json.dumps escapes it
            answer = json.dumps({"quote": quote.model_dump(mode="json", exclude={"lines"})})
        sys.stdout.write(answer + "\n")
        return
    except SheetChoiceNeeded as exc:
        result: dict = {
            "error": {"message": exc.message, "sheets": [asdict(c) for c in exc.candidates]}
        }
    except QuoteParseError as exc:
        result = {
            "error": {
                "message": exc.message,
                "row": exc.row,
                "column": exc.column,
                "internal": exc.internal,
            }
        }
    except MemoryError:
        result = {"error": {"message": "MEMORY"}}
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
