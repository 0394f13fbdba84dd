"""`make bench`: every figure the bench owes, a PASS/FAIL beside each goal, bench/results.json.

Bounded to 12 minutes (each piece gets what is left, minus what the pieces after it need),
touches only 127.0.0.1, and never fails the build: the exit status is 0 whatever the figures.
How to read the figures: bench/README.md.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# `python bench/run.py` puts bench/ first on sys.path; the project root must come first.
sys.path[:] = [str(ROOT), *(p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench")]

from bench.common import (  # noqa: E402
    bench_env,
    child_run,
    machine_info,
    pg_database,
    static_collect,
    versions,
)

BUDGET_S = 720.0
RESULTS = ROOT / "bench" / "results.json"
BACKLOG = 2000
CONTENTION_PAIRS = 1000


class Clock:
    """The 12-minute budget: how long a piece may take, leaving `reserve` for the rest."""

    def __init__(self, budget_s: float) -> None:
        self.end = time.monotonic() + budget_s

    def allow(self, cap_s: float, reserve_s: float = 0.0) -> float:
        return max(0.0, min(cap_s, self.end - time.monotonic() - reserve_s))


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _piece(name: str, work: Callable[[], dict[str, Any]], notes: list[str]) -> dict[str, Any]:
    _say(f"bench: {name} ...")
    load_before = [round(x, 2) for x in os.getloadavg()]
    started = time.monotonic()
    try:
        result = work()
    except Exception as exc:
        result = {"error": f"{type(exc).__name__}: {exc}"}
    if "error" in result:
        notes.append(f"{name}: {result['error']}")
    result["load_average_before"] = load_before
    _say(f"bench: {name} done in {time.monotonic() - started:.1f} s")
    return result


def _child(piece: str, *args: str, clock: Clock, cap_s: float, reserve_s: float) -> Any:
    def work() -> dict[str, Any]:
        allowed = clock.allow(cap_s, reserve_s)
        if allowed < 5:
            return {"error": "skipped: the 12-minute budget ran out"}
        return child_run(piece, *args, timeout_s=allowed)

    return work


def _load(clock: Clock) -> dict[str, Any]:
    from bench.load import load_run

    if clock.allow(600, 120) < 90:
        return {"error": "skipped: the 12-minute budget ran out"}
    url = pg_database("bench_http", create=True)
    database = "postgresql" if url else "sqlite"
    if url is None:
        sqlite = ROOT / "var" / "bench" / "http.sqlite3"
        for path in sqlite.parent.glob("http.sqlite3*"):
            path.unlink()
        url = f"sqlite:///{sqlite}"
    try:
        result = load_run(
            database_url=url, deadline=time.monotonic() + clock.allow(600, 120), backlog=BACKLOG
        )
    finally:
        if database == "postgresql":
            pg_database("bench_http", create=False)
    result["database"] = database
    return result


def _contention(clock: Clock) -> dict[str, Any]:
    url = pg_database("bench_contention", create=True)
    if url is None:
        return {"skipped": "PostgreSQL is not reachable on 127.0.0.1:5432"}
    try:
        allowed = clock.allow(300)
        if allowed < 30:
            return {"error": "skipped: the 12-minute budget ran out"}
        return child_run(
            "contention",
            str(CONTENTION_PAIRS),
            timeout_s=allowed,
            env=bench_env(DATABASE_URL=url),
        )
    finally:
        pg_database("bench_contention", create=False)


def bench_all() -> dict[str, Any]:
    clock = Clock(BUDGET_S)
    notes: list[str] = []
    details: dict[str, Any] = {}
    details["quotes"] = _piece(
        "quotes", _child("quotes", clock=clock, cap_s=60, reserve_s=480), notes
    )
    details["engine"] = _piece(
        "engine", _child("engine", clock=clock, cap_s=60, reserve_s=460), notes
    )
    static_failed = static_collect(bench_env())  # the pages the preview piece renders need it
    if static_failed:
        notes.append(f"static files: {static_failed}")
    details["preview"] = _piece(
        "what-if preview and review page (in-process)",
        _child("preview", clock=clock, cap_s=120, reserve_s=430),
        notes,
    )
    details["growth"] = _piece(
        "growth curves", _child("growth", clock=clock, cap_s=90, reserve_s=400), notes
    )
    for kind in ("csv", "xlsx", "readers"):
        details[f"parse_{kind}"] = _piece(
            f"parse {kind}", _child("parsing", kind, clock=clock, cap_s=90, reserve_s=360), notes
        )
    details["pdf_1"] = _piece(
        "pdf, one-line quote", _child("pdf", "1", clock=clock, cap_s=90, reserve_s=330), notes
    )
    details["pdf_500"] = _piece(
        "pdf, 500-line quote", _child("pdf", "500", clock=clock, cap_s=120, reserve_s=280), notes
    )
    details["peer"] = _piece(
        "peer: aiconfigurator", _child("peer", clock=clock, cap_s=60, reserve_s=250), notes
    )
    if "skipped" in details["peer"]:
        notes.append(f"peer: {details['peer']['skipped']}")
    details["http"] = _piece("http load", lambda: _load(clock), notes)
    wrk = _get(details, "http", "review_page_wrk", "skipped")
    if wrk:
        notes.append(f"review page under wrk: {wrk}")
    details["contention"] = _piece("contention", lambda: _contention(clock), notes)
    if "skipped" in details["contention"]:
        notes.append(f"contention: {details['contention']['skipped']}")
    return {"details": details, "notes": notes}


def _get(data: dict[str, Any], *path: Any) -> Any:
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def _above(details: dict[str, Any], piece: str) -> float | None:
    return _get(details, piece, "peak_above_baseline_mb")


#: figure key (or its start) -> the piece whose load average stands beside it
FIGURE_PIECE = (
    ("engine_", "engine"),
    ("preview_", "preview"),
    ("review_page_inprocess", "preview"),
    ("growth_", "growth"),
    ("parse_10k_csv", "parse_csv"),
    ("parse_10k_xlsx", "parse_xlsx"),
    ("xlsx_reader", "parse_readers"),
    ("pdf_1_", "pdf_1"),
    ("pdf_500_", "pdf_500"),
    ("peer_", "peer"),
    ("http_", "http"),
    ("review_page_", "http"),
    ("login_flood", "http"),
    ("lost_updates", "contention"),
    ("audit_rows", "contention"),
)


def figure_loads(figures: dict[str, Any], details: dict[str, Any]) -> dict[str, Any]:
    """The load average (1, 5, 15 min) each figure's piece started under."""
    out: dict[str, Any] = {}
    for key in figures:
        piece = next((p for start, p in FIGURE_PIECE if key.startswith(start)), None)
        out[key] = _get(details, piece, "load_average_before") if piece else None
    return out


