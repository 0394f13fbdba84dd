"""Hostile uploads are refused with a specific message, quickly, and never crash
(RELIABILITY 3, 5, 6, 8, 13)."""

from __future__ import annotations

import time

import pytest

from apps.quotes.parsing import QuoteParseError, parse_upload
from apps.quotes.parsing.detect import type_detect
from tests.fixtures import hostile


@pytest.mark.parametrize(
    ("build", "name", "message"),
    [
        (hostile.xlsx_declared_bomb, "q.xlsx", r"inflate to 51 MiB \(limit 50 MiB\)"),
        (hostile.xlsx_ratio_bomb, "q.xlsx", r"inflates 1,\d{3}:1 \(limit 100:1\)"),
        (hostile.xlsx_billion_laughs, "q.xlsx", "sharedStrings.xml contains an XML DTD"),
        (hostile.xlsx_dtd_in_sheet, "q.xlsx", "sheet1.xml contains an XML DTD"),
    ],
)
def test_zip_and_xml_bombs_are_refused_before_loading(build, name: str, message: str) -> None:
    data = build()
    started = time.perf_counter()
    with pytest.raises(QuoteParseError, match=f"not a valid XLSX: .*{message}"):
        parse_upload(data, name)
    # Refused from the ZIP directory and one bounded pass: well under the 2 s goal.
    assert time.perf_counter() - started < 2
    # type_detect refuses them too, so a caller that stores only accepted files stores none.
    with pytest.raises(QuoteParseError):
        type_detect(data, file_name=name)


@pytest.mark.parametrize("build", [hostile.xlsx_declared_bomb, hostile.xlsx_billion_laughs])
def test_bombs_never_reach_the_workbook_reader(build, monkeypatch) -> None:
    import python_calamine

    def must_not_open(*args, **kwargs):
        raise AssertionError("calamine opened a bomb")

    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_filelike", must_not_open)
    with pytest.raises(QuoteParseError, match=r"zip bomb|XML bomb"):
        parse_upload(build(), "q.xlsx")


def test_bomb_is_small_on_disk() -> None:
    # The point of the fixture: a ~60 KB upload that would inflate to 51 MiB.
    assert len(hostile.xlsx_declared_bomb()) < 100_000


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (hostile.xlsm_bytes, "quote.xlsm", "macro-enabled workbooks (.xlsm) are not accepted"),
        (hostile.xlsm_bytes, "quote.xlsx", "macro-enabled workbooks (.xlsm) are not accepted"),
        # Excel 97-2003 workbooks are read like the others; a damaged one says so.
        (hostile.xls_legacy, "quote.xls", "not a valid XLS: the workbook could not be opened"),
        (hostile.xls_legacy, "quote.xlsx", "not a valid XLS: the workbook could not be opened"),
        (hostile.xlsx_encrypted, "quote.xlsx", "the workbook is password-protected"),
    ],
)
def test_xlsm_xls_and_encrypted_each_get_their_own_message(data, name: str, message: str) -> None:
    with pytest.raises(QuoteParseError) as caught:
        parse_upload(data(), name)
    assert caught.value.message.startswith(message)


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (hostile.HTML_PAGE, "quote.xlsx", "not a valid XLSX: it is an HTML page"),
        (hostile.HTML_PAGE, "quote.pdf", "not a valid PDF: it is an HTML page"),
        (hostile.HTML_PAGE, "quote.csv", "not a valid CSV: it is an HTML page"),
        (hostile.WINDOWS_EXE, "quote.xlsx", "not a valid XLSX: it is a Windows program"),
        (hostile.WINDOWS_EXE, "quote.pdf", "not a valid PDF: it is a Windows program"),
        (hostile.WINDOWS_EXE, "quote.csv", "not a valid CSV: it is a Windows program"),
        (b"Part Number,Qty\nA-1,2\n", "quote.xlsx", "not a valid XLSX: the content is CSV"),
        (b"%PDF-1.7\n", "quote.xlsx", "not a valid XLSX: the content is PDF"),
    ],
)
def test_magic_bytes_decide_not_the_extension(data: bytes, name: str, message: str) -> None:
    with pytest.raises(QuoteParseError) as caught:
        parse_upload(data, name)
    assert caught.value.message.startswith(message)
    assert caught.value.needs_manual is False


