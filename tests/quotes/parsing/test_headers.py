"""Header-row detection by synonyms (EN/DE/FR/ES) and the letterhead metadata."""

from __future__ import annotations

import pytest

from apps.quotes.parsing.headers import header_map, header_normalize, is_header
from apps.quotes.parsing.metadata import date_normalize, metadata_read, vendor_known


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        (
            ["Mfr Part #", "Item Description", "Quantity", "Unit Cost", "Ext. Cost"],
            ["part_number", "description", "quantity", "unit_price", "extended_price"],
        ),
        (
            ["Artikelnummer", "Beschreibung", "Menge", "Einzelpreis", "Gesamtpreis"],
            ["part_number", "description", "quantity", "unit_price", "extended_price"],
        ),
        (
            ["Référence", "Désignation", "Quantité", "Prix unitaire", "Montant"],
            ["part_number", "description", "quantity", "unit_price", "extended_price"],
        ),
        (
            ["Número de pieza", "Descripción", "Cantidad", "Precio unitario", "Importe"],
            ["part_number", "description", "quantity", "unit_price", "extended_price"],
        ),
        (
            ["SKU", "Description", "Anzahl", "Unit Price (EUR)", "Total"],
            ["part_number", "description", "quantity", "unit_price", "extended_price"],
        ),
        (
            ["Item", "Part Number", "Description", "Qty", "Unit Price", "Extended Price"],
            [None, "part_number", "description", "quantity", "unit_price", "extended_price"],
        ),
        # Taiwanese ODM quotations (Foxconn, Wiwynn, Quanta) write "Q'ty"
        (
            ["Item", "Part No.", "Description", "Q'ty", "Unit Price", "Amount"],
            [None, "part_number", "description", "quantity", "unit_price", "extended_price"],
        ),
        # An APAC distributor's "Model | Specification" and a builder's per-server quantity
        # beside the number of servers it is for.
        (
            ["S/N", "Model", "Specification", "Qty", "Unit Price (USD)", "Total (USD)"],
            [None, "part_number", "description", "quantity", "unit_price", "extended_price"],
        ),
        (
            ["Item", "Part Number", "Description", "Qty per Server", "Servers", "Unit Price"],
            [None, "part_number", "description", "quantity", "system_count", "unit_price"],
        ),
        (
            ["Item", "Part Number", "Description", "Qty/Sys", "Total Qty", "Extended Price"],
            [None, "part_number", "description", None, "quantity", "extended_price"],
        ),
        # Japanese and Chinese column names, a currency in brackets beside them.
        (
            ["No.", "品番", "品名", "数量", "単価（円）", "金額（円）"],
            [None, "part_number", "description", "quantity", "unit_price", "extended_price"],
        ),
        (
            ["序号", "型号", "名称", "数量", "单价", "金额 (USD)"],
            [None, "part_number", "description", "quantity", "unit_price", "extended_price"],
        ),
        # Korean and Traditional Chinese: the currency beside the name ("원" = won, "NT$"),
        # a remarks (비고) or unit (單位) column left alone.
        (
            ["순번", "부품번호", "제품명", "수량", "단가(원)", "금액(원)", "비고"],
            [None, "part_number", "description", "quantity", "unit_price", "extended_price", None],
        ),
        (
            ["No", "품번", "사양", "수량", "단가 (VAT 별도)", "합계금액"],
            [None, "part_number", "description", "quantity", "unit_price", "extended_price"],
        ),
        (
            ["項次", "料號", "品名", "數量", "單位", "單價(NT$)", "金額(NT$)"],
            [None, "part_number", "description", "quantity", None, "unit_price", "extended_price"],
        ),
        (
            ["品號", "說明", "數量", "單價 (未稅)", "小計"],
            ["part_number", "description", "quantity", "unit_price", "extended_price"],
        ),
    ],
)
def test_header_synonyms_in_six_languages(cells: list[str], expected: list[str | None]) -> None:
    mapping = header_map(cells)
    by_index = {index: field for field, index in mapping.items()}
    assert [by_index.get(index) for index in range(len(cells))] == expected
    assert is_header(mapping)


def test_item_is_the_part_number_when_nothing_better_exists() -> None:
    assert header_map(["Item", "Description", "Qty"])["part_number"] == 0


def test_unit_net_price_beats_unit_list_price() -> None:
    mapping = header_map(["Product #", "Description", "Unit List Price", "Unit Net Price"])
    assert mapping["unit_price"] == 3


def test_the_order_quantity_beats_the_per_system_one() -> None:
    # Lenovo DCSC: the total price is the unit price times "Total Qty"; "Qty per System" is
    # the configuration's own count and is the quantity only when it is the only one.
    cells = ["Part Number", "Product Description", "Qty per System", "Total Qty", "Unit Price"]
    assert header_map(cells)["quantity"] == 3
    assert header_map(["Part Number", "Description", "Qty per System"])["quantity"] == 2
    # two columns run together are not a quantity column
    assert "quantity" not in header_map(["Part", "Qty;Description"])


