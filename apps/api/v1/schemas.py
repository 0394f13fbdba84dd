"""What /api/v1/ answers, for the OpenAPI schema."""

from __future__ import annotations

import datetime as dt
from typing import Literal
from uuid import UUID

from ninja import Schema

from apps.catalog.snapshot import GpuSpec, ModelSpec, SystemSpec
from apps.review.engine.schemas import ReviewReport


class ReviewMeta(Schema):
    uuid: UUID
    organisation: str
    status: str
    verdict: str
    version: int
    file: str
    total_usd: str | None
    created_at: dt.datetime
    updated_at: dt.datetime
    url: str
    pdf_url: str
    decisions_url: str


class ReviewOut(ReviewReport):
    """The CONTRACT.md report, with one added field: `review`, where it stands (status and
    the version a decision must name)."""

    review: ReviewMeta


class ReviewPage(Schema):
    items: list[ReviewMeta]
    count: int
    page: int
    pages: int
    page_size: int
    next: str | None


class PdfStatusOut(Schema):
    status: Literal["queued", "running", "done", "failed", "none"]
    review_version: int
    error: str = ""
    url: str


class DecisionIn(Schema):
    action: Literal["approve", "reject", "request_changes", "resubmit"]
    reason: str
    expected_version: int


class DecisionOut(Schema):
    review: UUID
    action: str
    from_status: str
    to_status: str
    reason: str
    actor: str
    role: str
    quote_version: int
    created_at: dt.datetime


class DecisionPage(Schema):
    items: list[DecisionOut]
    count: int
    page: int
    pages: int
    page_size: int
    next: str | None


class DecisionResult(Schema):
    review: ReviewMeta
    decision: DecisionOut


class OrganisationOut(Schema):
    slug: str
    name: str


class CatalogOut(Schema):
    version: str
    gpus: list[GpuSpec]
    systems: list[SystemSpec]
    models: list[ModelSpec]
