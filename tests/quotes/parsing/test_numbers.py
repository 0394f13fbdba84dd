"""Money and quantity cells as vendors write them."""

from decimal import Decimal

import pytest

from apps.quotes.parsing.numbers import (
    amount_parse,
    currency_detect,
    decimal_separator_detect,
    quantity_parse,
)


@pytest.mark.parametrize(
    ("text", "separator", "expected"),
    [
        ("€ 265.000,00", ",", Decimal("265000.00")),
        ("$1,234.56", ".", Decimal("1234.56")),
        ("1.234,56", ",", Decimal("1234.56")),
        ("(100.00)", ".", Decimal("-100.00")),
        ("100.00-", ".", Decimal("-100.00")),
        ("-1,500.00 USD", ".", Decimal("-1500.00")),
        ("USD 515,000.00", ".", Decimal("515000.00")),
        ("CHF 1'234.50", ".", Decimal("1234.50")),
        ("61\u2019480.00", ".", Decimal("61480.00")),  # de-CH Windows: typographic apostrophe
        ("-8\u2019247.55", ".", Decimal("-8247.55")),
        ("5,70,80,000.00", ".", Decimal("57080000.00")),  # India: lakh and crore grouping
        ("Rs. 1,45,000.00", ".", Decimal("145000.00")),
        ("\uffe5\uff11\uff0c\uff12\uff13\uff14\uff0c\uff10\uff10\uff10", ".", Decimal("1234000")),
        ("1,234,000\u5186", ".", Decimal("1234000")),  # yen written after, "円"
        ("1 234,56 €", ",", Decimal("1234.56")),
        ("1\u00a0234,56", ",", Decimal("1234.56")),
        ("265,00", ",", Decimal("265.00")),
        ("1234.56", ",", Decimal("1234.56")),  # unambiguous even in a decimal-comma file
        ("1.234", ",", Decimal("1234")),
        ("1.234", ".", Decimal("1.234")),
        ("US$3,999.00", ".", Decimal("3999.00")),
        ("Included", ".", Decimal("0")),
        ("N/C", ".", Decimal("0")),
        ("inkl.", ",", Decimal("0")),
        ("込み", ".", Decimal("0")),  # Japanese: included
        ("NT$15,800,000", ".", Decimal("15800000")),
        ("포함", ".", Decimal("0")),  # Korean: included
        ("免費", ".", Decimal("0")),  # Traditional Chinese: free
        ("¥68,500,000", ".", Decimal("68500000")),
        ("", ".", None),
        ("n/a", ".", None),
        ("-", ".", None),
    ],
)
def test_amount_parse_reads_vendor_formats(text: str, separator: str, expected) -> None:
    assert amount_parse(text, decimal_separator=separator) == expected


def test_amount_parse_returns_decimal_not_float() -> None:
    value = amount_parse("0.10", decimal_separator=".")
    assert type(value) is Decimal
    # 0.1 + 0.2 is 0.30000000000000004 in float; in Decimal it is exactly 0.30.
    assert value + Decimal("0.20") == Decimal("0.30")


@pytest.mark.parametrize(
    "text", ["call", "12abc", "1,2,3.4.5", "$", "1..2", "12,34.5", "1,23,4567.00"]
)
def test_amount_parse_refuses_text(text: str) -> None:
    with pytest.raises(ValueError, match="not an amount"):
        amount_parse(text, decimal_separator=".")


@pytest.mark.parametrize(
    ("text", "separator", "expected"),
    [
        ("2", ".", 2),
        ("2.0", ".", 2),
        ("2,0", ",", 2),
        ("1,000", ".", 1000),
        ("1.000", ",", 1000),
        ("4 ea", ".", 4),
        ("8x", ".", 8),
        ("3 Stk.", ",", 3),
        ("2 sets", ".", 2),  # an ODM's racks: "2 sets", "36 pcs"
        ("1 set", ".", 1),
        ("2台", ".", 2),  # Japanese counters: machines, boards, a set
        ("32枚", ".", 32),
        ("1式", ".", 1),
        (" 16 ", ".", 16),
        ("", ".", None),
    ],
)
def test_quantity_parse(text: str, separator: str, expected: int | None) -> None:
    assert quantity_parse(text, decimal_separator=separator) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("-2", "quantity -2 is negative"),
        ("(2)", "quantity (2) is negative"),
        ("two", "quantity 'two' is not a number"),
        ("2.5", "quantity 2.5 is not a whole number"),
    ],
)
def test_quantity_parse_refuses(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        quantity_parse(text, decimal_separator=".")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("€ 265.000,00", "EUR"),
        ("$1,234.56", "USD"),
        ("£99.00", "GBP"),
        ("¥1,000", "JPY"),
        ("A$1,200", "AUD"),
        ("CA$1,200", "CAD"),
        ("NT$15,800,000", "TWD"),  # Taiwan's dollar, never the US one
        ("單價(NT$)", "TWD"),
        ("₩1,350,030,000", "KRW"),
        ("Unit Price (EUR)", "EUR"),
        ("CHF 12.50", "CHF"),
        ("Fr. 12.50", "CHF"),
        ("Rs. 1,45,000.00", "INR"),
        ("\uffe5\uff11\uff0c\uff10\uff10\uff10", "JPY"),  # full-width "￥１，０００"
        ("1,000\u5186", "JPY"),
        ("1,234.56", None),
        ("EUROPE", None),
    ],
)
def test_currency_detect(text: str, code: str | None) -> None:
    assert currency_detect(text) == code


def test_decimal_separator_detect_by_majority_of_proving_cells() -> None:
    # "1.234,56" and "265,00" prove a decimal comma; "1.234" proves nothing.
    assert decimal_separator_detect(["1.234,56", "265,00", "1.234"]) == ","
    # "1,234.56" and "12.5" prove a decimal point.
    assert decimal_separator_detect(["1,234.56", "12.5", "1,234"]) == "."
    # Nothing proves either: the caller's default (";" files default to ",").
    assert decimal_separator_detect(["1.234", "1,000"], default=",") == ","
    assert decimal_separator_detect([], default=".") == "."
