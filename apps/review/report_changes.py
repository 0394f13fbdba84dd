"""What changed between two reports of one review, check by check: rack power ok → critical
is "worse", a memory finding that disappears "removed" (``review_diff``, the page's "what
changed" list), and whether Finance would see the same findings (``finding_signature``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from apps.review.engine.schemas import SEVERITY_ORDER, ReviewReport
from apps.review.models import ReviewStatus


class FindingChange(BaseModel):
    """One check whose worst severity differs between two reports, for the "what changed" list.

    `before`/`after` are None when the check is absent from that report.
    """

    check: str
    title: str
    before: str | None
    after: str | None
    change: Literal["added", "removed", "worse", "better"]


def finding_signature(report: ReviewReport) -> frozenset[tuple[str, str]]:
    """The set of (check, severity): equal signatures mean Finance would see the same findings."""
    return frozenset((f.check, f.severity) for f in report.findings)


def status_for_new_report(
    *, status: str, old: ReviewReport | None, new: ReviewReport
) -> ReviewStatus:
    """The status of a report by findings alone (kept for callers comparing two reports):
    unchanged findings keep the status; otherwise CLEAR on pass, PENDING on warn or fail.
    Stored reviews go through `finance_rule` (review_store, review_rerun, review_revise)."""
    if old is not None and finding_signature(old) == finding_signature(new):
        return ReviewStatus(status)
    return ReviewStatus.CLEAR if new.verdict == "pass" else ReviewStatus.PENDING


def review_diff(old: ReviewReport, new: ReviewReport) -> list[FindingChange]:
    """Which checks changed between two reports, compared by each check's worst severity.

    Example: rack power ok → critical is "worse"; a memory finding that disappears is "removed".
    """
    titles = {f.check: f.title for f in old.findings} | {f.check: f.title for f in new.findings}
    changes: list[FindingChange] = []
    for check in sorted(titles):
        before, after = old.worst(check), new.worst(check)
        if before == after:
            continue
        if before is None:
            kind = "added"
        elif after is None:
            kind = "removed"
        elif SEVERITY_ORDER.index(after) > SEVERITY_ORDER.index(before):
            kind = "worse"
        else:
            kind = "better"
        changes.append(
            FindingChange(check=check, title=titles[check], before=before, after=after, change=kind)
        )
    return changes
