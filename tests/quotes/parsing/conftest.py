"""Helpers for parser tests: build quote files in memory."""

from __future__ import annotations

from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
HEADER = "Part Number,Description,Qty,Unit Price,Extended Price"


def csv_bytes(*rows: str, header: str = HEADER, encoding: str = "utf-8") -> bytes:
    """A CSV quote with our usual header and the given data rows."""
    return ("\n".join((header, *rows)) + "\n").encode(encoding)


@pytest.fixture
def sample_bytes():
    def read(name: str) -> bytes:
        return (SAMPLES / name).read_bytes()

    return read
