"""The what-if preview and the review page, in-process: server time and CPU per request.

A child with its own SQLite database (var/bench/preview.sqlite3: migrate, catalog, demo seed)
uploads the same 100-line quote three ways, CSV, XLSX and PDF (bench/quotes.py), through
`review_upload`, the upload page's path. Then, as the account team through Django's test
client (the whole middleware stack and the view, no socket):

- **preview**: the htmx POST the edit form sends on every pause in typing
  (`/reviews/<uuid>/preview/`), each run with a different number of users so nothing can be
  answered from a cache of the previous run. p50/p95 of the wall clock and CPU time
  (time.process_time) over RUNS runs after two warm-ups.
- **review page**: GET of the whole page and of its htmx `results` partial for the 100-line
  CSV review, as the account team (the editor, who sees the most) and as Finance; CPU per
  request (the query budget is a test: tests/web/test_review_page_queries.py).

    python -m bench.preview        # prints BENCH-RESULT {...}
"""

from __future__ import annotations

import os
import time
from typing import Any

from bench.common import DATA, VAR, django_setup, percentile, result_emit

RUNS = 40
PAGE_RUNS = 60
KINDS = ("csv", "xlsx", "pdf")


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _stats(wall: list[float], cpu: list[float]) -> dict[str, Any]:
    return {
        "p50_ms": round(percentile(wall, 0.50), 2),
        "p95_ms": round(percentile(wall, 0.95), 2),
        "cpu_p50_ms": round(percentile(cpu, 0.50), 2),
        "cpu_p95_ms": round(percentile(cpu, 0.95), 2),
        "cpu_mean_ms": round(sum(cpu) / len(cpu), 2) if cpu else None,
        "runs": len(wall),
        "load_average": _load(),
    }


def _timed(call: Any, runs: int) -> tuple[list[float], list[float], Any]:
    wall, cpu, last = [], [], None
    for n in range(runs):
        started, cpu_started = time.perf_counter(), time.process_time()
        last = call(n)
        cpu.append((time.process_time() - cpu_started) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    return wall, cpu, last


def _setup() -> dict[str, Any]:
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from apps.review.engine.schemas import Facility, Workload
    from apps.review.inputs import FACILITY_PRESETS, WORKLOAD_PRESETS
    from apps.review.services import review_upload
    from apps.sites.models import Organisation

    call_command("migrate", verbosity=0, interactive=False)
    call_command("load_catalog", verbosity=0)
    call_command("seed_demo", verbosity=0)
    account = User.objects.get(username="account")
    acme = Organisation.objects.get(slug="acme")
    reviews = {}
    for kind in KINDS:
        reviews[kind] = review_upload(
            data=(DATA / f"quote-100.{kind}").read_bytes(),
            filename=f"bench-100-lines.{kind}",
            organisation=acme,
            uploaded_by=account,
            workload=Workload.model_validate(WORKLOAD_PRESETS["internal-assistant"]),
            facility=Facility.model_validate(FACILITY_PRESETS["server-room"]),
        )
    return {"reviews": reviews, "account": account, "finance": User.objects.get(username="finance")}


def _form(review: Any, users: int) -> dict[str, object]:
    """The edit form as the page posts it (prefixes w- and f-), with the users changed."""
    from apps.review.engine.schemas import Facility, Workload

    workload = Workload.model_validate(review.workload).model_dump(mode="json")
    facility = Facility.model_validate(review.facility).model_dump(mode="json")
    data: dict[str, object] = {f"w-{k}": v for k, v in workload.items() if v is not None}
    data |= {f"f-{k}": v for k, v in facility.items() if v is not None}
    data["version"] = review.version
    data["w-concurrent_users"] = users
    return data


def preview_time(client: Any, review: Any) -> dict[str, Any]:
    path = f"/reviews/{review.uuid}/preview/"
    base = int(review.workload["concurrent_users"])

    def once(n: int) -> Any:
        response = client.post(path, _form(review, base + 1 + n), HTTP_HX_REQUEST="true")
        if response.status_code != 200 or b"preview-note" not in response.content:
            raise RuntimeError(f"preview answered {response.status_code}")
        return response

    _timed(once, 2)  # warm-up: templates compiled, catalog snapshot cached
    wall, cpu, _ = _timed(lambda n: once(n + 2), RUNS)
    lines = len(review.report["quote"]["lines"])
    return {**_stats(wall, cpu), "quote_lines": lines, "stored_reading": bool(review.quote.reading)}


def page_time(client: Any, review: Any, *, partial: bool) -> dict[str, Any]:
    path = f"/reviews/{review.uuid}/"
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "results"} if partial else {}

    def once(_n: int) -> Any:
        response = client.get(path, **headers)
        if response.status_code != 200:
            raise RuntimeError(f"review page answered {response.status_code}")
        return response

    _timed(once, 3)
    wall, cpu, response = _timed(once, PAGE_RUNS)
    return {**_stats(wall, cpu), "bytes": len(response.content)}


def main() -> None:
    for path in VAR.glob("preview.sqlite3*"):
        path.unlink()
    django_setup()
    from django.test import Client

    started = time.perf_counter()
    made = _setup()
    setup_s = time.perf_counter() - started
    editor = Client(HTTP_HOST="127.0.0.1")
    editor.force_login(made["account"])
    finance = Client(HTTP_HOST="127.0.0.1")
    finance.force_login(made["finance"])
    reviews = made["reviews"]
    result: dict[str, Any] = {"setup_s": round(setup_s, 1)}
    result["preview"] = {kind: preview_time(editor, reviews[kind]) for kind in KINDS}
    csv_review = reviews["csv"]
    result["page"] = {
        "account_team_full": page_time(editor, csv_review, partial=False),
        "account_team_partial": page_time(editor, csv_review, partial=True),
        "finance_full": page_time(finance, csv_review, partial=False),
        "finance_partial": page_time(finance, csv_review, partial=True),
    }
    result_emit(result)


if __name__ == "__main__":
    os.environ["DATABASE_URL"] = f"sqlite:///{VAR / 'preview.sqlite3'}"
    main()
