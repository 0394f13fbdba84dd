"""Read a bill of materials the way an account manager does: what each line is, which lines
belong to which system, and what the quote says the systems contain (DESIGN.md "Reading a
quote").

A line's role comes from its structure, never from a word somewhere in its text:

- its **head**: the words before the first comma, dash, colon, parenthesis, "for" or "with"
  ("ProDeploy Plus" in "Dell ProDeploy Plus for PowerEdge XE9680" is a service, whatever server
  it names; "ThinkSystem SR675 V3" in "ThinkSystem SR675 V3 - 3yr Warranty" is the server), read
  from its last noun backwards ("... Rack Server" is a server, "... Integrated Rack" a rack);
- **what it carries**: a GPU model, a count and a board ("8x NVIDIA HGX H200 141GB SXM5",
  "HGX B300 8-GPU board", "NVIDIA L4 x 6"); NVLink bridges are found before GPU cards;
- its **part-number style**: HPE's ``0D1`` factory-integration suffix, Lenovo's ``CTO1WW``
  machine types and ``5WS`` service codes, Cisco's ``CON-`` service SKUs, Dell's ``8xx-`` service
  SKUs;
- its **price**: a negative line is a discount, a line with only an amount is a money line;
- its **position**: item numbers (1, 1.1, 1.0.1, 10/10.1, 1-1), indentation, a configuration
  column, and the system line the block sits under.

Whether a system's child quantities are per system or order totals is read in
``apps.quotes.bom_quantities``, what the system contains in ``apps.quotes.bom_systems``; the
words and patterns of a line in ``apps.quotes.bom_words``; the quote's rows in
``apps.quotes.bom_rows``; ordering bundles in ``bom_bundles``, what a layout's own columns say
in ``bom_layouts``, options and group counts in ``bom_layout_passes``, things made for a
machine in ``bom_fittings``.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from apps.catalog.snapshot import CatalogSnapshot, SystemSpec
from apps.quotes.bom_blocks import (
    ends_flat_block,
    rack_parts_join,
    shared_by_systems,
    trays_as_racks,
)
from apps.quotes.bom_bundles import bundles_open
from apps.quotes.bom_fittings import fitting_read, made_for_a_system
from apps.quotes.bom_heads import head_category_read, names_a_choice
from apps.quotes.bom_layout_passes import layout_read
from apps.quotes.bom_layouts import bought_beside, selections_read
from apps.quotes.bom_problems import loose_gpu_problems, unknown_accelerator_problems
from apps.quotes.bom_quantities import QuoteFacts, system_members
from apps.quotes.bom_rows import Row, line_row, rows_from
from apps.quotes.bom_systems import (
    ChildQuantities,
    SystemReading,
    corrected,
    quoted,
    read_system,
    system_name,
)
from apps.quotes.bom_words import (
    ADAPTER_RE,
    ALNUM_RUN,
    BRIDGE_RE,
    FREIGHT_WORDS,
    GROUP_LABEL_RE,
    HPE_OPTION_SUFFIX,
    LENOVO_CTO,
    MODULE_HEAD_RE,
    MULTIPLIER_RE,
    NO_NOTE_RE,
    OFFER_TYPE_RE,
    PER_UNIT_RE,
    RACK_SCALE_RE,
    SERVICE_PART,
    SLED_RE,
    TAX_RE,
    TOTAL_RE,
    WAYS_RE,
    GpuMention,
    gpu_mention,
    head,
    head_category,
    offered_or_remark,
    own_text,
    text_category,
    words_of,
)
from apps.quotes.matching import LineMatch, match_index, not_a_model
from apps.quotes.parsing.schemas import ParsedLine, ParsedQuote
from apps.quotes.schemas import LineCorrection, LineProblem, LineRole, QuotedSystem


@dataclass
class BomReading:
    """How the quote was read: every row's role, the systems and the problems found."""

    rows: list[Row]
    systems: list[QuotedSystem]
    readings: list[SystemReading]
    child_quantities: ChildQuantities
    problems: list[LineProblem]
    text: str
    confidence: Literal["high", "medium", "low"]

    def role_of_line(self, line: int) -> LineRole:
        for row in self.rows:
            if row.line == line:
                return row.role
        return "unknown"


