"""The PDF table reader that runs inside the sandbox child (see ``sandbox.py``).

Standalone on purpose: run as ``python -I pdf_worker.py MEMORY_BYTES CPU_SECONDS`` with the
PDF on stdin, it imports nothing from the project, lowers its own limits first, then prints
JSON: ``{"pages": [{"page": 1, "rows": [[cell, ...], ...]}]}`` or ``{"error": "...",
"kind": "invalid" | "empty"}``. Rows are, per page and top to bottom, the text lines above,
between and below the ruled tables (split into cells at wide gaps) and each table's rows.

A page without a ruled table (a quote laid out in aligned columns, no lines drawn) is given as
its text lines only, each cell with its left and right edge and each line with its top and
bottom (``"spans": [[[x0, x1], ...], ...], "lines": [[top, bottom], ...]``), so the reader can
put each cell under the column header it stands below and join a description's wrapped
second line to its row (``pdf_layout.py``).
"""

import json
import resource
import sys
from typing import Any

MAX_PAGES = 200
MAX_ROWS = 25_000
MAX_OUTPUT_CHARS = 32 * 1024 * 1024
GAP_POINTS = 12.0
UNRULED_GAP_POINTS = 3.0


def limits_apply(memory_bytes: int, cpu_seconds: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _line_cells(words: list) -> list:
    """Words on one line → cells, split where the gap is wider than a couple of spaces."""
    return [text for text, _x0, _x1 in _line_spans(words)]


def _line_spans(words: list, gap: float = GAP_POINTS) -> list:
    """Words on one line → (cell, x0, x1), split where the gap is wider than ``gap``."""
    cells: list = []
    current: list = []
    x0 = last_x1 = None
    for word in sorted(words, key=lambda w: w["x0"]):
        if last_x1 is not None and word["x0"] - last_x1 > gap:
            cells.append((" ".join(current), x0, last_x1))
            current = []
        if not current:
            x0 = word["x0"]
        current.append(word["text"])
        last_x1 = word["x1"]
    if current:
        cells.append((" ".join(current), x0, last_x1))
    return cells


def _text_lines(words: list) -> list:
    """Words → lines, top to bottom: a word joins the line whose top is within 3 points."""
    lines: list = []
    for word in sorted(words, key=lambda w: (w["top"], w["x0"])):
        if lines and abs(word["top"] - lines[-1][0]["top"]) <= 3:
            lines[-1].append(word)
        else:
            lines.append([word])
    return lines


def _unruled_page(page) -> dict:
    """A page without ruled tables: its text lines with where each cell and line stands."""
    rows, spans, tops = [], [], []
    for words in _text_lines(page.extract_words(keep_blank_chars=False, use_text_flow=True)):
        # Columns set in type stand closer than a ruled table's cells: a gap of half the
        # type's height (two spaces) separates "... SXM5," from the quantity "4" beside it.
        height = max(w["bottom"] - w["top"] for w in words)
        cells = _line_spans(words, gap=max(UNRULED_GAP_POINTS, height / 2))
        rows.append([text for text, _x0, _x1 in cells])
        spans.append([[round(x0, 1), round(x1, 1)] for _text, x0, x1 in cells])
        tops.append(
            [round(min(w["top"] for w in words), 1), round(max(w["bottom"] for w in words), 1)]
        )
    return {"rows": rows, "spans": spans, "lines": tops}


def _page_rows(page) -> dict:
    tables = page.find_tables()
    if not tables:
        return _unruled_page(page)
    placed = []  # (top, rows)
    boxes = [t.bbox for t in tables]
    for table in tables:
        rows = [[(cell or "").strip() for cell in row] for row in table.extract()]
        placed.append((table.bbox[1], rows))

    def inside(word: dict) -> bool:
        return any(
            x0 - 1 <= word["x0"] and word["x1"] <= x1 + 1 and top - 1 <= word["top"] <= bottom + 1
            for x0, top, x1, bottom in boxes
        )

    lines: dict[float, list[Any]] = {}
    for word in page.extract_words(keep_blank_chars=False, use_text_flow=True):
        if not inside(word):
            lines.setdefault(round(word["top"] / 3), []).append(word)
    for key, words in lines.items():
        placed.append((key * 3, [_line_cells(words)]))
    placed.sort(key=lambda item: item[0])
    return {"rows": [row for _top, rows in placed for row in rows]}


def _root_cause(exc: BaseException) -> BaseException:
    """pdfplumber wraps pdfminer's errors (a MemoryError from a Flate bomb arrives as
    PdfminerException); look through the chain for the real one."""
    seen = set()
    while id(exc) not in seen:
        seen.add(id(exc))
        inner = exc.__cause__ or exc.__context__
        if inner is None and exc.args and isinstance(exc.args[0], BaseException):
            inner = exc.args[0]
        if inner is None:
            break
        exc = inner
    return exc


def main() -> None:
    limits_apply(int(sys.argv[1]), int(sys.argv[2]))
    data = sys.stdin.buffer.read()
    import io

    import pdfplumber
    from pdfminer.pdfparser import PDFSyntaxError
    from pdfminer.psparser import PSException

    result: dict = {"pages": []}
    total_rows = 0
    try:
        with pdfplumber.open(io.BytesIO(data)) as document:
            for number, page in enumerate(document.pages, start=1):
                if number > MAX_PAGES:
                    break
                read = _page_rows(page)
                total_rows += len(read["rows"])
                result["pages"].append({"page": number, **read})
                page.close()
                if total_rows > MAX_ROWS:
                    break
    except (PDFSyntaxError, PSException) as exc:
        result = {"error": f"not a valid PDF ({type(exc).__name__})", "kind": "invalid"}
    except Exception as exc:
        cause = _root_cause(exc)
        if isinstance(cause, MemoryError):
            result = {"error": "the PDF needs more than the memory limit", "kind": "limit"}
        elif isinstance(cause, RecursionError):
            result = {"error": "the PDF nests too deeply", "kind": "limit"}
        else:
            result = {"error": f"not a valid PDF ({type(cause).__name__})", "kind": "invalid"}
    output = json.dumps(result)
    if len(output) > MAX_OUTPUT_CHARS:
        output = json.dumps({"error": "the PDF holds too much text", "kind": "empty"})
    sys.stdout.write(output)


if __name__ == "__main__":
    main()
