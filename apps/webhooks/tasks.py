"""The delivery task: `db_worker` runs it in dev and production (retries wait in the queue
with `run_after`); the ImmediateBackend runs it, and its retries, inline in tests."""

from __future__ import annotations

from django.tasks import task

from apps.webhooks.services import webhook_attempt


@task
def webhook_deliver_task(delivery_id: int) -> str:
    return webhook_attempt(delivery_id=delivery_id).status
