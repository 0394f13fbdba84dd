"""What a line of a bill of materials is on its own, before its place in the quote is known:
a system, a GPU card or board, an NVLink bridge, a service, a note, a money line (the first
pass of ``apps.quotes.reading``), from its head, what it carries, its part-number style and
its price; then what the catalog says of a line the structure left open (``match_pass``).

A long quote repeats its texts ("ProSupport Plus 3yr next business day" on 2,500 lines), so
one quote's texts are read once each (``BomTexts``), and a workbook's batches can be read
ahead while the rest of the file arrives.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from apps.catalog.snapshot import CatalogSnapshot, SystemSpec
from apps.quotes.bom_fittings import fitting_read, made_for_a_system
from apps.quotes.bom_gpus import (
    BRIDGE_RE,
    PER_BOARD_RE,
    RACK_SCALE_RE,
    WAYS_RE,
    GpuMention,
    gpu_mention,
)
from apps.quotes.bom_heads import head_category_read, names_a_choice
from apps.quotes.bom_rows import Row, line_row
from apps.quotes.bom_words import (
    ADAPTER_RE,
    ALNUM_RUN,
    FREIGHT_WORDS,
    GROUP_BANNER_RE,
    GROUP_LABEL_RE,
    HPE_OPTION_SUFFIX,
    LENOVO_CTO,
    MODULE_HEAD_RE,
    MULTIPLIER_RE,
    NO_NOTE_RE,
    OFFER_TYPE_RE,
    PER_UNIT_RE,
    SERVICE_PART,
    SLED_RE,
    TAX_RE,
    TOTAL_RE,
    head,
    head_category,
    offered_or_remark,
    own_text,
    text_category,
    words_of,
)
from apps.quotes.matching import LineMatch, match_index, not_a_model
from apps.quotes.parsing.schemas import ParsedLine
from apps.quotes.schemas import LineRole

#: What a line's part number says to its first pass (`_part_says`): there is one, it has an
#: HPE option suffix, it is a service part, it is a Lenovo CTO.
PartSays = tuple[bool, bool, bool, bool]


class BomTexts:
    """One quote's texts as the reading reads them, for ``bom_read`` (``bom_texts``): the
    catalog's systems and chassis families by the names quotes use for them, and each text's
    head, category and GPU read once."""

    def __init__(self, catalog: CatalogSnapshot) -> None:
        index = match_index(catalog)
        self.catalog = catalog
        self.phrases = [
            (phrase, part.system)
            for phrase, part in index.phrases
            if part.kind in ("system", "chassis")
            and part.system in catalog.system_by_key
            and len(phrase) >= 4
        ]
        #: first word of a phrase -> the positions of the phrases starting with it
        self.by_first_word: dict[str, list[int]] = {}
        for position, (phrase, _key) in enumerate(self.phrases):
            self.by_first_word.setdefault(phrase.split(" ", 1)[0], []).append(position)
        self._found: dict[str, SystemSpec | None] = {}
        #: A long quote repeats its heads ("ProSupport Plus 3yr next business day" on 2,500
        #: lines): each text is read once per quote (pure functions of the text).
        self._heads: dict[str, str] = {}
        self._categories: dict[str, str] = {}
        self._gpus: dict[str, tuple[str, int | None, bool] | None] = {}
        self._part_says: dict[str, PartSays] = {}
        #: `first_pass` of each kind of line read so far (see there).
        self.first_passes: dict[
            tuple[str, PartSays, bool, bool, bool, bool],
            tuple[LineRole, str, tuple[str, int | None, bool] | None, int | None, bool],
        ] = {}

    def part_says(self, pn: str) -> PartSays:
        """``_part_says(pn)``, once per part number (a line read ahead is read again)."""
        found = self._part_says.get(pn)
        if found is None:
            found = self._part_says[pn] = _part_says(pn)
        return found

    def host_chip(self, key: str) -> bool:
        """Whether the GPU ``key`` is a machine's own chip (``GpuSpec.is_host_chip``)."""
        gpu = self.catalog.gpu_by_key.get(key)
        return gpu is not None and gpu.is_host_chip

    def head(self, text: str) -> str:
        """``bom_words.head(text)``, once per text."""
        found = self._heads.get(text)
        if found is None:
            found = self._heads[text] = head(text)
        return found

    def head_category(self, head: str) -> str:
        """``bom_heads.head_category_read(head)``, once per head."""
        if head not in self._categories:
            self._categories[head] = head_category_read(head)
        return self._categories[head]

    def gpu(self, text: str) -> GpuMention | None:
        """``gpu_mention(text)``, read once per text; a new mention each call (rows change
        theirs)."""
        if text in self._gpus:
            known = self._gpus[text]
        else:
            found = gpu_mention(text)
            known = self._gpus[text] = (
                (found.key, found.count, found.board) if found is not None else None
            )
        return None if known is None else GpuMention(key=known[0], count=known[1], board=known[2])

    def lines_read_ahead(self, lines: Sequence[ParsedLine]) -> None:
        """Read the texts of lines ahead of ``bom_read`` (their heads, the heads' categories,
        the GPUs they name): a workbook's batches arrive while the sandbox child reads on,
        and what is read then is not read again once the last batch is in."""
        for line in lines:
            first_pass(line_row(line, index=0, line=1, number="", group=""), self)

    def find(self, text: str) -> SystemSpec | None:
        """The family of the longest phrase inside the text, as whole words (the first of
        equally long ones), a model number before plain words (``not_a_model``). A phrase
        inside the text starts with one of its words, so only those phrases are tried,
        longest first as `phrases` is sorted; a text read before (a system's head, then the
        system in its reading) is answered from `_found`."""
        if text in self._found:
            return self._found[text]
        found = ALNUM_RUN.findall(text.casefold())
        words = " " + " ".join(found) + " "
        tried = sorted({i for word in set(found) for i in self.by_first_word.get(word, ())})
        spec = None
        inside = [self.phrases[p] for p in tried if f" {self.phrases[p][0]} " in words]
        if inside:
            # min() keeps the first (the longest) of equally specific phrases.
            _phrase, key = min(inside, key=lambda hit: not_a_model(hit[0]))
            spec = self.catalog.system_by_key.get(key or "")
        self._found[text] = spec
        return spec


