"""The throttle's file-based cache lists its folder at most once a second per process, and
still culls a folder past MAX_ENTRIES (apps/sites/throttle_cache.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from apps.sites import throttle_cache
from apps.sites.throttle_cache import ThrottleFileCache


@pytest.fixture
def clock(monkeypatch) -> list[float]:
    now = [1000.0]
    monkeypatch.setattr(throttle_cache.time, "monotonic", lambda: now[0])
    return now


def _cache(folder: Path, max_entries: int = 5000) -> ThrottleFileCache:
    return ThrottleFileCache(str(folder), {"OPTIONS": {"MAX_ENTRIES": max_entries}})


def test_a_burst_of_writes_lists_the_folder_once(tmp_path, clock, monkeypatch) -> None:
    cache = _cache(tmp_path)
    listings = []
    real = cache._list_cache_files
    monkeypatch.setattr(cache, "_list_cache_files", lambda: listings.append(1) or real())
    for n in range(50):
        cache.set(f"k{n}", n, 60)
    assert len(listings) == 1
    clock[0] += throttle_cache.CULL_INTERVAL_S
    cache.set("later", 1, 60)
    assert len(listings) == 2
    assert [cache.get(f"k{n}") for n in (0, 49)] == [0, 49]  # reads and writes are Django's


def test_a_folder_past_max_entries_is_still_culled(tmp_path, clock) -> None:
    cache = _cache(tmp_path, max_entries=10)
    for n in range(10):
        cache.set(f"k{n}", n, 60)
    assert len(list(tmp_path.glob("*.djcache"))) == 10
    clock[0] += throttle_cache.CULL_INTERVAL_S
    cache.set("over", 1, 60)  # the next look: a third of the entries go (CULL_FREQUENCY 3)
    assert len(list(tmp_path.glob("*.djcache"))) < 10


def test_incr_counts_across_two_processes_views_of_the_folder(tmp_path, clock) -> None:
    one, other = _cache(tmp_path), _cache(tmp_path)
    assert one.add("count", 1, 60)
    assert not other.add("count", 1, 60)
    assert other.incr("count") == 2
    assert one.get("count") == 2
