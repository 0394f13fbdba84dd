"""Finding the header row among the title rows.

Vendors put a letterhead above the table: "Dell Technologies — Quote #3000123456 — Date
2025-03-01", then the header ("Mfr Part #", "Item Description", "Qty", "Unit Cost",
"Ext. Cost"), German resellers write "Artikelnummer", "Beschreibung", "Menge", "Einzelpreis",
"Gesamtpreis". The header row is the first row where at least two cells are known column names
and one of them names the part number or the description.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

#: Synonyms per field, best first. Matching is on normalised text (see ``header_normalize``).
# fmt: off
SYNONYMS: dict[str, tuple[str, ...]] = {
    "part_number": (
        "part number", "part no", "part", "mfr part", "mfr part number", "manufacturer part",
        "manufacturer part number", "mfg part", "mpn", "vendor part", "product number",
        "product no", "product", "sku", "skus", "part id", "partnumber", "order code", "model",
        "model number", "catalog number", "item number", "item no", "item code",
        "artikelnummer", "artikel nr", "artikel", "art nr", "teilenummer", "bestellnummer",
        "materialnummer", "reference", "ref", "code article", "numero de piece", "no de piece",
        "numero de pieza", "referencia", "codigo", "n de pieza", "no de pieza",
        # Italian, Portuguese, Dutch, Polish
        "codice", "codice articolo", "cod articolo", "codice prodotto", "riferimento",
        "codigo do produto", "cod produto", "artikelnr", "artikelcode", "productcode",
        "onderdeelnummer", "referentie", "nr katalogowy", "numer katalogowy", "kod",
        "kod produktu", "indeks", "symbol", "cod", "cod prod", "codigo produto",
        # last: "Item" is a line counter beside any other part column ("Item | Código")
        "item",
    ),
    "description": (
        "description", "item description", "product description", "part description", "desc",
        "details", "name", "product name", "item name", "beschreibung", "bezeichnung",
        "artikelbezeichnung", "produktbeschreibung", "designation", "libelle", "descripcion",
        "denominacion", "concepto", "option name", "option description", "specification",
        "specifications", "spec", "specs", "technical specification",
        "descrizione", "denominazione", "descricao", "descricao do produto", "designacao",
        "omschrijving", "artikelomschrijving", "beschrijving", "opis", "nazwa", "nazwa towaru",
        "opis produktu",
    ),
    "quantity": (
        "qty", "quantity", "units", "qte", "menge", "anzahl", "stuck", "stk", "quantite",
        "cantidad", "cant", "count", "qty ordered", "order qty", "q ty",
        "quantita", "qta", "q ta", "quantidade", "qtd", "qtde", "aantal", "ilosc", "szt", "uds",
        "unidades",
    ),
    # A builder's "Qty per Server | Servers" layout: how many configured systems each line's
    # per-server quantity is for (the table multiplies them, see ``table``).
    "system_count": (
        "servers", "systems", "nodes", "no of servers", "no of systems", "no of nodes",
        "number of servers", "number of systems", "number of nodes", "server qty",
        "system qty", "node qty",
    ),
    "unit_price": (
        "unit price", "unit cost", "price each", "unit net price", "net unit price",
        "unit sell price", "sell price", "net price", "price per unit", "unit", "each", "price",
        "list price", "unit list price", "einzelpreis", "stuckpreis", "e preis", "ep", "preis",
        "prix unitaire", "pu", "prix unitaire ht", "prix", "precio unitario", "precio",
        "precio unidad", "unit sell", "sell unit", "your price", "customer price", "unit net",
        "net unit", "unit selling price", "selling price",
        "prezzo unitario", "prezzo", "prezzo netto", "valor unitario", "preco unitario",
        "vlr unitario", "preco", "stukprijs", "prijs per stuk", "eenheidsprijs", "prijs",
        "cena jedn", "cena jednostkowa", "cena", "p u", "precio ud", "prezzo unit", "preco unit",
        "vlr unit", "valor unit",
    ),
    "extended_price": (
        "extended price", "ext price", "ext cost", "extended cost", "extended",
        "extended net price", "total price", "line total", "total", "amount", "net amount",
        "subtotal", "total cost", "gesamtpreis", "gesamt", "gesamtbetrag", "betrag", "summe", "gp",
        "montant", "montant ht", "total ht", "prix total", "importe", "precio total",
        "total linea", "option list price", "option price", "ext sell", "extended sell",
        "ext sell price", "extended sell price", "ext net", "extended net", "total sell",
        "sell total", "ext net price", "ext", "ext amt", "ext amount", "extension",
        "totale", "importo", "prezzo totale", "totale riga", "valor total", "vlr total",
        "preco total", "valor", "bedrag", "totaal", "regeltotaal", "totaalprijs", "wartosc",
        "kwota",
    ),
}
# fmt: on
#: Header cells that name a column we deliberately ignore ("Line", "#", "Pos.").
IGNORED = frozenset(
    {"line", "line no", "no", "pos", "position", "nr", "n", "lfd nr"}
    | {"lp", "regel", "riga", "linea", "linha", "poz", "pozycja", "posizione", "posicao"}
)

#: Words that make a qualified header cell a quantity ("Qty per System", "Total Qty").
_QUANTITY_WORDS = frozenset({"qty", "quantity", "menge", "anzahl", "quantita", "aantal", "ilosc"})
#: Qualifiers that make it the order's quantity rather than one system's.
_ORDER_WORDS = frozenset({"total", "extended", "ext", "order", "ordered", "gesamt"})
#: Qualifiers that make it one system's quantity ("Qty per System", "Qty/Unit").
_PER_WORDS = frozenset({"per", "each", "system", "server", "unit", "node", "config", "je", "pro"})
_NON_WORD = re.compile(r"[^0-9a-z]+")
_PARENS = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_CURRENCY_WORDS = re.compile(
    r"\b(usd|eur|gbp|chf|jpy|cad|aud|sek|nok|dkk|pln|inr|excl vat|incl vat|netto|brutto|"
    r"net|ht|ttc|in|brl|excl btw|incl btw|excl iva|iva esclusa|zl)\b"
)
#: Short synonyms that still start a longer header: "Qty per Server", "Qty (each)".
_SHORT_PREFIXES = frozenset({"qty"})
_RANK: dict[str, dict[str, int]] = {
    field: {synonym: rank for rank, synonym in enumerate(words)}
    for field, words in SYNONYMS.items()
}


def text_fold(text: str) -> str:
    """ "Désignation" → "designation", "19% MwSt." → "19 mwst": lower case, accents folded,
    punctuation turned into single spaces."""
    folded = unicodedata.normalize("NFKD", text.casefold().replace("ß", "ss"))
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return _NON_WORD.sub(" ", folded).strip()


def header_normalize(text: str) -> str:
    """ "Mfr Part #" → "mfr part", "Unit Price (EUR)" → "unit price", "Prix unitaire HT" →
    "prix unitaire": ``text_fold`` plus parentheses and currency/tax words dropped."""
    folded = text_fold(_PARENS.sub(" ", text))
    stripped = " ".join(_CURRENCY_WORDS.sub(" ", folded).split())
    return stripped or folded


#: Japanese, Chinese and Korean column names, which ``header_normalize`` (Latin letters only)
#: cannot read: 品番 | 品名 | 数量 | 単価 | 金額 (Japan), 型号 | 名称 | 数量 | 单价 | 金额 (China),
#: 料號 | 品名 | 數量 | 單價 | 金額 (Taiwan, Hong Kong), 품번 | 품명 | 수량 | 단가 | 금액 (Korea).
CJK_SYNONYMS: dict[str, str] = {
    **dict.fromkeys(
        ("品番", "型番", "製品番号", "品目コード", "型号", "料号", "物料编码", "产品型号"),
        "part_number",
    ),
    **dict.fromkeys(("料號", "品號", "型號", "物料編碼", "產品型號"), "part_number"),
    **dict.fromkeys(("품번", "부품번호", "제품번호", "모델번호", "품목코드"), "part_number"),
    **dict.fromkeys(
        ("品名", "商品名", "製品名", "摘要", "仕様", "内容", "名称", "产品名称", "描述", "规格"),
        "description",
    ),
    **dict.fromkeys(("規格", "說明", "名稱", "產品名稱", "品名規格"), "description"),
    **dict.fromkeys(("품명", "제품명", "설명", "사양", "규격", "품목", "내역"), "description"),
    **dict.fromkeys(("数量", "台数", "數量", "수량"), "quantity"),
    **dict.fromkeys(("単価", "单价", "單價", "단가"), "unit_price"),
    **dict.fromkeys(
        ("金額", "金额", "合計金額", "总价", "總價", "小计", "小計", "금액", "합계금액"),
        "extended_price",
    ),
}
#: Brackets, currency ("円", "元", "NT$", "新台幣", "원" as a word) and tax words ("税抜", "未稅",
#: "VAT 별도") a label carries beside its name.
_CJK_NOISE = re.compile(
    r"[\s()（）\[\]【】:：#＃$＄]|円|元|新台幣|台幣|원(?![\uac00-\ud7af])|税抜|税込|税别|含税|"
    r"未稅|含稅|별도|포함|[A-Za-z0-9._-]+"
)


def cjk_label(text: str) -> str:
    """A Japanese, Chinese or Korean label without spaces, brackets, currency and Latin words:
    "単価（円）" → "単価", "金額 (USD)" → "金額", "單價(NT$)" → "單價", "단가(원)" → "단가";
    "" for a Latin label."""
    return _CJK_NOISE.sub("", text)


def _field_for(cell: str) -> tuple[str, int] | None:
    """Best (field, rank) a header cell names: exact synonyms first, then a synonym that
    starts the cell ("Unit Price incl. discount")."""
    norm = header_normalize(cell)
    if not norm:
        field = CJK_SYNONYMS.get(cjk_label(cell))
        return (field, 0) if field else None
    if norm in IGNORED:
        return None
    best: tuple[str, int] | None = None
    for field, ranks in _RANK.items():
        rank = ranks.get(norm)
        if rank is not None and (best is None or rank < best[1]):
            best = (field, rank)
    if best:
        return best
    quantity = _quantity_rank(norm)
    if quantity is not None:
        return ("quantity", quantity)
    for field, ranks in _RANK.items():
        for synonym, rank in ranks.items():
            if (len(synonym) >= 4 or synonym in _SHORT_PREFIXES) and (
                norm.startswith(synonym + " ") or norm.endswith(" " + synonym)
            ):
                candidate = (field, 100 + rank)
                if best is None or candidate[1] < best[1]:
                    best = candidate
    return best


def _quantity_rank(norm: str) -> int | None:
    """A quantity column named with a qualifier: Lenovo's DCSC export has both "Qty per
    System" and "Total Qty", and its extended price is the unit price times the total. The
    order's quantity ("Total Qty", "Extended Qty", "Gesamtmenge") ranks before the
    per-system one ("Qty per System", "Qty/Unit"), which is used only when it is alone."""
    words = set(norm.split())
    if norm == "gesamtmenge":
        return 50
    if not _QUANTITY_WORDS & words or not words <= _QUANTITY_WORDS | _ORDER_WORDS | _PER_WORDS:
        return None  # "Qty;Description" is two columns run together, not a quantity
    return 50 if _ORDER_WORDS & words else 150


#: A price column at list ("Unit List", "Ext List", "MSRP"): what the customer would pay
#: without the deal. Beside a sell or net column it is not the price; alone it is.
_LIST_PRICE = re.compile(r"\b(?:list|msrp|rrp|uvp)\b")
_LIST_PENALTY = 1000


def _list_penalty(field: str, cell: str) -> int:
    """Distributors show list and sell side by side ("Unit List | Disc % | Unit Sell"): the
    list columns rank below every other price column."""
    if field in ("unit_price", "extended_price") and _LIST_PRICE.search(header_normalize(cell)):
        return _LIST_PENALTY
    return 0


def header_map(cells: Sequence[str]) -> dict[str, int]:
    """Map our fields to column indexes for one candidate header row.

    Each field takes the cell whose synonym ranks best, so "Item | Part Number" gives
    part_number → "Part Number" and leaves "Item" (a line counter) alone."""
    candidates: list[tuple[int, str, int]] = []
    for index, cell in enumerate(cells):
        if not cell or len(cell) > 80:
            continue
        found = _field_for(cell)
        if found:
            candidates.append((found[1] + _list_penalty(found[0], cell), found[0], index))
    chosen: dict[str, int] = {}
    used: set[int] = set()
    for _rank, field, index in sorted(candidates):
        if field not in chosen and index not in used:
            chosen[field] = index
            used.add(index)
    return chosen


def is_header(mapping: dict[str, int]) -> bool:
    """A header names at least two of our columns, one of them the part or the description."""
    return len(mapping) >= 2 and ("part_number" in mapping or "description" in mapping)


#: Column names of a Japanese quote (御見積書): part number, product name, quantity, unit price,
#: amount. The reader does not read them (yet); it says so rather than "no header".
_JAPANESE_HEADER_WORDS = ("品番", "型番", "品名", "商品名", "数量", "単価", "金額")


def header_language_hint(rows: Iterable[Sequence[str]]) -> str:
    """Why no header was found, when the file tells: " (the column names are Japanese: 品番,
    品名, 数量; ...)"; "" otherwise."""
    for cells in rows:
        found = [c.strip() for c in cells if c and c.strip() in _JAPANESE_HEADER_WORDS]
        if len(found) >= 2:
            return (
                f"; the column names are Japanese ({', '.join(found)}), which the reader does "
                "not read: rename them to Part Number, Description, Qty, Unit Price, Amount, "
                "or enter the lines by hand"
            )
    return ""
