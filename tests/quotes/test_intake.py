"""Intake: a file becomes the quote summary, the vehicles and the line problems, which the
review's quote_lines check words as findings (one place says "no GPU system")."""

from decimal import Decimal

import pytest

from apps.quotes.intake import MAX_LINE_PROBLEMS, quote_intake, quote_intake_parsed
from apps.quotes.parsing import ParsedLine, ParsedQuote, QuoteParseError
from tests.conftest import EXAMPLES


def _quote(*lines, **fields):
    parsed_lines = [
        ParsedLine(
            source_row=n + 1,
            part_number=pn,
            description=desc,
            quantity=qty,
            unit_price=Decimal(unit) if unit is not None else None,
            extended_price=Decimal(ext) if ext is not None else None,
        )
        for n, (pn, desc, qty, unit, ext) in enumerate(lines, 1)
    ]
    return ParsedQuote(
        file_name="quote.csv", detected_type="csv", header_row=1, lines=parsed_lines, **fields
    )


def _reported(intake):
    """The quote_lines findings the review makes of an intake (the engine with a light load)."""
    from apps.catalog.snapshot import snapshot_from_fixture
    from apps.review.engine.review import ReviewInput, review
    from apps.review.engine.schemas import Facility, Workload, WorkloadKind

    report = review(
        ReviewInput(
            quote=intake.summary,
            systems=intake.systems,
            workload=Workload(kind=WorkloadKind.DEVELOPMENT),
            facility=Facility(),
            line_problems=intake.line_problems,
        ),
        snapshot_from_fixture(),
    )
    return [f for f in report.findings if f.check == "quote_lines"]


def _severities(intake):
    return [(f.severity, f.title) for f in _reported(intake)]


def test_the_pcie_vans_example_reads_end_to_end(catalog):
    data = (EXAMPLES / "pcie-vans-for-one-finetune" / "quote.csv").read_bytes()
    intake = quote_intake(data, "quote.csv", catalog)
    summary = intake.summary
    # 2 × 28,000 + 8 × 9,500 = 56,000 + 76,000 = 132,000 (no stated total: the sum of lines).
    assert summary.total == Decimal("132000.00")
    assert summary.currency == "USD"
    assert [(line.line, line.sku, line.match, line.kind) for line in summary.lines] == [
        (1, "supermicro-sys-521ge-tnrt", "exact", "chassis"),
        (2, "l40s", "exact", "gpu_card"),
    ]
    assert summary.lines[0].source_row == 2
    (van,) = intake.systems
    assert (van.quantity, van.gpus_per_system, van.nvlink_domain_gpus) == (2, 4, 1)
    assert _severities(intake) == [("ok", "Every line is known and adds up")]


def test_summary_json_has_the_contract_fields(catalog):
    data = (EXAMPLES / "semi-for-one-finetune" / "quote.csv").read_bytes()
    dumped = quote_intake(data, "quote.csv", catalog).summary.model_dump(mode="json")
    assert dumped["total"] == "515000.00"
    assert set(dumped) >= {"vendor", "quote_number", "currency", "total", "lines"}
    line = dumped["lines"][0]
    assert set(line) >= {
        "line",
        "part_number",
        "description",
        "quantity",
        "unit_price",
        "extended_price",
        "sku",
        "match",
    }
    assert (line["sku"], line["match"], line["unit_price"]) == ("dgx-b200", "exact", "515000.00")


def test_a_negative_quantity_is_the_parsers_error_naming_the_column(catalog):
    data = (EXAMPLES / "bad-negative-quantity" / "quote.csv").read_bytes()
    with pytest.raises(QuoteParseError) as caught:
        quote_intake(data, "quote.csv", catalog)
    assert "quantity" in str(caught.value)
    assert caught.value.row == 2


