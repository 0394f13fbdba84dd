"""The original upload, as the vendor sent it, through a view that authorises it.

Uploads are never served from /media/: the account team and Finance download the original
here (RELIABILITY 30); customers read the review and its PDF instead.
"""

from __future__ import annotations

from django.http import FileResponse, HttpRequest
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from apps.quotes.models import Quote
from apps.quotes.storage import blob_open
from apps.sites.access import INTERNAL_ROLES, require_roles, scope_for_user


@require_GET
@require_roles(*INTERNAL_ROLES)
def quote_original(request: HttpRequest, quote_uuid: str) -> FileResponse:
    quote = get_object_or_404(
        scope_for_user(Quote.objects.select_related("source_file"), request.user), uuid=quote_uuid
    )
    source = quote.source_file
    response = FileResponse(
        blob_open(source.blob),
        as_attachment=True,
        filename=quote.display_name or f"quote-{quote.uuid}.{source.detected_type}",
        content_type=source.content_type or "application/octet-stream",
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response
