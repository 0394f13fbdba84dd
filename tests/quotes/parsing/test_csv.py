"""CSV quotes: encodings, delimiters, decimal commas, limits and bad rows (RELIABILITY 1, 3,
9, 10, 11)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.quotes.parsing import ParsedQuote, QuoteParseError, parse_upload
from tests.conftest import EXAMPLES
from tests.quotes.parsing.conftest import csv_bytes


def parse(data: bytes, name: str = "quote.csv", **kwargs) -> ParsedQuote:
    return parse_upload(data, name, **kwargs)


def test_plain_csv_reads_every_field() -> None:
    quote = parse(csv_bytes('SYS-521GE-TNRT,"Supermicro 5U, 8x PCIe",2,28000.00,56000.00'))
    line = quote.lines[0]
    assert quote.detected_type == "csv"
    assert quote.delimiter == ","
    assert quote.header_row == 1
    assert quote.column_map == {
        "part_number": "Part Number",
        "description": "Description",
        "quantity": "Qty",
        "unit_price": "Unit Price",
        "extended_price": "Extended Price",
    }
    assert (line.source_row, line.part_number, line.description) == (
        2,
        "SYS-521GE-TNRT",
        "Supermicro 5U, 8x PCIe",
    )
    # 2 × 28,000.00 = 56,000.00, kept as Decimal, not float.
    assert (line.quantity, line.unit_price, line.extended_price) == (
        2,
        Decimal("28000.00"),
        Decimal("56000.00"),
    )
    assert line.raw_cells == [
        "SYS-521GE-TNRT",
        "Supermicro 5U, 8x PCIe",
        "2",
        "28000.00",
        "56000.00",
    ]
    assert line.errors == []


def test_shared_example_negative_quantity_names_row_column_and_quantity() -> None:
    data = (EXAMPLES / "bad-negative-quantity" / "quote.csv").read_bytes()
    with pytest.raises(QuoteParseError) as caught:
        parse(data)
    error = caught.value
    assert (error.file, error.row, error.column) == ("quote.csv", 2, "Qty")
    assert str(error) == "quote.csv, row 2, column 'Qty': quantity -2 is negative"


def test_shared_example_not_a_spreadsheet_is_refused() -> None:
    data = (EXAMPLES / "bad-not-a-spreadsheet" / "quote.csv").read_bytes()
    with pytest.raises(QuoteParseError, match="not a valid CSV"):
        parse(data)


def test_non_numeric_quantity_is_an_error_naming_row_and_column() -> None:
    data = csv_bytes("A-1,Widget,1,10.00,10.00", "B-2,Gadget,two,5.00,10.00")
    with pytest.raises(QuoteParseError) as caught:
        parse(data)
    assert str(caught.value) == "quote.csv, row 3, column 'Qty': quantity 'two' is not a number"


def test_decimal_quantity_is_accepted_when_whole() -> None:
    quote = parse(csv_bytes("A-1,Widget,2.0,10.00,20.00"))
    assert quote.lines[0].quantity == 2


def test_qty_times_unit_not_equal_extended_is_kept_not_an_error() -> None:
    # 2 × 10.00 = 20.00, but the vendor wrote 25.00: the review's quote_lines check warns.
    quote = parse(csv_bytes("A-1,Widget,2,10.00,25.00"))
    line = quote.lines[0]
    assert (line.quantity, line.unit_price, line.extended_price) == (
        2,
        Decimal("10.00"),
        Decimal("25.00"),
    )
    assert line.errors == []


def test_unreadable_price_marks_the_line_only() -> None:
    quote = parse(csv_bytes("A-1,Widget,2,call us,"))
    assert quote.lines[0].unit_price is None
    assert quote.lines[0].errors == ["column 'Unit Price': 'call us' is not an amount"]


def test_utf8_bom_is_stripped_from_the_first_header() -> None:
    data = b"\xef\xbb\xbf" + csv_bytes(
        "A-1,Widget,1,1.00,1.00", header="sku,Description,Qty,Unit Price,Total"
    )
    quote = parse(data)
    assert quote.column_map["part_number"] == "sku"
    assert quote.encoding == "utf-8-sig"
    assert quote.encoding_fallback is False


def test_cp1252_uses_the_documented_fallback_and_says_so() -> None:
    data = csv_bytes(
        "K-1;Kabel 3 m, Stück;2;€ 10,50;€ 21,00",
        header="Artikelnummer;Beschreibung;Menge;Einzelpreis;Gesamtpreis",
        encoding="cp1252",
    )
    quote = parse(data)
    assert quote.encoding == "cp1252"
    assert quote.encoding_fallback is True
    assert quote.lines[0].description == "Kabel 3 m, Stück"  # not "StÃ¼ck"
    assert quote.currency == "EUR"
    assert any("Windows-1252" in warning for warning in quote.warnings)


def test_utf8_file_is_not_flagged_as_fallback() -> None:
    quote = parse(csv_bytes("K-1,Kabel Stück,2,10.50,21.00"))
    assert quote.encoding == "utf-8"
    assert quote.encoding_fallback is False
    assert quote.lines[0].description == "Kabel Stück"


def test_double_encoded_utf8_is_warned_about() -> None:
    quote = parse(csv_bytes("K-1,Kabel StÃ¼ck,2,10.50,21.00"))
    assert any("double-encoded" in warning for warning in quote.warnings)


def test_bytes_neither_utf8_nor_cp1252_are_refused() -> None:
    # 0x81 is undefined in Windows-1252 and invalid on its own in UTF-8.
    with pytest.raises(QuoteParseError, match="neither UTF-8 nor Windows-1252"):
        parse(csv_bytes("A-1,Wid\x81get,1,1.00,1.00", encoding="latin-1"))


def test_semicolon_and_decimal_comma_give_exact_decimals() -> None:
    data = csv_bytes(
        "A-1;Widget;1;1.234,56;1.234,56",
        header="Part Number;Description;Qty;Unit Price;Extended Price",
    )
    quote = parse(data)
    assert quote.delimiter == ";"
    assert quote.decimal_separator == ","
    assert quote.lines[0].unit_price == Decimal("1234.56")


def test_tab_and_pipe_delimiters() -> None:
    for delimiter in ("\t", "|"):
        data = csv_bytes(
            delimiter.join(["A-1", "Widget", "3", "2.50", "7.50"]),
            header=delimiter.join(["SKU", "Description", "Qty", "Unit Price", "Total"]),
        )
        quote = parse(data)
        assert quote.delimiter == delimiter
        # 3 × 2.50 = 7.50
        assert quote.lines[0].extended_price == Decimal("7.50")


def test_ambiguous_delimiter_asks_the_user_to_choose() -> None:
    # Split on "," the header is [Part Number | Qty;Description | Unit Price]; split on ";"
    # it is [Part Number,Qty | Description,Unit Price]: two believable tables.
    data = b"Part Number,Qty;Description,Unit Price\nA-1,2;Widget,5.00\n"
    with pytest.raises(QuoteParseError, match=r"delimiter is ambiguous.*choose"):
        parse(data)
    quote = parse(data, delimiter=",")
    assert quote.delimiter == ","
    assert quote.lines[0].part_number == "A-1"


def test_one_column_file_is_never_read_as_a_one_column_quote() -> None:
    with pytest.raises(QuoteParseError, match="no header row found"):
        parse(b"Description\nNVIDIA DGX B200\n")


def test_unsupported_delimiter_override_is_refused() -> None:
    with pytest.raises(QuoteParseError, match="unsupported delimiter"):
        parse(csv_bytes("A-1,Widget,1,1.00,1.00"), delimiter=":")


@pytest.mark.parametrize("data", [b"", b"   \r\n\n  "])
def test_empty_file_is_refused(data: bytes) -> None:
    with pytest.raises(QuoteParseError, match="empty"):
        parse(data)


def test_header_without_lines_is_refused() -> None:
    with pytest.raises(QuoteParseError, match="no quote lines"):
        parse(csv_bytes())


def test_nul_byte_names_its_row() -> None:
    data = csv_bytes("A-1,Widget,1,1.00,1.00", "B-2,Gad\x00get,1,1.00,1.00")
    with pytest.raises(QuoteParseError) as caught:
        parse(data)
    assert caught.value.row == 3
    assert "not a valid CSV" in str(caught.value)


def test_200kb_field_names_its_row() -> None:
    data = csv_bytes("A-1,Widget,1,1.00,1.00", "B-2," + "x" * 200_000 + ",1,1.00,1.00")
    with pytest.raises(QuoteParseError) as caught:
        parse(data)
    assert caught.value.row == 3


def test_20kb_field_names_its_row() -> None:
    data = csv_bytes("A-1,Widget,1,1.00,1.00", "B-2," + "x" * 20_000 + ",1,1.00,1.00")
    with pytest.raises(QuoteParseError, match="too long") as caught:
        parse(data)
    assert caught.value.row == 3


def test_ragged_rows_are_listed() -> None:
    data = csv_bytes(
        "A-1,Widget,1,1.00,1.00",
        "B-2,Gadget,1,1.00,1.00,surprise",
        "C-3,Gizmo,1,1.00,1.00",
        "D-4,Doohickey,1",
    )
    with pytest.raises(QuoteParseError, match=r"ragged rows: row\(s\) 3, 5 ") as caught:
        parse(data)
    assert caught.value.row == 3


def test_trailing_empty_cells_are_not_ragged() -> None:
    quote = parse(csv_bytes("A-1,Widget,1,1.00,1.00,,"))
    assert len(quote.lines) == 1


def test_over_20000_rows_hits_the_row_limit() -> None:
    rows = [f"P-{n},Widget,1,1.00,1.00" for n in range(20_001)]
    with pytest.raises(QuoteParseError, match="row limit is 20,000"):
        parse(csv_bytes(*rows))


def test_exactly_20000_rows_are_read() -> None:
    rows = [f"P-{n},Widget,1,1.00,1.00" for n in range(20_000)]
    assert len(parse(csv_bytes(*rows)).lines) == 20_000


def test_over_100_columns_is_refused() -> None:
    header = ",".join(["Part Number", "Description", "Qty"] + [f"c{n}" for n in range(98)])
    with pytest.raises(QuoteParseError, match="too many columns: 101, the limit is 100"):
        parse(csv_bytes("A-1,Widget,1" + ",x" * 98, header=header))


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b"<!DOCTYPE html><html><body>Quote</body></html>", "an HTML page"),
        (b"MZ\x90\x00\x03\x00\x00\x00\x04\x00", "a Windows program"),
        (b"\x7fELF\x02\x01\x01", "a Linux program"),
    ],
)
def test_renamed_non_csv_is_not_a_valid_csv(data: bytes, what: str) -> None:
    with pytest.raises(QuoteParseError, match=f"not a valid CSV: it is {what}"):
        parse(data)


def test_pdf_named_csv_contradicts_its_extension() -> None:
    with pytest.raises(QuoteParseError, match="not a valid CSV: the content is PDF"):
        parse(b"%PDF-1.7\n%garbage")


def test_blank_rows_and_section_headings_are_skipped() -> None:
    quote = parse(csv_bytes(",,,,", "Compute nodes,,,,", "A-1,Widget,1,1.00,1.00", ",,,,"))
    assert [line.source_row for line in quote.lines] == [4]


def test_line_without_part_or_description_keeps_an_error() -> None:
    quote = parse(csv_bytes("A-1,Widget,1,1.00,1.00", ",,1,5.00,5.00"))
    assert quote.lines[1].errors == ["no part number or description"]


def test_line_with_price_but_no_quantity_keeps_an_error() -> None:
    quote = parse(csv_bytes("A-1,Widget,,5.00,5.00"))
    assert quote.lines[0].quantity is None
    assert quote.lines[0].errors == ["no quantity"]


def test_missing_quantity_column_is_a_warning() -> None:
    quote = parse(b"SKU,Description,Price\nA-1,Widget,5.00\n")
    assert quote.lines[0].quantity is None
    assert "no quantity column: quantities are left empty" in quote.warnings


def test_multiline_quoted_description_keeps_record_numbers() -> None:
    quote = parse(
        csv_bytes('A-1,"Widget\nwith a second line",1,1.00,1.00', "B-2,Gadget,1,1.00,1.00")
    )
    assert [line.source_row for line in quote.lines] == [2, 3]
    assert quote.lines[0].description == "Widget\nwith a second line"


def test_unterminated_quote_is_reported_as_a_ragged_row() -> None:
    # The open quote swallows the rest of the file into one field: row 2 has 2 cells, not 5.
    with pytest.raises(QuoteParseError, match=r"ragged rows: row\(s\) 2 "):
        parse(csv_bytes('A-1,"Widget,1,1.00,1.00', "B-2,Gadget,1,1.00,1.00"))


def test_error_message_format_without_row() -> None:
    error = QuoteParseError("the file is empty", file="q.csv")
    assert str(error) == "q.csv: the file is empty"
    error = QuoteParseError("bad", file="q.csv", row=4)
    assert str(error) == "q.csv, row 4: bad"


def test_file_name_is_reduced_to_a_printable_base_name() -> None:
    with pytest.raises(QuoteParseError) as caught:
        parse_upload(b"", "../../etc/quote\x00.csv")
    assert caught.value.file == "quote.csv"


def test_utf16_excel_unicode_text_export() -> None:
    text = (
        "Part Number\tDescription\tQty\tUnit Price\tExtended Price\n"
        "A-1\tKabel Stück\t2\t1.50\t3.00\n"
    )
    quote = parse(b"\xff\xfe" + text.encode("utf-16-le"), "quote.txt")
    assert (quote.encoding, quote.delimiter) == ("utf-16", "\t")
    assert quote.lines[0].description == "Kabel Stück"


def test_a_wrong_delimiter_choice_is_an_error_not_a_one_column_parse() -> None:
    data = csv_bytes(
        "A-1;Widget;1;1,00;1,00", header="Part Number;Description;Qty;Unit Price;Extended Price"
    )
    with pytest.raises(QuoteParseError, match="no header row found"):
        parse(data, delimiter=",")


def test_conflicting_currencies_are_warned_about() -> None:
    data = b"Currency: EUR\n" + csv_bytes("A-1,Widget,1,$5.00,$5.00")
    quote = parse(data)
    assert quote.currency == "EUR"  # the explicit label wins
    assert "several currencies named (EUR, USD); using EUR" in quote.warnings


def test_currency_from_symbols_in_the_amounts() -> None:
    quote = parse(csv_bytes("A-1,Widget,1,£5.00,£5.00"))
    assert quote.currency == "GBP"


def test_summary_rows_with_the_label_in_the_qty_column() -> None:
    quote = parse(
        csv_bytes(
            "A-1,Widget,2,10.00,20.00",
            ",,Subtotal,,20.00",
            ",,Shipping,,5.00",
            ",,Sales Tax,,1.60",
            ",,Grand Total,,26.60",
        )
    )
    assert [line.part_number for line in quote.lines] == ["A-1"]
    # 20.00 + 5.00 shipping + 1.60 tax = 26.60
    assert (quote.stated_subtotal, quote.stated_charges, quote.stated_tax, quote.stated_total) == (
        Decimal("20.00"),
        Decimal("5.00"),
        Decimal("1.60"),
        Decimal("26.60"),
    )


def test_a_gross_total_below_the_net_total_is_the_total() -> None:
    # Fujitsu's EUR offer: "Net total", freight, VAT, then "Gross total", the sum to pay.
    quote = parse(
        csv_bytes(
            "A-1,Widget,2,10.00,20.00",
            ",Net total,,,20.00",
            ",Freight,,,0.00",
            ",VAT 19%,,,3.80",
            ",Gross total,,,23.80",
        )
    )
    assert (quote.stated_subtotal, quote.stated_tax, quote.stated_total) == (
        Decimal("20.00"),
        Decimal("3.80"),
        Decimal("23.80"),
    )


def test_a_tax_row_led_by_the_word_that_adds_it() -> None:
    # Boston's German quote: "Nettosumme", "Versand", "zzgl. 19% MwSt.", "Gesamtsumme brutto".
    quote = parse(
        csv_bytes(
            "A-1,Widget,2,10.00,20.00",
            ",Nettosumme,,,20.00",
            ",Versand und Verpackung,,,5.00",
            ",zzgl. 19% MwSt.,,,4.75",
            ",Gesamtsumme brutto,,,29.75",
        )
    )
    assert [line.part_number for line in quote.lines] == ["A-1"]
    assert (quote.stated_charges, quote.stated_tax, quote.stated_total) == (
        Decimal("5.00"),
        Decimal("4.75"),
        Decimal("29.75"),
    )


def test_japanese_and_chinese_summary_rows() -> None:
    # A Tokyo reseller's 小計 (subtotal), 消費税 (consumption tax), 合計 (total); a Chinese
    # quote's 运费 (freight) and 合计.
    quote = parse(
        csv_bytes(
            "A-1,Widget,2,10.00,20.00",
            ",小計,,,20.00",
            ",消費税 (10%),,,2.00",
            ",合計,,,22.00",
        )
    )
    assert [line.part_number for line in quote.lines] == ["A-1"]
    assert (quote.stated_subtotal, quote.stated_tax, quote.stated_total) == (
        Decimal("20.00"),
        Decimal("2.00"),
        Decimal("22.00"),
    )
    chinese = parse(csv_bytes("A-1,Widget,2,10.00,20.00", ",运费,,,5.00", ",合计,,,25.00"))
    assert (chinese.stated_charges, chinese.stated_total) == (Decimal("5.00"), Decimal("25.00"))


def test_korean_and_traditional_chinese_summary_rows() -> None:
    # Seoul: 공급가액 (supply value, the subtotal), 부가세 (VAT), 합계 (total); Taipei: 小計,
    # 營業稅 (business tax), 總計, and 運費 (freight) before them.
    korean = parse(
        csv_bytes(
            "A-1,Widget,2,10.00,20.00",
            ",공급가액,,,20.00",
            ",부가세 (10%),,,2.00",
            ",합계,,,22.00",
        )
    )
    assert [line.part_number for line in korean.lines] == ["A-1"]
    # 20.00 + 10% of 20.00 = 22.00
    assert (korean.stated_subtotal, korean.stated_tax, korean.stated_total) == (
        Decimal("20.00"),
        Decimal("2.00"),
        Decimal("22.00"),
    )
    taiwan = parse(
        csv_bytes(
            "A-1,Widget,2,10.00,20.00",
            ",運費,,,5.00",
            ",小計,,,25.00",
            ",營業稅 (5%),,,1.25",
            ",總計,,,26.25",
        )
    )
    # 20.00 + 5.00 freight = 25.00; 5% of 25.00 = 1.25; 25.00 + 1.25 = 26.25
    assert [line.part_number for line in taiwan.lines] == ["A-1"]
    assert (taiwan.stated_charges, taiwan.stated_subtotal, taiwan.stated_tax) == (
        Decimal("5.00"),
        Decimal("25.00"),
        Decimal("1.25"),
    )
    assert taiwan.stated_total == Decimal("26.25")


def test_a_line_called_total_care_with_a_quantity_stays_a_line() -> None:
    quote = parse(csv_bytes("TC-5Y,Total Care support 5 years,2,100.00,200.00"))
    assert quote.lines[0].description == "Total Care support 5 years"
    assert quote.stated_total is None


def test_discount_lines_keep_their_negative_amount() -> None:
    quote = parse(
        csv_bytes("A-1,Widget,1,100.00,100.00", "DISC,Project discount,1,(15.00),(15.00)")
    )
    assert quote.lines[1].extended_price == Decimal("-15.00")


def test_excel_sep_declaration_sets_the_delimiter_and_is_not_a_row() -> None:
    quote = parse(b"sep=;\r\nPart Number;Description;Qty\r\nA-1;Widget, big;2\r\n")
    assert (quote.delimiter, quote.header_row) == (";", 2)
    assert (quote.lines[0].source_row, quote.lines[0].description) == (3, "Widget, big")
