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
from django.test import override_settings

from apps.review import services
from apps.review.engine.schemas import Facility, Workload
from apps.review.models import Notification, ReviewStatus
from apps.review.workflow import review_decide
from tests.review.factories import quote_make, report_make, review_make

pytestmark = pytest.mark.django_db


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


def test_a_request_for_changes_tells_the_account_team(demo, people):
    review = review_make(organisation=demo["acme"], user=people["account"])
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


def test_a_decision_is_mailed_through_a_real_smtp_server(demo, people, smtp_server):
    controller, inbox = smtp_server
    review = review_make(organisation=demo["acme"], user=people["account"])
    smtp = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": controller.hostname, "port": controller.port, "timeout": 5},
        }
    }
    with override_settings(MAILERS=smtp):
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


def test_a_mail_server_that_is_down_loses_the_email_not_the_decision(demo, people):
    review = review_make(organisation=demo["acme"], user=people["account"])
    down = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": _free_port(), "timeout": 2},
        }
    }
    with override_settings(MAILERS=down):
        decided = review_decide(
            review_id=review.pk,
            expected_version=1,
            action="reject",
            reason="Too big",
            actor=people["finance"],
        )
    assert decided.status == ReviewStatus.REJECTED
    assert Notification.objects.filter(kind="decided").count() == 1  # the inbox still has it
