"""The report pieces a what-if keeps (apps.web.fragments): each check's findings and the quoted
vehicles, under a digest of what they are drawn from. A change in any of it is a new key, so a
preview never shows a piece of the previous what-if."""

from __future__ import annotations

import re

import pytest

from apps.reports import page
from apps.web.fragments import PIECES, PieceCache, findings_group_key, vehicles_key
from tests.reports.page_reports import MEMORY_OK, RACK_OK, UTILIZATION_WARNING, school_bus_report
from tests.web.test_review_views import HX, people, rerun_data, review, url  # noqa: F401


def _group(report, check):
    return next(g for g in page.findings_grouped(report) if g.check == check)


def test_the_same_findings_are_the_same_key_and_any_change_a_new_one():
    report = school_bus_report()
    key = findings_group_key(_group(report, "utilization"))
    assert key == findings_group_key(_group(school_bus_report(), "utilization"))
    changes = [
        {"title": UTILIZATION_WARNING.title + " (again)"},
        {"detail": "Idle most of the day."},
        {"metrics": {**UTILIZATION_WARNING.metrics, "utilization_pct": 7.0}},
        {"severity": "critical"},
        {"lever": "Quote one system fewer."},
        {"sources": ["https://example.com/utilization"]},
    ]
    for change in changes:
        moved = UTILIZATION_WARNING.model_copy(update=change)
        other = school_bus_report(findings=[moved, MEMORY_OK, RACK_OK])
        assert findings_group_key(_group(other, "utilization")) != key, change
    # another check's findings never share a key, even worded alike
    assert findings_group_key(_group(report, "rack_power")) != key


def test_the_vehicles_key_follows_every_system():
    report = school_bus_report()
    key = vehicles_key(report.systems)
    assert key == vehicles_key(school_bus_report().systems)
    (system,) = report.systems
    for change in ({"quantity": 2}, {"power_kw": 15.0}, {"name": "DGX B300 (rev B)"}):
        assert vehicles_key([system.model_copy(update=change)]) != key, change
    assert vehicles_key([system, system]) != key
    assert vehicles_key([]) != key


def test_the_piece_cache_keeps_the_newest_within_its_bounds():
    cache = PieceCache()
    cache.SIZE, cache.BUDGET = 2, 160  # pieces of up to 20 characters
    cache.put("a", "a" * 10)
    cache.put("b", "b" * 10)
    assert cache.get("a") == "a" * 10  # "a" is now the newest
    cache.put("c", "c" * 10)
    assert cache.get("b") is None and cache.get("a") and cache.get("c")
    cache.SIZE = 100
    for n in range(8):  # 20 + 8 × 20 = 180 characters: the two oldest go
        cache.put(f"d{n}", "d" * 20)
    assert cache.get("a") is None and cache.get("c") is None
    assert all(cache.get(f"d{n}") for n in range(8))
    cache.put("e", "e" * 21)  # more than an eighth of the budget: never kept
    assert cache.get("e") is None and cache.get("d0")


def _results(response) -> str:
    body = response.content.decode()
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", body)


def _check(body: str, check: str) -> str:
    found = re.search(rf'<details class="check[^>]*id="check-{check}".*?</details>', body, re.S)
    assert found is not None, check
    return found[0]


@pytest.fixture
def engine(monkeypatch):
    """The engine stands in as "the report for this many users": the utilization finding
    words the demand (users × 15 tokens/s), the memory and rack findings stay as they are."""

    def fake_run(*, intake, workload, facility, catalog):
        users = workload.concurrent_users
        utilization = UTILIZATION_WARNING.model_copy(
            update={
                "detail": f"{users} users at 15 tokens/s keep the DGX B300 partly busy.",
                "metrics": {**UTILIZATION_WARNING.metrics, "demand_tokens_per_sec": users * 15},
            }
        )
        findings = [utilization, MEMORY_OK, RACK_OK]
        return school_bus_report(users=users, findings=findings).model_copy(
            update={"facility": facility}
        )

    monkeypatch.setattr("apps.review.services.review_report", fake_run)


def test_a_preview_from_kept_pieces_is_the_preview_rendered_afresh(clients, review, engine):  # noqa: F811
    def preview(users: int) -> str:
        data = rerun_data(review, **{"w-concurrent_users": users})
        response = clients["account_team"].post(url(review, "preview/"), data, headers=HX)
        assert response.status_code == 200
        return _results(response)

    PIECES.clear()
    fresh_200 = preview(200)
    assert preview(200) == fresh_200  # every piece kept: the same HTML
    kept_900 = preview(900)  # the check 900 users moved is drawn again, the others kept
    assert "900 users at 15 tokens/s keep" in _check(kept_900, "utilization")
    assert "13,500" in _check(kept_900, "utilization")  # 900 × 15 tokens/s
    assert _check(kept_900, "rack_power") == _check(fresh_200, "rack_power")
    PIECES.clear()
    assert preview(900) == kept_900