def figures_from(details: dict[str, Any]) -> dict[str, Any]:
    """The flat keys the goals name, from the pieces' detailed answers."""
    http = details.get("http", {})
    figures: dict[str, Any] = {
        "engine_100_lines_p50_ms": _get(details, "engine", "100", "p50_ms"),
        "engine_1000_lines_p50_ms": _get(details, "engine", "1000", "p50_ms"),
    }
    for kind in ("csv", "xlsx", "pdf"):
        figures[f"preview_100_{kind}_p95_ms"] = _get(details, "preview", "preview", kind, "p95_ms")
        figures[f"preview_100_{kind}_cpu_p95_ms"] = _get(
            details, "preview", "preview", kind, "cpu_p95_ms"
        )
    for view in ("account_team_full", "account_team_partial", "finance_full"):
        figures[f"review_page_inprocess_{view}_cpu_ms"] = _get(
            details, "preview", "page", view, "cpu_p50_ms"
        )
    for name in ("matcher", "recommendation", "engine"):
        for axis in ("systems", "lines"):
            figures[f"growth_{name}_vs_{axis}_k"] = _get(
                details, "growth", "curves", f"{name}_vs_{axis}", "k"
            )
    figures |= {
        "parse_10k_csv_s": _get(details, "parse_csv", "s"),
        "parse_10k_csv_cpu_s": _get(details, "parse_csv", "cpu_s"),
        "parse_10k_csv_rss_mb": _get(details, "parse_csv", "peak_rss_mb"),
        "parse_10k_csv_above_baseline_mb": _above(details, "parse_csv"),
        "parse_10k_xlsx_s": _get(details, "parse_xlsx", "s"),
        "parse_10k_xlsx_cpu_s": _get(details, "parse_xlsx", "cpu_s"),
        "parse_10k_xlsx_rss_mb": _get(details, "parse_xlsx", "peak_rss_mb"),
        "parse_10k_xlsx_above_baseline_mb": _above(details, "parse_xlsx"),
        "xlsx_reader_speedup": _get(details, "parse_readers", "speedup"),
        "pdf_1_page_s": _get(details, "pdf_1", "s"),
        "pdf_1_page_chromium_s": _get(details, "pdf_1", "chromium_s"),
        "pdf_1_page_vs_chromium_ratio": _get(details, "pdf_1", "weasyprint_vs_chromium"),
        "pdf_1_page_sandboxed_s": _get(details, "pdf_1", "sandboxed_s"),
        "pdf_500_lines_s": _get(details, "pdf_500", "s"),
        "pdf_500_lines_chromium_s": _get(details, "pdf_500", "chromium_s"),
        "pdf_500_lines_vs_chromium_ratio": _get(details, "pdf_500", "weasyprint_vs_chromium"),
        "pdf_500_lines_sandboxed_s": _get(details, "pdf_500", "sandboxed_s"),
        "pdf_500_lines_rss_mb": _get(details, "pdf_500", "sandbox_peak_rss_mb"),
        "peer_ours_ms": _get(details, "peer", "ours_ms"),
        "peer_aiconfigurator_ms": _get(details, "peer", "aiconfigurator_ms"),
        "peer_ratio": _get(details, "peer", "ratio"),
    }
    for users in (10, 50, 100):
        level = _get(http, "levels", str(users)) or _get(http, "levels", users) or {}
        figures[f"http_p50_ms_{users}_users"] = level.get("p50_ms")
        figures[f"http_p95_ms_{users}_users"] = level.get("p95_ms")
        figures[f"http_p99_ms_{users}_users"] = level.get("p99_ms")
        figures[f"http_rps_{users}_users"] = level.get("rps")
        figures[f"http_errors_{users}_users"] = level.get("errors")
        cpu = level.get("cpu_ms_per_request") or {}
        figures[f"http_server_cpu_ms_per_request_{users}_users"] = (
            round(sum(cpu.values()), 1) if cpu else None
        )
    for connections in ("10", "50"):
        level = _get(http, "review_page_wrk", "levels", connections) or {}
        cpu = level.get("cpu_ms_per_request") or {}
        figures[f"review_page_wrk_{connections}_conn_rps"] = level.get("rps")
        figures[f"review_page_wrk_{connections}_conn_p95_ms"] = level.get("p95_ms")
        figures[f"review_page_wrk_{connections}_conn_errors"] = level.get("errors")
        figures[f"review_page_wrk_{connections}_conn_server_cpu_ms"] = (
            round(sum(cpu.values()), 1) if cpu else None
        )
    figures["http_saturation_users"] = _get(http, "saturation", "users")
    figures["http_saturation_rps"] = _get(http, "saturation", "rps")
    figures["http_saturation_reached"] = _get(http, "saturation", "reached")
    figures["http_best_rps_p95_under_1s"] = _get(http, "saturation", "best_rps_under_1s")
    figures["login_flood_logged_in_p95_ms"] = _get(
        http, "login_flood", "logged_in_p95_ms_during_flood"
    )
    figures["login_flood_p95_ratio"] = _get(http, "login_flood", "ratio")
    figures["lost_updates"] = _get(details, "contention", "lost_updates")
    figures["audit_rows_per_decision"] = _get(details, "contention", "audit_rows_per_decision")
    return figures


