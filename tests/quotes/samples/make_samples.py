"""Regenerate the binary samples (XLSX, PDF) next to this file.

``.venv/bin/python tests/quotes/samples/make_samples.py`` — the CSV samples are hand-written;
these are built with openpyxl and fpdf2 so their content is reviewable here. Tests read the
committed files and assert every value, so a regenerated file must parse the same.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import openpyxl
from fpdf import FPDF
from openpyxl.styles import Font

HERE = Path(__file__).resolve().parent


def supermicro_two_sheets() -> None:
    """A cover sheet (no table), then the quote with merged title cells, a merged description
    column, real numbers and a real date cell."""
    workbook = openpyxl.Workbook()
    cover = workbook.active
    cover.title = "Cover"
    cover["A1"] = "Super Micro Computer, Inc."
    cover.merge_cells("A1:F1")
    cover["A1"].font = Font(size=18, bold=True)
    cover["A3"] = "Thank you for choosing Supermicro."
    cover["A4"] = "Prices valid for 30 days. Terms: NET 30."

    sheet = workbook.create_sheet("Quotation")
    sheet["A1"] = "Super Micro Computer, Inc. — Quotation"
    sheet.merge_cells("A1:G1")
    sheet["A2"] = "Quote #"
    sheet["B2"] = "SMC-Q25-05120"
    sheet.merge_cells("B2:C2")
    sheet["A3"] = "Date"
    sheet["B3"] = datetime.date(2025, 5, 12)
    sheet["A4"] = "Currency"
    sheet["B4"] = "USD"
    header = ["Item", "Part No.", "Description", None, "Qty", "Unit Price", "Amount"]
    for column, text in enumerate(header, start=1):
        sheet.cell(row=6, column=column, value=text)
    sheet.merge_cells("C6:D6")
    lines = [
        (1, "SYS-821GE-TNHR", "SuperServer 8U, HGX H200 8-GPU, air cooled", 2, 289000, 578000),
        (2, "P4X-EMR8568Y-SRN6B", "Intel Xeon Platinum 8568Y+ (in system)", 4, 0, 0),
        (3, "MCP-290-00059-0N", "Rail kit", 2, 120.5, 241),
        (4, "SVC-3Y-ONSITE", "3 years on-site service", 2, 14250.75, 28501.5),
    ]
    for offset, (item, part, description, qty, unit, ext) in enumerate(lines):
        row = 7 + offset
        for column, value in zip(
            (1, 2, 3, 5, 6, 7), (item, part, description, qty, unit, ext), strict=True
        ):
            sheet.cell(row=row, column=column, value=value)
        sheet.merge_cells(start_row=row, start_column=3, end_row=row, end_column=4)
        sheet.cell(row=row, column=6).number_format = "#,##0.00"
        sheet.cell(row=row, column=7).number_format = "#,##0.00"
    sheet["E12"] = "Total"
    sheet["G12"] = 606742.5
    workbook.save(HERE / "supermicro_two_sheets.xlsx")


def dell_text_amounts() -> None:
    """A hidden helper sheet first, then a visible quote whose amounts are text ("$1,234.00")
    as some quoting tools export them."""
    workbook = openpyxl.Workbook()
    helper = workbook.active
    helper.title = "Lookup"
    helper.append(["SKU", "Description", "List"])
    helper.append(["000-0000", "ignore me", "1.00"])
    helper.sheet_state = "hidden"
    sheet = workbook.create_sheet("Quote 3000201115")
    sheet.append(["Dell Technologies"])
    sheet.append(["Quote No.: 3000201115.2"])
    sheet.append(["Quote Date: 06/30/2025"])
    sheet.append([])
    sheet.append(["Description", "SKU", "Unit Price", "Quantity", "Subtotal"])
    sheet.append(
        [
            "PowerEdge XE7745, 8x RTX PRO 6000 Server Edition",
            "210-BRXE",
            "$141,250.00",
            2,
            "$282,500.00",
        ]
    )
    sheet.append(["Broadcom 57608 2x200GbE OCP NIC", "540-BFFQ", "$1,375.00", 4, "$5,500.00"])
    sheet.append(["ProSupport Plus 5 Years", "813-4411", "$22,480.00", 2, "$44,960.00"])
    sheet.append([None, None, "Total", None, "$332,960.00"])
    workbook.save(HERE / "dell_text_amounts.xlsx")


def lenovo_pdf() -> None:
    """A one-page PDF quote: letterhead lines, a ruled table, totals below it."""
    pdf = FPDF()
    pdf.set_creation_date(datetime.datetime(2025, 6, 2, tzinfo=datetime.UTC))
    pdf.add_page()
    pdf.set_font("helvetica", size=14)
    pdf.cell(0, 8, "Lenovo Quote", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("helvetica", size=10)
    for text in ("Quote ID: LNV-2025-90112", "Quote Date: 2025-06-02", "Currency: USD"):
        pdf.cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    rows = [
        ("Part Number", "Description", "Qty", "Unit Price", "Total Price"),
        (
            "7DHECTO1WW",
            "ThinkSystem SR680a V3, 8x NVIDIA HGX B200 180GB",
            "2",
            "398,000.00",
            "796,000.00",
        ),
        ("BX8V", "ThinkSystem 2x Intel Xeon Platinum 8570", "2", "Included", "Included"),
        ("4XC7A95123", "ThinkSystem NVIDIA ConnectX-7 NDR400 OSFP", "16", "2,310.00", "36,960.00"),
        ("5WS7B12345", "Premier Support 5Y 24x7 4Hr", "2", "41,500.00", "83,000.00"),
    ]
    with pdf.table(col_widths=(30, 85, 12, 30, 30), text_align="LEFT") as table:
        for row in rows:
            cells = table.row()
            for text in row:
                cells.cell(text)
    pdf.ln(4)
    pdf.cell(0, 6, "Subtotal: 915,960.00", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 6, "Total: 915,960.00", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 6, "This quote is valid for 30 days.", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(HERE / "lenovo_sr680a.pdf"))


if __name__ == "__main__":
    supermicro_two_sheets()
    dell_text_amounts()
    lenovo_pdf()
