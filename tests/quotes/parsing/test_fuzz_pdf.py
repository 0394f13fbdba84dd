"""The PDF reader's bounded fuzz target (RELIABILITY 12): mutated copies of a
real vendor PDF give a ParsedQuote or a deliberate QuoteParseError, never another exception,
and never take longer than the sandbox's wall-clock limit. Few examples: each one starts the
sandbox child (~0.5 s), which is the point — the child, not this process, meets the bytes."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.quotes.parsing import ParsedQuote, QuoteParseError, parse_upload
from apps.quotes.parsing.sandbox import WALL_LIMIT_SECONDS
from tests.quotes.parsing.conftest import SAMPLES

PDF = (SAMPLES / "lenovo_sr680a.pdf").read_bytes()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edits=st.lists(
        st.tuples(st.integers(min_value=0, max_value=len(PDF)), st.binary(min_size=1, max_size=32)),
        min_size=1,
        max_size=8,
    ),
    cut=st.integers(min_value=0, max_value=len(PDF) - 10),
)
def test_mutated_pdfs_raise_only_quote_parse_error(edits, cut: int) -> None:
    data = bytearray(PDF)
    for position, replacement in edits:
        data[position : position + len(replacement)] = replacement
    started = time.perf_counter()
    try:
        result = parse_upload(bytes(data[: len(data) - cut]), "quote.pdf")
    except QuoteParseError as error:
        assert error.internal is False
        assert str(error).startswith("quote.pdf")
    else:
        assert isinstance(result, ParsedQuote)
    assert time.perf_counter() - started < WALL_LIMIT_SECONDS + 5
