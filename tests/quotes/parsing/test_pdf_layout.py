"""A PDF's printed pages → rows: columns without rules, wrapped descriptions, page furniture
(``parsing/pdf_layout.py``), and an unruled multi-page PDF read end to end."""

from __future__ import annotations

from decimal import Decimal

from fpdf import FPDF

from apps.quotes.parsing import parse_upload
from apps.quotes.parsing.pdf_layout import page_rows_read

HEADER = ["Line", "Part Number", "Description", "Qty", "Unit Price", "Total"]
#: Where each header cell is printed (points): Description from 150 to 200, Qty right-aligned
#: at 370-385, the prices right-aligned at 420-460 and 500-525.
HEADER_SPANS = [[35, 50], [70, 120], [150, 200], [370, 385], [420, 460], [500, 525]]


def _page(number: int, lines: list[tuple[list[str], list[list[float]], float]]) -> dict:
    """A worker page of unruled text lines: (cells, their [x0, x1] spans, the line's top)."""
    return {
        "page": number,
        "rows": [cells for cells, _spans, _top in lines],
        "spans": [spans for _cells, spans, _top in lines],
        "lines": [[top, top + 8] for _cells, _spans, top in lines],
    }


def test_an_unruled_continuation_line_is_placed_under_description_and_joined() -> None:
    page = _page(
        1,
        [
            (HEADER, HEADER_SPANS, 100),
            (
                [
                    "1",
                    "210-BHMN",
                    "Dell PowerEdge XE9680, 8x H200",
                    "4",
                    "$238,450.00",
                    "$953,800.00",
                ],
                [[35, 40], [70, 110], [150, 330], [380, 385], [410, 460], [480, 525]],
                114,
            ),
            # Nothing but words starting under "Description": the description's second line.
            (["air cooled, 6U"], [[150, 210]], 128),
            (
                ["1.1", "490-BJQZ", "HGX H200 baseboard", "4", "$0.00", "$0.00"],
                [[35, 45], [70, 110], [150, 240], [380, 385], [440, 460], [505, 525]],
                142,
            ),
        ],
    )
    rows = page_rows_read([page])
    assert [number for number, _cells in rows] == [1001, 1002, 1004]
    assert rows[1][1][2] == "Dell PowerEdge XE9680, 8x H200 air cooled, 6U"
    assert rows[2][1] == ["1.1", "490-BJQZ", "HGX H200 baseboard", "4", "$0.00", "$0.00"]


def test_a_line_set_apart_below_its_row_is_not_joined() -> None:
    # Rows stand 14 points apart; "Optional items" is 30 below: a heading, not a wrap.
    lines = [
        (HEADER, HEADER_SPANS, 100),
        (["1", "A-1", "Widget", "1", "$1.00", "$1.00"], HEADER_SPANS, 114),
        (["2", "A-2", "Gadget", "1", "$2.00", "$2.00"], HEADER_SPANS, 128),
        (["Optional items"], [[150, 220]], 158),
        (["3", "A-3", "Gizmo", "1", "$3.00", "$3.00"], HEADER_SPANS, 172),
    ]
    rows = page_rows_read([_page(1, lines)])
    assert ["", "", "Optional items", "", "", ""] in [cells for _n, cells in rows]
    assert rows[2][1][2] == "Gadget"


def test_page_furniture_below_the_first_header_is_dropped_and_running_totals_kept() -> None:
    def page(number: int, body: list[list[str]]) -> dict:
        rows = [
            ["Northwind Systems Integration, Inc."],
            ["Quote # NW-1 (continued)"] if number > 1 else ["Quote #: NW-1"],
            HEADER,
            *body,
            ["Confidential - do not distribute"],
            [f"Page {number} of 2"],
        ]
        return {"page": number, "rows": rows}

    first = page(
        1,
        [["1", "A-1", "Widget", "2", "1.00", "2.00"], ["", "", "Carried forward", "", "", "2.00"]],
    )
    second = page(
        2,
        [["", "", "Brought forward", "", "", "2.00"], ["2", "A-2", "Gadget", "1", "3.00", "3.00"]],
    )
    texts = [" ".join(c for c in cells if c) for _n, cells in page_rows_read([first, second])]
    # The letterhead above the first header names the vendor and stays; below it, the
    # running head, the foot and the page numbers go, the repeated header stays (the table
    # reader skips it) and both running totals stay.
    assert texts == [
        "Northwind Systems Integration, Inc.",
        "Quote #: NW-1",
        " ".join(HEADER),
        "1 A-1 Widget 2 1.00 2.00",
        "Carried forward 2.00",
        " ".join(HEADER),
        "Brought forward 2.00",
        "2 A-2 Gadget 1 3.00 3.00",
    ]


