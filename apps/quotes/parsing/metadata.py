"""The letterhead above the table: vendor, quote number, date and currency.

Title rows read "Quote #: 3000123456", "Angebotsnummer | 4711-2025", "Devis n° D-2025-077",
"Moneda: EUR"; the vendor is named by a "Vendor:" label or by a known name anywhere in the
letterhead ("Hewlett Packard Enterprise" → "HPE"). Dates are written as ISO when they can be
read without guessing the day/month order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from apps.quotes.parsing.headers import cjk_label, header_normalize
from apps.quotes.parsing.numbers import currency_detect

# fmt: off
_META_LABELS: dict[str, tuple[str, ...]] = {
    "quote_number": (
        "quote", "quote number", "quote no", "quote id", "quotation", "quotation number",
        "quotation no", "quote ref", "reference number", "deal id", "angebot", "angebotsnummer",
        "angebots nr", "angebot nr", "devis", "devis n", "numero de devis", "cotizacion",
        "numero de cotizacion", "presupuesto", "offerte", "quote reference", "estimate id",
        "estimate number", "estimate", "equote number", "equote", "quotation reference",
        "proposal number", "proposal", "proposal no", "quote ref no", "offer", "offer no",
        "offer number", "offer id", "offer reference", "offre", "offre n", "numero d offre",
        "n d offre", "offerta", "numero offerta", "offertenummer", "offerte n",
        "ref no", "our ref", "our reference",
    ),
    "quote_date": (
        "date", "quote date", "quotation date", "issued", "issue date", "datum", "angebotsdatum",
        "date du devis", "fecha", "fecha de cotizacion", "created", "created on",
        "date created", "quote created", "estimate date", "offer date", "proposal date",
        "configuration date",
    ),
    "vendor": (
        "vendor", "supplier", "seller", "from", "reseller", "lieferant", "anbieter", "verkaufer",
        "fournisseur", "vendeur", "proveedor", "distribuidor",
    ),
    "currency": (
        "currency", "wahrung", "devise", "monnaie", "moneda", "divisa",
    ),
    # The number of systems a configuration priced for one is bought for: HP's and Dell's
    # configurators write "Quantity: 3" above the table of one unit's options.
    "systems": (
        "quantity", "qty", "system quantity", "configuration quantity", "number of systems",
        "number of servers", "number of units", "units", "anzahl systeme", "anzahl server",
    ),
}
# fmt: on
_META_LOOKUP = {label: field for field, labels in _META_LABELS.items() for label in labels}
#: Japanese and Chinese letterhead labels (read by ``cjk_label``, not ``header_normalize``).
_CJK_META: dict[str, str] = {
    **dict.fromkeys(
        ("見積番号", "御見積番号", "見積書番号", "見積No", "报价单号", "报价编号", "報價單號"),
        "quote_number",
    ),
    **dict.fromkeys(("見積日", "発行日", "見積日付", "日付", "报价日期", "日期"), "quote_date"),
    **dict.fromkeys(("通貨", "币种", "幣別", "货币"), "currency"),
}
#: Vendors we name when a title row mentions them and no "Vendor:" label says otherwise.
KNOWN_VENDORS: tuple[tuple[str, str], ...] = (
    ("hewlett packard enterprise", "HPE"),
    ("hpe", "HPE"),
    ("dell", "Dell"),
    ("supermicro", "Supermicro"),
    ("super micro", "Supermicro"),
    ("lenovo", "Lenovo"),
    ("nvidia", "NVIDIA"),
    ("cisco", "Cisco"),
    ("gigabyte", "Gigabyte"),
    ("asus", "ASUS"),
    ("fujitsu", "Fujitsu"),
    ("inspur", "Inspur"),
    ("cdw", "CDW"),
    ("insight", "Insight"),
    ("shi international", "SHI"),
    ("bechtle", "Bechtle"),
    ("cancom", "Cancom"),
    ("computacenter", "Computacenter"),
    ("eviden", "Eviden"),
    ("atos", "Atos"),
    ("presidio", "Presidio"),
    ("ingram micro", "Ingram Micro"),
    ("td synnex", "TD SYNNEX"),
    ("arrow electronics", "Arrow"),
    ("world wide technology", "WWT"),
    ("wwt", "WWT"),
    ("softchoice", "Softchoice"),
    ("softcat", "Softcat"),
    ("pc connection", "Connection"),
    ("data 3", "Data#3"),
    ("dicker data", "Dicker Data"),
)
#: A title row's count of systems: "3", "3 units", "x 3".
_SYSTEMS = re.compile(r"^\s*(?:x\s*)?\d{1,4}(?:\s*(?:units?|systems?|servers?|pcs|ea))?\s*$", re.I)


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


_LABEL_SPLIT = re.compile(r"^\s*([^:#：]{1,40}?(?:\s*(?:#|n°|nº|no\.|nr\.))?)\s*[:#：]\s*(.+)$")
_LABEL_NUMBER = re.compile(
    r"^\s*(.{1,40}?\s(?:n°|nº|no\.?|nr\.?|number|nummer|#))\s+(\S.*)$", re.IGNORECASE
)


#: A company's legal form ending a letterhead line alone in its row: "Redington Limited",
#: "Rheinland Rechenzentrumstechnik GmbH", "Data#3 Pty Ltd", "Otsuka Corporation".
_COMPANY = re.compile(
    r"\b(?:ltd|limited|gmbh|ag|sa|sas|s\.a\.|s\.p\.a\.|spa|inc|llc|l\.l\.c\.|corp|corporation|"
    r"plc|pty|bv|b\.v\.|nv|kk|k\.k\.|co|kg|oy|ab|as|srl|s\.r\.l\.)\.?$",
    re.IGNORECASE,
)
#: A quote number: one token with a digit ("3000204918", "EST-55120934", "QB-2026-118274").
_QUOTE_ID = re.compile(r"^(?=[^\s]*\d)[A-Za-z0-9][A-Za-z0-9./_-]{2,40}$")
_QUOTE_TITLE = re.compile(r"\b(?:quote|quotation|estimate|proposal)$", re.IGNORECASE)
#: "Quotation MWQ-58214", "Penguin Computing Quote Q-2026-3318" in one cell (a letterhead
#: line): the title, then the number.
_TITLE_AND_ID = re.compile(
    r"^(?:[^:#]{0,40}\s)?(?:quote|quotation|estimate|proposal)\s+(\S+)$", re.IGNORECASE
)
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        1,
    )
    for name in names
}
_NAMED_DATES = (
    re.compile(r"^(?P<d>\d{1,2})[- ](?P<m>[A-Za-z]{3,9})\.?[- ,]+(?P<y>\d{4})$"),
    re.compile(r"^(?P<m>[A-Za-z]{3,9})\.? (?P<d>\d{1,2}),? (?P<y>\d{4})$"),
)


def vendor_known(text: str) -> str | None:
    """The vendor a title names first, spelled our way: "Dell Technologies" → "Dell",
    "CDW quote for NVIDIA DGX Spark" → "CDW"; None for a vendor we don't know."""
    lowered = f" {header_normalize(text)} "
    found = [
        (position, name)
        for needle, name in KNOWN_VENDORS
        if (position := lowered.find(f" {needle} ")) >= 0
    ]
    return min(found)[1] if found else None