# ---------------------------------------------------------------------------------------------
# One quote's texts, each read once.


#: What a line's part number says to its first pass (`_part_says`): there is one, it has an
#: HPE option suffix, it is a service part, it is a Lenovo CTO.
PartSays = tuple[bool, bool, bool, bool]


class _Families:
    """The catalog's systems and chassis families by the names quotes use for them."""

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
        #: `_first_pass` of each kind of line read so far (see there).
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
            _first_pass(line_row(line, index=0, line=1, number="", group=""), self)

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


#: One quote's texts as the reading reads them, for ``bom_read`` (``bom_texts``).
BomTexts = _Families


def bom_texts(catalog: CatalogSnapshot) -> BomTexts:
    """An empty reading of one quote's texts under ``catalog``: give it each batch of lines
    as it arrives (``lines_read_ahead``), then to ``bom_read`` with the quote; pure, so a
    text read ahead reads as it would have then."""
    return _Families(catalog)


# ---------------------------------------------------------------------------------------------
# Roles.


def _money_role(row: Row) -> LineRole:
    kind = {"subtotal": "subtotal", "tax": "tax", "total": "total", "charges": "freight"}
    if row.skipped_kind in kind:
        return kind[row.skipped_kind]  # type: ignore[return-value]
    folded = row.text.casefold()
    if TAX_RE.search(folded):
        return "tax"
    if any(w in FREIGHT_WORDS for w in words_of(folded)):
        return "freight"
    if TOTAL_RE.search(folded) and not PER_UNIT_RE.search(folded):
        return "total"
    return "subtotal"


def _match_pass(row: Row, match: LineMatch | None) -> None:
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


def _first_pass(row: Row, families: _Families) -> None:
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
            elif GROUP_LABEL_RE.match(label.strip()):
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
    # and quote, the lines read ahead included (`_Families.lines_read_ahead`). A quote's
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


def _board_named_by_part(row: Row, families: _Families) -> None:
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


def _line_first_pass(row: Row, families: _Families) -> None:
    """`_first_pass` of a quote line (a row with a line number)."""
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
        row.role = "gpu_board" if head_gpu.board else "gpu_card"
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


def _one_total(rows: list[Row]) -> None:
    """Exactly one total row when the quote states any sum: "Net Total" above "Total inc.
    VAT" is a subtotal (only the last total is the total), and HPE iQuote's "Total Net
    Price", its only sum below the lines, is the total although "total net" most often
    means a sum before tax."""
    totals = [r for r in rows if r.role == "total"]
    for row in totals[:-1]:
        row.role = "subtotal"
    if totals:
        return
    last_line = max((r.index for r in rows if r.line is not None), default=-1)
    sums = [r for r in rows if r.role in ("subtotal", "tax", "freight") and r.index > last_line]
    if len(sums) == 1 and sums[0].role == "subtotal":
        sums[0].role = "total"


