"""Money and quantities as vendors write them, read into ``Decimal`` and ``int``.

A German reseller writes "€ 265.000,00", Dell writes "$1,234.56", an accountant writes
"(100.00)" for a discount and SAP exports "100.00-". Which character is the decimal separator
is decided once per file (``decimal_separator_detect``), because "1.234" alone could be either
one thousand two hundred thirty-four or one point two three four.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

#: ISO codes we recognise in headers, title rows and money cells.
CURRENCY_CODES = frozenset(
    {"USD", "EUR", "GBP", "CHF", "JPY", "CNY", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK"}
    | {"PLN", "CZK", "HUF", "INR", "SGD", "HKD", "KRW", "BRL", "MXN", "ZAR", "AED", "SAR"}
    | {"ILS", "TRY", "TWD", "THB"}
)
_PREFIXED_DOLLARS = {
    "US$": "USD",
    "A$": "AUD",
    "AU$": "AUD",
    "C$": "CAD",
    "CA$": "CAD",
    "NZ$": "NZD",
    "HK$": "HKD",
    "S$": "SGD",
    "NT$": "TWD",
}
_SYMBOLS = {"€": "EUR", "£": "GBP", "¥": "JPY", "円": "JPY", "₹": "INR", "₩": "KRW", "$": "USD"}

_PREFIXED_RE = re.compile(r"(?<![A-Za-z])(US|AU|A|CA|C|NZ|HK|NT|S)\$")
_CODE_RE = re.compile(r"(?<![A-Za-z])([A-Z]{3})(?![A-Za-z])")
_STRIP_RE = re.compile(
    r"(?<![A-Za-z])(?:US|AU|A|CA|C|NZ|HK|NT|S)\$|[€£¥円₹₩$]|(?<![A-Za-z])(?:SFr\.|Fr\.|Rs\.?)"
    r"|(?<![A-Za-z])(?:" + "|".join(sorted(CURRENCY_CODES)) + r")(?![A-Za-z])",
    re.IGNORECASE,
)
#: Anything besides digits, separators, spaces and signs: only then is stripping needed.
_NOT_NUMERIC_RE = re.compile(r"[^\d.,\s'()+\-]")
_FULL_WIDTH_RE = re.compile(r"[\uff01-\uff5e\uffe0-\uffe6\u3000]")
#: Group separators: spaces (French, Swedish), the apostrophe of Swiss "1'234.50" and the
#: typographic one (U+2019) that Windows' de-CH locale writes, "1’234.50".
_SPACES_RE = re.compile(r"[\s\u00a0\u202f\u2009'\u2019]")

#: "1,234.56", and India's lakh/crore grouping "1,23,45,678.00" (threes, then twos).
_DOT_GROUPED = re.compile(r"(?:\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})+,\d{3})(?:\.\d*)?")
_DOT_PLAIN = re.compile(r"\d*\.?\d+|\d+\.")
_PLAIN_DOT = re.compile(r"-?\d{1,15}(?:\.\d{1,6})?")
_COMMA_GROUPED = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d*)?")
_COMMA_PLAIN = re.compile(r"\d*,?\d+|\d+,")

#: Words that mean "no charge": the line is real, its price is zero.
_ZERO_WORDS = frozenset(
    {"included", "incl", "inkl", "inklusive", "inclus", "incluido", "incluida", "n/c", "nc"}
    | {"no charge", "free", "kostenlos", "gratuit", "gratis", "inbegriffen", "enthalten"}
    # Italian, Portuguese, Dutch, Polish: incluso / compreso, incluído, inbegrepen, w cenie
    | {"incluso", "inclusa", "compreso", "incluído", "incluso nel prezzo", "inbegrepen"}
    | {"w cenie", "wliczone", "gratuito"}
    # Japanese and Chinese: 込み / 標準添付 (included, standard), 含 / 包含 / 免费 (free);
    # Traditional Chinese 內含 / 免費; Korean 포함 (included), 무상 (free of charge).
    | {
        "込み",
        "込",
        "標準添付",
        "含む",
        "含",
        "包含",
        "免费",
        "无偿",
        "內含",
        "免費",
        "포함",
        "무상",
    }
)
#: Words that mean "no amount here".
_EMPTY_WORDS = frozenset(
    {"-", "–", "—", "n/a", "na", "tbd", "tba", "--", "---", "tbc", "tbq", "poa", "n.a.", "nq"}
    # not priced on this quote: "Call for pricing", "Price on request", "Auf Anfrage"
    | {"call for pricing", "call for price", "call for quote", "price on request"}
    | {"on request", "upon request", "price on application", "contact sales", "contact us"}
    | {"pending", "to be quoted", "not quoted", "quoted separately", "auf anfrage"}
    | {"sur demande", "a consultar", "su richiesta", "op aanvraag", "na zapytanie"}
    | {"sob consulta", "a definir", "da definire"}
)
_QUANTITY_UNITS = re.compile(
    r"\s*(?:x|ea\.?|each|pcs?\.?|pieces?|units?|sets?|stk\.?|stück|st\.?|pz\.?|uds?\.?|unités?"
    r"|台|個|本|枚|式|套|件|个)$",
    re.IGNORECASE,
)


def currency_detect(text: str) -> str | None:
    """The currency a cell or header names: "€ 265.000,00" → EUR, "Unit Price (GBP)" → GBP,
    "A$1,200" → AUD. None when it names none."""
    if not text:
        return None
    text = _half_width(text)
    match = _PREFIXED_RE.search(text)
    if match:
        return _PREFIXED_DOLLARS[match.group(0)]
    for symbol, code in _SYMBOLS.items():
        if symbol in text:
            return code
    for match in _CODE_RE.finditer(text):
        if match.group(1) in CURRENCY_CODES:
            return match.group(1)
    if re.search(r"(?<![A-Za-z])S?Fr\.", text):
        return "CHF"
    if re.search(r"(?<![A-Za-z])Rs\.?\s?\d", text):
        return "INR"
    return None


def _half_width(text: str) -> str:
    """Japanese quotes write money in full-width forms, "￥１，２３４，０００": the ASCII
    they stand for (NFKC), so "¥1,234,000" reads like any other yen amount."""
    return unicodedata.normalize("NFKC", text) if _FULL_WIDTH_RE.search(text) else text


def _strip_money(text: str) -> tuple[str, bool]:
    """Remove currency marks, spaces and sign notation; return (digits, negative)."""
    text = _half_width(text)
    value = _STRIP_RE.sub("", text) if _NOT_NUMERIC_RE.search(text) else text
    if _SPACES_RE.search(value):
        value = _SPACES_RE.sub("", value)
    value = value.replace("\u2212", "-")
    negative = False
    if value.startswith("(") and value.endswith(")"):
        negative, value = True, value[1:-1]
    if value.startswith("-"):
        negative, value = not negative, value[1:]
    elif value.endswith("-"):
        negative, value = not negative, value[:-1]
    elif value.startswith("+"):
        value = value[1:]
    return value, negative


def _digits_to_decimal(value: str, decimal_separator: str) -> Decimal | None:
    """Parse bare digits with separators under one convention; None if they don't fit it."""
    if decimal_separator == ",":
        if _COMMA_GROUPED.fullmatch(value):
            return Decimal(value.replace(".", "").replace(",", ".").rstrip(".") or "0")
        if _COMMA_PLAIN.fullmatch(value):
            return Decimal(value.replace(",", ".").rstrip("."))
        return None
    if _DOT_GROUPED.fullmatch(value):
        return Decimal(value.replace(",", "").rstrip(".") or "0")
    if _DOT_PLAIN.fullmatch(value):
        return Decimal(value.rstrip("."))
    return None


