"""Corrections as the pages and services check them, and what confirming a sub-line does.

Quote: the shared examples' Dell configurator (2 × XE9680 with the HGX H200 board as an
"Included" sub-line, line 2).
"""

from __future__ import annotations

import pytest

from apps.quotes.corrections import CorrectionError, correction_check, line_role
from apps.quotes.intake import quote_intake_parsed
from apps.quotes.matching import mapping_key
from apps.quotes.parsing import parse_upload
from apps.quotes.schemas import LineCorrection, QuoteLineOut
from tests.conftest import EXAMPLES

DELL = EXAMPLES / "dell-xe9680-configurator-per-system" / "quote.csv"
XE9680_PART = ("Dell", "XE9680")


def _intake(path, catalog, **kw):
    return quote_intake_parsed(parse_upload(path.read_bytes(), path.name), catalog, **kw)


def _servers(intake, key: str) -> int:
    return sum(s.quantity for s in intake.systems if s.sku == key)


def test_confirming_a_sub_line_as_its_server_adds_no_server(catalog):
    """Line 2 ("1.1 NVIDIA HGX H200 141GB 700W SXM5, 8 GPUs", Included) confirmed as the
    XE9680 is part of line 1's 2 servers, not a third: 2 × 8 = 16 GPUs either way."""
    before = _intake(DELL, catalog)
    assert before.summary.lines[1].part_number == "490-BKJR"
    after = _intake(DELL, catalog, mappings={mapping_key("490-BKJR"): XE9680_PART})
    assert _servers(after, "dell-xe9680") == _servers(before, "dell-xe9680") == 2
    assert sum(s.quantity * s.gpus_per_system for s in after.systems) == 16  # 2 × 8


def test_a_system_or_gpu_the_catalog_does_not_know_is_a_clear_error(catalog):
    with pytest.raises(CorrectionError, match="no system 'dell-xe9999'"):
        correction_check(LineCorrection(system="dell-xe9999"), catalog)
    with pytest.raises(CorrectionError, match="no GPU 'b999'"):
        correction_check(LineCorrection(gpu="b999"), catalog)
    correction_check(LineCorrection(system="dell-xe9680", gpu="h200-sxm"), catalog)


def test_line_role_falls_back_to_the_match_while_the_reader_gives_none():
    assert line_role(QuoteLineOut(line=1, kind="system")) == "system"
    assert line_role(QuoteLineOut(line=1, kind="bridge")) == "nvlink_bridge"
    assert line_role(QuoteLineOut(line=1, kind="other", role="service")) == "service"