def _nest(rows: list[Row]) -> None:
    """Parent lines from numbering, indentation, configuration groups and blocks: a system's
    block runs from its line to the next system or top-level line that is not a part."""
    by_number: dict[str, int] = {}
    current_system: int | None = None
    current_top: int | None = None
    #: The current system's parts are indented under it: a line back at the margin is not one.
    indented = False
    for row in rows:
        if (
            row.role in ("subtotal", "total", "tax")
            or row.head_category == "multiplier"
            or (row.line is None and row.role == "freight")
        ):
            current_system = None  # the totals block ends the configuration
            continue
        number = row.number
        parent: int | None = None
        if number:
            by_number.setdefault(number, row.index)
            parent_number = _parent_number(number, by_number)
            top = parent_number is None
            if not top and parent_number is not None:
                parent = by_number[parent_number]
        else:
            top = row.indent == 0 and row.line is not None and row.role == "system"
        if (
            row.role == "chassis"
            and parent is None
            and row.indent == 0
            and row.line is not None
            and (
                current_system is None
                or any(
                    r.parent == current_system and r.role not in ("note", "chassis")
                    for r in rows[current_system : row.index]
                )
            )
        ):
            row.role = "system"  # a second barebone after a finished block starts a system
        if row.role == "system" and (top or parent is None) and row.indent == 0:
            current_system = row.index
            current_top = row.index
            indented = False
            row.parent = None
            continue
        if parent is None and row.indent > 0 and current_top is not None:
            parent = current_top
            indented = indented or current_top == current_system
        elif indented and parent is None and row.indent == 0 and row.line is not None:
            # Colfax's "  QuantaGrid D74H-7U barebone … Included" under the server, then the
            # support and a rail kit at the margin: those are the order's, not the server's.
            current_system = None
        if (
            parent is None
            and row.group
            and current_system is not None
            and rows[current_system].group == row.group
        ):
            parent = current_system
        # A numbered top-level line is its own item and ends the system block, unless it is
        # a part of the system in a totals layout without sub-numbers.
        if (
            parent is None
            and number
            and top
            and (
                row.role in ("service", "accessory", "discount", "freight", "system")
                or (
                    current_system is not None
                    and _parent_number(rows[current_system].number, by_number) is None
                    and "." in "".join(r.number for r in rows)
                )
            )
        ):
            current_top = row.index
            if row.role != "note":
                current_system = None if row.role != "system" else row.index
            row.parent = None
            continue
        if parent is None and current_system is not None:
            system = rows[current_system]
            if (row.group and system.group and row.group != system.group) or ends_flat_block(
                row, system
            ):
                current_system = None
            elif shared_by_systems(row, system):
                pass  # beside the systems, not in each of them
            elif row.role in (
                "gpu_board",
                "gpu_card",
                "nvlink_bridge",
                "chassis",
                "component",
                "note",
            ) or (
                row.role == "accessory"
                and row.line is not None
                and (
                    not row.priced
                    or row.guessed
                    # the rack enclosures of racks bought as their trays: the racks' own
                    or (row.head_category == "rack" and system.units_per_system > 1)
                )
            ):
                parent = current_system
            elif bought_beside(row, system):
                current_system = None  # bought beside it, not configured into it
        row.parent = parent
        if row.role == "system" and row.parent is None:
            current_system = row.index


def _parent_number(number: str, seen: Mapping[str, int]) -> str | None:
    """ "1.1" → "1" (or "1.0"), "1.0.3" → "1.0", "10.1" → "10", "1-2" → "1"; None at the top."""
    separator = "." if "." in number else "-" if "-" in number else ""
    if not separator:
        return None
    parts = number.split(separator)
    while len(parts) > 1:
        parts = parts[:-1]
        candidate = separator.join(parts)
        if candidate in seen:
            return candidate
        if candidate + ".0" in seen and seen[candidate + ".0"] != seen.get(number):
            return candidate + ".0"
    return None


