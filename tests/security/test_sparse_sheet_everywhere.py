"""The 4.9 KB workbook with one cell at XFD1048576: one clear refusal from
the upload page, the API, the compare page and the command line, kept as REJECTED where the
face stores quotes, and the process that served it still alive to serve the next request.

Before the fix each of these aborted the process (python-calamine allocating ~550 GB): the
test client's process died with it, and the CLI exited 134 with a Rust backtrace."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from apps.quotes.models import Quote, QuoteStatus
from apps.review.models import Review
from tests.fixtures import hostile
from tests.web.test_compare_view import SEMI, example_file, upload
from tests.web.test_upload_views import saved_form

PROJECT = Path(__file__).resolve().parents[2]
MESSAGE = "the sheet claims 16,384 columns × 1,048,576 rows; quotes have at most 100 × 20,000"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

pytestmark = pytest.mark.usefixtures("catalog_db")


def far_corner() -> SimpleUploadedFile:
    return SimpleUploadedFile("sparse.xlsx", hostile.xlsx_far_corner(), XLSX)


def still_alive(client: Client) -> None:
    assert client.get("/catalog/").status_code == 200


def test_the_upload_page_refuses_it_and_keeps_it_rejected(clients, demo) -> None:
    client = clients["account_team"]
    response = client.post("/quotes/upload/", {**saved_form(demo), "file": far_corner()})
    assert response.status_code == 400
    html = response.content.decode()
    assert MESSAGE in html and "sparse.xlsx" in html
    quote = Quote.objects.get()
    assert quote.status == QuoteStatus.REJECTED
    assert MESSAGE in quote.parse_error
    assert not Review.objects.exists()
    still_alive(client)


def test_the_api_refuses_it_in_json_and_keeps_it_rejected(clients) -> None:
    client = clients["account_team"]
    response = client.post(
        "/api/reviews",
        {
            "file": far_corner(),
            "workload": json.dumps({"kind": "fine_tuning", "memory_gb": 512}),
            "facility": json.dumps({"rack_power_kw": 20, "racks_available": 2}),
            "organisation": "acme",
        },
    )
    assert response.status_code == 400
    assert response.json() == {"error": f"sparse.xlsx: {MESSAGE}"}
    assert Quote.objects.get().status == QuoteStatus.REJECTED
    still_alive(client)


def test_the_compare_page_refuses_it_and_stores_nothing(clients) -> None:
    client = clients["admin"]
    response = client.post(
        "/reviews/compare/", upload(example_file(SEMI, "semi.csv"), far_corner())
    )
    assert response.status_code == 400
    assert MESSAGE in response.content.decode()
    assert not Quote.objects.exists()  # a comparison is a question, not a record
    still_alive(client)


def test_the_command_line_exits_2_with_one_error_line(tmp_path: Path) -> None:
    path = tmp_path / "sparse.xlsx"
    path.write_bytes(hostile.xlsx_far_corner())
    finished = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "review_quote",
            str(path),
            "--workload",
            "internal-assistant",
            "--facility",
            "server-room",
        ],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert finished.returncode == 2, finished.stderr[-2000:]
    assert finished.stderr.strip().splitlines() == [f"error: sparse.xlsx: {MESSAGE}"]
    assert finished.stdout == ""
