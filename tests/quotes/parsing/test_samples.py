"""Realistic vendor quotes under tests/quotes/samples/: every parsed value asserted exactly,
with the vendor's own arithmetic checked in the comments."""

from __future__ import annotations

from decimal import Decimal as D

from apps.quotes.parsing import ParsedQuote, parse_upload
from tests.quotes.parsing.conftest import SAMPLES


def parse_sample(name: str) -> ParsedQuote:
    return parse_upload((SAMPLES / name).read_bytes(), name)


def rows(quote: ParsedQuote) -> list[tuple]:
    return [
        (line.source_row, line.part_number, line.quantity, line.unit_price, line.extended_price)
        for line in quote.lines
    ]


def test_dell_quote_with_included_components_and_trailing_terms() -> None:
    quote = parse_sample("dell_xe9680.csv")
    assert (quote.vendor, quote.quote_number, quote.quote_date, quote.currency) == (
        "Dell",
        "3000178224.1",
        "2025-03-14",  # 03/14/2025: 14 cannot be a month
        "USD",
    )
    assert quote.header_row == 6
    assert quote.column_map["part_number"] == "SKU"
    assert quote.column_map["extended_price"] == "Subtotal"
    assert rows(quote) == [
        (7, "210-BDZJ", 2, D("289500.00"), D("579000.00")),  # 2 × 289,500 = 579,000
        (8, "338-CHSG", 2, D("0"), D("0.00")),  # "Included" costs nothing extra
        (9, "370-AHCL", 2, D("0"), D("0.00")),
        (10, "815-1234", 2, D("18250.00"), D("36500.00")),  # 2 × 18,250 = 36,500
        (11, "540-BDRS", 16, D("2150.00"), D("34400.00")),  # 16 × 2,150 = 34,400
    ]
    # 579,000 + 36,500 + 34,400 = 649,900
    assert (quote.stated_subtotal, quote.stated_tax, quote.stated_total) == (
        D("649900.00"),
        D("0.00"),
        D("649900.00"),
    )
    assert quote.warnings == ["1 row(s) after the total on row 15 were not read as quote lines"]


def test_hpe_quote_uses_net_not_list_price_and_ignores_line_numbers() -> None:
    quote = parse_sample("hpe_xd670.csv")
    assert (quote.vendor, quote.quote_number, quote.quote_date, quote.currency) == (
        "HPE",
        "HPE-Q-0098123",
        "2025-02-03",
        "USD",
    )
    assert quote.column_map == {
        "part_number": "Product #",
        "description": "Description",
        "quantity": "Qty",
        "unit_price": "Unit Net Price",
        "extended_price": "Ext Net Price",
    }
    assert rows(quote) == [
        (7, "P63768-B21", 4, D("329600.00"), D("1318400.00")),  # 4 × 329,600
        (8, "P58460-B21", 24, D("920.00"), D("22080.00")),  # 24 × 920
        (9, "H1FQ5E", 4, D("35200.00"), D("140800.00")),  # 4 × 35,200
        (10, "R4A63A", 1, D("3040.00"), D("3040.00")),
    ]
    # 1,318,400 + 22,080 + 140,800 + 3,040 = 1,484,320
    assert quote.stated_total == D("1484320.00")


def test_supermicro_quote_with_labels_in_the_qty_column() -> None:
    quote = parse_sample("supermicro_l40s.csv")
    assert (quote.vendor, quote.quote_number, quote.quote_date) == (
        "Supermicro",
        "SMC-Q25-04417",
        "2025-04-22",
    )
    assert quote.column_map["part_number"] == "Part No."  # not "Item", the line counter
    assert rows(quote) == [
        (6, "SYS-521GE-TNRT", 2, D("28000.00"), D("56000.00")),
        (7, "GPU-NVL40S", 8, D("9500.00"), D("76000.00")),  # 8 × 9,500
        (8, "CBL-PWEX-1148-20", 8, D("45.00"), D("360.00")),
        (9, "MCP-290-00059-0N", 2, D("120.00"), D("240.00")),
        (10, "SVC-3Y-NBD", 2, D("1900.00"), D("3800.00")),
    ]
    # 56,000 + 76,000 + 360 + 240 + 3,800 = 136,400; + 850 shipping + 11,299.75 tax
    # = 148,549.75
    assert (
        quote.stated_subtotal,
        quote.stated_charges,
        quote.stated_tax,
        quote.stated_total,
    ) == (D("136400.00"), D("850.00"), D("11299.75"), D("148549.75"))


