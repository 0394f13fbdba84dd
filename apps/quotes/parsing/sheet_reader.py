"""CSV and XLSX quotes, read in the sandbox child (``sheet_worker.py``), with the PDF reader's
limits: 512 MiB of address space, 30 s of CPU, 30 s of wall time.

A spreadsheet the child cannot read within them is refused (REJECTED, not NEEDS_MANUAL: a
spreadsheet has cells to fix, a PDF may only need keying in). The web process only ever sees
the JSON of a ``ParsedQuote`` or of an error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from apps.quotes.parsing.errors import QuoteParseError, SheetCandidate, SheetChoiceNeeded
from apps.quotes.parsing.sandbox import SandboxLimitError, SandboxLimits, sandbox_run_warm
from apps.quotes.parsing.schemas import ParsedQuote

WORKER = Path(__file__).with_name("sheet_worker.py")


class _WorkerAnswer(BaseModel):
    """What sheet_worker.py prints: {"quote": <ParsedQuote>} or {"error": {...}}."""

    quote: ParsedQuote | None = None
    error: dict[str, Any] | None = None


_LABELS = {"csv": "CSV", "xlsx": "XLSX", "xls": "XLS", "xlsb": "XLSB", "ods": "ODS"}


def sheet_parse(
    data: bytes,
    *,
    kind: str,
    file_name: str,
    delimiter: str | None = None,
    limits: SandboxLimits | None = None,
    sheet: str | None = None,
) -> ParsedQuote:
    """Parse a CSV or workbook quote in the sandbox child (``sheet``: the workbook sheet the
    person chose). Raises only ``QuoteParseError`` (``SheetChoiceNeeded`` among them)."""
    label = _LABELS.get(kind, "spreadsheet")
    try:
        output = sandbox_run_warm(
            WORKER, data, limits=limits, args=(kind, file_name, delimiter or "", sheet or "")
        )
    except SandboxLimitError as exc:
        raise QuoteParseError(
            f"the {label} could not be read safely: the reader {exc}", file=file_name
        ) from None
    try:
        # Straight from the child's JSON to the models: no dict of every cell in between (a
        # 10,000-line quote's answer is 3 MB of JSON; bench/README.md, ingestion).
        answer = _WorkerAnswer.model_validate_json(output)
        if answer.quote is not None:
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
