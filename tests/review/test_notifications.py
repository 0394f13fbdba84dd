"""Notifications: Finance is told when a review needs it, the account team when Finance decides
or asks for changes. Through Django's locmem backend, and through a real SMTP server listening
on loopback (aiosmtpd), as production sends."""

from __future__ import annotations

import socket
from email import message_from_bytes
from email.header import decode_header, make_header

import pytest
from aiosmtpd.controller import Controller
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend
from django.db import transaction
from django.tasks import task_backends
from django.test import override_settings

from apps.review import services
from apps.review.engine.schemas import Facility, Workload
from apps.review.models import Notification, ReviewStatus
from apps.review.tasks import notification_email_task
from apps.review.workflow import review_decide
from tests.review.factories import quote_make, report_make, review_make

pytestmark = pytest.mark.django_db


class RecordingBackend(LocmemBackend):
    """The locmem outbox, counting every send (each one a connection to a real SMTP server)."""

    opened = 0

    def send_messages(self, messages):
        type(self).opened += 1
        return super().send_messages(messages)


OPENED_IS_RECORDED = {"default": {"BACKEND": f"{__name__}.RecordingBackend"}}


@pytest.fixture
def people(demo):
    return {u.username: u for u in User.objects.all()}


def test_finance_is_told_when_a_new_review_needs_it(
    demo, people, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(services, "review_report", lambda **_: report_make())
    with django_capture_on_commit_callbacks(execute=True):
        review = services.review_create(
            quote=quote_make(organisation=demo["acme"], user=people["account"]),
            workload=Workload(kind="inference", model="Qwen3-32B"),
            facility=Facility(),
            created_by=people["account"],
        )
    assert review.status == ReviewStatus.PENDING
    note = Notification.objects.get(kind="needs_finance")
    assert note.user == people["finance"] and note.review == review
    assert "Critical: Rack power." in note.body
    assert [m.to for m in mail.outbox] == [["finance@example.com"]]


def test_a_request_for_changes_tells_the_account_team(
    demo, people, django_capture_on_commit_callbacks
):
    review = review_make(organisation=demo["acme"], user=people["account"])
    with django_capture_on_commit_callbacks(execute=True):
        review_decide(
            review_id=review.pk,
            expected_version=1,
            action="request_changes",
            reason="Ask for the PCIe server",
            actor=people["finance"],
        )
    note = Notification.objects.get(kind="decided")
    assert note.user == people["account"]
    assert note.subject == f"Changes requested: {review.quote}"
    assert "Ask for the PCIe server" in note.body
    assert mail.outbox[0].to == ["account@example.com"]


class Inbox:
    """The aiosmtpd handler: keeps every message the server accepts."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def smtp_server():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        yield controller, inbox
    finally:
        controller.stop()


def test_a_decision_is_mailed_through_a_real_smtp_server(
    demo, people, smtp_server, django_capture_on_commit_callbacks
):
    controller, inbox = smtp_server
    review = review_make(organisation=demo["acme"], user=people["account"])
    smtp = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": controller.hostname, "port": controller.port, "timeout": 5},
        }
    }
    with override_settings(MAILERS=smtp), django_capture_on_commit_callbacks(execute=True):
        review_decide(
            review_id=review.pk,
            expected_version=1,
            action="approve",
            reason="Budgeted for Q1",
            actor=people["finance"],
        )
    assert len(inbox.messages) == 1
    sender, recipients, content = inbox.messages[0]
    assert sender == "rightsize@localhost" and recipients == ["account@example.com"]
    message = message_from_bytes(content)
    assert str(make_header(decode_header(message["Subject"]))) == f"Approved: {review.quote}"
    body = message.get_payload(decode=True).decode()
    assert "Budgeted for Q1" in body and f"/reviews/{review.uuid}/" in body
    assert Notification.objects.filter(kind="decided", user=people["account"]).count() == 1


def test_a_mail_server_that_is_down_loses_the_email_not_the_decision(
    demo, people, caplog, django_capture_on_commit_callbacks
):
    review = review_make(organisation=demo["acme"], user=people["account"])
    down = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": _free_port(), "timeout": 2},
        }
    }
    with override_settings(MAILERS=down), django_capture_on_commit_callbacks(execute=True):
        decided = review_decide(
            review_id=review.pk,
            expected_version=1,
            action="reject",
            reason="Too big",
            actor=people["finance"],
        )
    assert decided.status == ReviewStatus.REJECTED
    assert Notification.objects.filter(kind="decided").count() == 1  # the inbox still has it
    assert "notification email to account@example.com failed" in caplog.text


def test_a_rolled_back_decision_mails_nothing(demo, people, django_capture_on_commit_callbacks):
    review = review_make(organisation=demo["acme"], user=people["account"])
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        review_decide(
            review_id=review.pk,
            expected_version=1,
            action="approve",
            reason="Budgeted for Q1",
            actor=people["finance"],
        )
        raise RuntimeError("the caller's transaction fails after the decision")
    assert callbacks == [] and mail.outbox == []
    assert not Notification.objects.exists()
    review.refresh_from_db()
    assert review.status == ReviewStatus.PENDING


DUMMY_TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


def test_the_decision_enqueues_its_email_and_opens_no_mail_connection(
    clients, demo, people, django_capture_on_commit_callbacks
):
    review = review_make(organisation=demo["acme"], user=people["account"])
    RecordingBackend.opened = 0
    with override_settings(TASKS=DUMMY_TASKS, MAILERS=OPENED_IS_RECORDED):
        with django_capture_on_commit_callbacks(execute=True):
            response = clients["finance"].post(
                f"/reviews/{review.uuid}/approve/",
                {"version": 1, "reason": "Budgeted for Q1", "next": "/"},
            )
        assert response.status_code == 302
        assert RecordingBackend.opened == 0 and mail.outbox == []
        assert Notification.objects.filter(kind="decided").count() == 1  # the inbox: at once
        (queued,) = task_backends["default"].results  # one email task for the decision
        assert queued.task.name == "notification_email_task"
        assert queued.task.call(*queued.args) == 1  # the worker's run: now the mail goes
    assert RecordingBackend.opened == 1
    assert [m.to for m in mail.outbox] == [["account@example.com"]]


def test_the_email_task_logs_a_refused_mail_server_and_does_not_raise(demo, people, caplog):
    note = Notification.objects.create(
        user=people["account"], review=None, kind="decided", subject="Approved: Q", body="ok"
    )
    refused = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": _free_port(), "timeout": 2},
        }
    }
    with override_settings(MAILERS=refused):
        assert notification_email_task.call([note.pk]) == 0
    assert "notification email to account@example.com failed" in caplog.text