def test_page_number_lines_in_their_usual_forms_are_dropped() -> None:
    for foot in ("- 2 -", "2", "2/3", "Seite 2 von 3", "Page 2", "Quotation Q-9 - Page 2 of 3"):
        body = [HEADER, ["1", "A-1", "Widget", "2", "1.00", "2.00"], [foot]]
        rows = page_rows_read([{"page": 1, "rows": body}, {"page": 2, "rows": [["x"]]}])
        assert [foot] not in [cells for _n, cells in rows], foot


def test_a_short_line_printed_once_is_kept() -> None:
    # Not repeated on another page, no page number, no "continued": the reading decides.
    body = [HEADER, ["1", "A-1", "Widget", "2", "1.00", "2.00"], ["Delivery to building 4"]]
    rows = page_rows_read([{"page": 1, "rows": body}, {"page": 2, "rows": [["x"]]}])
    assert ["Delivery to building 4"] in [cells for _n, cells in rows]


def _unruled_pdf() -> bytes:
    """Two pages, aligned columns without rules, a description wrapped onto a second line
    and the server's configuration continuing on page 2 under a running head and foot."""
    pdf = FPDF()
    pdf.set_auto_page_break(False)
    widths = (12, 30, 86, 12, 24, 26)
    aligns = ("L", "L", "L", "R", "R", "R")

    def row(cells: list[str]) -> None:
        y, x = pdf.get_y(), pdf.l_margin
        for text, width, align in zip(cells, widths, aligns, strict=True):
            pdf.set_xy(x, y)
            pdf.cell(width, 5, text, align=align)
            x += width
        pdf.set_xy(pdf.l_margin, y + 5)

    pages = [
        [
            [
                "1",
                "SYS-821GE",
                "Supermicro SYS-821GE-TNHR, HGX H200 8-GPU,",
                "2",
                "$289,000.00",
                "$578,000.00",
            ],
            ["", "", "air cooled, 8U", "", "", ""],
            ["1.1", "P4X-8568Y", "Intel Xeon Platinum 8568Y+", "4", "$0.00", "$0.00"],
        ],
        [
            ["1.2", "MEM-64G", "64GB DDR5-5600 RDIMM", "64", "$0.00", "$0.00"],
            ["2", "SVC-3Y", "3 years on-site service", "2", "$14,000.00", "$28,000.00"],
            ["", "", "Total", "", "", "$606,000.00"],
        ],
    ]
    for number, body in enumerate(pages, start=1):
        pdf.add_page()
        pdf.set_font("helvetica", size=9)
        pdf.cell(0, 5, "Acme GPU Systems Ltd", new_x="LMARGIN", new_y="NEXT")
        pdf.cell(
            0,
            5,
            "Quote #: AQ-77" if number == 1 else "Quote AQ-77 (continued)",
            new_x="LMARGIN",
            new_y="NEXT",
        )
        pdf.ln(4)
        row(["Line", "Part Number", "Description", "Qty", "Unit Price", "Extended Price"])
        for cells in body:
            row(cells)
        pdf.set_y(-20)
        pdf.cell(0, 5, f"Page {number} of 2", align="C")
    return bytes(pdf.output())


def test_an_unruled_two_page_pdf_reads_every_line_once() -> None:
    quote = parse_upload(_unruled_pdf(), "quote.pdf")
    assert quote.quote_number == "AQ-77"
    assert [line.part_number for line in quote.lines] == [
        "SYS-821GE",
        "P4X-8568Y",
        "MEM-64G",
        "SVC-3Y",
    ]
    assert quote.lines[0].description == "Supermicro SYS-821GE-TNHR, HGX H200 8-GPU, air cooled, 8U"
    assert [line.page for line in quote.lines] == [1, 1, 2, 2]
    # 2 × $289,000.00 = $578,000.00; $578,000 + $28,000 = $606,000 stated.
    assert (quote.lines[0].quantity, quote.lines[0].extended_price) == (2, Decimal("578000.00"))
    assert quote.stated_total == Decimal("606000.00")
    # Nothing of the running head or foot is a skipped heading either.
    assert not [s for s in quote.skipped if "Page" in s.text or "continued" in s.text]