def amount_parse(text: str, *, decimal_separator: str = ".") -> Decimal | None:
    """Read a money cell: "€ 265.000,00" (decimal ",") → Decimal("265000.00"),
    "$1,234.56" → Decimal("1234.56"), "(100.00)" → Decimal("-100.00"), "Included" → 0,
    "" or "n/a" → None. Raises ValueError when the cell is not an amount at all."""
    text = text.strip()
    if not text:
        return None
    if _PLAIN_DOT.fullmatch(text) and (decimal_separator == "." or "." not in text):
        return Decimal(text)  # fast path: "1234.56", "42"
    if decimal_separator == "." and _DOT_GROUPED.fullmatch(text):
        return Decimal(text.replace(",", "").rstrip(".") or "0")  # fast path: "1,234.56"
    lowered = text.casefold()
    if lowered in _EMPTY_WORDS:
        return None
    if lowered.rstrip(".") in _ZERO_WORDS:
        return Decimal("0")
    value, negative = _strip_money(text)
    if not value:
        raise ValueError(f"{text!r} is not an amount")
    try:
        number = _digits_to_decimal(value, decimal_separator)
        if number is None:
            # "1234.56" in a decimal-comma file is still unambiguous: accept it.
            other = "." if decimal_separator == "," else ","
            if _unambiguous_under(value, other):
                number = _digits_to_decimal(value, other)
    except InvalidOperation:  # pragma: no cover - the regexes only admit digits
        number = None
    if number is None:
        raise ValueError(f"{text!r} is not an amount")
    return -number if negative else number