def test_a_zip_that_is_not_a_workbook_is_refused() -> None:
    data = hostile.zip_rewrite(hostile.xlsx_bytes(), transform=None)
    docx_like = hostile.zip_rewrite(data, replace={}, add={"word/document.xml": b"<w/>"})
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(docx_like)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            if not info.filename.startswith("xl/"):
                target.writestr(info.filename, source.read(info))
    with pytest.raises(QuoteParseError, match="a ZIP archive that is not an Excel workbook"):
        parse_upload(out.getvalue(), "quote.xlsx")


def test_damaged_zip_is_refused() -> None:
    data = bytearray(hostile.xlsx_bytes())
    data[200:400] = bytes(200)  # zero out compressed bytes of the first members
    with pytest.raises(QuoteParseError, match="not a valid XLSX"):
        parse_upload(bytes(data), "quote.xlsx")


@pytest.mark.parametrize(
    "build",
    [
        hostile.pdf_garbage_after_header,
        hostile.pdf_truncated,
        hostile.pdf_circular_prev,
        hostile.pdf_recursive_xobject,
    ],
)
def test_malformed_pdfs_become_needs_manual(build) -> None:
    with pytest.raises(QuoteParseError) as caught:
        parse_upload(build(), "quote.pdf")
    assert caught.value.needs_manual is True
    assert caught.value.internal is False


def test_flate_bomb_pdf_hits_the_memory_limit_in_the_child() -> None:
    data = hostile.pdf_flate_bomb()
    assert len(data) < 1_000_000  # ≈ 700 KB that inflates to 700 MiB
    started = time.perf_counter()
    with pytest.raises(QuoteParseError, match="memory limit") as caught:
        parse_upload(data, "quote.pdf")
    assert caught.value.needs_manual is True
    assert time.perf_counter() - started < 30


# --- Sparse sheets: the cells' extent is checked before any cell is materialised -----------

FAR_CORNER_MESSAGE = (
    "the sheet claims 16,384 columns × 1,048,576 rows; quotes have at most 100 × 20,000"
)


def test_far_corner_cell_is_refused_with_the_sheets_claimed_size() -> None:
    # Before: python-calamine allocated 16,384 × 1,048,576 cells (~550 GB) and aborted the
    # whole process (SIGABRT, exit 134), in the web process itself.
    data = hostile.xlsx_far_corner()
    assert len(data) < 5_000  # a 4.9 KB file
    started = time.perf_counter()
    with pytest.raises(QuoteParseError) as caught:
        parse_upload(data, "quote.xlsx")
    assert caught.value.message == FAR_CORNER_MESSAGE
    assert caught.value.needs_manual is False  # refused: REJECTED, not NEEDS_MANUAL
    assert time.perf_counter() - started < 10


def test_the_extent_check_runs_before_calamine_opens_the_workbook(monkeypatch) -> None:
    import python_calamine

    from apps.quotes.parsing.readers_local import sheet_parse_local

    def must_not_open(*args, **kwargs):
        raise AssertionError("calamine opened a sheet claiming 16,384 × 1,048,576 cells")

    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_filelike", must_not_open)
    with pytest.raises(QuoteParseError, match="claims 16,384 columns"):
        sheet_parse_local(hostile.xlsx_far_corner(), kind="xlsx", file_name="q.xlsx")


def test_the_web_process_never_opens_a_workbook(monkeypatch) -> None:
    # parse_upload hands XLSX bytes to the sandbox child: calamine is never called here.
    import python_calamine

    def must_not_open(*args, **kwargs):
        raise AssertionError("the parent process opened a workbook")

    monkeypatch.setattr(python_calamine.CalamineWorkbook, "from_filelike", must_not_open)
    assert len(parse_upload(hostile.xlsx_bytes(), "quote.xlsx").lines) == 10


