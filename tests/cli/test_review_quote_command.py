"""`review_quote` exactly as CONTRACT.md writes it: one JSON document or a readable summary,
exit 0 whatever the verdict, exit 2 with one `error:` line naming the file for bad input."""

import csv
import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from apps.review.inputs import FACILITY_PRESETS, WORKLOAD_PRESETS
from apps.sites.models import SavedWorkload
from tests.conftest import EXAMPLES

PROJECT = Path(__file__).resolve().parent.parent.parent
VANS = EXAMPLES / "pcie-vans-for-one-finetune"
SPARK = EXAMPLES / "spark-one-developer"

pytestmark = pytest.mark.usefixtures("catalog_db")


def run(*args: str) -> tuple[int, str, str]:
    """Call the command in-process: (exit status, stdout, stderr)."""
    out, err = StringIO(), StringIO()
    try:
        call_command("review_quote", *args, stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def example(folder: Path, *extra: str) -> list[str]:
    return [
        str(folder / "quote.csv"),
        "--workload",
        str(folder / "workload.json"),
        "--facility",
        str(folder / "facility.json"),
        *extra,
    ]


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    assert "Traceback" not in err
    return lines[0]


def test_json_is_one_document_with_every_contract_field():
    code, out, err = run(*example(VANS, "--format", "json"))
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert set(report) >= {
        "schema_version",
        "verdict",
        "quote",
        "systems",
        "sizing",
        "findings",
        "blood_pressure",
        "recommendation",
    }
    assert report["schema_version"] == 1
    assert report["verdict"] in {"pass", "warn", "fail"}
    quote = report["quote"]
    assert set(quote) >= {"vendor", "quote_number", "currency", "total", "lines"}
    # 2 × 28,000 + 8 × 9,500 = 132,000, money as a decimal string.
    assert (quote["currency"], quote["total"]) == ("USD", "132000.00")
    for line in quote["lines"]:
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
    assert [(x["sku"], x["match"]) for x in quote["lines"]] == [
        ("supermicro-sys-521ge-tnrt", "exact"),
        ("l40s", "exact"),
    ]
    (van,) = report["systems"]
    assert set(van) >= {
        "sku",
        "name",
        "form_factor",
        "quantity",
        "gpu",
        "gpus_per_system",
        "nvlink_domain_gpus",
        "power_kw",
        "weight_lb",
        "cooling",
        "cpu_arch",
    }
    # Two vans of 4 L40S, PCIe only; 2.2 kW + 4 × 350 W = 3.6 kW each.
    assert (van["quantity"], van["gpus_per_system"], van["nvlink_domain_gpus"]) == (2, 4, 1)
    assert van["power_kw"] == pytest.approx(3.6)
    assert set(report["sizing"]) >= {
        "job_memory_gb",
        "nvlink_domain_memory_gb",
        "decode_tokens_per_sec_bound",
        "tokens_per_sec_per_user",
        "max_concurrent_users",
        "fp64_tflops",
        "utilization_pct",
        "power_kw",
        "rack_power_kw",
        "racks_needed",
        "weight_lb",
    }
    for finding in report["findings"]:
        assert set(finding) >= {"check", "severity", "title", "detail", "metrics"}
    assert {"quote_lines", "nvlink_domain"} <= {f["check"] for f in report["findings"]}
    for who in ("finance", "facilities"):
        assert set(report["blood_pressure"][who]) >= {"level", "reasons"}


def test_a_failing_verdict_still_exits_zero():
    # The fine-tune split over PCIe vans is the back corner of the lot: fail, but a completed
    # review.
    code, out, _ = run(*example(VANS, "--format", "json"))
    assert code == 0
    assert json.loads(out)["verdict"] == "fail"


def test_text_is_the_default_and_reads_like_the_field_guide():
    code, out, err = run(*example(VANS))
    assert (code, err) == (0, "")
    assert out.startswith("Rightsize review: quote.csv (USD 132,000.00)")
    assert "Verdict: FAIL" in out
    assert "2 × Supermicro SYS-521GE-TNRT" in out and "a work van" in out
    # The check as the page and the PDF name it (apps.words.CHECKS), not its id.
    assert "[CRITICAL] NVLink domain" in out
    assert "Blood pressure check:" in out
    assert "Finance: " in out and "Facilities: " in out
    assert "Right fit:" in out
    # Findings come worst first: no "ok" line before the last critical.
    assert out.rindex("[CRITICAL]") < out.index("[OK")


def test_a_negative_quantity_names_the_file_row_and_column():
    code, out, err = run(*example(EXAMPLES / "bad-negative-quantity", "--format", "json"))
    assert (code, out) == (2, "")
    line = one_error_line(err)
    assert line.startswith("error: quote.csv, row 2, column 'Qty':")
    assert "quantity" in line


def test_not_a_spreadsheet_is_one_error_line():
    code, out, err = run(*example(EXAMPLES / "bad-not-a-spreadsheet"))
    assert (code, out) == (2, "")
    assert one_error_line(err).startswith("error: quote.csv")


def test_a_missing_quote_file():
    code, _, err = run("nope.csv", "--workload", "internal-assistant", "--facility", "server-room")
    assert code == 2
    assert one_error_line(err) == "error: nope.csv: no such file"


def _json_file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("workload", "expected"),
    [
        ('{"kind": "inference",', "error: workload.json: invalid JSON at line 1, column 22"),
        ('{"kind": "inference", "gpu": "B200"}', "error: workload.json: unknown field 'gpu'"),
        ('{"kind": "mining"}', "error: workload.json: field 'kind': Input should be"),
        ('{"name": "x"}', "error: workload.json: field 'kind' is required"),
        ('["inference"]', "error: workload.json: expected a JSON object, got list"),
        (
            '{"kind": "inference", "model": "Foo-7B"}',
            "error: workload.json: field 'model': unknown model 'Foo-7B'",
        ),
        (
            '{"kind": "inference", "concurrent_users": -3}',
            "error: workload.json: field 'concurrent_users': must be within "
            "1 – 10,000,000 users (got -3)",
        ),
    ],
)
def test_bad_workload_json_names_the_file_and_the_field(tmp_path, workload, expected):
    path = _json_file(tmp_path, "workload.json", workload)
    code, out, err = run(str(SPARK / "quote.csv"), "--workload", path, "--facility", "office-15a")
    assert (code, out) == (2, "")
    assert one_error_line(err).startswith(expected)


