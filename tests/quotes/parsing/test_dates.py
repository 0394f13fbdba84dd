"""Quote dates as ISO when the writing says which number is the day, or the quote's locale
does; a date whose order nothing tells stays as written."""

from __future__ import annotations

from datetime import date

import pytest

from apps.quotes.parsing import parse_upload
from apps.quotes.parsing.dates import date_normalize, date_read, day_first
from apps.quotes.parsing.metadata import metadata_read
from tests.quotes.parsing.conftest import csv_bytes


@pytest.mark.parametrize(
    "text",
    [
        "2026-12-05",  # ISO
        "2026/12/05",  # year first: Japan, China
        "2026.12.05",
        "2026. 12. 5.",  # Korea
        "2026年12月5日",  # Japanese and Chinese
        "令和8年12月5日",  # Japan's era: Reiwa 8 = 2018 + 8 = 2026
        "2026년 12월 5일",  # Korean
        "5 Dec 2026",  # a month in words has no order to guess
        "05-Dec-2026",
        "Dec. 5, 2026",
        "December 5th, 2026",
        "Saturday, 5 December 2026",
        "5. Dezember 2026",  # German
        "5 décembre 2026",  # French
        "5 de diciembre de 2026",  # Spanish
        "05.12.2026",  # dotted: German, Swiss, Austrian, so the day is first
    ],
)
def test_a_date_that_says_its_order_is_read_in_any_locale(text: str) -> None:
    for order in (True, False, None):
        assert date_read(text, day_first=order) == date(2026, 12, 5)


@pytest.mark.parametrize(
    ("text", "order", "iso"),
    [
        ("12-05-2026", False, "2026-12-05"),  # a dollar quote: month first
        ("05-12-2026", True, "2026-12-05"),  # a pound or euro quote: day first
        ("05/12/2026", True, "2026-12-05"),
        ("12/05/2026", False, "2026-12-05"),
        ("12/05/2026 14:30", False, "2026-12-05"),  # a time after the date
        ("25/12/2026", None, "2026-12-25"),  # 25 cannot be a month: no locale needed
        ("12/25/2026", None, "2026-12-25"),
        ("05/05/2026", None, "2026-05-05"),  # the same either way
        ("05/12/2026", None, "05/12/2026"),  # truly ambiguous: kept as written
        ("12-05-2026", None, "12-05-2026"),
        ("31.02.2026", True, "31.02.2026"),  # no such day: kept as written
        ("next Tuesday", False, "next Tuesday"),
    ],
)
def test_a_slashed_date_is_read_by_the_quotes_locale(
    text: str, order: bool | None, iso: str
) -> None:
    assert date_normalize(text, day_first=order) == iso


def test_an_ambiguous_date_is_not_read() -> None:
    assert date_read("05/12/2026") is None


@pytest.mark.parametrize(
    ("separator", "currency", "labels", "order"),
    [
        (",", None, False, True),  # a decimal comma: a European quote
        (".", "GBP", False, True),
        (".", "AUD", False, True),
        (".", None, True, True),  # "Datum", "Fecha": labels in a day-first language
        (".", "USD", False, False),
        (".", "CAD", False, None),  # Canada writes both
        (".", None, False, None),  # nothing tells
    ],
)
def test_the_locale_comes_from_currency_decimal_comma_or_labels(
    separator: str, currency: str | None, labels: bool, order: bool | None
) -> None:
    assert day_first(separator, currency, day_first_labels=labels) is order


def test_labels_in_a_day_first_language_say_so() -> None:
    assert metadata_read([["Datum", "05/12/2026"]])["date_order"] == "day_first"
    assert "date_order" not in metadata_read([["Date", "05/12/2026"]])


@pytest.mark.parametrize(
    ("title", "price", "iso"),
    [
        # Pounds: the day first. 05/12/2026 = 5 December.
        ("Currency: GBP", "1000.00", "2026-12-05"),
        # Dollars: the month first. 05/12/2026 = 12 May.
        ("Currency: USD", "1000.00", "2026-05-12"),
        # A German label and a decimal comma: the day first.
        ("Angebotsnummer: A-1", "1000,00", "2026-12-05"),
        # Nothing tells: the date is kept as the quote writes it.
        ("Quote: Q-1", "1000.00", "05/12/2026"),
    ],
)
def test_a_quote_reads_its_date_by_its_locale(title: str, price: str, iso: str) -> None:
    data = csv_bytes(f'GPU-1,NVIDIA L40S,1,"{price}","{price}"', header="")
    text = f"{title}\nDate: 05/12/2026\nPart Number,Description,Qty,Unit Price,Extended Price"
    assert parse_upload((text + data.decode()).encode(), "quote.csv").quote_date == iso
