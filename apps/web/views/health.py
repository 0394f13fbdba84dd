"""Health for load balancers and orchestrators, both without a login.

``/healthz``: the process answers (no database, no storage), for a liveness probe that should
restart only a hung process. ``/readyz``: the database answers, the file storage answers and
no migration is waiting, for a readiness probe that keeps traffic away until then; 503 with
the failing part named otherwise.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.core.files.storage import default_storage
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

_migrated: dict[str, bool] = {}  # once all are applied, a running process never re-reads them


def _database() -> str:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")
    return "ok"


def _storage() -> str:
    default_storage.exists("uploads")  # a HEAD/list on S3, a stat on disk
    return "ok"


def _migrations() -> str:
    if _migrated.get(DEFAULT_DB_ALIAS):
        return "ok"
    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if pending:
        return f"{len(pending)} unapplied"
    _migrated[DEFAULT_DB_ALIAS] = True
    return "ok"


@login_not_required
@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@login_not_required
@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, str] = {}
    for name, probe in (("database", _database), ("storage", _storage)):
        try:
            checks[name] = probe()
        except Exception as exc:  # the probe's answer is the failure, named
            checks[name] = f"unreachable ({type(exc).__name__})"
    if checks["database"] == "ok":
        checks["migrations"] = _migrations()
    else:
        checks["migrations"] = "unknown"
    ready = all(v == "ok" for v in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", **checks}, status=200 if ready else 503
    )