def test_bad_facility_json_names_the_file_and_the_field(tmp_path):
    path = _json_file(tmp_path, "facility.json", '{"site": "garage"}')
    code, _, err = run(str(SPARK / "quote.csv"), "--workload", "Qwen3-32B", "--facility", path)
    assert code == 2
    assert one_error_line(err).startswith("error: facility.json: field 'site':")


def test_a_missing_workload_file_names_it():
    code, _, err = run(str(SPARK / "quote.csv"), "--workload", "gone.json", "--facility", "ai-hall")
    assert code == 2
    assert one_error_line(err) == "error: gone.json: no such file"


def test_an_unknown_preset_lists_the_presets():
    code, _, err = run(str(SPARK / "quote.csv"), "--workload", "x", "--facility", "ai-hall")
    assert code == 2
    line = one_error_line(err)
    assert line.startswith("error: x: no such file, saved workload or preset")
    assert "internal-assistant" in line


def test_presets_stand_in_for_files():
    code, out, _ = run(
        str(SPARK / "quote.csv"),
        "--workload",
        "developer-prototype",
        "--facility",
        "office-15a",
        "--format",
        "json",
    )
    assert code == 0
    report = json.loads(out)
    assert report["workload"]["model"] == "Qwen3-32B"
    assert report["facility"]["circuit_amps"] == 15
    assert "developer-prototype" in WORKLOAD_PRESETS and "office-15a" in FACILITY_PRESETS


def test_a_model_preset_is_a_one_user_inference_workload():
    code, out, _ = run(
        str(SPARK / "quote.csv"),
        "--workload",
        "qwen3-32b",
        "--facility",
        "office-15a",
        "--format",
        "json",
    )
    assert code == 0
    assert json.loads(out)["workload"]["kind"] == "inference"


