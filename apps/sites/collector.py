"""The cyclic garbage collector paused around one long piece of work that builds a great many
objects and frees them all at once afterwards.

A 10,000-line intake allocates some 100,000 objects (lines, rows, matches, lines out) and a
35-page PDF some 54,000 (boxes, styles), alive until the work returns: every collection triggered
meanwhile finds nothing to free and only scans them and everything else in the process (a
tenth to a quarter of a 10,000-line intake; 70 ms of a 500-line PDF, 300 ms when a full
collection falls inside it: bench/README.md). What the work leaves in cycles is collected
by the next collection after it. Pure: the standard library only.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside the block; the collector runs again afterwards if it ran
    before (a pause inside another leaves that to the outer one), whatever the block raised."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