def _unambiguous_under(value: str, decimal_separator: str) -> bool:
    vote = _separator_vote(value)
    return vote == decimal_separator


def quantity_parse(text: str, *, decimal_separator: str = ".", credit: bool = False) -> int | None:
    """Read a quantity cell: "2" → 2, "2.0" → 2, "4 ea" → 4, "" → None.

    Raises ValueError with a message that contains the word "quantity": negative ("-2"),
    not a number ("two"), or not whole ("2.5"). On a ``credit`` line (its amount is negative
    too: "Trade-in of 2 × DL380 Gen10 | -2 | 1,700.00 | -3,400.00") "-2" reads as 2 returned."""
    text = text.strip()
    if not text:
        return None
    if text.isascii() and text.isdigit() and len(text) <= 7:
        return int(text)  # fast path: "2"
    cleaned = _QUANTITY_UNITS.sub("", text).strip()
    if cleaned.casefold().startswith("x") and cleaned[1:].strip()[:1].isdigit():
        cleaned = cleaned[1:].strip()
    value, negative = _strip_money(cleaned) if cleaned else ("", False)
    number = _digits_to_decimal(value, decimal_separator) if value else None
    if number is None and value:
        other = "." if decimal_separator == "," else ","
        if _unambiguous_under(value, other):
            number = _digits_to_decimal(value, other)
    if number is None or not number.is_finite():
        raise ValueError(f"quantity {text!r} is not a number")
    if negative and number != 0 and not credit:
        raise ValueError(f"quantity {text} is negative")
    if number != number.to_integral_value():
        raise ValueError(f"quantity {text} is not a whole number")
    if number > 10_000_000:
        raise ValueError(f"quantity {text} is implausibly large")
    return int(number)


def _separator_vote(text: str) -> str | None:
    """Which decimal separator a single cell proves, if any.

    "1.234,56" and "265,00" prove ","; "1,234.56" and "12.5" prove "."; "1,234" and "1.234"
    prove nothing (thousands or decimals)."""
    value, _ = _strip_money(text)
    if not value or not (value[0].isdigit() or value[0] in ".,"):
        return None
    has_dot, has_comma = "." in value, "," in value
    if has_dot and has_comma:
        return "," if value.rfind(",") > value.rfind(".") else "."
    if has_comma:
        if value.count(",") > 1:
            return "." if _DOT_GROUPED.fullmatch(value) else None
        decimals = value.rsplit(",", 1)[1]
        if len(decimals) == 3 and _DOT_GROUPED.fullmatch(value):
            return None
        return "," if decimals.isdigit() else None
    if has_dot:
        if value.count(".") > 1:
            return "," if _COMMA_GROUPED.fullmatch(value) else None
        decimals = value.rsplit(".", 1)[1]
        if len(decimals) == 3 and _COMMA_GROUPED.fullmatch(value):
            return None
        return "." if decimals.isdigit() else None
    return None


def decimal_separator_detect(cells: Iterable[str], *, default: str = ".") -> str:
    """Decide a file's decimal separator from its money cells by majority of the cells that
    prove one; ``default`` (";"-delimited files default to ",") when none does."""
    votes = {".": 0, ",": 0}
    for cell in cells:
        if cell:
            vote = _separator_vote(cell)
            if vote:
                votes[vote] += 1
    if votes[","] > votes["."]:
        return ","
    if votes["."] > votes[","]:
        return "."
    return default
