"""Workbooks people really send: Excel 97-2003 (.xls), Excel binary (.xlsb) and LibreOffice
(.ods) are read through calamine like .xlsx, and give the same review as the CSV they were saved
from. The .xls and .ods are written by make_formats.py, the .xlsb by make_xlsb.mjs (SheetJS)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.parsing import parse_upload
from apps.review.engine.schemas import Facility, Workload
from apps.review.pipeline import review_of_upload
from tests.conftest import EXAMPLES, FIXTURES

FORMATS = FIXTURES / "formats"
CASES = [
    (folder, ext)
    for folder in ("work-van-for-rag", "dell-xe9680-configurator-per-system")
    for ext in ("xls", "xlsb", "ods")
]


def _review(path: Path, name: str, folder: Path, catalog: CatalogSnapshot) -> dict:
    report = review_of_upload(
        data=path.read_bytes(),
        filename=name,
        workload=Workload.model_validate(json.loads((folder / "workload.json").read_text())),
        facility=Facility.model_validate(json.loads((folder / "facility.json").read_text())),
        catalog=catalog,
    )
    return report.model_dump(mode="json")


@pytest.mark.parametrize(("folder", "ext"), CASES)
def test_a_workbook_reads_like_its_csv(folder: str, ext: str) -> None:
    csv = parse_upload((EXAMPLES / folder / "quote.csv").read_bytes(), "quote.csv")
    book = parse_upload((FORMATS / f"{folder}.{ext}").read_bytes(), f"quote.{ext}")
    assert (book.detected_type, book.sheet) == (ext, "Quote")
    keep = {"source_row", "raw_cells"}  # a workbook row counts from the sheet, cells are typed
    assert [line.model_dump(exclude=keep) for line in book.lines] == [
        line.model_dump(exclude=keep) for line in csv.lines
    ]
    assert (book.quote_number, book.stated_total) == (csv.quote_number, csv.stated_total)


@pytest.mark.parametrize(("folder", "ext"), CASES)
def test_a_workbook_gives_the_review_of_its_csv(
    folder: str, ext: str, catalog: CatalogSnapshot
) -> None:
    example = EXAMPLES / folder
    from_csv = _review(example / "quote.csv", "quote.csv", example, catalog)
    from_book = _review(FORMATS / f"{folder}.{ext}", f"quote.{ext}", example, catalog)
    assert (from_csv["quote"].pop("file"), from_book["quote"].pop("file")) == (
        "quote.csv",
        f"quote.{ext}",
    )
    for line in (*from_csv["quote"]["lines"], *from_book["quote"]["lines"]):
        line.pop("source_row")
    assert from_book == from_csv


def test_an_xlsx_saved_with_an_xls_name_is_read() -> None:
    data = (EXAMPLES / "lenovo-sr675v3-l40s-70b-finetune-xlsx" / "quote.xlsx").read_bytes()
    assert parse_upload(data, "quote.xls").detected_type == "xlsx"