def test_qty_times_unit_not_extended_is_a_warning_with_the_arithmetic(catalog):
    intake = quote_intake_parsed(
        _quote(("DGXB-G1440+P2CMI36", "", 2, "515000.00", "515000.00")), catalog
    )
    (finding,) = [f for f in _reported(intake) if "add up" in f.title]
    assert (finding.check, finding.severity) == ("quote_lines", "warning")
    # 2 × 515,000.00 = 1,030,000.00; the line says 515,000.00; off by -515,000.00.
    assert "2 × 515,000.00 = 1,030,000.00, but the line says 515,000.00" in finding.detail
    assert finding.metrics["difference"] == "-515000.00"


def test_a_cent_of_rounding_is_not_a_finding(catalog):
    # 3 × 33.33 = 99.99 against 100.00: one cent, within rounding.
    intake = quote_intake_parsed(_quote(("DGX-SPARK-4TB", "", 3, "33.33", "100.00")), catalog)
    assert _severities(intake)[0][0] == "ok"


def test_unmatched_part_numbers_are_warnings_naming_the_row(catalog):
    intake = quote_intake_parsed(
        _quote(
            ("DGX-SPARK-4TB", "", 1, "3999", "3999"),
            ("ACME-42", "Flux capacitor", 1, "10", "10"),
        ),
        catalog,
    )
    (finding,) = [f for f in intake.line_problems if f.severity == "warning"]
    assert finding.title == "Line 2 is not in the catalog"
    assert "(row 3)" in finding.detail and "ACME-42" in finding.detail
    assert not any(f.severity == "ok" for f in _reported(intake))


def test_many_unmatched_lines_are_summed_up(catalog):
    rows = [("DGX-SPARK-4TB", "", 1, "1", "1")] + [
        (f"ACME-{n}", "Flux capacitor", 1, "1", "1") for n in range(25)
    ]
    intake = quote_intake_parsed(_quote(*rows), catalog)
    unmatched = [f for f in intake.line_problems if "catalog" in f.title]
    # 10 one by one, then "15 more lines not in the catalog" (25 − 10 = 15).
    assert len(unmatched) == MAX_LINE_PROBLEMS + 1
    assert unmatched[-1].title == "15 more lines not in the catalog"


def test_gpus_without_a_chassis_are_a_warning(catalog):
    intake = quote_intake_parsed(_quote(("900-2G133-0080-000", "", 8, "9500", "76000")), catalog)
    assert intake.systems == []
    assert [(p.severity, p.title) for p in intake.line_problems] == [
        ("warning", "8 × L40S with no chassis")
    ]
    # The review adds the one "no GPU system" finding, from its quote_lines check.
    assert ("critical", "No GPU system on the quote") in _severities(intake)


def test_a_stated_total_that_disagrees_is_a_warning(catalog):
    intake = quote_intake_parsed(
        _quote(("DGX-SPARK-4TB", "", 2, "3999.00", "7998.00"), stated_total=Decimal("9000.00")),
        catalog,
    )
    (finding,) = [f for f in intake.line_problems if f.severity == "warning"]
    # Lines: 7,998.00; stated: 9,000.00; off by 1,002.00.
    assert "USD 7,998.00" in finding.detail and "USD 9,000.00" in finding.detail
    assert finding.metrics["difference"] == "1002.00"
    # The summary shows the stated total, not the sum of the lines.
    assert intake.summary.total == Decimal("9000.00")


def test_a_total_with_tax_agrees(catalog):
    # 7,998.00 + 1,519.62 tax = 9,517.62.
    intake = quote_intake_parsed(
        _quote(
            ("DGX-SPARK-4TB", "", 2, "3999.00", "7998.00"),
            stated_total=Decimal("9517.62"),
            stated_tax=Decimal("1519.62"),
        ),
        catalog,
    )
    assert _severities(intake)[0][0] == "ok"