def test_a_saved_workload_by_name(demo):
    SavedWorkload.objects.create(
        organisation=demo["acme"],
        name="Acme fine-tune",
        spec={"kind": "fine_tuning", "memory_gb": 512},
    )
    code, out, _ = run(
        *example(VANS)[:1],
        "--workload",
        "acme fine-tune",
        "--facility",
        "server-room",
        "--format",
        "json",
    )
    assert code == 0
    assert json.loads(out)["workload"]["memory_gb"] == 512


def test_a_bad_saved_workload_names_it(demo):
    SavedWorkload.objects.create(organisation=demo["acme"], name="Broken", spec={"kind": "x"})
    code, _, err = run(str(SPARK / "quote.csv"), "--workload", "Broken", "--facility", "ai-hall")
    assert code == 2
    assert one_error_line(err).startswith("error: saved workload 'Broken': field 'kind'")


def test_a_missing_argument_is_one_error_line(capsys):
    code, _, _ = run(str(SPARK / "quote.csv"), "--facility", "ai-hall")
    assert code == 2
    assert "--workload" in one_error_line(capsys.readouterr().err)


def test_an_unexpected_failure_is_an_internal_error_line_not_a_traceback(monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("bug")

    monkeypatch.setattr("apps.quotes.intake.quote_intake", broken)
    code, out, err = run(*example(SPARK))
    assert (code, out) == (2, "")
    assert one_error_line(err) == "error: quote.csv: internal error: ZeroDivisionError"


def test_pdf_is_written_next_to_the_report(tmp_path):
    out_pdf = tmp_path / "report.pdf"
    code, out, _ = run(*example(SPARK, "--format", "json", "--pdf", str(out_pdf)))
    assert code == 0
    assert json.loads(out)["verdict"] in {"pass", "warn"}
    assert out_pdf.read_bytes().startswith(b"%PDF")


def test_an_unwritable_pdf_path_names_it(tmp_path):
    code, out, err = run(*example(SPARK, "--pdf", str(tmp_path / "no-dir" / "out.pdf")))
    assert (code, out) == (2, "")
    assert one_error_line(err).startswith("error: out.pdf: cannot be written")


@pytest.mark.parametrize(
    ("folder", "want_exit"), [("semi-for-one-finetune", 0), ("bad-negative-quantity", 2)]
)
def test_from_the_shell(folder, want_exit):
    # The acceptance script's way: a real process on the dev database, no traceback ever.
    proc = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "review_quote",
            *example(EXAMPLES / folder),
            "--format",
            "json",
        ],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == want_exit, proc.stderr
    if want_exit == 0:
        # One DGX B200: 8 × B200 in one NVLink domain, 14.3 kW.
        (semi,) = json.loads(proc.stdout)["systems"]
        assert (semi["sku"], semi["nvlink_domain_gpus"], semi["power_kw"]) == ("dgx-b200", 8, 14.3)
    else:
        assert proc.stdout == ""
        assert "quantity" in one_error_line(proc.stderr)


def test_text_names_the_right_fit_when_there_is_one():
    from apps.reports.text import report_text
    from apps.review.engine.schemas import (
        BloodPressure,
        Pressure,
        QuoteSummary,
        Recommendation,
        ReviewReport,
        Sizing,
    )

    report = ReviewReport(
        verdict="pass",
        quote=QuoteSummary(file="quote.csv"),
        systems=[],
        sizing=Sizing(job_memory_gb=512.0),
        findings=[],
        blood_pressure=BloodPressure(
            finance=Pressure(level="raised", reasons=["Finance signs."]),
            facilities=Pressure(level="crisis"),
        ),
        recommendation=Recommendation(
            sku="dgx-b200",
            name="NVIDIA DGX B200",
            quantity=1,
            nvlink_domain_gpus=8,
            nvlink_domain_memory_gb=1440.0,
            why="One 8-GPU domain holds the 512 GB job.",
            vehicle="semi",
            is_quoted=True,
        ),
    )
    text = report_text(report)
    assert "Right fit: 1 × NVIDIA DGX B200, a semi (the quoted one). One 8-GPU domain" in text
    # The sizing row and the level as the page and the PDF label them (apps.words).
    assert "Memory of the biggest single job: 512 GB" in text
    assert "  Finance: Raised\n    - Finance signs." in text
    assert "Facilities: Crisis (out in the parking lot having a moment)" in text
    assert "no vehicle we recognise" in text