def bom_texts(catalog: CatalogSnapshot) -> BomTexts:
    """An empty reading of one quote's texts under ``catalog``: give it each batch of lines
    as it arrives (``lines_read_ahead``), then to ``bom_read`` with the quote; pure, so a
    text read ahead reads as it would have then."""
    return BomTexts(catalog)


# ---------------------------------------------------------------------------------------------
# Roles.


#: A summary label this long with no amount is a sentence about the money, not a figure.
_SENTENCE_WORDS = 6


def _money_role(row: Row) -> LineRole:
    kind = {"subtotal": "subtotal", "tax": "tax", "total": "total", "charges": "freight"}
    if row.skipped_kind in kind:
        if row.extended_price is None and len(words_of(row.text)) >= _SENTENCE_WORDS:
            return "note"  # "Sales tax is billed monthly on each lease payment": no amount
        return kind[row.skipped_kind]  # type: ignore[return-value]
    folded = row.text.casefold()
    if TAX_RE.search(folded):
        return "tax"
    if any(w in FREIGHT_WORDS for w in words_of(folded)):
        return "freight"
    if TOTAL_RE.search(folded) and not PER_UNIT_RE.search(folded):
        return "total"
    return "subtotal"


def match_pass(row: Row, match: LineMatch | None) -> None:
    """What the catalog says about a line the structure left open: an exact part number or a
    mapping the user confirmed for this vendor ("GPU-ACCEL-48" is the L40S). A confirmed
    mapping decides; an exact or alias match only fills a guess."""
    if match is None or match.part is None or match.match in ("none", "ambiguous", "fuzzy"):
        return
    confirmed = match.reason == "confirmed for this vendor"
    if not confirmed and made_for_a_system(row.text):
        return  # "VESA bracket for DGX Spark" names the system it fits, is not it
    part = match.part
    if part.kind in ("system", "chassis") and part.system:
        row.spec_key = part.system
    if not (confirmed or row.guessed):
        if part.kind == "gpu_card" and part.gpu and row.role == "gpu_card" and row.gpu is None:
            row.gpu = GpuMention(key=part.gpu)
        return
    if part.kind == "gpu_card" and part.gpu:
        row.role = "gpu_card"
        row.gpu = GpuMention(key=part.gpu, count=row.gpu.count if row.gpu else None)
    elif part.kind == "bridge" and part.bridge_gpus:
        row.role, row.bridge_ways = "nvlink_bridge", part.bridge_gpus
    elif part.kind == "system":
        row.role = "system"
    elif part.kind == "chassis":
        row.role = "chassis"
    else:
        return
    row.guessed = False


