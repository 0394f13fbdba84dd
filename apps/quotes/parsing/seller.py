"""Who sent the quote: the seller its letterhead names, never the maker of what it sells.

A Supermicro server quoted by "Summit Ridge Systems, Inc. - Supermicro Premier Partner" is
Summit Ridge's quote; an NVIDIA DGX quoted by "Keystone AI Infrastructure" is Keystone's. The
seller is read from the letterhead's shape, so sellers we have never heard of are found too:

1. a seller label: "Vendor:", "Supplier:", "Sold by", "From:", "Quoted by", "Remit to",
   "Lieferant", "Fournisseur", "販売店";
2. the company block at the top left: the first company line above the labelled fields
   ("Puget Systems", "株式会社東京GPUシステムズ", "Cisco Systems, Inc." beside the customer's
   address), its titles ("- Quote"), partner taglines ("- NVIDIA Elite Partner") and
   asides ("(Foxconn)") dropped; "Maker - via Atlas Systems Integration" names the seller;
3. a sales-channel label ("Reseller:", "Distributor:", "Authorized partner:"), which names the
   seller under a maker's bare letterhead but the buyer on a distributor's quote ("Ingram Micro
   Inc. - Advanced Solutions Quote" ... "Reseller: Brightline Systems LLC"), so the company
   heading the letterhead outranks it;
4. a person's label naming their company: "Prepared by: J. Ruiz, Exxact Corporation",
   "Your account manager at Colfax";
5. a title naming its sender: "Penguin Computing Quote Q-2026-3318";
6. the closing rows: "Remit to: ...", "Thank you for your business - Lambda, Inc.";
7. an e-mail or web address: "quotes@exxact.com" → "Exxact", "pugetsystems.com" → the
   letterhead's "Puget Systems";
8. last, a vendor we know named anywhere in the letterhead ("Dell Premier - eQuote").

The customer's block ("Customer:", "Bill To", "Ship to", "Prepared for", "御中") is never the
seller, and a maker named in a tagline or the product lines never outranks a named seller.

Spelling policy: the seller is reported as the letterhead writes it ("Aspen Systems Inc.",
"EXXACT CORPORATION"), except vendors we know, which are spelled our way ("Dell Technologies"
→ "Dell", "Hewlett Packard Enterprise Deutschland GmbH" → "HPE") so a vendor's remembered
mappings find it however a quote spells it. Two spellings of one seller are compared through
``vendor_normalize`` ("Exxact Corporation" and "EXXACT CORP." are both "exxact"), and
``vendor_key`` keeps a vendor's remembered mappings and corrections under that one name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from apps.quotes.parsing.headers import header_normalize, text_fold
from apps.quotes.parsing.legal_forms import CJK_LEGAL as _CJK_LEGAL
from apps.quotes.parsing.legal_forms import CONNECTORS as _CONNECTORS
from apps.quotes.parsing.legal_forms import LEGAL_WORDS as _LEGAL_WORDS

#: Vendors we spell our way, and name when a title row mentions them and nothing better does.
KNOWN_VENDORS: tuple[tuple[str, str], ...] = (
    ("hewlett packard enterprise", "HPE"),
    ("hpe", "HPE"),
    ("hp inc", "HP"),
    ("hp", "HP"),
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

# fmt: off
#: Labels whose value is the seller.
_SELLER_LABELS = frozenset({
    "vendor", "supplier", "seller", "from", "sold by", "issued by", "supplied by", "offered by",
    "provided by",
    "remit to", "remit payment to", "please remit to", "payable to", "make checks payable to",
    "make cheques payable to", "lieferant", "anbieter", "verkaufer", "fournisseur", "vendeur",
    "proveedor", "distribuidor", "fornitore", "leverancier",
})
#: Labels naming a party in the sales channel, which may be the seller ("Authorized reseller:
#: Presidio" under an OEM's own letterhead) or the buyer: a distributor's quote names the
#: reseller it sells to ("Ingram Micro Inc. - Advanced Solutions Quote" ... "Reseller:
#: Brightline Systems LLC"). The company heading the letterhead outranks them.
_CHANNEL_LABELS = frozenset({
    "reseller", "distributor", "authorized reseller", "authorised reseller",
    "authorized partner", "authorised partner", "channel partner", "solution provider",
})
_CJK_SELLER_LABELS = frozenset({
    "販売店", "販売元", "発行元", "供应商", "供應商", "卖方", "賣方",
    "공급자", "공급업체", "판매자",
})
#: Labels naming a person, whose value names the seller only with a company beside the name.
_PERSON_LABELS = frozenset({
    "prepared by", "quoted by", "created by", "sales rep", "sales representative",
    "account manager", "account executive", "account exec", "sales engineer", "consultant",
    "contact", "your contact", "sales contact", "ansprechpartner", "bearbeiter", "interlocuteur",
})
#: Labels of the customer's block: never the seller.
_CUSTOMER_LABELS = frozenset({
    "customer", "customer name", "client", "bill to", "billed to", "billing address",
    "ship to", "shipped to", "sold to", "deliver to", "delivery address", "invoice address",
    "invoice to", "prepared for", "quoted for", "quote for", "quotation for", "attention", "attn",
    "end customer", "end user", "account", "account name", "to", "kunde", "auftraggeber",
    "rechnungsadresse", "lieferadresse", "destinataire", "cliente", "klant",
})
_CJK_CUSTOMER_MARKS = (
    "お客様", "御中", "様", "宛先", "客户", "客戶", "买方", "買方", "귀중", "귀하", "수신", "고객",
)
#: Words of a company's name that a person's name lacks ("Puget Systems", "Colfax International").
_COMPANY_WORDS = frozenset({
    "systems", "system", "computing", "computer", "computers", "compute", "technologies",
    "technology", "tech", "solutions", "international", "group", "partners", "data", "digital",
    "networks", "services", "consulting", "integration", "infrastructure", "enterprises",
    "electronics", "labs", "micro", "hpc", "it", "distribution", "industries", "holdings",
    "informatik", "systemhaus", "rechenzentrumstechnik",
})
#: Words no company line holds: roles, terms, the customer's side.
_NOT_A_NAME = frozenset({
    "manager", "account", "contact", "engineer", "representative", "rep", "team", "phone",
    "tel", "fax", "email", "mail", "page", "terms", "payment", "valid", "validity", "expires",
    "date", "total", "subtotal", "price", "prices", "currency", "customer", "attention", "attn",
    "ship", "bill", "sold", "prepared", "dear", "please", "note", "notes", "confidential",
    "draft", "internal", "copy", "original", "revised", "revision", "version", "tax", "vat",
    "gst", "abn", "reg", "registration", "address", "invoice", "delivery", "www", "http", "https",
})
_TITLE_WORD = re.compile(
    r"\b(?:[ei]?quot(?:e|es|ation|ations)|quotebuilder|estimate|proposal|offer|angebot|devis|"
    r"cotizacion|presupuesto|offerte|offerta|offre|preventivo|orcamento|bom|price list|"
    r"pricing|proforma|pro forma|order confirmation)\b"
)
_CJK_TITLE = re.compile(r"見積|报价|報價|估价|견적")
#: Words before a title that name no one: "Sales Quote", "Spare Parts Quotation".
_GENERIC_TITLE_WORDS = frozenset({
    "sales", "commercial", "services", "service", "renewal", "spare", "parts", "price",
    "pricing", "budgetary", "formal", "rack", "level", "the", "your", "our", "a", "an",
    "official", "customer", "project", "hardware", "software", "support", "solutions",
    "solution", "system", "systems", "server", "servers", "final", "revised", "draft", "new",
})
_PARTNER_WORDS = frozenset({"partner", "reseller", "distributor", "provider", "dealer", "member"})
_TIER_WORDS = frozenset({
    "authorized", "authorised", "certified", "elite", "premier", "preferred", "gold",
    "platinum", "silver", "official", "network", "value", "scale",
})
_FREE_MAIL = frozenset({
    "gmail", "googlemail", "outlook", "hotmail", "yahoo", "icloud", "live", "msn", "aol",
    "proton", "protonmail", "gmx", "web", "qq", "163", "126", "example",
})
# fmt: on
_STREET = re.compile(
    r"\b(?:street|st\.|road|rd\.?|avenue|ave\.?|drive|dr\.|way|boulevard|blvd|lane|parkway|"
    r"suite|unit|floor|building|po box|p\.o\. box|highway|hwy|strasse|straße|platz|allee|"
    r"weg|rue|calle)\b|\w+stra(?:ss|ß)e\b",
    re.IGNORECASE,
)
_EMAIL = re.compile(r"[\w.+-]+@([a-z0-9-]+(?:\.[a-z0-9-]+)+)", re.IGNORECASE)
_WEB = re.compile(
    r"(?:\bhttps?://|\bwww\.)([a-z0-9-]+(?:\.[a-z0-9-]+)+)|^([a-z0-9-]+(?:\.[a-z]{2,3}){1,2})$",
    re.IGNORECASE,
)
_SECOND_LEVEL = frozenset({"co", "com", "ac", "or", "ne", "net", "org", "gov", "edu"})
#: Kana, ideographs, half-width katakana and Hangul (a Korean name is CJK too: "주식회사 ...").
_CJK = re.compile(
    r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]"
)
_LABEL = re.compile(r"^\s*([^:：]{1,40}?)\s*[:：]\s*(.*)$")
_SEGMENT = re.compile(r"\s+[-–—|·•]\s+|\s*\|\s*")
_ASIDE = re.compile(r"\s*[(（\[](?!株|有)[^)）\]]*[)）\]]")
#: "Maker - via Atlas Systems Integration": lower case, so "VIA Technologies" stays a name.
_VIA = re.compile(r"^(?:.*\s)?(?:via|through|c/o)\s+(\S.*)$")
_THANKS = re.compile(
    r"thank you for (?:choosing|selecting|considering|your (?:business|order|purchase|"
    r"interest in)|shopping (?:at|with)|purchasing from|the opportunity)"
    r"(?:\s+(?:with|from))?\s*[-–—,:!.]*\s*(?P<name>.+)$",
    re.IGNORECASE,
)
_THANKS_FROM = re.compile(r"^(?P<name>.+?)\s+thanks you\b", re.IGNORECASE)
_AT_COMPANY = re.compile(
    r"\b(?:account manager|account executive|sales (?:rep|representative|engineer|team|"
    r"contact)|contact|team|consultant)\s+at\s+(?P<name>[^,:;()]+)",
    re.IGNORECASE,
)
#: "Quote prepared by Orion HPC Ltd for Acme Bank": the company after "by".
_BY_COMPANY = re.compile(
    r"\b(?:prepared|quoted|issued|supplied|provided|offered|sold)\s+by\s+(?P<name>.+?)"
    r"(?:\s+(?:for|to)\s.*)?$",
    re.IGNORECASE,
)
_TEAM = re.compile(r"^(?:the\s+)?(.+?)\s+(?:team|sales team)$", re.IGNORECASE)

#: Ranks, best first (see the module docstring).
SELLER_LABEL, COMPANY_LINE, CHANNEL_LABEL, PERSON_COMPANY, TITLE_NAMES = 0, 1, 2, 3, 4
CLOSING_LABEL, THANKS, ADDRESS, MENTIONED = 5, 6, 7, 8


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


def _known_at_start(name: str) -> str | None:
    """Our spelling of a name that starts with a vendor we know ("Bechtle GmbH & Co. KG" →
    "Bechtle"); None for "Atlas Systems Integration" or "Insight" said mid-name."""
    lowered = f" {header_normalize(name)} "
    return next(
        (brand for needle, brand in KNOWN_VENDORS if lowered.startswith(f" {needle} ")), None
    )


def _words(name: str) -> list[str]:
    """Folded words, runs of single letters joined: "S.A." → "sa", "K.K." → "kk"."""
    words: list[str] = []
    in_run = False
    for word in text_fold(name.replace("&", " ")).split():
        single = len(word) == 1 and word.isalpha()
        if single and in_run:
            words[-1] += word
        else:
            words.append(word)
        in_run = single
    return words


def vendor_normalize(name: str) -> str:
    """One seller however it is spelled: legal form dropped, case folded. "Exxact
    Corporation" and "EXXACT CORP." → "exxact"; "Straits Compute Pte. Ltd." → "straits
    compute"; "株式会社東京GPUシステムズ" → "東京gpuシステムズ", "주식회사 한빛데이터시스템" →
    "한빛데이터시스템"."""
    if _CJK.search(name):
        for mark in _CJK_LEGAL:
            name = name.replace(mark, "")
        return "".join(name.split()).casefold()
    words = _words(name)
    while len(words) > 1 and words[-1] in _LEGAL_WORDS:
        words.pop()
    return " ".join(words)


def vendor_key(vendor: str) -> str:
    """The key a vendor's confirmed mappings and remembered corrections are kept under: the
    seller normalised (``vendor_normalize``), so "Exxact Corporation", "EXXACT CORP." and
    "Exxact" share one memory; at most 200 characters (the key column's width)."""
    return vendor_normalize(" ".join(vendor.split()))[:200]


def _has_legal_form(name: str) -> bool:
    if any(mark in name for mark in _CJK_LEGAL):
        return True
    words = _words(name)
    return len(words) > 1 and words[-1] in _LEGAL_WORDS


def _has_company_mark(name: str) -> bool:
    """A legal form, a vendor we know, or a company's word ("Keystone AI Infrastructure")."""
    return (
        _has_legal_form(name)
        or _known_at_start(name) is not None
        or bool(_COMPANY_WORDS.intersection(_words(name)))
    )


def _name_shape(text: str) -> bool:
    """Whether a line reads as a company's name: a few capitalised words, no address, no
    sentence, no role; a Japanese or Chinese name carries its legal form (株式会社...)."""
    if _CJK.search(text):
        return any(mark in text for mark in _CJK_LEGAL) and not any(
            mark in text for mark in _CJK_CUSTOMER_MARKS
        )
    words = text.split()
    if not 1 <= len(words) <= 7 or sum(ch.isdigit() for ch in text) >= 4:
        return False
    if words[0].isdigit() or _STREET.search(text) or "@" in text or _WEB.search(text):
        return False
    if _NOT_A_NAME.intersection(text_fold(text).split()):
        return False
    return all(
        not word[0].isalpha() or word[0].isupper() or word.casefold() in _CONNECTORS
        for word in words
    )


def _tagline(segment: str) -> bool:
    """ "NVIDIA Elite Partner", "Supermicro Authorized Reseller", "an NVIDIA partner": a
    partnership, not a name ("Helios Compute Partners" is a name)."""
    words = set(text_fold(segment).split())
    if words & _PARTNER_WORDS and (words & _TIER_WORDS or vendor_known(segment)):
        return True
    return bool(re.match(r"^(?:an?|member of)\s", segment, re.IGNORECASE))


def _title_like(segment: str) -> bool:
    return bool(_TITLE_WORD.search(text_fold(segment)) or _CJK_TITLE.search(segment))


def _trim_commas(segment: str) -> str:
    """ "PC Connection Sales Corporation, 730 Milford Road" → the name; "Microway, Inc." and
    "GIGA COMPUTING TECHNOLOGY CO., LTD." keep their legal forms."""
    parts = [part.strip() for part in segment.split(",")]
    name = parts[0]
    for part in parts[1:]:
        words = _words(part)
        if not words or not all(word in _LEGAL_WORDS for word in words):
            break
        name = f"{name}, {part}"
    return name


def _clean(text: str) -> str:
    """Spaces and end punctuation off: "Exxact!" → "Exxact"; "Lambda, Inc." keeps its dot."""
    text = " ".join(text.split()).strip(" -–—|:;,!")
    last = text.rsplit(maxsplit=1)[-1] if text else ""
    if text.endswith(".") and "".join(_words(last)) not in _LEGAL_WORDS and len(last) > 2:
        text = text[:-1]
    return text[:120]


def company_in_line(text: str) -> tuple[str, int] | None:
    """The company a letterhead line names and how (``COMPANY_LINE`` or, from "Penguin
    Computing Quote", ``TITLE_NAMES``); None for a title, tagline, address or sentence.

    "Corvid Data Systems, Inc. - NVIDIA Partner Network Elite" → "Corvid Data Systems, Inc.";
    "GIGA COMPUTING TECHNOLOGY CO., LTD. - via Atlas Systems Integration Pte Ltd" → Atlas."""
    text = _ASIDE.sub("", text).strip()
    segments = [_clean(segment) for segment in _SEGMENT.split(text) if _clean(segment)]
    for segment in segments:
        via = _VIA.match(segment)
        if via and _name_shape(name := _trim_commas(_clean(via.group(1)))):
            return name, COMPANY_LINE
    titled = None
    for segment in segments:
        if _tagline(segment):
            continue
        if _title_like(segment):
            titled = titled or _title_prefix(segment)
            continue
        name = _trim_commas(segment)
        if _name_shape(name):
            return name, COMPANY_LINE
    return (titled, TITLE_NAMES) if titled else None


def _title_prefix(segment: str) -> str | None:
    """ "Penguin Computing Quote Q-2026-3318" → "Penguin Computing"; "Dell Sales Quote" →
    "Dell"; "Sales Quotation" → None."""
    words = segment.split()
    for position, word in enumerate(words):
        if _TITLE_WORD.search(text_fold(word)):
            words = words[:position]
            break
    while words and text_fold(words[-1]) in _GENERIC_TITLE_WORDS:
        words.pop()
    name = " ".join(words)
    return name if words and _name_shape(name) else None


def _domain_label(domain: str) -> str | None:
    """The name part of a domain: "sales.exxact.com" → "exxact", "boston.co.uk" →
    "boston"; None for a mail service ("gmail.com")."""
    labels = domain.casefold().split(".")
    if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL:
        labels = labels[:-1]
    label = labels[-2] if len(labels) >= 2 else labels[0]
    return None if label in _FREE_MAIL or len(label) < 2 else label


def _domain_name(domain: str, texts: Sequence[str]) -> str | None:
    """The seller an address names: the letterhead's words spelling it ("pugetsystems.com"
    → "Puget Systems"), a vendor we know ("dell.com" → "Dell"), else the domain's own name
    ("exxact.com" → "Exxact"); None for a mail service ("gmail.com")."""
    label = _domain_label(domain)
    if label is None:
        return None
    for text in texts:
        words = text.split()
        for start in range(len(words)):
            for end in range(start + 1, min(start + 5, len(words)) + 1):
                run = " ".join(words[start:end])
                if "".join(text_fold(run).split()) == label.replace("-", ""):
                    return _clean(run)
    return vendor_known(label.replace("-", " ")) or label.replace("-", " ").title()


def _label_of(cell: str) -> tuple[str, str] | None:
    """("seller" | "channel" | "person" | "customer", value) for a labelled cell; the value
    may be "" when it stands in the next cell. None for any other cell."""
    match = _LABEL.match(cell)
    label, value = (match.group(1), match.group(2)) if match else (cell, "")
    folded = " ".join(text_fold(label).split())
    compact = "".join(label.split())
    if folded in _SELLER_LABELS or compact in _CJK_SELLER_LABELS:
        return "seller", value.strip()
    if folded in _CHANNEL_LABELS:
        return "channel", value.strip()
    if folded in _PERSON_LABELS:
        return "person", value.strip()
    if folded in _CUSTOMER_LABELS or compact in _CJK_CUSTOMER_MARKS:
        return "customer", value.strip()
    return None


def _company_in_value(value: str, *, seller: bool) -> str | None:
    """The company a label's value names: "J. Ruiz, Exxact Corporation" → the company,
    "Jane Doe (jane@acme.com)" → "Acme"; a seller label's plain name ("From: Acme") too."""
    emails = [found.group(1) for found in _EMAIL.finditer(value)]
    text = _EMAIL.sub(" ", value)
    parts = [
        _clean(part) for part in re.split(r",|\s[-–—|]\s|\s+at\s+|[()<>\[\]]", text) if _clean(part)
    ]
    merged = _trim_commas(_clean(text))
    for part in [merged, *parts]:
        if _name_shape(part) and _has_company_mark(part):
            return part
    for domain in emails:
        if _domain_label(domain):
            return f"@{domain}"  # named once the letterhead's words are all read
    if seller and parts and _name_shape(merged):
        return merged
    return None


def _spelled(name: str) -> str:
    """Our spelling of a vendor we know, else the name as written."""
    return _known_at_start(name) or _clean(name)


class _Candidates:
    """Sellers found so far, each with its rank and the order it was found in."""

    def __init__(self) -> None:
        self.found: list[tuple[int, int, str]] = []
        self.texts: list[str] = []  # the words an address's name is looked up in

    def add(self, rank: int, name: str | None) -> None:
        if name and any(ch.isalpha() for ch in name):
            self.found.append((rank, len(self.found), name))

    def best(self) -> str:
        """The best-ranked seller; an address ("@exxact.com") named by the letterhead's words."""
        for rank, _order, name in sorted(self.found):
            if name.startswith("@"):
                name = _domain_name(name[1:], self.texts) or ""
            elif rank == COMPANY_LINE:
                name = _past_the_logo(name, [n for r, _o, n in self.found if r == COMPANY_LINE])
            if name:
                return _spelled(name)
        return ""


def _past_the_logo(first: str, lines: list[str]) -> str:
    """A maker's bare logo ("NVIDIA", "Supermicro") above a partner's legal name: the
    partner is the seller ("NVIDIA" / "Acme Systems Inc." → "Acme Systems Inc.")."""
    known = _known_at_start(first)
    if not known or vendor_normalize(first) != vendor_normalize(known):
        return first
    later = [n for n in lines[1:] if _has_legal_form(n) and _known_at_start(n) is None]
    return later[0] if later else first


def _cells(row: Sequence[str]) -> list[str]:
    return [cell.strip() for cell in row if cell and cell.strip()]


def _labelled_values(cells: list[str]) -> tuple[list[tuple[str, str]], set[int]]:
    """The (kind, value) of each seller/person/customer label in a row, and the positions of
    the cells those labels and values take."""
    pairs: list[tuple[str, str]] = []
    taken: set[int] = set()
    for position, cell in enumerate(cells):
        if position in taken or not (labelled := _label_of(cell)):
            continue
        kind, value = labelled
        taken.add(position)
        if not value and position + 1 < len(cells):
            value = cells[position + 1]
            taken.add(position + 1)
        pairs.append((kind, value))
    return pairs, taken


def _read_title_rows(rows: Sequence[Sequence[str]], found: _Candidates) -> list[str]:
    """Add the title rows' sellers to ``found``; the texts read (for addresses)."""
    texts: list[str] = []
    letterhead_open = True
    block: str | None = None  # the label of a block continuing below its lone label
    for row in rows:
        cells = _cells(row)
        if not cells:
            continue
        pairs, taken = _labelled_values(cells)
        if len(pairs) == 1 and len(cells) == 1 and not pairs[0][1]:
            block = pairs[0][0]  # "Bill To" / "From:" alone: its block follows
            letterhead_open = False
            continue
        if block and not pairs and len(cells) == 1 and ":" not in cells[0]:
            if block in ("seller", "channel"):
                rank = SELLER_LABEL if block == "seller" else CHANNEL_LABEL
                found.add(rank, _company_in_value(cells[0], seller=True))
            if block != "customer":
                texts.append(cells[0])
            continue  # a customer's block line is nobody's letterhead
        block = None
        for kind, value in pairs:
            if kind in ("seller", "channel"):
                rank = SELLER_LABEL if kind == "seller" else CHANNEL_LABEL
                found.add(rank, _company_in_value(value, seller=True))
            elif kind == "person":
                found.add(PERSON_COMPANY, _company_in_value(value, seller=False))
        texts.extend(cell for position, cell in enumerate(cells) if position not in taken)
        first = cells[0]
        if 0 not in taken and not _label_of(first) and not _LABEL.match(first):
            line = company_in_line(first)
            if line and ((len(cells) == 1 and letterhead_open) or _has_company_mark(line[0])):
                found.add(line[1], line[0])
        if len(cells) > 1 or pairs or any(_LABEL.match(cell) for cell in cells):
            letterhead_open = False
    return texts


def _read_anywhere(texts: Sequence[str], found: _Candidates, *, rank_offset: int = 0) -> None:
    """Thanks, "at Company" and addresses, in any row not the customer's."""
    for text in texts:
        at = _AT_COMPANY.search(text)
        if at:
            found.add(
                PERSON_COMPANY + rank_offset, _company_in_value(at.group("name"), seller=True)
            )
        by = _BY_COMPANY.search(text)
        if by:
            found.add(
                PERSON_COMPANY + rank_offset, _company_in_value(by.group("name"), seller=False)
            )
        thanks = _THANKS.search(text) or _THANKS_FROM.match(text)
        if thanks:
            name = _clean(thanks.group("name"))
            team = _TEAM.match(name)
            name = _trim_commas(team.group(1) if team else name)
            if _name_shape(name):
                found.add(THANKS, name)
    for text in texts:
        for address in [*_EMAIL.finditer(text), *_WEB.finditer(text)]:
            domain = next(group for group in address.groups() if group)
            found.add(ADDRESS, f"@{domain}")


def seller_read(
    title_rows: Sequence[Sequence[str]], closing_rows: Sequence[Sequence[str]] = ()
) -> str:
    """The seller of a quote from the rows above its table and the rows after its lines;
    "" when neither names one. See the module docstring for what is read, best first."""
    found = _Candidates()
    texts = _read_title_rows(title_rows, found)
    closing: list[str] = []
    for row in closing_rows:
        cells = _cells(row)
        pairs, taken = _labelled_values(cells)
        for kind, value in pairs:
            if kind in ("seller", "channel"):
                found.add(CLOSING_LABEL, _company_in_value(value, seller=True))
        closing.extend(cell for position, cell in enumerate(cells) if position not in taken)
    found.texts = [*texts, *closing]
    _read_anywhere(texts, found)
    _read_anywhere(closing, found, rank_offset=CLOSING_LABEL - PERSON_COMPANY)
    for text in texts:
        found.add(MENTIONED, vendor_known(text))
    return found.best()
