from django.urls import path

from apps.web.views import (
    compare,
    comparisons,
    corrections,
    export,
    finance,
    publishing,
    review,
)

app_name = "review"
urlpatterns = [
    # The review page and its htmx partials.
    path("<uuid:uuid>/", review.review_detail, name="detail"),
    path("<uuid:uuid>/rerun/", review.review_rerun_view, name="rerun"),
    path("<uuid:uuid>/preview/", review.review_preview_view, name="preview"),
    path("<uuid:uuid>/revise/", review.review_revise_view, name="revise"),
    # Correct how a line was read, and undo it (the review re-runs).
    path(
        "<uuid:uuid>/lines/<int:line>/correct/",
        corrections.review_line_correct_view,
        name="line_correct",
    ),
    path("<uuid:uuid>/lines/<int:line>/undo/", corrections.review_line_undo_view, name="line_undo"),
    # Spreadsheet export, formula-safe (RELIABILITY 14).
    path("<uuid:uuid>/export.<str:fmt>", export.review_export, name="export"),
    # The Finance queue and the workflow decisions.
    path("queue/", finance.finance_queue, name="queue"),
    path("<uuid:review_uuid>/approve/", finance.review_approve, name="approve"),
    path("<uuid:review_uuid>/reject/", finance.review_reject, name="reject"),
    path(
        "<uuid:review_uuid>/request-changes/",
        finance.review_request_changes,
        name="request_changes",
    ),
    path("<uuid:review_uuid>/resubmit/", finance.review_resubmit, name="resubmit"),
    # Publishing to the customer (a frozen copy of one version).
    path("<uuid:review_uuid>/publish/", publishing.review_publish_view, name="publish"),
    # Competing quotes side by side.
    path("compare/", compare.compare_view, name="compare"),
    path("compare/save/", comparisons.comparison_save_view, name="comparison_save"),
    path("comparisons/", comparisons.comparison_list_view, name="comparisons"),
    path("comparisons/<uuid:uuid>/", comparisons.comparison_detail_view, name="comparison"),
    path("comparisons/<uuid:uuid>/pdf/", comparisons.comparison_pdf_view, name="comparison_pdf"),
]
