"""The words of a company's legal form, which end a seller's name ("Inc.", "GmbH & Co. KG",
"Pte. Ltd.", "S.L.", "Ltda.", "Sp. z o.o.", "株式会社"), and the lower-case words a company's
name may hold ("of", "und", the "z" and "o.o." of a Polish "Sp. z o.o."). Used by ``seller``.
"""

from __future__ import annotations

# fmt: off
#: The last words of a legal name: "Inc.", "GmbH & Co. KG", "Pte. Ltd.", "Co., Ltd.".
LEGAL_WORDS = frozenset({
    "inc", "incorporated", "llc", "llp", "lp", "ltd", "limited", "gmbh", "mbh", "ag", "se",
    "sa", "sas", "sarl", "spa", "srl", "bv", "nv", "plc", "pty", "pte", "pvt", "private", "co",
    "corp", "corporation", "company", "kg", "ohg", "ug", "kk", "oy", "oyj", "ab", "as", "aps",
    "sdn", "bhd", "ev",
    # Iberian, Latin American and Central European forms: "S.L.", "Ltda.", "Sp. z o.o.", "s.r.o."
    "sl", "slu", "ltda", "eireli", "sp", "zoo", "oo", "sro", "kft", "doo", "akc",
})
CJK_LEGAL = (
    "株式会社", "有限会社", "合同会社", "股份有限公司", "有限公司", "公司", "(株)", "（株）",
    "주식회사", "유한회사", "(주)", "（주）", "㈜",
)
# fmt: on
CONNECTORS = frozenset(
    {"&", "and", "of", "for", "de", "la", "und", "the", "von", "der", "y", "+"}
    # the lower-case words of a legal form: "Sp. z o.o.", "s.r.o.", "e.K.", "da" (Ltda.)
    | {"z", "o.o.", "o.o", "s.r.o.", "s.r.l.", "e.k.", "do", "da", "e"}
)