def _refine(rows: list[Row], families: _Families) -> None:
    """Roles that depend on position: a barebone under a system is its chassis, a system
    line nested under another is a part of it, an adapter beside the systems an accessory."""
    for row in rows:
        if row.line is None:
            continue
        parent = rows[row.parent] if row.parent is not None else None
        if row.role == "system" and parent is not None and parent.role == "system":
            row.role = (
                "chassis"
                if row.gpu is None or not row.gpu.count
                else ("gpu_board" if row.gpu.board else "gpu_card")
            )
        elif row.role == "chassis" and parent is None:
            row.role = "system"
        elif (
            row.role == "component"
            and parent is None
            and row.head_category
            in (
                "component",
                "",
            )
        ):
            row.role = "accessory" if not row.guessed else row.role
        elif row.role == "accessory" and parent is not None and parent.role == "system":
            if row.head_category in ("", "rack", "peripheral") or row.guessed:
                row.role = "component"
                # Included in the system's price or numbered under it: a part of it. A
                # separately priced line we could not name stays a guess to confirm.
                if not row.priced or row.number or row.indent:
                    row.guessed = False
        elif (
            row.role in ("gpu_card", "gpu_board")
            and parent is None
            and families.find(families.head(row.text)) is not None
            and row.head_category not in ("card", "board")
        ):
            # A top-level line with a GPU and a system name the catalog knows is the system.
            row.role = "system"


# ---------------------------------------------------------------------------------------------
# The whole quote.


def bom_read(
    parsed: ParsedQuote,
    catalog: CatalogSnapshot,
    *,
    matches: Sequence[LineMatch] | None = None,
    corrections: Mapping[int, LineCorrection] | None = None,
    texts: BomTexts | None = None,
) -> BomReading:
    """Read every row of a parsed quote (module doc). ``matches`` are the catalog matches
    of ``parsed.lines`` (one each); ``corrections`` (by 1-based line number) override the
    reading of their lines. ``texts``: this quote's lines read ahead (``bom_texts``)."""
    families = texts if texts is not None and texts.catalog is catalog else _Families(catalog)
    rows = rows_from(parsed)
    for row in rows:
        _first_pass(row, families)
        if matches is not None and row.line is not None and row.line <= len(matches):
            _match_pass(row, matches[row.line - 1])
    selections_read(rows)
    problems: list[LineProblem] = layout_read(rows)  # "Option A" / "B", "(Quantity: 3)"
    corrections = corrections or {}
    for row in rows:
        fix = corrections.get(row.line) if row.line is not None else None
        if fix is not None and fix.role is not None:
            row.role, row.corrected, row.guessed = fix.role, True, False
    trays_as_racks(rows, catalog, families.find)
    _one_total(rows)
    _nest(rows)
    bundles_open(rows)
    rack_parts_join(rows)
    _refine(rows, families)
    for row in rows:  # a correction wins over position too
        fix = corrections.get(row.line) if row.line is not None else None
        if fix is not None and fix.role is not None:
            row.role, row.corrected, row.guessed = fix.role, True, False
    for row in rows:
        fix = corrections.get(row.line) if row.line is not None else None
        if fix is not None and fix.gpu and row.role in ("gpu_card", "gpu_board"):
            count = row.gpu.count if row.gpu else None
            row.gpu = GpuMention(key=fix.gpu, count=count, board=row.role == "gpu_board")
            row.corrected = True
    _loose_cards_place(rows)
    readings: list[SystemReading] = []
    facts = QuoteFacts.of(rows, parsed.title_systems)  # the rows are read, unchanged from here
    for row in rows:
        if row.role != "system" or row.line is None:
            continue
        reading, found = read_system(row, rows, catalog, families.find, facts)
        for member in (row, *reading.members):
            fix = corrections.get(member.line) if member.line is not None else None
            if fix is not None and (
                fix.system or fix.gpus_per_system is not None or (fix.gpu and member is row)
            ):
                reading = corrected(reading, fix, catalog)
        readings.append(reading)
        problems.extend(found)
    systems = [quoted(r, catalog) for r in readings if r.quantity > 0 and r.row.line is not None]
    kinds = {r.child_quantities for r in readings if r.child_quantities != "none"}
    if not kinds:
        child: ChildQuantities = "none"
    elif len(kinds) == 1:
        child = next(iter(kinds))
    else:
        child = "totals" if "totals" in kinds else "per_system"
    problems.extend(loose_gpu_problems(rows, catalog))
    problems.extend(unknown_accelerator_problems(rows))
    text, confidence = _reading_words(rows, readings, problems)
    return BomReading(
        rows=rows,
        systems=systems,
        readings=readings,
        child_quantities=child,
        problems=problems,
        text=text,
        confidence=confidence,
    )


