"""The serving process freezes its long-lived objects after its 1st, 10th and 100th request."""

import gc

import pytest
from django.core.signals import request_finished

from apps.sites import warmup

# Sending request_finished also runs Django's own receivers (closing old connections).
pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh_count(monkeypatch):
    monkeypatch.setattr(warmup, "_finished", 0)
    yield
    gc.unfreeze()


def test_what_is_alive_is_frozen_after_the_first_and_tenth_request_only(fresh_count):
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    request_finished.send(sender=None)  # request 1: frozen
    after_first = gc.get_freeze_count()
    assert after_first > 0
    kept_lists = [[n] for n in range(1000)]
    for _ in range(8):  # requests 2..9: nothing frozen
        request_finished.send(sender=None)
    assert gc.get_freeze_count() == after_first
    request_finished.send(sender=None)  # request 10: the 1,000 lists now frozen too
    assert gc.get_freeze_count() >= after_first + 1000
    assert len(kept_lists) == 1000