def test_lenovo_quote_in_eur_with_codes_in_the_cells() -> None:
    quote = parse_sample("lenovo_sr680a.csv")
    assert (quote.vendor, quote.quote_number, quote.currency) == ("Lenovo", "LNV-2025-88231", "EUR")
    assert quote.column_map["unit_price"] == "Price"
    assert quote.column_map["extended_price"] == "Total Price"
    assert rows(quote) == [
        (7, "7DHECTO1WW", 1, D("398000.00"), D("398000.00")),
        (8, "BX8V", 1, D("0"), D("0")),
        (9, "BYKS", 1, D("0"), D("0")),
        (10, "5WS7B12345", 1, D("41500.00"), D("41500.00")),
    ]
    assert quote.stated_total == D("439500.00")  # 398,000 + 41,500


def test_cdw_reseller_quote_with_an_extra_column_and_terms() -> None:
    quote = parse_sample("cdw_reseller.csv")
    assert (quote.vendor, quote.quote_number, quote.quote_date) == ("CDW", "NXKP412", "2025-04-28")
    assert quote.column_map == {
        "part_number": "Mfr Part #",
        "description": "Item Description",
        "quantity": "Qty",
        "unit_price": "Unit Cost",
        "extended_price": "Ext. Cost",
    }
    assert rows(quote) == [
        (7, "DGX-SPARK-4TB", 4, D("3999.00"), D("15996.00")),  # 4 × 3,999
        (8, "900-2G133-0080-000", 2, D("9450.00"), D("18900.00")),
        (9, "QSFP-100G-CU3M", 4, D("89.99"), D("359.96")),  # 4 × 89.99
    ]
    assert quote.lines[0].raw_cells[-1] == "8212345"  # the CDW # column is kept raw
    # 15,996 + 18,900 + 359.96 = 35,255.96; 8% tax 2,820.48; total 38,076.44
    assert (quote.stated_subtotal, quote.stated_tax, quote.stated_total) == (
        D("35255.96"),
        D("2820.48"),
        D("38076.44"),
    )


def test_german_cp1252_semicolon_quote_with_decimal_commas() -> None:
    quote = parse_sample("bechtle_de_cp1252.csv")
    assert (quote.encoding, quote.encoding_fallback) == ("cp1252", True)
    assert (quote.delimiter, quote.decimal_separator, quote.currency) == (";", ",", "EUR")
    assert (quote.vendor, quote.quote_number, quote.quote_date) == (
        "Bechtle",
        "4711-2025",
        "2025-03-14",  # 14.03.2025
    )
    assert quote.column_map == {
        "part_number": "Artikelnummer",
        "description": "Beschreibung",
        "quantity": "Menge",
        "unit_price": "Einzelpreis",
        "extended_price": "Gesamtpreis",
    }
    assert rows(quote) == [
        (7, "DGXB-G1440+P2CMI36", 1, D("465000.00"), D("465000.00")),  # "€ 465.000,00"
        (8, "900-9X81Q-00CN-ST0", 8, D("1234.56"), D("9876.48")),  # 8 × 1.234,56
        (9, "SVC-DGX-3Y", 1, D("52500.00"), D("52500.00")),
        (10, "KAB-QSFP-3M", 16, D("89.90"), D("1438.40")),  # 16 × 89,90
    ]
    assert quote.lines[1].description == "NVIDIA ConnectX-7 Dual-Port 400G, Stück"
    # 465.000 + 9.876,48 + 52.500 + 1.438,40 = 528.814,88; 19 % = 100.474,83
    assert (quote.stated_subtotal, quote.stated_tax, quote.stated_total) == (
        D("528814.88"),
        D("100474.83"),
        D("629289.71"),
    )


def test_french_quote_with_space_thousands_and_ht_ttc_totals() -> None:
    quote = parse_sample("computacenter_fr.csv")
    assert (quote.encoding, quote.encoding_fallback) == ("utf-8-sig", False)
    assert (quote.vendor, quote.quote_number, quote.quote_date, quote.currency) == (
        "Computacenter",
        "D-2025-077",
        "2025-06-02",  # 02/06/2025 in a decimal-comma file is day first
        "EUR",
    )
    assert quote.column_map["unit_price"] == "Prix unitaire HT"
    assert rows(quote) == [
        (6, "SYS-821GE-TNHR", 2, D("285000.00"), D("570000.00")),  # "285 000,00 €"
        (7, "SVC-5Y-ONSITE", 2, D("18400.00"), D("36800.00")),
    ]
    # Total HT 606 800 = 570 000 + 36 800; TVA 20 % = 121 360; TTC 728 160
    assert (quote.stated_subtotal, quote.stated_tax, quote.stated_total) == (
        D("606800.00"),
        D("121360.00"),
        D("728160.00"),
    )


