"""PDF quotes: pdfplumber in a limited child process (RELIABILITY 13)."""

from __future__ import annotations

import json
import time
from decimal import Decimal
from pathlib import Path

import pytest
from fpdf import FPDF

from apps.quotes.parsing import QuoteParseError, parse_upload
from apps.quotes.parsing.pdf_reader import pdf_parse
from apps.quotes.parsing.sandbox import SandboxLimitError, SandboxLimits, sandbox_run


def quote_pdf(pages: int = 1, lines_per_page: int = 3) -> bytes:
    """A generated quote whose ruled table runs over ``pages`` pages, header repeated."""
    pdf = FPDF()
    pdf.set_font("helvetica", size=10)
    number = 0
    for page in range(pages):
        pdf.add_page()
        if page == 0:
            pdf.cell(0, 6, "Quote #: Q-42", new_x="LMARGIN", new_y="NEXT")
        with pdf.table(col_widths=(30, 80, 15, 30, 30)) as table:
            header = table.row()
            for text in ("Part Number", "Description", "Qty", "Unit Price", "Extended Price"):
                header.cell(text)
            for _ in range(lines_per_page):
                number += 1
                row = table.row()
                for text in (f"P-{number}", f"Widget {number}", "2", "1,000.50", "2,001.00"):
                    row.cell(text)
    return bytes(pdf.output())


def test_generated_pdf_table_is_read_with_page_numbers() -> None:
    quote = parse_upload(quote_pdf(pages=2, lines_per_page=3), "quote.pdf")
    assert quote.detected_type == "pdf"
    assert quote.quote_number == "Q-42"
    assert [line.part_number for line in quote.lines] == [f"P-{n}" for n in range(1, 7)]
    # The header printed again on page 2 is skipped, not read as a line.
    assert [line.page for line in quote.lines] == [1, 1, 1, 2, 2, 2]
    assert quote.lines[3].source_row == 2002  # page 2, row 2 (row 1 is the repeated header)
    # 2 × 1,000.50 = 2,001.00
    assert (quote.lines[0].quantity, quote.lines[0].unit_price, quote.lines[0].extended_price) == (
        2,
        Decimal("1000.50"),
        Decimal("2001.00"),
    )


def test_pdf_without_text_needs_manual_entry() -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(10, 10, 50, 50)
    with pytest.raises(QuoteParseError, match="no text") as caught:
        parse_upload(bytes(pdf.output()), "scan.pdf")
    assert caught.value.needs_manual is True


def test_pdf_text_without_a_table_needs_manual_entry() -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=10)
    pdf.cell(0, 6, "Dear customer, please find our offer attached.")
    with pytest.raises(QuoteParseError, match="no header row found") as caught:
        parse_upload(bytes(pdf.output()), "letter.pdf")
    assert caught.value.needs_manual is True


def test_pdf_wall_clock_limit_marks_needs_manual() -> None:
    # 50 ms is not enough to start Python and import pdfplumber: the child is killed.
    with pytest.raises(QuoteParseError, match=r"longer than 0\.05 s") as caught:
        pdf_parse(quote_pdf(), file_name="q.pdf", limits=SandboxLimits(wall_seconds=0.05))
    assert caught.value.needs_manual is True


def script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "child.py"
    path.write_text(
        "import resource, sys\n"
        "memory, cpu = int(sys.argv[1]), int(sys.argv[2])\n"
        "resource.setrlimit(resource.RLIMIT_AS, (memory, memory))\n"
        "resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))\n" + body
    )
    return path


def test_sandbox_kills_a_child_that_never_ends(tmp_path: Path) -> None:
    started = time.perf_counter()
    with pytest.raises(SandboxLimitError, match="longer than 1 s"):
        sandbox_run(
            script(tmp_path, "import time\ntime.sleep(60)\n"),
            b"",
            limits=SandboxLimits(wall_seconds=1),
        )
    assert time.perf_counter() - started < 10


def test_sandbox_cpu_limit_stops_a_busy_loop(tmp_path: Path) -> None:
    limits = SandboxLimits(cpu_seconds=1, wall_seconds=20)
    with pytest.raises(SandboxLimitError, match="stopped by signal"):
        sandbox_run(script(tmp_path, "while True:\n    pass\n"), b"", limits=limits)


def test_sandbox_memory_limit_stops_a_greedy_child(tmp_path: Path) -> None:
    limits = SandboxLimits(memory_bytes=256 * 1024 * 1024)
    with pytest.raises(SandboxLimitError, match="ran out of memory"):
        sandbox_run(script(tmp_path, "x = bytearray(1024 ** 3)\n"), b"", limits=limits)


def test_sandbox_child_gets_stdin_and_no_secrets(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://secret@db/prod")
    body = (
        "import json, os\nprint(json.dumps({'env': dict(os.environ), 'got': sys.stdin.read()}))\n"
    )
    out = json.loads(sandbox_run(script(tmp_path, body), b"hello"))
    assert out["got"] == "hello"
    assert "DATABASE_URL" not in out["env"]


def test_pdf_table_without_rules_is_read_by_text_alignment() -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=10)
    rows = [
        ("Part Number", "Description", "Qty", "Unit Price", "Amount"),
        ("P-1", "Widget one", "2", "1,000.50", "2,001.00"),
        ("P-2", "Widget two", "1", "10.00", "10.00"),
    ]
    for row in rows:
        for width, text in zip((30, 70, 15, 30, 30), row, strict=True):
            pdf.cell(width, 6, text)
        pdf.ln(6)
    quote = parse_upload(bytes(pdf.output()), "unruled.pdf")
    assert [
        (line.part_number, line.quantity, line.unit_price, line.extended_price)
        for line in quote.lines
    ] == [
        ("P-1", 2, Decimal("1000.50"), Decimal("2001.00")),  # 2 × 1,000.50
        ("P-2", 1, Decimal("10.00"), Decimal("10.00")),
    ]
