"""The texts of a workbook's lines read ahead, batch by batch (``reading.bom_texts``), read
the quote exactly as reading them once every line is in: the roles, the GPUs each row
carries (never one mention shared by two rows) and the vehicles."""

from __future__ import annotations

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_line_roles import bom_texts
from apps.quotes.matching import lines_match
from apps.quotes.parsing import parse_upload
from apps.quotes.reading import bom_read

QUOTE = (
    "Item,Part Number,Description,Qty,Unit Price,Extended Price\n"
    "1,,NVIDIA HGX H200 8-GPU server,2,300000,600000\n"
    "1.1,,8x NVIDIA HGX H200 141GB SXM5 board,1,0,0\n"
    "1.2,,ProSupport Plus 3yr next business day,1,5000,5000\n"
    "2,,NVIDIA HGX H200 8-GPU server,1,300000,300000\n"
    "2.1,,8x NVIDIA HGX H200 141GB SXM5 board,1,0,0\n"
    "3,,NVIDIA L40S 48GB PCIe card,4,9000,36000\n"
    "4,,Rail kit for 4U chassis,2,100,200\n"
)


def _reading(catalog: CatalogSnapshot, ahead: bool) -> tuple[object, ...]:
    parsed = parse_upload(QUOTE.encode(), "quote.csv")
    matches = lines_match([(li.part_number, li.description) for li in parsed.lines], catalog)
    texts = None
    if ahead:
        texts = bom_texts(catalog)
        for start in range(0, len(parsed.lines), 2):  # in batches, as a workbook's arrive
            texts.lines_read_ahead(parsed.lines[start : start + 2])
    reading = bom_read(parsed, catalog, matches=matches, texts=texts)
    mentions = [row.gpu for row in reading.rows if row.gpu is not None]
    assert len({id(m) for m in mentions}) == len(mentions)  # each row its own mention
    return (
        [(row.role, row.gpu, row.head_category, row.guessed, row.parent) for row in reading.rows],
        [system.model_dump() for system in reading.systems],
        reading.text,
        [problem.model_dump() for problem in reading.problems],
    )


def test_lines_read_ahead_read_as_lines_read_at_the_end(catalog: CatalogSnapshot) -> None:
    ahead = _reading(catalog, ahead=True)
    assert ahead == _reading(catalog, ahead=False)
    assert sum(s["quantity"] for s in ahead[1]) == 3  # type: ignore[index, union-attr]


class _Forgetful(dict):  # type: ignore[type-arg]
    """A first-pass memo that keeps nothing: every line read afresh, as before the memo."""

    def __setitem__(self, key: object, value: object) -> None:
        pass


REPEATS = (
    "Item,Part Number,Description,Qty,Unit Price,Extended Price\n"
    "1,,NVIDIA HGX H200 8-GPU server,1,300000,300000\n"
    "1.1,,Freight and shipping,1,100,100\n"
    "1.2,,NVIDIA HGX H200 8-GPU server,1,0,0\n"
    "2,,Freight and shipping,1,100,100\n"
    "3,,Freight and shipping,,,100\n"
    "4,,NVIDIA HGX H200 8-GPU server,1,-300,-300\n"
    "5,,NVIDIA HGX H200 8-GPU server,,,\n"
    "6,SKU-1,HGX B300 8-GPU board,1,1,1\n"
    "7,SKU-1,HGX B300 8-GPU board,1,1,1\n"
    # One description under part numbers that say different things (a Lenovo CTO, a Cisco
    # service, an HPE option suffix, a plain SKU): the first pass is kept by what the part
    # number says, so each reads as it would alone.
    "8,7DDHCTO1WW,ThinkSystem SR680a V3 with 8x H200,1,250000,250000\n"
    "9,CON-SNT-UCSC8XGPU,ThinkSystem SR680a V3 with 8x H200,1,9000,9000\n"
    "10,P12345-B21 0D1,ThinkSystem SR680a V3 with 8x H200,1,0,0\n"
    "11,SKU-2,ThinkSystem SR680a V3 with 8x H200,1,250000,250000\n"
    "12,SKU-3,ThinkSystem SR680a V3 with 8x H200,1,250000,250000\n"
)


def test_a_line_read_once_reads_as_each_of_its_repeats_read_afresh(
    catalog: CatalogSnapshot,
) -> None:
    """The same text under another item number, without a price or with a negative one
    reads as it does on its own (freight under a system is not kept: its item number
    decides)."""
    parsed = parse_upload(REPEATS.encode(), "quote.csv")
    matches = lines_match([(li.part_number, li.description) for li in parsed.lines], catalog)
    afresh = bom_texts(catalog)
    afresh.first_passes = _Forgetful()
    kept = bom_read(parsed, catalog, matches=matches)
    fresh = bom_read(parsed, catalog, matches=matches, texts=afresh)
    assert [(r.role, r.gpu, r.head_category, r.guessed, r.parent) for r in kept.rows] == [
        (r.role, r.gpu, r.head_category, r.guessed, r.parent) for r in fresh.rows
    ]
    assert kept.text == fresh.text
    assert len({r.role for r in kept.rows}) >= 3
    by_text = {(r.part_number, r.text): r.role for r in kept.rows if r.text.startswith("Think")}
    said = "ThinkSystem SR680a V3 with 8x H200"
    assert [by_text[pn, said] for pn in ("7DDHCTO1WW", "CON-SNT-UCSC8XGPU", "P12345-B21 0D1")] == [
        "system",
        "service",
        "note",
    ]
    assert by_text["SKU-2", said] == by_text["SKU-3", said] == "system"
    assert len(afresh.first_passes) == 0 and len(kept_memo(parsed, catalog, matches)) < 12


def kept_memo(parsed, catalog, matches) -> dict:  # type: ignore[no-untyped-def]
    """The first passes a reading keeps: one per text and what its part number says."""
    texts = bom_texts(catalog)
    bom_read(parsed, catalog, matches=matches, texts=texts)
    return texts.first_passes