def test_spanish_tab_separated_quote() -> None:
    quote = parse_sample("reseller_es.tsv")
    assert (quote.delimiter, quote.decimal_separator, quote.currency) == ("\t", ",", "EUR")
    assert (quote.quote_number, quote.quote_date) == ("COT-2025-3310", "2025-06-10")
    assert quote.column_map["part_number"] == "Número de pieza"
    assert rows(quote) == [
        (4, "XE7745-RTXPRO", 1, D("140000.00"), D("140000.00")),
        (5, "NVL-BRIDGE-4W", 2, D("1250.00"), D("2500.00")),  # 2 × 1.250,00
    ]


def test_supermicro_xlsx_with_cover_sheet_and_merged_cells() -> None:
    quote = parse_sample("supermicro_two_sheets.xlsx")
    assert quote.sheet == "Quotation"  # the "Cover" sheet has no table
    assert (quote.vendor, quote.quote_number, quote.quote_date, quote.currency) == (
        "Supermicro",
        "SMC-Q25-05120",
        "2025-05-12",  # a real date cell
        "USD",
    )
    assert quote.header_row == 6
    assert quote.column_map["description"] == "Description"  # merged C6:D6
    assert rows(quote) == [
        (7, "SYS-821GE-TNHR", 2, D("289000"), D("578000")),  # 2 × 289,000
        (8, "P4X-EMR8568Y-SRN6B", 4, D("0"), D("0")),
        (9, "MCP-290-00059-0N", 2, D("120.5"), D("241")),  # 2 × 120.50
        (10, "SVC-3Y-ONSITE", 2, D("14250.75"), D("28501.5")),  # 2 × 14,250.75
    ]
    assert quote.lines[0].description == "SuperServer 8U, HGX H200 8-GPU, air cooled"
    # 578,000 + 0 + 241 + 28,501.50 = 606,742.50
    assert quote.stated_total == D("606742.5")


def test_dell_xlsx_with_text_amounts_and_a_hidden_sheet() -> None:
    quote = parse_sample("dell_text_amounts.xlsx")
    assert quote.sheet == "Quote 3000201115"  # the hidden "Lookup" sheet is not read first
    assert (quote.vendor, quote.quote_number, quote.quote_date) == (
        "Dell",
        "3000201115.2",
        "2025-06-30",
    )
    assert rows(quote) == [
        (6, "210-BRXE", 2, D("141250.00"), D("282500.00")),  # 2 × 141,250
        (7, "540-BFFQ", 4, D("1375.00"), D("5500.00")),  # 4 × 1,375
        (8, "813-4411", 2, D("22480.00"), D("44960.00")),  # 2 × 22,480
    ]
    # 282,500 + 5,500 + 44,960 = 332,960
    assert quote.stated_total == D("332960.00")


def test_lenovo_pdf_quote() -> None:
    quote = parse_sample("lenovo_sr680a.pdf")
    assert quote.detected_type == "pdf"
    assert (quote.vendor, quote.quote_number, quote.quote_date, quote.currency) == (
        "Lenovo",
        "LNV-2025-90112",
        "2025-06-02",
        "USD",
    )
    assert rows(quote) == [
        (1006, "7DHECTO1WW", 2, D("398000.00"), D("796000.00")),  # 2 × 398,000
        (1007, "BX8V", 2, D("0"), D("0")),  # "Included"
        (1008, "4XC7A95123", 16, D("2310.00"), D("36960.00")),  # 16 × 2,310
        (1009, "5WS7B12345", 2, D("41500.00"), D("83000.00")),  # 2 × 41,500
    ]
    assert {line.page for line in quote.lines} == {1}
    # 796,000 + 36,960 + 83,000 = 915,960 ("Total: 915,960.00" below the table)
    assert (quote.stated_subtotal, quote.stated_total) == (D("915960.00"), D("915960.00"))


def test_committed_samples_stay_small() -> None:
    for path in SAMPLES.iterdir():
        assert path.stat().st_size < 200_000, path.name