def _loose_cards_place(rows: list[Row]) -> None:
    """Cards and bridges listed beside the systems rather than under them (a flat quote, or
    the cards before the chassis) go into the systems that carry no GPUs of their own, one GPU
    model per system in quote order."""
    loose = [
        r
        for r in rows
        if r.line is not None and r.parent is None and r.role in ("gpu_card", "nvlink_bridge")
    ]
    if not loose:
        return
    empty = []
    facts = QuoteFacts.of(rows)
    for system in (r for r in rows if r.role == "system" and r.line is not None):
        members = system_members(rows, system, facts)
        carries = system.gpu is not None or any(
            m.role in ("gpu_card", "gpu_board") for m in members
        )
        if not carries:
            empty.append(system)
    if not empty:
        return
    models: list[str] = []
    for r in loose:
        if r.role == "gpu_card" and r.gpu and r.gpu.key not in models:
            models.append(r.gpu.key)
    for r in loose:
        if r.role == "gpu_card" and r.gpu:
            position = models.index(r.gpu.key)
            target = empty[position] if position < len(empty) else None
        else:
            target = empty[0]
        if target is not None:
            r.parent = target.index


def _ranges(numbers: Sequence[int]) -> str:
    """[1, 2, 3, 5] → "1–3, 5"."""
    out: list[str] = []
    ordered = sorted(set(numbers))
    start = prev = None
    for n in ordered:
        if start is None:
            start = prev = n
        elif prev is not None and n == prev + 1:
            prev = n
        else:
            out.append(f"{start}–{prev}" if start != prev else f"{start}")
            start = prev = n
    if start is not None:
        out.append(f"{start}–{prev}" if start != prev else f"{start}")
    return ", ".join(out)


_ROLE_WORDS = {
    "service": "services",
    "accessory": "accessories",
    "discount": "discounts",
    "freight": "freight",
}


def _reading_words(
    rows: list[Row], readings: list[SystemReading], problems: list[LineProblem]
) -> tuple[str, Literal["high", "medium", "low"]]:
    """ "2 × PowerEdge XE9680, each 8 × H200 SXM 141 GB (lines 1–11); lines 12–14 services"."""
    parts: list[str] = []
    for reading in readings:
        name = system_name(reading.row.text, reading.spec)
        gpu = reading.gpu
        each = (
            f", each {reading.gpus_per_system} × {gpu.model} {gpu.memory_gb:g} GB"
            if gpu is not None and reading.gpus_per_system
            else ", no GPUs"
        )
        if reading.quantity > 1 and reading.child_quantities in ("per_system", "totals"):
            how = "per system" if reading.child_quantities == "per_system" else "order totals"
            each += f", sub-lines read as {how}"
        parts.append(f"{reading.quantity} × {name}{each} (lines {_ranges(reading.lines)})")
    if not readings:
        parts.append("no GPU system")
    for role, word in _ROLE_WORDS.items():
        lines = [r.line for r in rows if r.role == role and r.line is not None]
        if lines:
            parts.append(f"{_lines_text_short(lines)} {word}")
    text = "; ".join(parts)
    guessed = [r for r in rows if r.guessed and r.line is not None]
    unsure = any("cannot be told" in p.title for p in problems)
    if unsure or len(guessed) > 2:
        confidence: Literal["high", "medium", "low"] = "low"
    elif guessed or any(r.spec is None for r in readings):
        confidence = "medium"
    else:
        confidence = "high"
    return text, confidence


def _lines_text_short(lines: Sequence[int]) -> str:
    return ("line " if len(lines) == 1 else "lines ") + _ranges(lines)