def _shell(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "manage.py", "review_quote", *args],
        cwd=PROJECT,
        capture_output=True,
        input=stdin,
        timeout=120,
        check=False,
    )


def test_a_table_on_standard_input_gives_the_review_of_the_file(tmp_path):
    """`review_quote -` with the quote pasted as tab-separated text: the same review as the
    CSV file (only the file name differs)."""
    folder = EXAMPLES / "pcie-vans-for-one-finetune"
    csv_text = (folder / "quote.csv").read_text(encoding="utf-8")
    tsv = "\n".join("\t".join(row) for row in csv.reader(csv_text.splitlines())) + "\n"
    rest = ["--workload", str(folder / "workload.json"), "--facility"]
    rest += [str(folder / "facility.json"), "--format", "json"]
    from_file = _shell([str(folder / "quote.csv"), *rest])
    from_stdin = _shell(["-", *rest], stdin=tsv.encode())
    assert from_stdin.returncode == 0, from_stdin.stderr
    a, b = json.loads(from_file.stdout), json.loads(from_stdin.stdout)
    assert (a["quote"].pop("file"), b["quote"].pop("file")) == ("quote.csv", "stdin.tsv")
    assert a == b
    # 2 × SYS-521GE-TNRT with 8 × L40S: two vans of 4 cards.
    assert [(s["quantity"], s["gpus_per_system"]) for s in b["systems"]] == [(2, 4)]


def test_empty_standard_input_is_one_error_line():
    proc = _shell(["-", "--workload", "internal-assistant", "--facility", "server-room"], b"")
    assert proc.returncode == 2
    assert one_error_line(proc.stderr.decode()).startswith("error: standard input: empty")


def test_help_documents_the_facility_json(capsys):
    with pytest.raises(SystemExit) as exit_:
        call_command("review_quote", "--help")
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    for field in ("feed_volts", "feed_redundant", "cdu_kw", "floor_load_kg_per_m2", "pue"):
        assert f'"{field}"' in text
    assert '"duration_weeks": 6' in text
    assert "colo-cage-ab-208v-30a" in text


def test_an_old_facility_json_and_a_new_one_both_run(tmp_path):
    new = tmp_path / "cage.json"
    new.write_text(
        json.dumps(
            {
                "name": "Colo cage",
                "feed_volts": 208,
                "feed_phase": "three",
                "feed_amps": 30,
                "feed_redundant": True,
                "racks_available": 4,
            }
        )
    )
    code, out, _ = run(*example(VANS)[:-2], "--facility", str(new), "--format", "json")
    assert code == 0
    report = json.loads(out)
    # 208 V × 30 A × √3 × 0.8 = 8.65 kW one side of the A/B pair
    assert report["sizing"]["usable_rack_kw"] == pytest.approx(8.65)
    code, out, _ = run(*example(VANS), "--format", "json")
    assert code == 0 and json.loads(out)["sizing"]["usable_rack_kw"] == 15


def test_a_feed_without_amps_is_one_error_line(tmp_path):
    bad = tmp_path / "feed.json"
    bad.write_text('{"feed_volts": 208}')
    code, _, err = run(*example(VANS)[:-2], "--facility", str(bad))
    assert code == 2
    assert one_error_line(err) == (
        "error: feed.json: a rack feed needs both feed_volts and feed_amps (feed_amps missing)"
    )


@pytest.mark.parametrize(
    ("workload", "message"),
    [
        (
            {"kind": "hpc", "memory_gb": 1e308},
            "error: absurd.json: field 'memory_gb': must be within 0.1 – 1,000,000 GB (got 1e+308)",
        ),
        (
            {"kind": "hpc", "fp64_tflops": 1e308},
            "error: absurd.json: field 'fp64_tflops': must be within 0.1 – 10,000,000 TFLOPS "
            "(got 1e+308)",
        ),
    ],
)
def test_absurd_numbers_exit_2_naming_the_field(tmp_path: Path, workload, message: str) -> None:
    # Before: 1e308 GB was accepted and reviewed.
    path = tmp_path / "absurd.json"
    path.write_text(json.dumps(workload))
    code, out, err = run(
        str(VANS / "quote.csv"), "--workload", str(path), "--facility", "server-room"
    )
    assert (code, out) == (2, "")
    assert err.strip().splitlines() == [message]