def test_a_subtotal_is_compared_before_the_total(catalog):
    intake = quote_intake_parsed(
        _quote(
            ("DGX-SPARK-4TB", "", 1, "3999.00", "3999.00"),
            stated_subtotal=Decimal("3999.00"),
            stated_total=Decimal("4798.80"),
        ),
        catalog,
    )
    assert _severities(intake)[0][0] == "ok"


def test_non_compute_lines_do_not_warn(catalog):
    intake = quote_intake_parsed(
        _quote(
            ("DGXB-G1440+P2CMI36", "NVIDIA DGX B200", 1, "515000", "515000"),
            ("", "ProSupport 3yr", 1, "40000", "40000"),
        ),
        catalog,
    )
    assert [line.kind for line in intake.summary.lines] == ["system", "other"]
    assert intake.line_problems == []
    (ok,) = _reported(intake)
    assert ok.severity == "ok"
    assert ok.metrics == {
        "lines": 2,
        "systems": 1,
        "gpus": 8,
        "compute_lines": 1,
        "other_lines": 1,
    }
    # 515,000 + 40,000 = 555,000.
    assert intake.summary.total == Decimal("555000")


def test_ambiguous_lines_are_warnings_and_left_out(catalog):
    intake = quote_intake_parsed(_quote(("SYS-621GE-TNRT", "", 1, None, None)), catalog)
    titles = [title for _, title in _severities(intake)]
    assert "Line 1 could be several parts" in titles
    assert intake.systems == []


def test_line_errors_from_the_parser_are_warnings(catalog):
    parsed = _quote(("DGX-SPARK-4TB", "", 1, None, None))
    parsed.lines[0].errors.append("unit price 'tbd?' is not an amount")
    intake = quote_intake_parsed(parsed, catalog)
    assert ("warning", "Line 1 could not be read completely") in _severities(intake)


def test_mappings_pass_through_to_matching(catalog):
    parsed = _quote(
        ("GPU-ACCEL-48", "Accelerator", 4, "9500", "38000"), ("SYS-521GE-TNRT", "", 1, "1", "1")
    )
    intake = quote_intake_parsed(
        parsed, catalog, mappings={"gpu accel 48": ("NVIDIA", "900-2G133-0080-000")}
    )
    assert intake.summary.lines[0].sku == "l40s"
    assert intake.systems[0].gpus_per_system == 4


def test_lines_matched_while_the_workbook_is_read_match_as_after_it(catalog, tmp_path):
    # quote_intake matches each batch the sandbox child sends while it reads on
    # (sheet_reader.sheet_parse); the intake must be the one of matching the parsed quote.
    import openpyxl

    from apps.quotes.parsing import parse_upload
    from apps.quotes.parsing.table import LINE_BATCH

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Part Number", "Description", "Qty", "Unit Price"])
    for n in range(LINE_BATCH * 2 + 300):
        sheet.append(
            [
                ["DGXB-G1440+P2CMI36", "NVIDIA DGX B200", 1, 515000],
                ["", "Cable 3 m", 4, 12],
                [f"X-{n % 700}", f"custom bracket {n % 700}", 1, 5],
            ][n % 3]
        )
    book.save(tmp_path / "q.xlsx")
    data = (tmp_path / "q.xlsx").read_bytes()
    streamed = quote_intake(data, "q.xlsx", catalog)
    assert streamed == quote_intake_parsed(parse_upload(data, "q.xlsx"), catalog)
    assert len(streamed.matches) == LINE_BATCH * 2 + 300


def test_a_csv_is_read_without_a_child(monkeypatch):
    # Python's csv module, in this process (RELIABILITY 9-13 ask a subprocess of PDFs; the
    # workbooks' native reader keeps its child).
    from apps.quotes.parsing import parse_upload, sheet_reader

    def no_child(*args, **kwargs):
        raise AssertionError("a CSV went to the sandbox child")

    monkeypatch.setattr(sheet_reader, "sheet_parse", no_child)
    data = (EXAMPLES / "spark-one-developer" / "quote.csv").read_bytes()
    assert parse_upload(data, "quote.csv").lines