def test_the_web_process_checks_the_extent_while_the_child_reads(tmp_path, monkeypatch) -> None:
    # The parent checks a workbook's extent itself, while the child opens it (the child is
    # told "extent checked" and skips its own check): a child that sends lines of a
    # far-corner sheet (as calamine would, had it the memory) is stopped, none of its lines
    # reach the caller, and the message is the extent's.
    from apps.quotes.parsing import sandbox, sheet_reader
    from apps.quotes.parsing.sheet_reader import sheet_parse
    from tests.quotes.parsing.test_sandbox_warm import warm_script

    child = warm_script(
        tmp_path,
        "import sys\nsys.stdin.buffer.read()\n"
        'sys.stdout.write(\'L[{"source_row": 2, "part_number": "A"}]\\n\')\n',
    )
    monkeypatch.setattr(sheet_reader, "WORKER", child)
    batches: list[list] = []
    try:
        with pytest.raises(QuoteParseError) as caught:
            sheet_parse(
                hostile.xlsx_far_corner(), kind="xlsx", file_name="q.xlsx", on_lines=batches.append
            )
    finally:
        sandbox.spares_stop()
    assert caught.value.message == FAR_CORNER_MESSAGE
    assert batches == []


def test_the_child_is_told_the_extent_is_checked(monkeypatch) -> None:
    from apps.quotes.parsing import sheet_reader

    seen: dict[str, object] = {}

    def lines(script, data, *, limits=None, args=(), meanwhile=None):
        seen.update(args=args, meanwhile=meanwhile)
        return iter(())

    monkeypatch.setattr(sheet_reader, "sandbox_lines_warm", lines)
    with pytest.raises(QuoteParseError):
        sheet_reader.sheet_parse(b"x", kind="xlsx", file_name="q.xlsx")
    assert seen["args"] == ("xlsx", "q.xlsx", "", "", "extent checked")
    assert seen["meanwhile"] is not None
    with pytest.raises(QuoteParseError):
        sheet_reader.sheet_parse(b"x", kind="ods", file_name="q.ods")
    assert seen["args"] == ("ods", "q.ods", "", "") and seen["meanwhile"] is None


@pytest.mark.parametrize(("ref", "claim"), [("CV1000000", "100 columns × 1,000,000 rows")])
def test_a_million_rows_down_is_refused_too(ref: str, claim: str) -> None:
    # Before: accepted after 28.6 s and 3.1 GiB in the web process.
    with pytest.raises(QuoteParseError, match=f"the sheet claims {claim}"):
        parse_upload(hostile.xlsx_far_corner(ref), "quote.xlsx")


def test_a_declared_dimension_alone_is_not_a_refusal() -> None:
    # RELIABILITY 7: <dimension ref="A1:XFD1048576"> over 10 real rows gives 10 lines.
    assert len(parse_upload(hostile.xlsx_huge_dimension(), "quote.xlsx").lines) == 10


def test_a_reader_killed_by_its_limits_is_a_refusal_not_a_crash() -> None:
    from apps.quotes.parsing.sandbox import SandboxLimits
    from apps.quotes.parsing.sheet_reader import sheet_parse

    # 32 MiB of address space: the child cannot even import the reader and dies.
    with pytest.raises(QuoteParseError, match="could not be read safely") as caught:
        sheet_parse(
            hostile.xlsx_bytes(),
            kind="xlsx",
            file_name="quote.xlsx",
            limits=SandboxLimits(memory_bytes=32 * 2**20),
        )
    assert caught.value.needs_manual is False


def test_control_characters_in_cells_are_stripped() -> None:
    # "Wid_x0000_get_x0007_" is Excel's escape for "Wid\x00get\x07": PostgreSQL refuses the NUL.
    quote = parse_upload(hostile.xlsx_nul_cell(), "quote.xlsx")
    assert quote.lines[0].description == "Widget"
    assert all("\x00" not in cell for line in quote.lines for cell in line.raw_cells)


@pytest.mark.parametrize("name", ["quote.pdf", "quote.csv", "quote"])
def test_an_html_page_with_a_pdf_header_in_its_first_kb_is_not_a_pdf(name: str) -> None:
    # Before: b"%PDF-" anywhere in the first KB made it a PDF (and a sandbox child).
    page = b"<!DOCTYPE html>\n<html><body><pre>%PDF-1.4\n1 0 obj</pre></body></html>\n"
    with pytest.raises(QuoteParseError, match="it is an HTML page"):
        parse_upload(page, name)