#: A rack bought for a system it names, not holding it: "42U rack for GB200 NVL72".
_RACK_FOR = re.compile(r"\b(?:for|fits|compatible with)\b", re.IGNORECASE)
#: The count a multiplier label gives in its own cell: "Number of Systems: 4" → 4.
_MULTIPLIER_COUNT = re.compile(r"[:=]\s*(\d{1,4})\s*$")


def first_pass(row: Row, families: BomTexts) -> None:
    """The role a line has on its own (before its position is known)."""
    if row.line is None:
        if row.skipped_kind == "heading":
            gpu = gpu_mention(row.text)
            category = head_category(row.text.split(":", 1)[-1]) if ":" in row.text else ""
            label = row.text.split(":", 1)[0].casefold() if ":" in row.text else ""
            # "GB300 NVL72 rack x 4 (L11, fully integrated)" heads the racks' lines: a banner
            # naming systems is a heading, not loose GPUs
            names_systems = head_category(head(row.text)) in ("rack", "system")
            count = _MULTIPLIER_COUNT.search(row.text)
            if MULTIPLIER_RE.match(row.text) and count:
                # "Number of Systems: 4" above a per-system configuration, in one cell
                row.role, row.head_category, row.quantity = "note", "multiplier", int(count[1])
            elif GROUP_LABEL_RE.match(label.strip()) or GROUP_BANNER_RE.match(row.text):
                row.role = "note"  # a numbered group's banner titles its block
            elif offered_or_remark(row.text):
                row.role = "note"  # "Optional - Financing: ...", "Line Note: 8x H200 per server"
            elif gpu is not None and gpu.count and not names_systems:
                row.role, row.gpu = ("gpu_board" if gpu.board else "gpu_card"), gpu
            elif (
                ":" in row.text and label and len(label) < 30 and row.text.split(":", 1)[1].strip()
            ):
                row.role = (
                    "service" if category == "service" or "warrant" in label else ("component")
                )
                row.head_category = "spec"
            else:
                row.role = "note"
        else:
            row.role = _money_role(row) if row.skipped_kind != "after_footer" else "note"
        return
    if row.line_type and OFFER_TYPE_RE.match(row.line_type):
        row.role = "note"  # Type "Optional": offered beside the quote, whatever it names
        return
    # A line's first pass reads only its text, what its part number says (`_part_says`),
    # which amounts it has (and its item number, for freight: not kept): once per such line
    # and quote, the lines read ahead included (`BomTexts.lines_read_ahead`). A quote's
    # 10,000 lines have 8,614 part numbers but 4,720 descriptions (bench/README.md, parsing).
    amount = row.extended_price if row.extended_price is not None else row.unit_price
    key = (
        row.text,
        families.part_says(row.part_number),
        amount is None,
        amount is not None and amount < 0,
        row.quantity is None,
        row.unit_price is None,
    )
    known = families.first_passes.get(key)
    if known is not None:
        row.role, row.head_category, said, row.bridge_ways, row.guessed = known
        row.gpu = None if said is None else GpuMention(key=said[0], count=said[1], board=said[2])
        _board_named_by_part(row, families)
        return
    _line_first_pass(row, families)
    fitting_read(row)  # "DGX Spark stacking kit" is the kit
    if row.head_category != "freight":
        mention = None if row.gpu is None else (row.gpu.key, row.gpu.count, row.gpu.board)
        families.first_passes[key] = (
            row.role,
            row.head_category,
            mention,
            row.bridge_ways,
            row.guessed,
        )
    _board_named_by_part(row, families)


def _board_named_by_part(row: Row, families: BomTexts) -> None:
    """A GPU board whose description names no GPU is the GPU its part number names:
    "GPU-NVHGX-H200-8141 | HGX baseboard 8-GPU 141GB" is an H200 board. Read after the
    first pass (whose memo is by text, not part number)."""
    if row.head_category != "board" or row.gpu is not None or not row.part_number:
        return
    if row.role not in ("component", "accessory"):
        return
    mention = families.gpu(row.part_number)
    if mention is not None:
        row.role, row.gpu, row.guessed = "gpu_board", mention, False
        mention.board = True


def _part_says(pn: str) -> PartSays:
    """All `_line_first_pass` reads of a part number: whether there is one, an HPE option
    suffix ("P12345-B21 0D1"), a service part ("CON-SNT-…", "5WS7A…") or a Lenovo CTO."""
    if not pn:
        return (False, False, False, False)
    return (
        True,
        HPE_OPTION_SUFFIX.match(pn) is not None,
        SERVICE_PART.match(pn) is not None,
        LENOVO_CTO.search(pn) is not None,
    )