def test_a_hostile_workbook_error_names_the_workbook(tmp_path: Path) -> None:
    from tests.fixtures import hostile

    path = tmp_path / "sparse.xlsx"
    path.write_bytes(hostile.xlsx_far_corner())
    code, out, err = run(str(path), "--workload", "internal-assistant", "--facility", "server-room")
    assert (code, out) == (2, "")
    assert err.strip().splitlines() == [
        "error: sparse.xlsx: the sheet claims 16,384 columns × 1,048,576 rows; "
        "quotes have at most 100 × 20,000"
    ]


def test_a_pdf_that_cannot_be_made_is_named_after_the_pdf(tmp_path: Path, monkeypatch) -> None:
    # Before: "error: quote.csv: internal error: ReportTooLarge", naming the quote, which
    # was read and reviewed fine.
    from apps.reports.sandbox import ReportTooLarge

    def too_large(report, **kwargs):
        raise ReportTooLarge("report too large")

    monkeypatch.setattr("apps.reports.render.report_pdf_bytes", too_large)
    out = tmp_path / "out.pdf"
    code, _out, err = run(*example(VANS), "--pdf", str(out))
    assert code == 2
    assert err.strip().splitlines() == [
        "error: out.pdf: the PDF could not be made (report too large)"
    ]
    assert not out.exists()


HF_ID = EXAMPLES / "hf-id-meta-llama-3.3-70b-instruct-dgx-h200"
CONFIGS = Path(__file__).resolve().parent.parent / "fixtures" / "hf_configs"


def test_a_pasted_config_json_is_a_model(tmp_path):
    config = json.loads((CONFIGS / "Llama-3.3-70B-Instruct.json").read_text(encoding="utf-8"))
    workload = {"kind": "inference", "model": config, "concurrent_users": 50}
    path = _json_file(tmp_path, "workload.json", json.dumps(workload))
    code, out, err = run(
        str(HF_ID / "quote.csv"), "--workload", path, "--facility", str(HF_ID / "facility.json"),
        "--format", "json",
    )  # fmt: skip
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["workload"]["model"]["params_b"] == pytest.approx(70.554, abs=0.001)
    # 70.554 B × 2 B = 141.1 GB of weights + 50 × 2.68 GB of KV = 275.3 GB
    assert report["sizing"]["job_memory_gb"] == pytest.approx(275.3, abs=0.1)


def test_a_near_miss_says_did_you_mean(tmp_path):
    path = _json_file(tmp_path, "workload.json", '{"kind": "inference", "model": "Qwen3-33B"}')
    code, out, err = run(str(SPARK / "quote.csv"), "--workload", path, "--facility", "office-15a")
    assert (code, out) == (2, "")
    assert "did you mean Qwen3-32B" in one_error_line(err)


def test_two_quote_sheets_exit_2_naming_them_and_sheet_picks_one(tmp_path):
    from tests.fixtures.sheets import two_quote_sheets_xlsx

    book = tmp_path / "options.xlsx"
    book.write_bytes(two_quote_sheets_xlsx())
    args = [str(book), *example(VANS)[1:], "--format", "json"]
    code, out, err = run(*args)
    line = one_error_line(err)
    assert (code, out) == (2, "")
    assert line.startswith(
        "error: options.xlsx: 2 sheets look like quotes ('Option A', 'Option B'); say which "
        "sheet holds the quote: run again with --sheet NAME: 'Option A' (2 rows under Part "
        "Number | Description | Qty | Unit Price | Extended Price: NVIDIA DGX B200"
    )
    assert "'Option B' (1 row under" in line
    code, out, err = run(*args, "--sheet", "Option B")
    assert (code, err) == (0, "")
    report = json.loads(out)
    # Option B: 2 × SYS-521GE-TNRT at $66,000 = $132,000
    assert [(s["quantity"], s["sku"]) for s in report["systems"]] == [
        (2, "supermicro-sys-521ge-tnrt")
    ]
    assert report["quote"]["total"] == "132000.00"
    code, _out, err = run(*args, "--sheet", "Option C")
    assert code == 2
    assert "there is no sheet 'Option C' in the workbook" in one_error_line(err)
