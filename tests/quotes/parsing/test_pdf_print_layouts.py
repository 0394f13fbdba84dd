"""Print layouts of PDF quotes that put a cell outside its column or a title block's labels in
one cell (tests/fixtures/boms_make/pdf_layouts.py draws the corpus quotes that need them)."""

from __future__ import annotations

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_words import GROUP_BANNER_RE
from apps.quotes.intake import quote_intake
from apps.quotes.parsing.headers import header_map
from apps.quotes.parsing.label_runs import labelled_runs_split
from apps.quotes.parsing.metadata import metadata_read
from apps.quotes.parsing.pdf_cells import currency_marks_attach, stray_label_home
from apps.quotes.parsing.pdf_layout import page_rows_read

MAPPING = {"part_number": 1, "description": 2, "quantity": 3, "unit_price": 4, "extended_price": 5}


def test_a_currency_symbol_in_its_own_column_prefixes_the_amount_right_of_it() -> None:
    # Why: placed by where it stands, the "$" of a narrow currency column joined the
    # quantity ("2 $") and the quantity was no number.
    cells, spans = currency_marks_attach(
        ["1", "2", "$", "289,400.00", "$", "578,800.00"],
        [(10, 14), (130, 134), (140, 143), (150, 170), (174, 177), (180, 200)],
    )
    assert cells == ["1", "2", "$ 289,400.00", "$ 578,800.00"]
    assert spans == [(10, 14), (130, 134), (150, 170), (180, 200)]  # the amounts' own places


def test_a_currency_code_before_text_is_kept_as_a_cell() -> None:
    cells, _spans = currency_marks_attach(["EUR", "pricing"], [(0, 5), (9, 20)])
    assert cells == ["EUR", "pricing"]


def test_a_totals_box_label_under_the_qty_column_moves_to_the_description() -> None:
    # Why: a totals box outside the grid stands under Qty / Unit Price; "Discount" read as a
    # quantity made the whole quote unreadable ("quantity 'Discount' is not a number").
    row = ["", "", "", "Discount", "", "-$12,000.00"]
    assert stray_label_home(row, MAPPING) == ["", "", "Discount", "", "", "-$12,000.00"]
    # "GST 10%" is a label with a rate, not an amount: it moves too.
    row = ["", "", "", "", "GST 10%", "47,855.00"]
    assert stray_label_home(row, MAPPING) == ["", "", "GST 10%", "", "", "47,855.00"]


def test_a_line_or_a_label_in_the_description_stays_where_it_is() -> None:
    line = ["1", "AS-8125", "Supermicro server", "2", "$ 289,400.00", "$ 578,800.00"]
    assert stray_label_home(line, MAPPING) == line
    note = ["", "", "", "Lead time", "", ""]  # no amount: not a totals row
    assert stray_label_home(note, MAPPING) == note


def test_an_unruled_page_with_a_currency_column_and_a_totals_box_reads_in_its_columns() -> None:
    header = ["Item", "SKU", "Description", "Qty", "Unit Price", "Amount"]
    header_spans = [[30, 45], [70, 85], [165, 210], [390, 402], [440, 480], [520, 560]]
    line = ["1", "AS-8125", "Server", "2", "$", "289,400.00", "$", "578,800.00"]
    line_spans = [[30, 33], [70, 100], [165, 200], [396, 400], [420, 424], [440, 480]]
    line_spans += [[505, 509], [520, 560]]
    box = ["Discount", "-$12,000.00"]
    box_spans = [[375, 400], [515, 560]]  # the label under Qty, left of the Qty header
    page = {
        "page": 1,
        "rows": [header, line, box],
        "spans": [header_spans, line_spans, box_spans],
        "lines": [[100, 108], [112, 120], [160, 168]],
    }
    rows = [cells for _number, cells in page_rows_read([page])]
    assert rows[1] == ["1", "AS-8125", "Server", "2", "$ 289,400.00", "$ 578,800.00"]
    assert rows[2] == ["", "", "Discount", "", "", "-$12,000.00"]


def test_title_block_labels_run_together_in_one_cell_are_read_apart() -> None:
    # Why: "Quote Number: HPE-Q-7731026   Quote Date: 06/15/2026" printed with narrow gaps is
    # one cell; read as one pair, its number was "HPE-Q-7731026 Quote Date: ..." (no number).
    cell = "Quote Number: HPE-Q-7731026 Quote Date: 06/15/2026 Currency: USD"
    found = metadata_read([[cell]])
    assert (found["quote_number"], found["currency"]) == ("HPE-Q-7731026", "USD")
    assert "quote_date" in found


def test_a_cell_is_only_cut_before_a_known_label() -> None:
    def known(label: str) -> bool:
        return label.casefold() in {"quote date", "currency"}

    assert labelled_runs_split("Quote #: Q-1 Quote Date: 2026-06-15", known) == [
        "Quote #: Q-1",
        "Quote Date: 2026-06-15",
    ]
    # "Ratio: 3:1" names no second label: the cell stays whole.
    assert labelled_runs_split("Note: ratio 3:1 Remark: x", known) == ["Note: ratio 3:1 Remark: x"]


def test_ext_alone_names_the_extended_price() -> None:
    # Why: a distributor's "List | Disc % | Unit | Ext" header left the extended price unread.
    mapping = header_map(["Line", "Mfr Part", "Description", "Qty", "List", "Unit", "Ext"])
    assert (mapping["unit_price"], mapping["extended_price"]) == (5, 6)


def test_a_numbered_group_banner_with_its_title_is_a_banner() -> None:
    assert GROUP_BANNER_RE.match("Solution ID: 1 - PowerEdge XE9780 (HGX B300)")
    assert GROUP_BANNER_RE.match("Configuration #2: Inference nodes")
    assert not GROUP_BANNER_RE.match("Bundle 1-year support")


def test_a_solution_id_banner_with_a_dash_title_is_a_note(catalog: CatalogSnapshot) -> None:
    # Why: "Solution ID: 1 - PowerEdge XE9780" has its number after the colon, so the
    # "Solution ID 1" label rule missed it and the banner was read as a component.
    csv = (
        "Part Number,Description,Qty,Unit Price,Extended Price\n"
        "Solution ID: 1 - PowerEdge XE9780 (HGX B300),,,,\n"
        "210-BRXZ,PowerEdge XE9780 Server NVIDIA HGX B300 8-GPU,2,412750.00,825500.00\n"
        "490-BKFA,NVIDIA HGX B300 288GB 8-GPU baseboard,1,0.00,0.00\n"
        ",Total,,,825500.00\n"
    )
    intake = quote_intake(csv.encode(), "q.csv", catalog)
    assert intake.row_roles[0][1] == "note"
    # 2 servers × 8 B300 on the board = 16
    assert sum(s.quantity * s.gpus_per_system for s in intake.systems) == 16
