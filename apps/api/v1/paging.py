"""Page-number pagination: `?page=2&page_size=50`, at most 100 a page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import EmptyPage, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.api.errors import ApiProblem

MAX_PAGE_SIZE = 100
DEFAULT_PAGE_SIZE = 25


@dataclass(frozen=True)
class Page:
    rows: list[Any]
    count: int
    page: int
    pages: int
    page_size: int
    next: str | None


def page_of(request: HttpRequest, rows: QuerySet[Any], *, page: int, page_size: int) -> Page:
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise ApiProblem(
            400,
            "invalid_request",
            f"page_size: between 1 and {MAX_PAGE_SIZE}",
            [{"field": "page_size", "message": f"between 1 and {MAX_PAGE_SIZE}"}],
        )
    paginator = Paginator(rows, page_size)
    try:
        current = paginator.page(page)
    except EmptyPage:
        if page >= 1 and paginator.count == 0:
            current = paginator.page(1)
        else:
            raise ApiProblem(
                400,
                "invalid_request",
                f"page: no page {page}; pages run from 1 to {paginator.num_pages}",
                [{"field": "page", "message": f"pages run from 1 to {paginator.num_pages}"}],
            ) from None
    following = None
    if current.has_next():
        query = request.GET.copy()
        query["page"] = str(current.next_page_number())
        following = f"{request.path}?{query.urlencode()}"
    return Page(
        rows=list(current.object_list),
        count=paginator.count,
        page=current.number,
        pages=paginator.num_pages,
        page_size=page_size,
        next=following,
    )


def page_body(page: Page, items: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "items": items,
        "count": page.count,
        "page": page.page,
        "pages": page.pages,
        "page_size": page.page_size,
        "next": page.next,
    }
