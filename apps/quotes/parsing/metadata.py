"""The letterhead above the table: vendor, quote number, date and currency.

Title rows read "Quote #: 3000123456", "Angebotsnummer | 4711-2025", "Devis n° D-2025-077",
"Moneda: EUR". The vendor is the seller its letterhead names (``seller``: "Summit Ridge
Systems, Inc. - Supermicro Premier Partner" is Summit Ridge's quote); dates are read by
``dates``, as ISO when the day/month order is known. Labels in a day-first language ("Datum",
"Fecha", "Date du devis") say so as ``date_order``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from apps.quotes.parsing.dates import date_normalize, date_read, day_first
from apps.quotes.parsing.headers import cjk_label, header_normalize
from apps.quotes.parsing.label_runs import labelled_runs_split
from apps.quotes.parsing.numbers import currency_detect
from apps.quotes.parsing.seller import KNOWN_VENDORS, seller_read, vendor_known

__all__ = [
    "KNOWN_VENDORS",
    "date_normalize",
    "day_first",
    "metadata_read",
    "vendor_known",
]

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
        "offerta n", "offerta no", "presupuesto n", "presupuesto no", "numero de presupuesto",
        "proposta", "proposta n", "proposta no", "proposta comercial", "proposta comercial n",
        "proposta comercial no", "numero da proposta", "orcamento", "orcamento n",
        "cotacao", "cotacao n", "offerte nr", "offertenr", "oferta", "oferta nr", "oferta n",
        "numer oferty",
    ),
    "quote_date": (
        "date", "quote date", "quotation date", "issued", "issue date", "datum", "angebotsdatum",
        "date du devis", "fecha", "fecha de cotizacion", "created", "created on",
        "date created", "quote created", "estimate date", "offer date", "proposal date",
        "configuration date",
        "data", "data offerta", "data dell offerta", "data da proposta", "data de emissao",
        "data wystawienia", "data oferty", "offertedatum", "fecha de emision",
        "fecha del presupuesto",
    ),
    "currency": (
        "currency", "wahrung", "devise", "monnaie", "moneda", "divisa", "valuta", "moeda",
        "waluta", "munt",
    ),
    # The number of systems a configuration priced for one is bought for: HP's and Dell's
    # configurators write "Quantity: 3" above the table of one unit's options.
    "systems": (
        "quantity", "qty", "system quantity", "configuration quantity", "number of systems",
        "number of servers", "number of units", "units", "anzahl systeme", "anzahl server",
    ),
}
# fmt: on
# fmt: off
#: Labels in languages that write the day first ("Datum: 03.04.2026", "Fecha: 03/04/2026").
_DAY_FIRST_LABELS = frozenset({
    "angebot", "angebotsnummer", "angebots nr", "angebot nr", "datum", "angebotsdatum",
    "wahrung", "devis", "devis n", "numero de devis", "date du devis", "devise", "monnaie",
    "offre", "offre n", "numero d offre", "n d offre", "cotizacion", "numero de cotizacion",
    "presupuesto", "fecha", "fecha de cotizacion", "moneda", "divisa", "offerta",
    "numero offerta", "offerte", "offertenummer", "offerte n",
    # Italian, Spanish, Portuguese, Dutch and Polish write the day first too.
    "offerta n", "offerta no", "presupuesto n", "presupuesto no", "numero de presupuesto",
    "proposta", "proposta n", "proposta no", "proposta comercial", "proposta comercial n",
    "proposta comercial no", "numero da proposta", "orcamento", "orcamento n", "cotacao",
    "cotacao n", "offerte nr", "offertenr", "oferta", "oferta nr", "oferta n", "numer oferty",
    "data", "data offerta", "data dell offerta", "data da proposta", "data de emissao",
    "data wystawienia", "data oferty", "offertedatum", "fecha de emision",
    "fecha del presupuesto", "valuta", "moeda", "waluta", "munt",
})
# fmt: on
_META_LOOKUP = {label: field for field, labels in _META_LABELS.items() for label in labels}
#: Japanese, Chinese and Korean letterhead labels (read by ``cjk_label``, not
#: ``header_normalize``).
_CJK_META: dict[str, str] = {
    **dict.fromkeys(
        ("見積番号", "御見積番号", "見積書番号", "見積No", "报价单号", "报价编号", "報價單號"),
        "quote_number",
    ),
    **dict.fromkeys(("報價編號", "報價單編號", "견적번호", "견적서번호"), "quote_number"),
    **dict.fromkeys(("見積日", "発行日", "見積日付", "日付", "报价日期", "日期"), "quote_date"),
    **dict.fromkeys(("報價日期", "견적일", "견적일자", "작성일", "작성일자"), "quote_date"),
    **dict.fromkeys(("通貨", "币种", "幣別", "货币", "貨幣", "幣值", "통화"), "currency"),
}
#: A title row's count of systems: "3", "3 units", "x 3".
_SYSTEMS = re.compile(r"^\s*(?:x\s*)?\d{1,4}(?:\s*(?:units?|systems?|servers?|pcs|ea))?\s*$", re.I)


def _date_like(value: str) -> bool:
    """A value that can be a date: two or more digit groups ("17/06/2026", "2026年6月17日"),
    a date ``date_read`` reads ("19 May 2026") or a spreadsheet serial ("46190"); not the
    "3 Limited" of "Data#3 Limited"."""
    return (
        len(re.findall(r"\d+", value)) >= 2
        or date_read(value, day_first=True) is not None
        or bool(re.fullmatch(r"\d{5}(?:\.\d+)?", value.strip()))
    )


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


_LABEL_SPLIT = re.compile(r"^\s*([^:#：]{1,40}?(?:\s*(?:#|n°|nº|no\.|nr\.))?)\s*[:#：]\s*(.+)$")
_LABEL_NUMBER = re.compile(
    r"^\s*(.{1,40}?\s(?:n°|nº|no\.?|nr\.?|number|nummer|#))\s+(\S.*)$", re.IGNORECASE
)


#: A quote number: one token with a digit ("3000204918", "EST-55120934", "QB-2026-118274").
_QUOTE_ID = re.compile(r"^(?=[^\s]*\d)[A-Za-z0-9][A-Za-z0-9./_-]{2,40}$")
_QUOTE_TITLE = re.compile(r"\b(?:quote|quotation|estimate|proposal)$", re.IGNORECASE)
#: "Quotation MWQ-58214", "Penguin Computing Quote Q-2026-3318" in one cell (a letterhead
#: line): the title, then the number.
_TITLE_AND_ID = re.compile(
    r"^(?:[^:#]{0,40}\s)?(?:quote|quotation|estimate|proposal)\s+(\S+)$", re.IGNORECASE
)


def _label_field(label: str) -> str | None:
    normalized = header_normalize(label)
    if not normalized:
        return _CJK_META.get(cjk_label(label))
    return _META_LOOKUP.get(normalized)


def _label_known(label: str) -> bool:
    return _label_field(label) is not None


def metadata_read(
    rows: Sequence[Sequence[str]], closing_rows: Sequence[Sequence[str]] = ()
) -> dict[str, str]:
    """Read vendor, quote number, date and currency from the rows above the header (the
    vendor also from ``closing_rows``, the rows after the lines: "Remit to", "Thank you").

    Understands "Quote #: Q-123" in one cell and "Quote #" | "Q-123" in two cells;
    "Angebotsnummer: 4711", "Devis n° D-77", "Currency | EUR"."""
    found: dict[str, str] = {}
    for row in rows:
        cells = [
            part
            for cell in row
            if cell and cell.strip()
            for part in labelled_runs_split(cell.strip(), _label_known)
        ]
        for position, cell in enumerate(cells):
            field, value, label = None, "", cell
            match = _LABEL_SPLIT.match(cell) or _LABEL_NUMBER.match(cell)
            if match:
                # "Quote #:" | "ASQ-26-1942": the label's own colon is no value.
                label, value = match.group(1), match.group(2).strip(" :#")
                field = _label_field(label)
            if not (field and value):
                field, label = _label_field(cell), cell
                value = cells[position + 1] if field and position + 1 < len(cells) else ""
            if field and header_normalize(label) in _DAY_FIRST_LABELS:
                found.setdefault("date_order", "day_first")
            titled = None if field else _TITLE_AND_ID.match(cell)
            if titled and _QUOTE_ID.match(titled.group(1)):
                field, value = "quote_number", titled.group(1)
            if not field and position + 1 < len(cells) and _QUOTE_TITLE.search(cell):
                # "Supermicro Solutions Quote | NSC-26-03318": a title naming the quote, then
                # its number.
                field, value = "quote_number", cells[position + 1]
            if field == "quote_number" and not _QUOTE_ID.match(value):
                continue  # "Deal ID: NA", "Quote | Data science refresh": not a number
            if field == "quote_date" and not _date_like(value):
                continue  # "Data#3 Limited" (a seller's name) is no "Data: 3" date label
            if field == "systems" and not (_SYSTEMS.match(value) and int(_digits(value)) > 1):
                continue  # "Qty | Unit Price" in a second header row, "Quantity: 1": no count
            if field and value and _label_field(value) is None and field not in found:
                found[field] = value[:120]
    if vendor := seller_read(rows, closing_rows):
        found["vendor"] = vendor
    if "currency" in found:
        code = currency_detect(found["currency"]) or currency_detect(found["currency"].upper())
        if code:
            found["currency"] = code
        else:
            del found["currency"]
    return found