#: (figure, comparison, limit, how the goal reads); issue #19's goals first.
GOALS = (
    ("preview_100_csv_p95_ms", "<=", 30.0, "<= 30 ms"),
    ("preview_100_xlsx_p95_ms", "<=", 30.0, "<= 30 ms"),
    ("preview_100_pdf_p95_ms", "<=", 30.0, "<= 30 ms"),
    ("review_page_wrk_50_conn_server_cpu_ms", "<=", 10.0, "<= 10 ms CPU"),
    ("review_page_wrk_50_conn_rps", ">=", 150.0, ">= 150 req/s"),
    ("review_page_wrk_50_conn_errors", "==", 0, "= 0"),
    ("http_p95_ms_50_users", "<=", 100.0, "<= 100 ms"),
    ("http_p99_ms_50_users", "<=", 500.0, "<= 500 ms"),
    ("http_errors_50_users", "==", 0, "= 0"),
    ("pdf_1_page_s", "<=", 0.5, "<= 0.5 s"),
    ("pdf_500_lines_s", "<=", 2.5, "<= 2.5 s"),
    ("parse_10k_csv_s", "<=", 0.7, "<= 0.7 s"),
    ("parse_10k_xlsx_s", "<=", 0.7, "<= 0.7 s"),
    ("parse_10k_csv_above_baseline_mb", "<=", 60.0, "<= 60 MiB"),
    ("parse_10k_xlsx_above_baseline_mb", "<=", 60.0, "<= 60 MiB"),
    ("growth_matcher_vs_systems_k", "<=", 1.2, "k <= 1.2"),
    ("growth_matcher_vs_lines_k", "<=", 1.2, "k <= 1.2"),
    ("growth_recommendation_vs_systems_k", "<=", 1.2, "k <= 1.2"),
    ("engine_100_lines_p50_ms", "<=", 3.0, "<= 3 ms"),
    ("peer_ratio", "report", None, "printed"),
    ("login_flood_p95_ratio", "<=", 2.0, "<= 2× normal p95"),
    ("lost_updates", "==", 0, "= 0"),
    ("audit_rows_per_decision", "==", 1.0, "= 1"),
)


