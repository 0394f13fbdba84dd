"""An intake pauses the cyclic garbage collector while it reads and gives it back as it
found it: after a quote, after a refused file, and inside an intake that paused it."""

from __future__ import annotations

import gc

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes import intake
from apps.quotes.parsing import QuoteParseError

QUOTE = b"Part Number,Description,Qty,Unit Price\nDGXB-G1440+P2CMI36,NVIDIA DGX B200,2,515000\n"


@pytest.fixture
def collector_state():
    enabled = gc.isenabled()
    yield
    (gc.enable if enabled else gc.disable)()


def test_the_collector_is_paused_while_a_quote_is_read_and_runs_again_after(
    catalog: CatalogSnapshot, monkeypatch: pytest.MonkeyPatch, collector_state: None
) -> None:
    gc.enable()
    seen: list[bool] = []
    real = intake.bom_read

    def bom_read(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(intake, "bom_read", bom_read)
    assert intake.quote_intake(QUOTE, "quote.csv", catalog).systems
    assert seen == [False]
    assert gc.isenabled()


def test_a_refused_file_gives_the_collector_back(
    catalog: CatalogSnapshot, collector_state: None
) -> None:
    gc.enable()
    with pytest.raises(QuoteParseError):
        intake.quote_intake(b"Part Number,Description,Qty\nX,Y,-2\n", "quote.csv", catalog)
    assert gc.isenabled()


def test_an_intake_leaves_a_paused_collector_paused(
    catalog: CatalogSnapshot, collector_state: None
) -> None:
    gc.disable()
    intake.quote_intake(QUOTE, "quote.csv", catalog)
    assert not gc.isenabled()
