from django.urls import path

from . import views, views_finance

app_name = "review"
urlpatterns: list = []

# --- The review page and its htmx partials (apps/review/views.py) ---------------------------
urlpatterns += [
    path("<uuid:uuid>/", views.review_detail, name="detail"),
    path("<uuid:uuid>/rerun/", views.review_rerun_view, name="rerun"),
    path("<uuid:uuid>/preview/", views.review_preview_view, name="preview"),
    path("<uuid:uuid>/revise/", views.review_revise_view, name="revise"),
]
# --- end of the review page block ----------------------------------------------------------

# --- Spreadsheet export, formula-safe (apps/review/views_export.py, RELIABILITY 14) ----------
from . import views_export  # noqa: E402

urlpatterns += [
    path("<uuid:uuid>/export.<str:fmt>", views_export.review_export, name="export"),
]

# --- The Finance queue and the workflow decisions (apps/review/views_finance.py) -------------
urlpatterns += [
    path("queue/", views_finance.finance_queue, name="queue"),
    path("<uuid:review_uuid>/approve/", views_finance.review_approve, name="approve"),
    path("<uuid:review_uuid>/reject/", views_finance.review_reject, name="reject"),
    path(
        "<uuid:review_uuid>/request-changes/",
        views_finance.review_request_changes,
        name="request_changes",
    ),
    path("<uuid:review_uuid>/resubmit/", views_finance.review_resubmit, name="resubmit"),
]
# --- end of the Finance block ----------------------------------------------------------------

# --- The compare page: competing quotes side by side (apps/review/views_compare.py, issue 7) ---
from . import views_compare  # noqa: E402

urlpatterns += [
    path("compare/", views_compare.compare_view, name="compare"),
]
# --- end of the compare block ----------------------------------------------------------------