def _line_first_pass(row: Row, families: BomTexts) -> None:
    """`first_pass` of a quote line (a row with a line number)."""
    text = row.text
    pn = row.part_number
    amount = row.extended_price if row.extended_price is not None else row.unit_price
    if amount is not None and amount < 0:
        row.role = "discount"
        return
    if not pn and row.quantity is None and row.unit_price is None:
        row.role = _money_role(row) if amount is not None else "note"
        return
    if MULTIPLIER_RE.match(text) and not pn and row.unit_price is None:
        row.role = "note"
        row.head_category = "multiplier"
        return
    if (pn and HPE_OPTION_SUFFIX.match(pn)) or names_a_choice(text):
        row.role = "note"
        return
    if NO_NOTE_RE.match(text) or offered_or_remark(text):
        row.role = "note"  # "Optional - ...": offered beside the quote, not ordered
        return
    head = families.head(text)
    category = families.head_category(head)
    if category == "component" and MODULE_HEAD_RE.search(head):
        carried = families.gpu(head)
        if carried is not None and carried.board:
            category = "board"  # "HGX B200 180GB 8-GPU Air-Cooled Module": the GPU board
    row.head_category = category
    if SERVICE_PART.match(pn) and category not in ("component",):
        row.role = "service"
        return
    if category == "service":
        row.role = "service"
        return
    if category == "freight" and not row.number.count("."):
        row.role = "freight"
        return
    head_gpu = families.gpu(head)
    if BRIDGE_RE.search(head) or (
        BRIDGE_RE.search(text)
        and head_gpu is None
        and category not in ("system", "chassis", "rack")
    ):
        # "GH200 NVL2 Superchip pair with NVLink bridge" is the GPUs, their bridge included;
        # a server whose configuration lists its bridges ("Relion XE2142GT 2U GPU server:
        # …, 4x H200 NVL, 2x NVLink 2-way bridge") is the server, not a bridge.
        row.role = "nvlink_bridge"
        ways = WAYS_RE.search(text)
        row.bridge_ways = int(ways.group(1) or ways.group(2)) if ways else 2
        return
    gpu = families.gpu(text)
    if ADAPTER_RE.search(head):
        row.role, row.head_category = "accessory", "peripheral"
        return
    if (
        category == "rack"
        and gpu is None
        and RACK_SCALE_RE.search(f"{pn} {text}")
        and not made_for_a_system(text)
    ):
        # "Dell PowerEdge XE9712 rack (NVL72)", "SRS-GB200-NVL72-M1 | SuperCluster rack": the
        # rack-scale system, its GPUs the catalog's (bom_systems); not an empty enclosure
        row.role = "system"
        return
    if category == "accessory" or (
        category == "rack" and (gpu is None or (head_gpu is None and _RACK_FOR.search(text)))
    ):
        # "APC NetShelter SX 42U rack for GB200 NVL72 deployments": an enclosure, the GPUs it
        # names are the system it is for
        row.role = "accessory"
        return
    if (pn and LENOVO_CTO.search(pn)) or category in ("system", "rack"):
        row.role = "system"
        row.gpu = gpu
        return
    if category == "board" and gpu is not None:
        if gpu.count is None and SLED_RE.search(head):
            row.role, row.head_category = "chassis", "chassis"  # the carrier, not the GPUs
            return
        row.role, row.gpu = "gpu_board", gpu
        gpu.board = True
        return
    if category == "card" and gpu is not None:
        row.role, row.gpu = "gpu_card", gpu
        return
    if category == "chassis":
        row.role = "chassis"
        row.gpu = gpu
        return
    if category == "component":
        row.role = "component"
        return
    if head_gpu is not None:
        # "AMD Instinct MI355X 288GB OAM, 8 GPU por placa": the board its text goes on to say
        on_board = head_gpu.board or PER_BOARD_RE.search(text) is not None
        row.role = "gpu_board" if on_board else "gpu_card"
        row.gpu = gpu or head_gpu
        return
    own = families.gpu(own_text(text)) if gpu is not None else None
    if families.find(head) is not None or (own is not None and families.host_chip(own.key)):
        # A machine the catalog knows by name, or one built around its engine: "MSI
        # EdgeXpert MS-C931 - mini PC - NVIDIA GB10 - SSD 4 TB" sells a GB10 machine.
        row.role = "system"
        row.gpu = gpu
        return
    if gpu is not None and gpu.count:
        row.role = "system"
        row.gpu = gpu
        return
    weak = text_category(text)
    row.role = "component" if weak == "component" else "accessory"
    row.guessed = not weak