def _label_field(label: str) -> str | None:
    normalized = header_normalize(label)
    if not normalized:
        return _CJK_META.get(cjk_label(label))
    return _META_LOOKUP.get(normalized)


def metadata_read(rows: Sequence[Sequence[str]]) -> dict[str, str]:
    """Read vendor, quote number, date and currency from the rows above the header.

    Understands "Quote #: Q-123" in one cell and "Quote #" | "Q-123" in two cells;
    "Angebotsnummer: 4711", "Devis n° D-77", "Currency | EUR"."""
    found: dict[str, str] = {}
    mentioned_vendor = ""
    letterhead = ""
    for row in rows:
        cells = [cell.strip() for cell in row if cell and cell.strip()]
        if not letterhead and len(cells) == 1 and _COMPANY.search(cells[0]):
            letterhead = cells[0][:120]
        for position, cell in enumerate(cells):
            field, value = None, ""
            match = _LABEL_SPLIT.match(cell) or _LABEL_NUMBER.match(cell)
            if match:
                # "Quote #:" | "ASQ-26-1942": the label's own colon is no value.
                field, value = _label_field(match.group(1)), match.group(2).strip(" :#")
            if not (field and value):
                field = _label_field(cell)
                value = cells[position + 1] if field and position + 1 < len(cells) else ""
            titled = None if field else _TITLE_AND_ID.match(cell)
            if titled and _QUOTE_ID.match(titled.group(1)):
                field, value = "quote_number", titled.group(1)
            if not field and position + 1 < len(cells) and _QUOTE_TITLE.search(cell):
                # "Supermicro Solutions Quote | NSC-26-03318": a title naming the quote, then
                # its number.
                field, value = "quote_number", cells[position + 1]
            if field == "quote_number" and not _QUOTE_ID.match(value):
                continue  # "Deal ID: NA", "Quote | Data science refresh": not a number
            if field == "systems" and not (_SYSTEMS.match(value) and int(_digits(value)) > 1):
                continue  # "Qty | Unit Price" in a second header row, "Quantity: 1": no count
            if field and value and _label_field(value) is None and field not in found:
                found[field] = value[:120]
            if not mentioned_vendor:
                mentioned_vendor = vendor_known(cell) or ""
    if "vendor" in found:
        found["vendor"] = vendor_known(found["vendor"]) or found["vendor"]
    elif mentioned_vendor:
        found["vendor"] = mentioned_vendor
    elif letterhead:
        found["vendor"] = letterhead
    if "currency" in found:
        code = currency_detect(found["currency"]) or currency_detect(found["currency"].upper())
        if code:
            found["currency"] = code
        else:
            del found["currency"]
    return found


