"""Subtotal, tax, shipping and total rows: kept as the vendor's stated figures, not as lines.

"Zwischensumme | € 528.814,88", "19% MwSt. | € 100.474,83", "Grand Total | $38,076.44",
"Total: 915,960.00" under a PDF table. A row is a summary only when its quantity cell holds no
number (some vendors put the label in the Qty column), so a real line described as
"Total Care support, qty 2" stays a line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from apps.quotes.parsing.cells import Cell, cell_number
from apps.quotes.parsing.headers import text_fold
from apps.quotes.parsing.numbers import amount_parse
from apps.quotes.parsing.schemas import SkippedRow

_TOTAL_RE = re.compile(
    r"^(?:grand total|total|totals|gesamtsumme|gesamtbetrag|endsumme|summe|gesamt|"
    r"total general|total ttc|total ht|montant total|importe total|total amount|quote total|"
    r"total price|net total|netto summe|nettosumme|total neto|gross total|total gross|"
    r"gross amount|bruttobetrag|gesamtbetrag brutto|total incl vat|total including vat|"
    r"totale|totale offerta|totale complessivo|totaal|valor total|total geral|razem|suma|"
    r"razem brutto|wartosc brutto|importe|total presupuesto|total general)\b"
)
_SUBTOTAL_RE = re.compile(
    r"^(?:sub ?total|subtotals|zwischensumme|sous total|summe netto|nettobetrag|"
    r"total excl|total before tax|total net|total ht|base imponible|imponibile|"
    r"totale imponibile|subtotale|subtotaal|totaal excl|razem netto|suma netto|"
    r"wartosc netto|base de calculo|total sem impostos)\b"
)
_CHARGE_RE = re.compile(
    r"^(?:shipping|freight|handling|delivery|shipping and handling|s h|versand|"
    r"versandkosten|fracht|lieferung|frais de port|livraison|transporte|envio|portes|"
    r"vracht|verzendkosten|trasporto|spedizione|frete|wysylka|dostawa|koszty transportu)\b"
)
_TAX_RE = re.compile(
    # "zzgl. 19% MwSt.", "plus 8.25% sales tax": the word that adds it may lead.
    r"^(?:(?:zzgl|zuzuglich|plus|add|excl|exkl|inkl|incl|hors) )?"
    r"(?:\d+(?: \d+)? )?(?:tax|taxes|sales tax|vat|mwst|ust|umsatzsteuer|mehrwertsteuer|"
    r"tva|iva|gst|hst|pst|qst|rst|igst|cgst|sgst|utgst|estimated tax|btw|icms|ipi|"
    r"pis|cofins|podatek vat|moms|alv)\b"
)
#: The sum of the tax rows above it ("GST 5%", "PST 7%", then "Total Tax"): the tax, once.
_TAX_TOTAL_RE = re.compile(
    r"^(?:total (?:tax|taxes|vat|gst|mwst|tva|iva)|(?:tax|vat|gst) total|"
    r"gesamt (?:mwst|ust))\b"
)


#: A payment per period: a lease's or a subscription's "Total monthly payment".
_RECURRING_RE = re.compile(
    r"\b(?:monthly|per month|a month|quarterly|per quarter|annual payment|mensuel(?:le)?|"
    r"monatlich|mensual|mensile|mensal|miesieczn\w*|maandelijks)\b"
)


def recurring_total(texts: Sequence[str], ext_index: int | None) -> bool:
    """A total of payments per period where the quote has no price column of its own ("Qty |
    Description | Monthly Payment (36 mo)" ... "Total monthly payment"): not what the systems
    cost, so never the quote's total. Beside a price column the row's price is read as usual
    ("Total purchase price / Total monthly payment" | 999,320.00 | 29,779.74)."""
    if ext_index is not None and ext_index < len(texts) and texts[ext_index]:
        return False
    return any(_RECURRING_RE.search(text_fold(text)) for text in texts if text)


def tax_total_row(texts: Sequence[str]) -> bool:
    """Whether a tax row sums the tax rows above it ("Total Tax") rather than adding one."""
    return any(_TAX_TOTAL_RE.match(text_fold(text)) for text in texts if text)


#: Japanese, Chinese and Korean labels, which ``text_fold`` (Latin letters only) cannot read:
#: "小計" / "小计" / "소계" / "공급가액" subtotal, "消費税 (10%)" / "增值税" / "營業稅 (5%)" /
#: "부가세" tax, "合計" / "合计" / "總計" / "합계" / "총계" total, "送料" / "运费" / "운송비"
#: shipping. Tried in this order on the label as written.
_CJK_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("subtotal", re.compile(r"^(?:小計|小计|未稅合計|소계|공급가액)")),
    (
        "tax",
        re.compile(r"^(?:消費税|增值税|増値税|税額|税金|税额|營業稅|稅額|稅金|부가세|부가가치세)"),
    ),
    (
        "total",
        re.compile(
            r"^(?:合計|合计|総計|总计|總計|総額|总额|總額|税込合計|含税合计|含稅合計|含稅總計|"
            r"お見積合計|합계|총계|총액)"
        ),
    ),
    ("charges", re.compile(r"^(?:送料|運賃|运费|運費|配送料|운송비|배송비)")),
)


_TRAILING_AMOUNT = re.compile(
    r"[:\s]\s*((?:[A-Z]{3}\s?|[$€£¥]\s?)?\(?-?\d[\d.,'\u00a0 ]*\d\)?(?:\s?[$€£¥]|\s?[A-Z]{3})?)\s*$"
)


@dataclass
class Totals:
    total: Decimal | None = None
    subtotal: Decimal | None = None
    tax: Decimal | None = None
    charges: Decimal | None = None
    footer_row: int | None = None
    ignored_after_footer: int = 0
    skipped: list[SkippedRow] = field(default_factory=list)


def summary_kind(texts: Sequence[str]) -> str | None:
    """Which summary row this is: "Grand Total" → total, "Subtotal:" or "Total HT" →
    subtotal, "19% MwSt." → tax, "Shipping" → charges; None for a quote line."""
    for text in texts:
        if not text or len(text) > 60 or (text[:1].isdigit() and "%" not in text):
            continue
        for kind, label in _CJK_KINDS:
            if label.match(text):
                return kind
        norm = text_fold(text)
        if not norm:
            continue
        if _SUBTOTAL_RE.match(norm):
            return "subtotal"
        if _TAX_RE.match(norm) or _TAX_TOTAL_RE.match(norm):
            return "tax"
        if _TOTAL_RE.match(norm):
            return "total"
        if _CHARGE_RE.match(norm):
            return "charges"
    return None


def summary_amount(
    cells: Sequence[Cell], texts: Sequence[str], ext_index: int | None, decimal_separator: str
) -> Decimal | None:
    order = list(range(len(cells) - 1, -1, -1))
    if ext_index is not None and ext_index < len(cells):
        order.insert(0, ext_index)
    for index in order:
        number = cell_number(cells[index])
        if number is not None:
            return number
        text = texts[index] if index < len(texts) else ""  # texts end at the last filled cell
        if text and any(ch.isdigit() for ch in text) and "%" not in text:
            try:
                value = amount_parse(text, decimal_separator=decimal_separator)
            except ValueError:
                continue
            if value is not None:
                return value
    for text in texts:  # "Total: 398,000.00" in one cell (PDF text lines)
        match = _TRAILING_AMOUNT.search(text)
        if match:
            try:
                value = amount_parse(match.group(1), decimal_separator=decimal_separator)
            except ValueError:
                continue
            if value is not None:
                return value
    return None
