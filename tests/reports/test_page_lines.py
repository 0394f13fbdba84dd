"""The quote lines as the page shows them: each sub-line right under its parent, with its role
(the reader's, or while it gives none, the one its match implies) in words."""

from __future__ import annotations

from types import SimpleNamespace

from apps.quotes.models import LineRoleChoice
from apps.quotes.schemas import LineRole, QuoteLineOut
from apps.reports.page import CONFIDENCE_LABELS, line_rows
from tests.review.factories import report_make


def _report(lines):
    report = report_make()
    return report.model_copy(update={"quote": report.quote.model_copy(update={"lines": lines})})


def test_sub_lines_sit_under_their_parent_in_quote_order():
    """Lines 2 and 4 nest under 1, line 3 under 2; 5 is top level; 6 names a parent that is
    not on the quote and stays at the top."""
    lines = [
        QuoteLineOut(line=1, role="system"),
        QuoteLineOut(line=5, role="service"),
        QuoteLineOut(line=2, parent=1, role="gpu_board"),
        QuoteLineOut(line=3, parent=2, role="component"),
        QuoteLineOut(line=4, parent=1, role="component"),
        QuoteLineOut(line=6, parent=99, role="note"),
    ]
    rows = line_rows(_report(lines), {1: SimpleNamespace(pk=10, errors=[], part_id=None)})
    assert [(r.line.line, r.depth) for r in rows] == [
        (1, 0),
        (2, 1),
        (3, 2),
        (4, 1),
        (5, 0),
        (6, 0),
    ]
    assert [r.role_label for r in rows[:2]] == ["System", "GPU board (HGX / baseboard)"]
    assert rows[0].quote_line_id == 10 and rows[1].quote_line_id is None


def test_a_loop_of_parents_still_shows_every_line_once():
    lines = [QuoteLineOut(line=1, parent=2), QuoteLineOut(line=2, parent=1)]
    rows = line_rows(_report(lines), {})
    assert sorted(r.line.line for r in rows) == [1, 2]


def test_without_a_role_the_match_says_what_the_line_is():
    rows = line_rows(_report([QuoteLineOut(line=1, kind="gpu_card")]), {})
    assert (rows[0].role, rows[0].role_label) == ("gpu_card", "GPU card")


def test_every_line_role_has_a_label():
    from typing import get_args

    assert set(LineRoleChoice.values) == set(get_args(LineRole))
    assert set(CONFIDENCE_LABELS) == {"high", "medium", "low"}