def goals_check(figures: dict[str, Any], details: dict[str, Any] | None = None) -> dict[str, str]:
    """PASS or FAIL per goal; "NOT MEASURED" when the figure is missing, "SKIP" when its
    piece says why it was skipped (the peer without aiconfigurator, wrk not installed)."""
    verdicts = {}
    for key, op, limit, _ in GOALS:
        value = figures.get(key)
        piece = next((p for start, p in FIGURE_PIECE if key.startswith(start)), "")
        skipped = _get(details or {}, piece, "skipped") or (
            _get(details or {}, "http", "review_page_wrk", "skipped")
            if key.startswith("review_page_wrk")
            else None
        )
        if value is None:
            verdicts[key] = "SKIP" if skipped else "NOT MEASURED"
        elif op == "report":
            verdicts[key] = "REPORTED"
        elif op == "<=":
            verdicts[key] = "PASS" if value <= limit else "FAIL"
        elif op == ">=":
            verdicts[key] = "PASS" if value >= limit else "FAIL"
        else:
            verdicts[key] = "PASS" if value == limit else "FAIL"
    return verdicts


def unit_of(key: str) -> str:
    """ "http_p95_ms_50_users" -> "ms", "parse_10k_xlsx_rss_mb" -> "MiB"."""
    if key.endswith("_k") or key.endswith("_ratio") or key.endswith("_errors"):
        return "×" if key.endswith("_ratio") else ""
    if "_ms" in key:
        return "ms"
    if "rps" in key:
        return "req/s"
    if key.endswith("_s"):
        return "s"
    if key.endswith("_mb"):
        return "MiB"
    return "×" if key.endswith("speedup") else ""


def table(
    figures: dict[str, Any], verdicts: dict[str, str], loads: dict[str, Any] | None = None
) -> str:
    goals = {key: text for key, _, _, text in GOALS}
    loads = loads or {}
    rows = [("figure", "value", "goal", "", "load average")]
    for key, value in figures.items():
        shown = "not measured" if value is None else f"{value} {unit_of(key)}".strip()
        load = loads.get(key)
        rows.append(
            (
                key,
                shown,
                goals.get(key, ""),
                verdicts.get(key, ""),
                " ".join(str(x) for x in load) if load else "",
            )
        )
    widths = [max(len(str(row[i])) for row in rows) for i in range(5)]
    lines = ["  ".join(str(cell).ljust(widths[i]) for i, cell in enumerate(row)) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


def main() -> int:
    started = time.monotonic()
    machine = machine_info()
    run = bench_all()
    figures = figures_from(run["details"])
    verdicts = goals_check(figures, run["details"])
    loads = figure_loads(figures, run["details"])
    results = {
        **figures,
        "goals": verdicts,
        "load_average": loads,
        "machine": machine,
        "versions": versions(),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "duration_s": round(time.monotonic() - started, 1),
        "notes": run["notes"],
        "details": run["details"],
    }
    RESULTS.write_text(json.dumps(results, indent=2, default=str) + "\n")
    print(table(figures, verdicts, loads))
    for name, curve in (_get(run["details"], "growth", "curves") or {}).items():
        points = ", ".join(f"{n}: {t} ms" for n, t in curve["points_ms"].items())
        print(f"curve {name} (CPU ms per call): {points}; k = {curve['k']}")
    print(
        f"\n{machine['cores']} cores, {machine['memory_gib']} GiB, {machine['cpu_model']}; "
        f"load average at start {machine['load_average_at_start']}; "
        f"{results['duration_s']} s in all."
    )
    for note in run["notes"]:
        print(f"note: {note}")
    print(f"written: {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    try:
        main()
    except Exception as exc:
        print(f"bench: stopped early: {type(exc).__name__}: {exc}", file=sys.stderr)
    sys.exit(0)
