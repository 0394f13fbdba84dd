"""CSV and XLSX quotes, read in the sandbox child (``sheet_worker.py``), with the PDF reader's
limits: 512 MiB of address space, 30 s of CPU, 30 s of wall time.

A spreadsheet the child cannot read within them is refused (REJECTED, not NEEDS_MANUAL: a
spreadsheet has cells to fix, a PDF may only need keying in). The web process only ever sees
the JSON of a ``ParsedQuote`` or of an error: the lines come first, in batches as the child
reads them (``on_lines`` sees each, to match them meanwhile), then the rest of the quote.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter

from apps.quotes.parsing.errors import QuoteParseError, SheetCandidate, SheetChoiceNeeded
from apps.quotes.parsing.extent import sheet_extent_check
from apps.quotes.parsing.sandbox import SandboxLimitError, SandboxLimits, sandbox_lines_warm
from apps.quotes.parsing.schemas import ParsedLine, ParsedQuote

WORKER = Path(__file__).with_name("sheet_worker.py")


class _WorkerAnswer(BaseModel):
    """What sheet_worker.py prints last: {"quote": <ParsedQuote>} (without its lines, which
    came before) or {"error": {...}}."""

    quote: ParsedQuote | None = None
    error: dict[str, Any] | None = None


_LINES = TypeAdapter(list[ParsedLine])

_LABELS = {"csv": "CSV", "xlsx": "XLSX", "xls": "XLS", "xlsb": "XLSB", "ods": "ODS"}


def sheet_parse(
    data: bytes,
    *,
    kind: str,
    file_name: str,
    delimiter: str | None = None,
    limits: SandboxLimits | None = None,
    sheet: str | None = None,
    on_lines: Callable[[list[ParsedLine]], None] | None = None,
) -> ParsedQuote:
    """Parse a CSV or workbook quote in the sandbox child (``sheet``: the workbook sheet the
    person chose). Raises only ``QuoteParseError`` (``SheetChoiceNeeded`` among them).

    ``on_lines`` gets each batch of lines while the child reads on; when the read then fails,
    the batches it got were for nothing (the quote returned holds the same lines, in order)."""
    label = _LABELS.get(kind, "spreadsheet")
    lines: list[ParsedLine] = []
    output = b""
    broken = False
    args: tuple[str, ...] = (kind, file_name, delimiter or "", sheet or "")
    meanwhile: Callable[[], None] | None = None
    if kind == "xlsx":
        # The sheets' extent is checked here while the child opens the workbook (bench/README.md,
        # parsing): a sheet past the limits stops the child before any of its lines is used.
        args, meanwhile = (
            (*args, "extent checked"),
            partial(sheet_extent_check, data, file_name=file_name),
        )
    try:
        for written in sandbox_lines_warm(
            WORKER, data, limits=limits, args=args, meanwhile=meanwhile
        ):
            record = written.rstrip(b"\n")
            if not record.startswith(b"L") or output or broken:
                # The answer, once and last (a line after it: not a worker's answer).
                broken = broken or (bool(output) and bool(record))
                output = output or record
                continue
            try:
                # Straight from the child's JSON to the models: no dict of every cell in
                # between (bench/README.md, ingestion).
                batch = _LINES.validate_json(record[1:])
            except ValueError:
                broken = True  # still drained: a child that then died says so first
                continue
            lines.extend(batch)
            if on_lines is not None:
                on_lines(batch)
    except SandboxLimitError as exc:
        raise QuoteParseError(
            f"the {label} could not be read safely: the reader {exc}", file=file_name
        ) from None
    try:
        if broken:
            raise ValueError("a batch of lines that is not JSON of lines")
        answer = _WorkerAnswer.model_validate_json(output)
        if answer.quote is not None:
            answer.quote.lines = lines
            return answer.quote
        if answer.error is None:
            raise ValueError("neither a quote nor an error")
        error = answer.error
        message = str(error["message"])
        if "sheets" in error:
            candidates = [
                SheetCandidate(
                    name=str(c["name"]),
                    rows=int(c["rows"]),
                    header=tuple(str(h) for h in c["header"]),
                    first_lines=tuple(str(t) for t in c["first_lines"]),
                )
                for c in error["sheets"]
            ]
    except (ValueError, KeyError, TypeError):
        raise QuoteParseError(
            f"the {label} reader returned nothing usable", file=file_name
        ) from None
    if "sheets" in error:
        raise SheetChoiceNeeded(candidates, file=file_name)
    if message == "MEMORY":
        limit = (limits or SandboxLimits()).memory_bytes // 2**20
        message = f"the {label} could not be read safely: it needs more than {limit} MiB"
    raise QuoteParseError(message, file=file_name, row=error.get("row"), column=error.get("column"))
