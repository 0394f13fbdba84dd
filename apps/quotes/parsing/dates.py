"""A quote's date as ISO, read without guessing.

"2026-12-05", "2026/12/05", "2026年12月5日", "5 Dec 2026", "Dec. 5, 2026", "5. Dezember 2026"
and the German "05.12.2026" say which number is the day. "05/12/2026" and "05-12-2026" do not:
5 December in London, 12 May in Texas. They are read by the quote's locale, told by its
currency ("£", "€", "A$" write the day first, "$" the month first), its decimal comma or its
labels' language ("Datum", "Fecha"); a day above 12 settles it alone ("28/04/2026"). With no
locale known, "05/12/2026" is not read: the date stays as written.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date

#: Currencies of countries that write the day first ("02/06/2026" is 2 June in London,
#: Sydney, Mumbai or Singapore).
DAY_FIRST_CURRENCIES = frozenset(
    {"GBP", "EUR", "INR", "AUD", "NZD", "SGD", "HKD", "CHF", "ZAR", "AED", "SAR", "ILS"}
    | {"TRY", "BRL", "MXN", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "THB"}
)
#: The US writes the month first. Canada writes both (left out: its dates stay unread).
MONTH_FIRST_CURRENCIES = frozenset({"USD"})

_MONTH_NAMES: tuple[tuple[str, ...], ...] = (
    ("jan", "january", "januar", "janner", "janvier", "janv", "enero", "ene", "gennaio", "januari"),
    ("feb", "february", "februar", "fevrier", "fevr", "fev", "febrero", "febbraio", "februari"),
    ("mar", "march", "marz", "mars", "marzo", "maart", "mrz"),
    ("apr", "april", "avril", "avr", "abril", "abr", "aprile"),
    ("may", "mai", "mayo", "maggio", "mei"),
    ("jun", "june", "juni", "juin", "junio", "giugno"),
    ("jul", "july", "juli", "juillet", "juil", "julio", "luglio"),
    ("aug", "august", "aout", "agosto", "ago", "augustus"),
    ("sep", "sept", "september", "septembre", "septiembre", "setiembre", "settembre"),
    ("oct", "october", "oktober", "okt", "octobre", "octubre", "ottobre"),
    ("nov", "november", "novembre", "noviembre"),
    ("dec", "december", "dezember", "dez", "decembre", "diciembre", "dic", "dicembre"),
)
MONTHS: dict[str, int] = {
    name: number for number, names in enumerate(_MONTH_NAMES, 1) for name in names
}

_WEEKDAY = r"(?:[^\W\d_]+,?\s+)?"  # "Friday, " before a date written out
_ORDINAL = r"(?:st|nd|rd|th|er)?"
_NAMED_DATES = (
    # "5 Dec 2026", "05-Dec-2026", "5. Dezember 2026", "5 de diciembre de 2026"
    re.compile(
        rf"^{_WEEKDAY}(?P<d>\d{{1,2}}){_ORDINAL}\.?[-\s]+(?:de\s+)?(?P<m>[^\W\d_]{{3,10}})\.?"
        r"[-\s,]+(?:de\s+)?(?P<y>\d{4})$"
    ),
    # "Dec. 5, 2026", "December 5th, 2026", "Friday, June 16, 2026"
    re.compile(
        rf"^{_WEEKDAY}(?P<m>[^\W\d_]{{3,10}})\.?\s+(?P<d>\d{{1,2}}){_ORDINAL},?\s+(?P<y>\d{{4}})$"
    ),
)
#: ISO, and the year-first "2026/05/20", "2026.05.20" and "2026. 5. 20." of Asian quotes.
_YEAR_FIRST = re.compile(r"^(\d{4})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,2})\.?(?=$|[T\s])")
#: "2026年12月5日" (Japan, China), "令和8年12月5日" (Japan's era year), "2026년 12월 5일".
_CJK_DATE = re.compile(
    r"^(?:(?P<y>\d{4})|令和\s*(?P<reiwa>\d{1,2}|元))\s*[年년]\s*(?P<m>\d{1,2})\s*[月월]\s*"
    r"(?P<d>\d{1,2})\s*[日일]?"
)
#: "05.12.2026": the dotted date is German, Swiss or Austrian, so the day is first.
_DOTTED = re.compile(r"^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})$")
#: "05/12/2026", "12-05-2026", with a time after it or not: the order is the locale's.
_SLASHED = re.compile(r"^(\d{1,2})[/-](\d{1,2})[/-](\d{4})(?:\s+\d{1,2}:\d{2}(?::\d{2})?\s*\S*)?$")
_REIWA_BEFORE_YEAR_ONE = 2018  # 令和元年 (Reiwa 1) is 2019


def day_first(
    decimal_separator: str, currency: str | None, *, day_first_labels: bool = False
) -> bool | None:
    """Whether the quote writes dates day first: a decimal comma (a European quote), a
    currency whose country does ("£", "A$"), or labels in a day-first language ("Datum");
    False for a dollar quote; None when nothing tells."""
    if decimal_separator == "," or (currency or "") in DAY_FIRST_CURRENCIES or day_first_labels:
        return True
    if (currency or "") in MONTH_FIRST_CURRENCIES:
        return False
    return None


def _month(name: str) -> int | None:
    folded = unicodedata.normalize("NFKD", name.casefold())
    return MONTHS.get("".join(ch for ch in folded if not unicodedata.combining(ch)))


def _valid(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def date_read(text: str, *, day_first: bool | None = None) -> date | None:
    """The date a title row writes, or None when it is no date or its day/month order is
    truly unknown: "05/12/2026" with ``day_first=None``. "28/04/2026" needs no locale."""
    text = " ".join(text.split())
    for named in _NAMED_DATES:
        found = named.match(text)
        month = _month(found.group("m")) if found else None
        if found and month:
            return _valid(int(found.group("y")), month, int(found.group("d")))
    if found := _CJK_DATE.match(text):
        reiwa = found.group("reiwa")
        year = (
            _REIWA_BEFORE_YEAR_ONE + (1 if reiwa == "元" else int(reiwa))
            if reiwa
            else int(found.group("y"))
        )
        return _valid(year, int(found.group("m")), int(found.group("d")))
    if found := _YEAR_FIRST.match(text):
        year, month, day = (int(group) for group in found.groups())
        return _valid(year, month, day)
    if found := _DOTTED.match(text):
        day, month, year = (int(group) for group in found.groups())
        return _valid(year, month, day)
    if found := _SLASHED.match(text):
        first, second, year = (int(group) for group in found.groups())
        if first > 12 or (day_first and second <= 12):
            return _valid(year, second, first)
        if second > 12 or day_first is False:
            return _valid(year, first, second)
        if first == second:  # "05/05/2026" reads the same both ways
            return _valid(year, first, second)
    return None


def date_normalize(text: str, *, day_first: bool | None = None) -> str:
    """A title-row date as ISO: "01.03.2025" → "2025-03-01", "4/28/2025" → "2025-04-28".

    "03/04/2025" is March 4th in Texas and April 3rd in Munich: it is read by the quote's
    locale (``day_first``; see the module docstring). Text we cannot read as a date, and a
    date whose order no locale tells, is kept as written."""
    read = date_read(text, day_first=day_first)
    return read.isoformat() if read else text.strip()
