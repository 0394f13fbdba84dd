"""`collector_paused`: no cyclic collection inside the block, the collector given back as it
was found (on, off, after an exception, inside another pause)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from apps.sites.collector import collector_paused


@pytest.fixture(autouse=True)
def _collector_state() -> Iterator[None]:
    enabled = gc.isenabled()
    yield
    (gc.enable if enabled else gc.disable)()


def test_paused_inside_and_running_again_after() -> None:
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_given_back_after_an_exception() -> None:
    gc.enable()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("the work failed")
    assert gc.isenabled()


def test_a_pause_inside_a_pause_leaves_the_outer_one_paused() -> None:
    gc.enable()
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()
