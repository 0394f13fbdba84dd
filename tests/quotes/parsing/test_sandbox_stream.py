"""A workbook's lines streamed from the sandbox child (``sandbox_lines_warm``,
``sheet_reader.sheet_parse(on_lines=...)``): the batches are the quote's lines in order, and a
child that fails after sending some (a ragged row, a crash, the wall limit) gives the same
error as before and no quote (RELIABILITY.md 5, 11, 13)."""

import re
from pathlib import Path

import openpyxl
import pytest

from apps.quotes.parsing import QuoteParseError, sheet_reader
from apps.quotes.parsing.readers_local import sheet_parse_local
from apps.quotes.parsing.sandbox import (
    SandboxLimitError,
    SandboxLimits,
    sandbox_lines_warm,
    spares_stop,
)
from apps.quotes.parsing.sheet_reader import sheet_parse
from apps.quotes.parsing.table import LINE_BATCH
from tests.quotes.parsing.test_sandbox_warm import warm_script

HEADER = ["Part Number", "Description", "Qty", "Unit Price"]


@pytest.fixture(autouse=True)
def _no_spares_left():
    spares_stop()
    yield
    spares_stop()


def _workbook(rows: list[list[object]], tmp_path: Path) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(HEADER)
    for row in rows:
        sheet.append(row)
    path = tmp_path / "q.xlsx"
    book.save(path)
    return path.read_bytes()


def _lines(count: int) -> list[list[object]]:
    return [[f"PN-{n}", f"Cable {n} m", n % 7 + 1, 10 + n] for n in range(count)]


def test_the_batches_are_the_quotes_lines_in_order(tmp_path):
    data = _workbook(_lines(LINE_BATCH * 2 + 17), tmp_path)
    batches: list[list] = []
    quote = sheet_parse(data, kind="xlsx", file_name="q.xlsx", on_lines=batches.append)
    assert [len(b) for b in batches] == [LINE_BATCH, LINE_BATCH, 17]
    assert [line for batch in batches for line in batch] == quote.lines
    assert quote == sheet_parse_local(data, kind="xlsx", file_name="q.xlsx")


def test_a_failure_after_some_batches_is_the_same_error_and_no_quote(tmp_path):
    rows = _lines(LINE_BATCH * 2 + 5)
    rows[LINE_BATCH * 2 + 2][2] = -3  # a negative quantity, after two batches went out
    data = _workbook(rows, tmp_path)
    with pytest.raises(QuoteParseError) as local:
        sheet_parse_local(data, kind="xlsx", file_name="q.xlsx")
    batches: list[list] = []
    with pytest.raises(QuoteParseError) as streamed:
        sheet_parse(data, kind="xlsx", file_name="q.xlsx", on_lines=batches.append)
    assert len(batches) == 2
    assert str(streamed.value) == str(local.value)
    assert (streamed.value.row, streamed.value.column) == (local.value.row, local.value.column)


_ONE_BATCH = (
    "import sys\nsys.stdin.buffer.read()\n"
    'sys.stdout.write(\'L[{"source_row": 2, "part_number": "A"}]\\n\')\nsys.stdout.flush()\n'
)


@pytest.mark.parametrize(
    ("tail", "message"),
    [
        ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", "was stopped by signal 9"),
        ("raise SystemExit('broken pipe')\n", "failed (broken pipe)"),
        ("import time\ntime.sleep(60)\n", "took longer than 2 s"),
    ],
)
def test_a_child_that_dies_mid_stream_is_a_refusal(tmp_path, monkeypatch, tail, message):
    from apps.quotes.parsing import sandbox

    monkeypatch.setattr(sandbox, "WARM_LIMITS", SandboxLimits(wall_seconds=2))
    child = warm_script(tmp_path, _ONE_BATCH + tail)
    monkeypatch.setattr(sheet_reader, "WORKER", child)
    for _ in range(2):  # started on the spot, then the spare
        batches: list[list] = []
        said = re.escape(f"could not be read safely: the reader {message}")
        with pytest.raises(QuoteParseError, match=said):
            sheet_parse(b"x", kind="ods", file_name="q.ods", on_lines=batches.append)
        assert [line.part_number for batch in batches for line in batch] == ["A"]


def test_lines_come_as_the_child_writes_them(tmp_path, monkeypatch):
    from apps.quotes.parsing import sandbox

    monkeypatch.setattr(sandbox, "WARM_LIMITS", SandboxLimits(wall_seconds=2))
    child = warm_script(tmp_path, _ONE_BATCH + "import time\ntime.sleep(60)\n")
    lines = sandbox_lines_warm(child, b"")
    assert next(lines).startswith(b"L[")  # before the child ends (it never does)
    with pytest.raises(SandboxLimitError, match="longer than 2 s"):
        next(lines)


def test_an_answer_after_a_bad_batch_is_nothing_usable(tmp_path, monkeypatch):
    body = "import sys\nsys.stdin.buffer.read()\nprint('L[{]')\nprint('{\"quote\": null}')\n"
    monkeypatch.setattr(sheet_reader, "WORKER", warm_script(tmp_path, body))
    with pytest.raises(QuoteParseError, match="reader returned nothing usable"):
        sheet_parse(b"x", kind="ods", file_name="q.ods")
