"""Webhooks: a decision, a flag and a publication are announced to the organisation's
endpoints, signed (HMAC-SHA256 over timestamp and body), sent by the task queue after commit,
and retried with backoff — against a real HTTP receiver on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.tasks import default_task_backend
from django.utils import timezone

from apps.review.services import review_store
from apps.review.webhooks import ReviewEvent, emit_review_event
from apps.review.workflow import review_decide
from apps.webhooks.models import DeliveryStatus, WebhookDelivery, WebhookEndpoint
from apps.webhooks.services import MAX_ATTEMPTS, retry_delay, webhook_attempt
from apps.webhooks.signing import webhook_signature, webhook_signature_valid
from tests.review.factories import FACILITY, WORKLOAD, quote_make, report_make, review_make

pytestmark = pytest.mark.django_db


@dataclass
class Receiver:
    """Answers each POST with the next status of `answers` (the last one repeats)."""

    answers: list[int]
    seen: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    url: str = ""


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver(answers=[500, 200])

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            headers = {k.lower(): v for k, v in self.headers.items()} | {"path": self.path}
            state.seen.append((headers, body))
            status = state.answers[min(len(state.seen), len(state.answers)) - 1]
            self.send_response(status)
            if status in (301, 302):
                self.send_header("Location", f"{state.url}elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook/"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


def _endpoint(organisation, url, events=("review.decided",)) -> WebhookEndpoint:
    return WebhookEndpoint.objects.create(organisation=organisation, url=url, events=list(events))


def test_a_decision_is_signed_and_a_failing_receiver_is_retried(
    demo, receiver, django_capture_on_commit_callbacks
):
    reseller = _endpoint(demo["reseller"], receiver.url)
    finance = User.objects.get(username="finance")
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    with django_capture_on_commit_callbacks(execute=True):
        review_decide(
            review_id=review.pk,
            expected_version=1,
            action="approve",
            reason="Margin is thin; approve",
            actor=finance,
        )
    # First answer 500, second 200: two POSTs of the same signed body.
    assert len(receiver.seen) == 2
    now = int(time.time())
    for headers, body in receiver.seen:
        assert headers["x-rightsize-event"] == "review.decided"
        assert webhook_signature_valid(
            secret=reseller.secret, header=headers["x-rightsize-signature"], body=body, now=now
        )
        assert headers["x-rightsize-signature"].startswith(f"t={headers['x-rightsize-timestamp']},")
    payload = json.loads(receiver.seen[1][1])
    assert payload["event"] == "review.decided"
    assert payload["review"]["uuid"] == str(review.uuid)
    assert (payload["review"]["status"], payload["review"]["version"]) == ("approved", 2)
    assert payload["decision"]["reason"] == "Margin is thin; approve"  # the reseller's own
    delivery = WebhookDelivery.objects.get()
    assert payload["id"] == str(delivery.event_id) == receiver.seen[0][0]["x-rightsize-delivery"]
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.DELIVERED, 2)
    assert [a["status_code"] for a in delivery.history] == [500, 200]
    assert delivery.history[0]["error"] == "HTTP 500"
    assert delivery.last_status_code == 200 and delivery.delivered_at is not None


def test_a_customers_endpoint_hears_the_outcome_not_financess_comment(
    demo, receiver, django_capture_on_commit_callbacks
):
    receiver.answers = [204]
    _endpoint(demo["acme"], receiver.url)
    _endpoint(demo["globex"], receiver.url)  # another organisation: hears nothing of acme's
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    with django_capture_on_commit_callbacks(execute=True):
        review_decide(
            review_id=review.pk,
            expected_version=1,
            action="reject",
            reason="FINANCE-ONLY margin note",
            actor=User.objects.get(username="finance"),
        )
    [(_headers, body)] = receiver.seen
    assert b"FINANCE-ONLY" not in body and b"finance" not in body
    assert json.loads(body)["decision"]["to_status"] == "rejected"
    assert WebhookDelivery.objects.get().status == DeliveryStatus.DELIVERED


def test_a_receiver_that_keeps_failing_is_given_up_after_six_attempts(
    demo, receiver, django_capture_on_commit_callbacks
):
    receiver.answers = [503]
    _endpoint(demo["reseller"], receiver.url, events=["review.published"])
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    with django_capture_on_commit_callbacks(execute=True):
        emit_review_event(review, ReviewEvent.PUBLISHED)
    delivery = WebhookDelivery.objects.get()
    assert len(receiver.seen) == MAX_ATTEMPTS == 6
    assert (delivery.status, delivery.attempts, delivery.next_attempt_at) == (
        DeliveryStatus.FAILED,
        6,
        None,
    )
    assert {a["status_code"] for a in delivery.history} == {503}
    assert webhook_attempt(delivery_id=delivery.pk).attempts == 6  # given up: not sent again
    assert len(receiver.seen) == 6


def test_redirects_are_not_followed(demo, receiver, settings):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    receiver.answers = [302]
    _endpoint(demo["reseller"], receiver.url, events=["review.published"])
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    [delivery] = emit_review_event(review, ReviewEvent.PUBLISHED)  # not committed: not sent yet
    delivery = webhook_attempt(delivery_id=delivery.pk)
    assert [h["path"] for h, _ in receiver.seen] == ["/hook/"]  # never /hook/elsewhere
    assert (delivery.last_status_code, delivery.last_error) == (302, "redirect not followed")
    assert delivery.status == DeliveryStatus.RETRYING


def test_retries_wait_in_the_queue_with_exponential_backoff(demo, receiver, settings):
    """On a backend that can defer (the database queue; here the dummy one), the retry is
    enqueued to run after 60 s × 2^(attempt − 1): 60 s after the first failure."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    receiver.answers = [500]
    _endpoint(demo["reseller"], receiver.url, events=["review.published"])
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    [delivery] = emit_review_event(review, ReviewEvent.PUBLISHED)
    before = timezone.now()
    delivery = webhook_attempt(delivery_id=delivery.pk)
    [retry] = default_task_backend.results
    assert retry.args == [delivery.pk]
    assert retry.task.run_after == delivery.next_attempt_at
    wait = (delivery.next_attempt_at - before).total_seconds()
    assert 60 <= wait < 65  # 60 s × 2^0, plus the time the attempt took
    # 1, 2, 4, 8, 16 minutes after attempts 1 to 5.
    assert [retry_delay(n).total_seconds() for n in range(1, 6)] == [60, 120, 240, 480, 960]