_DATE_PATTERNS = (
    # ISO, and the year-first "2026/05/20" and "2026.05.20" of Japanese and Chinese quotes.
    (re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})"), "ymd"),
    (re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$"), "dmy"),
    (re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$"), "??y"),
)


#: Currencies of countries that write the day first ("02/06/2026" is 2 June in London,
#: Sydney, Mumbai or Singapore). The US writes the month first; Canada both (left out).
DAY_FIRST_CURRENCIES = frozenset(
    {"GBP", "EUR", "INR", "AUD", "NZD", "SGD", "HKD", "CHF", "ZAR", "AED", "SAR", "ILS"}
    | {"TRY", "BRL", "MXN", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "THB"}
)


def day_first(decimal_separator: str, currency: str | None) -> bool:
    """Whether the quote writes dates day first: a decimal comma (a European quote) or a
    currency whose country does, "£" or "A$"."""
    return decimal_separator == "," or (currency or "") in DAY_FIRST_CURRENCIES


def date_normalize(text: str, *, day_first: bool = False) -> str:
    """A title-row date as ISO: "01.03.2025" → "2025-03-01", "4/28/2025" → "2025-04-28".

    "03/04/2025" is March 4th in Texas and April 3rd in Munich: it is read day-first when the
    file writes decimal commas (a European quote), month-first otherwise. Text we cannot read
    as a date is kept as written."""
    text = text.strip()
    for named in _NAMED_DATES:  # "08-Jun-2026", "June 16, 2026": no order to guess
        found = named.match(text)
        month = _MONTHS.get(found.group("m").casefold()) if found else None
        if found and month:
            try:
                return date(int(found.group("y")), month, int(found.group("d"))).isoformat()
            except ValueError:
                return text
    for pattern, order in _DATE_PATTERNS:
        match = pattern.match(text)
        if not match:
            continue
        first, second, third = (int(group) for group in match.groups())
        if order == "ymd":
            year, month, day = first, second, third
        elif order == "dmy" or first > 12 or (day_first and second <= 12):
            day, month, year = first, second, third
        else:
            month, day, year = first, second, third
        try:
            return date(year, month, day).isoformat()
        except ValueError:
            return text
    return text
