"""The grid of lines typed by hand: the same reader as a file, problems per row, one
transaction to the first review, and only for the account team."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from apps.quotes.models import Quote
from apps.quotes.parsing import QuoteParseError
from apps.quotes.parsing.manual import GridRow, grid_table, manual_quote, pasted_rows
from apps.review.engine.schemas import Facility, ReviewReport, Workload
from apps.review.models import Review
from apps.review.services import review_manual

VAN = GridRow("SYS-521GE-TNRT", "Supermicro SuperServer 521GE-TNRT", "2", "28,000.00", "56,000.00")
CARDS = GridRow("900-2G133-0080-000", "NVIDIA L40S 48GB", "8", "9,500.00", "76,000.00")


def test_pasted_tabs_or_spaces_fill_the_columns_in_order():
    tabs = pasted_rows("SYS-521GE-TNRT\tServer\t2\t28,000.00\t56,000.00\n\n")
    spaces = pasted_rows("SYS-521GE-TNRT    Server    2    28,000.00    56,000.00")
    assert tabs == spaces == [GridRow("SYS-521GE-TNRT", "Server", "2", "28,000.00", "56,000.00")]


def test_a_pasted_header_places_the_cells():
    rows = pasted_rows("Qty\tPart Number\tDescription\n2\tSYS-521GE-TNRT\tServer")
    assert rows == [GridRow(part_number="SYS-521GE-TNRT", description="Server", quantity="2")]


def test_nul_and_control_characters_never_reach_a_cell():
    (row,) = pasted_rows("SYS\x00-521GE\x07\tServer")
    assert row.part_number == "SYS-521GE"


def test_sub_lines_are_numbered_like_a_configurator():
    rows = [
        GridRow("210-BDJV", "PowerEdge XE9680", "2"),
        GridRow("490-BKJR", "HGX H200", "1", parent="1"),
    ]
    assert [cells[0] for _, cells in grid_table(rows)] == ["Line", "1", "1.1"]


def test_the_grid_reads_like_the_file():
    parsed = manual_quote([VAN, GridRow(), CARDS])
    # Blank grid rows are skipped; the others keep the row number the user sees (1 and 3).
    assert [(line.source_row, line.part_number, line.quantity) for line in parsed.lines] == [
        (1, "SYS-521GE-TNRT", 2),
        (3, "900-2G133-0080-000", 8),
    ]
    assert parsed.detected_type == "manual"


def test_a_bad_row_is_named_by_its_grid_row_and_column():
    with pytest.raises(QuoteParseError) as caught:
        manual_quote([VAN, GridRow("X-1", "Cable", "-2")])
    assert (caught.value.row, caught.value.column) == (2, "Qty")
    assert str(caught.value).startswith("lines entered by hand, row 2, column 'Qty'")


@pytest.mark.django_db
def test_lines_from_scratch_are_reviewed_and_kept_as_an_original(demo, catalog_db):
    account = User.objects.get(username="account")
    review = review_manual(
        rows=[VAN, CARDS],
        organisation=demo["acme"],
        entered_by=account,
        workload=Workload(kind="fine_tuning", memory_gb=512),
        facility=Facility(rack_power_kw=20, racks_available=2),
    )
    quote = review.quote
    assert (quote.entered_by, quote.status, quote.lines.count()) == (account, "parsed", 2)
    assert quote.source_file.detected_type == "csv"  # the lines as entered, downloadable
    report = ReviewReport.model_validate(review.report)
    # 2 × SYS-521GE-TNRT with 8 L40S = two vans of 4 GPUs; 56,000 + 76,000 = 132,000.
    assert [(s.quantity, s.gpus_per_system) for s in report.systems] == [(2, 4)]
    assert str(report.quote.total) == "132000.00"


@pytest.mark.django_db
def test_a_bad_grid_writes_nothing(demo, catalog_db):
    account = User.objects.get(username="account")
    with pytest.raises(QuoteParseError):
        review_manual(
            rows=[GridRow("X-1", "Cable", "-2")],
            organisation=demo["acme"],
            entered_by=account,
            workload=Workload(kind="development"),
            facility=Facility(),
        )
    assert (Quote.objects.count(), Review.objects.count()) == (0, 0)


HX = {"HX-Request": "true"}


def _grid_post(**rows: str) -> dict[str, str]:
    data = {"row-TOTAL_FORMS": "2", "row-INITIAL_FORMS": "0"}
    data.update(rows)
    return data


@pytest.mark.django_db
def test_check_shows_each_rows_problem_inline(clients, catalog_db):
    data = _grid_post(**{"row-0-part_number": "X-1", "row-0-quantity": "-2"})
    response = clients["account_team"].post(
        "/quotes/lines/check/", data, headers={"HX-Request": "true"}
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="grid"')
    assert 'data-row-problem="1"' in body and "quantity -2 is negative" in body


@pytest.mark.django_db
def test_paste_fills_the_grid(clients, catalog_db):
    data = {**_grid_post(), "pasted": "SYS-521GE-TNRT\tServer\t2\t28,000.00\t56,000.00"}
    body = (
        clients["account_team"]
        .post("/quotes/lines/check/", data, headers={"HX-Request": "true"})
        .content.decode()
    )
    assert 'value="SYS-521GE-TNRT"' in body and "Every row reads cleanly." in body


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 302), ("customer", 403), ("account_team", 200), ("finance", 403)],
)
def test_only_the_account_team_enters_lines(clients, catalog_db, role, status):
    assert clients[role].get("/quotes/lines/new/").status_code == status