def test_the_request_that_decides_never_waits_for_the_receiver(
    demo, receiver, settings, django_capture_on_commit_callbacks
):
    """With a real queue the decision commits, the delivery is enqueued, and no POST has been
    made when review_decide returns."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    _endpoint(demo["reseller"], receiver.url)
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    with django_capture_on_commit_callbacks(execute=True):
        review_decide(
            review_id=review.pk,
            expected_version=1,
            action="approve",
            reason="ok",
            actor=User.objects.get(username="finance"),
        )
    assert receiver.seen == []
    queued = sorted(result.task.name for result in default_task_backend.results)
    assert queued == ["notification_email_task", "webhook_deliver_task"]  # one of each
    assert WebhookDelivery.objects.get().status == DeliveryStatus.PENDING


def test_a_review_sent_to_finance_is_announced_as_flagged(demo):
    endpoint = _endpoint(demo["reseller"], "https://hooks.example/rightsize", ["review.flagged"])
    account = User.objects.get(username="account")
    flagged = review_store(
        quote=quote_make(organisation=demo["acme"], user=account),
        workload=WORKLOAD,
        facility=FACILITY,
        report=report_make(),  # rack power critical → fail → PENDING
        created_by=account,
    )
    [delivery] = WebhookDelivery.objects.all()
    assert (delivery.endpoint, delivery.event, delivery.subject) == (
        endpoint,
        "review.flagged",
        str(flagged.uuid),
    )
    assert delivery.payload["review"]["status"] == "pending"
    assert delivery.payload["organisation"] == "acme"


def test_nothing_is_sent_to_endpoints_that_do_not_want_the_event(demo):
    _endpoint(demo["reseller"], "https://hooks.example/a", ["review.flagged"])
    WebhookEndpoint.objects.create(
        organisation=demo["reseller"],
        url="https://hooks.example/b",
        events=["review.published"],
        active=False,
    )
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    assert emit_review_event(review, ReviewEvent.PUBLISHED) == []


def test_only_http_urls_and_known_events_are_accepted(demo):
    endpoint = WebhookEndpoint(
        organisation=demo["acme"], url="file:///etc/passwd", events=["review.decided"]
    )
    with pytest.raises(ValidationError) as raised:
        endpoint.full_clean()
    assert "url" in raised.value.message_dict
    endpoint.url, endpoint.events = "https://hooks.example/x", ["review.sold"]
    with pytest.raises(ValidationError) as raised:
        endpoint.full_clean()
    assert "events" in raised.value.message_dict


def test_signatures_refuse_a_changed_body_a_wrong_secret_and_an_old_timestamp():
    body = b'{"event":"review.decided"}'
    header = webhook_signature(secret="s3cret", timestamp=1_764_601_200, body=body)
    ok = {"secret": "s3cret", "header": header, "body": body, "now": 1_764_601_200 + 299}
    assert webhook_signature_valid(**ok)
    assert not webhook_signature_valid(**(ok | {"body": body + b" "}))
    assert not webhook_signature_valid(**(ok | {"secret": "other"}))
    assert not webhook_signature_valid(**(ok | {"now": 1_764_601_200 + 301}))  # > 5 minutes
    assert not webhook_signature_valid(**(ok | {"header": "v1=deadbeef"}))


def test_a_resubmitted_review_is_flagged_again_not_decided(demo):
    from apps.review.models import ReviewStatus

    _endpoint(demo["reseller"], "https://hooks.example/r", ["review.flagged", "review.decided"])
    account = User.objects.get(username="account")
    review = review_make(
        organisation=demo["acme"], user=account, status=ReviewStatus.CHANGES_REQUESTED
    )
    review_decide(
        review_id=review.pk, expected_version=1, action="resubmit", reason="v2", actor=account
    )
    [delivery] = WebhookDelivery.objects.all()
    assert delivery.event == "review.flagged"
    assert (delivery.payload["review"]["status"], delivery.payload["review"]["version"]) == (
        "pending",
        2,
    )
    assert "decision" not in delivery.payload


def test_the_admin_sends_a_failed_delivery_again(demo, clients, receiver):
    receiver.answers = [200]
    _endpoint(demo["reseller"], receiver.url, events=["review.published"])
    review = review_make(organisation=demo["acme"], user=User.objects.get(username="account"))
    [delivery] = emit_review_event(review, ReviewEvent.PUBLISHED)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        status=DeliveryStatus.FAILED, attempts=MAX_ATTEMPTS
    )
    response = clients["admin"].post(
        "/admin/webhooks/webhookdelivery/",
        {"action": "send_again", "_selected_action": [delivery.pk]},
    )
    assert response.status_code == 302
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.DELIVERED, 1)
    assert len(receiver.seen) == 1


def test_publishing_a_review_announces_it_to_the_customers_endpoint(
    demo, receiver, django_capture_on_commit_callbacks
):
    from apps.review.models import ReviewStatus

    receiver.answers = [200]
    from apps.review.publishing import review_publish

    _endpoint(demo["acme"], receiver.url, events=["review.published"])
    account = User.objects.get(username="account")
    # Finance approved it: a flagged review is published only then
    review = review_make(organisation=demo["acme"], user=account, status=ReviewStatus.APPROVED)
    with django_capture_on_commit_callbacks(execute=True):
        review_publish(review_id=review.pk, expected_version=review.version, user=account)
    [(_headers, body)] = receiver.seen
    sent = json.loads(body)
    assert sent["event"] == "review.published"
    assert sent["review"]["uuid"] == str(review.uuid)
    assert WebhookDelivery.objects.get().status == DeliveryStatus.DELIVERED