def test_a_title_row_is_not_a_header() -> None:
    assert not is_header(header_map(["Quote #: Q-1", "Date: 2025-03-01"]))
    assert not is_header(header_map(["Qty", "Unit Price"]))  # no part or description


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("Mfr Part #", "mfr part"),
        ("Désignation", "designation"),
        ("Unit Price (EUR)", "unit price"),
        ("Prix unitaire HT", "prix unitaire"),
        ("Stückpreis", "stuckpreis"),
    ],
)
def test_header_normalize(text: str, normalised: str) -> None:
    assert header_normalize(text) == normalised


def test_metadata_from_label_value_pairs_and_single_cells() -> None:
    meta = metadata_read(
        [
            ["Dell Technologies"],
            ["Quote #: 3000178224.1", ""],
            ["Date", "03/14/2025"],
            ["Currency", "eur"],
        ]
    )
    assert meta == {
        "vendor": "Dell",
        "quote_number": "3000178224.1",
        "quote_date": "03/14/2025",
        "currency": "EUR",
    }


@pytest.mark.parametrize(
    ("row", "field", "value"),
    [
        (["Angebotsnummer: 4711-2025"], "quote_number", "4711-2025"),
        (["Devis n° D-2025-077"], "quote_number", "D-2025-077"),
        (["Cotización: COT-2025-3310"], "quote_number", "COT-2025-3310"),
        (["Quote Number Q-77"], "quote_number", "Q-77"),
        # Builders' letterheads: a label whose colon follows its "#", a distributor's "Ref
        # No:", a PDF's one-cell "Quotation MWQ-58214".
        (["Quote #:", "ASQ-26-1942"], "quote_number", "ASQ-26-1942"),
        (["Ref No:", "SDI/Q/2026/0318"], "quote_number", "SDI/Q/2026/0318"),
        (["Quotation MWQ-58214"], "quote_number", "MWQ-58214"),
        (["Penguin Computing Quote Q-2026-3318"], "quote_number", "Q-2026-3318"),
        (["見積番号：TGS-2026-0441"], "quote_number", "TGS-2026-0441"),
        (["报价单号", "BJ-Q-2026-0133"], "quote_number", "BJ-Q-2026-0133"),
        (["見積日", "2026/05/20"], "quote_date", "2026/05/20"),
        (["币种：USD"], "currency", "USD"),
        (["견적번호: HBD-Q-2026-0517"], "quote_number", "HBD-Q-2026-0517"),
        (["견적일", "2026-06-03"], "quote_date", "2026-06-03"),
        (["통화", "KRW"], "currency", "KRW"),
        (["報價單號：DXAI-TP-2026-0219"], "quote_number", "DXAI-TP-2026-0219"),
        (["報價日期", "2026/06/10"], "quote_date", "2026/06/10"),
        (["幣別", "NT$"], "currency", "TWD"),
        (["Datum: 14.03.2025"], "quote_date", "14.03.2025"),
        (["Supplier:", "Acme Systems GmbH"], "vendor", "Acme Systems GmbH"),
        (["Moneda: EUR"], "currency", "EUR"),
        (["Währung", "CHF"], "currency", "CHF"),
        # Fujitsu's offers and Lenovo's DCSC exports label the title block their own way
        (["Offer No.: FTS-DE-2026-031877"], "quote_number", "FTS-DE-2026-031877"),
        (["Offer Date: 18.03.2026"], "quote_date", "18.03.2026"),
        (["Configuration Date", "2026-06-11"], "quote_date", "2026-06-11"),
    ],
)
def test_metadata_labels(row: list[str], field: str, value: str) -> None:
    assert metadata_read([row])[field] == value


def test_unknown_currency_label_value_is_dropped() -> None:
    assert "currency" not in metadata_read([["Currency", "Bitcoin"]])


@pytest.mark.parametrize(
    ("text", "vendor"),
    [
        ("Hewlett Packard Enterprise", "HPE"),
        ("Super Micro Computer, Inc.", "Supermicro"),
        ("CDW quote for NVIDIA DGX Spark", "CDW"),  # the first name in the title
        ("Acme Systems GmbH", None),
        ("Eviden (Atos Group)", "Eviden"),
        ("Dellwood Farms", None),  # whole words only
    ],
)
def test_vendor_known(text: str, vendor: str | None) -> None:
    assert vendor_known(text) == vendor


@pytest.mark.parametrize(
    ("text", "day_first", "iso"),
    [
        ("2025-03-01", False, "2025-03-01"),
        ("2025-03-01T10:00:00", False, "2025-03-01"),
        ("01.03.2025", False, "2025-03-01"),
        ("4/28/2025", False, "2025-04-28"),
        ("28/4/2025", False, "2025-04-28"),
        ("03/04/2025", False, "2025-03-04"),  # US file: month first
        ("03/04/2025", True, "2025-04-03"),  # European file: day first
        ("31.02.2025", False, "31.02.2025"),  # not a date: kept as written
        # A month named in words is read too: there is no day/month order to guess.
        ("March 1, 2025", False, "2025-03-01"),
        ("08-Jun-2026", False, "2026-06-08"),
        ("2026/05/20", True, "2026-05-20"),  # year first (Japan, China): no order to guess
    ],
)
def test_date_normalize(text: str, day_first: bool, iso: str) -> None:
    assert date_normalize(text, day_first=day_first) == iso
