"""The quote as rows: its parsed lines and skipped rows (banners, subtotals, totals) in sheet
order, each line with the item number and configuration name found in the columns the parser
did not map (1, 1.1, 10.1, 1-1; "Config Name"). A ``Row`` is what the reader
(``apps.quotes.reading``) fills in pass by pass: its role, its parent, the GPU it carries.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from apps.quotes.bom_gpus import GpuMention
from apps.quotes.bom_words import NUMBERING
from apps.quotes.parsing.schemas import ParsedLine, ParsedQuote, SkippedRow
from apps.quotes.schemas import LineRole


@dataclass(slots=True)
class Row:
    """One data row of the quote as the reader sees it."""

    index: int  # position among all data rows (0-based)
    source_row: int
    line: int | None  # 1-based quote line number; None for a skipped row (banner, total)
    text: str
    part_number: str = ""
    quantity: int | None = None
    unit_price: Decimal | None = None
    extended_price: Decimal | None = None
    indent: int = 0
    number: str = ""
    group: str = ""
    line_type: str = ""  # a "Type" column's value: "Hardware", "Service", "Optional"
    skipped_kind: str = ""
    role: LineRole = "unknown"
    guessed: bool = False  # the role is a default, nothing in the line said it
    parent: int | None = None  # index of the parent row
    gpu: GpuMention | None = None
    bridge_ways: int | None = None
    head_category: str = ""
    corrected: bool = False
    spec_key: str | None = None  # the catalog system a confirmed or exact match names
    #: Quoted units that make one system: 18 for the compute-tray line of NVL72 racks bought
    #: as their parts (72 trays are 4 racks); 1 for any other line.
    units_per_system: int = 1
    #: The system's parts are listed beside it, not under it, in a bundle whose lines all
    #: count the order (``bom_bundles``): their quantities are totals, as its own is.
    parts_beside: bool = False
    #: A configurator's module for the line ("Memory DIMM Type and Speed"), from its column.
    module: str = ""
    #: The systems a "Qty per Server | Servers" line is for (its "Servers" cell).
    servers: int | None = None

    @property
    def priced(self) -> bool:
        return any(v is not None and v != 0 for v in (self.unit_price, self.extended_price))


def rows_from(parsed: ParsedQuote) -> list[Row]:
    """Every row of the quote in sheet order: its lines and the rows the parser skipped (but
    a PDF's rows after its footer)."""
    items: list[tuple[int, ParsedLine | SkippedRow, int | None]] = [
        (line.source_row, line, n) for n, line in enumerate(parsed.lines, 1)
    ]
    items += [(s.source_row, s, None) for s in parsed.skipped]
    items.sort(key=lambda item: item[0])
    number_col, group_col, type_col = _structure_columns(parsed)
    module_col, servers_col = _module_column(parsed), _servers_column(parsed)
    rows: list[Row] = []
    for index, (source_row, item, line) in enumerate(items):
        if isinstance(item, SkippedRow):
            if item.kind == "after_footer" and parsed.detected_type == "pdf":
                continue
            rows.append(
                Row(
                    index=len(rows),
                    source_row=source_row,
                    line=None,
                    text=item.text,
                    extended_price=item.amount,
                    skipped_kind=item.kind,
                )
            )
            continue
        cells = item.raw_cells
        rows.append(
            line_row(
                item,
                index=len(rows),
                line=line,
                number=_item_number(cells, number_col),
                group=cells[group_col].strip()
                if group_col is not None and group_col < len(cells)
                else "",
            )
        )
        if type_col is not None and type_col < len(cells):
            rows[-1].line_type = cells[type_col].strip()
        if module_col is not None and module_col < len(cells):
            rows[-1].module = cells[module_col].strip()
        if servers_col is not None and servers_col < len(cells):
            count = cells[servers_col].strip()
            rows[-1].servers = int(count) if count.isdigit() else None
        del index
    return rows


def line_row(item: ParsedLine, *, index: int, line: int | None, number: str, group: str) -> Row:
    """The row of a quote line, before any pass has read it."""
    return Row(
        index=index,
        source_row=item.source_row,
        line=line,
        text=_line_text(item),
        part_number=item.part_number if item.description else "",
        quantity=item.quantity,
        unit_price=item.unit_price,
        extended_price=item.extended_price,
        indent=item.indent,
        number=number,
        group=group,
    )


def _line_text(line: ParsedLine) -> str:
    """What a line's row reads: its description (its part number when it has none, both
    when the part number is a long configuration string), on one line."""
    text = line.description or line.part_number
    if line.description and line.part_number and len(line.part_number) > 40:
        text = f"{line.part_number} {line.description}"
    return text.replace("\n", " ")


#: Header names of a column that says what kind of line each is ("Type: Hardware / Service /
#: Optional", "Line Type", German "Positionsart").
_TYPE_HEADERS = frozenset(
    {"type", "linetype", "itemtype", "producttype", "positionsart", "positionstyp", "typ"}
)


#: Header names of an item-number column: "Line Number", "Line #", "Item", "Pos.", "Ln".
_NUMBER_HEADERS = frozenset(
    {"line", "linenumber", "lineno", "ln", "item", "itemno", "itemnumber", "pos", "position"}
)


def _structure_columns(parsed: ParsedQuote) -> tuple[int | None, int | None, int | None]:
    """The item-number column (1, 1.1, 0001, 10.1, 1-1), the configuration-name column and
    the line-type column, by their values and names: columns the parser did not map."""
    header = parsed.header_cells
    mapped = {h for h in parsed.column_map.values()}
    width = max((len(line.raw_cells) for line in parsed.lines), default=0)
    number_col = group_col = type_col = None
    for col in range(width):
        name = header[col] if col < len(header) else ""
        if name and name in mapped:
            continue
        values = [
            line.raw_cells[col].strip()
            for line in parsed.lines
            if col < len(line.raw_cells) and line.raw_cells[col].strip()
        ]
        if not values:
            continue
        folded = re.sub(r"[^a-z]", "", name.casefold())
        items = _item_values(parsed, col)
        # A column named for its numbers ("Line Number", "Item") keeps them although the
        # summary rows beside the lines ("Valid through: 19-Oct-2026 | Product Total") fill it
        # too; any other column is the numbering only when every selling line's value is one.
        numbered = sum(1 for v in values if NUMBERING.match(v))
        named = folded in _NUMBER_HEADERS and numbered >= max(2, -(-len(values) * 4 // 5))
        if number_col is None and (_numbers_items(items) or (named and len(set(items)) > 1)):
            # Only numbering with levels (1.1, 10.1, 1-2) says how lines nest; a plain
            # counter (1, 2, 3 or 0001) does not.
            if any(not v.isdigit() for v in items):
                number_col = col
            continue
        if group_col is None and folded in ("configname", "config", "configuration", "group"):
            group_col = col
        elif type_col is None and folded in _TYPE_HEADERS:
            type_col = col
    return number_col, group_col, type_col


def _item_values(parsed: ParsedQuote, col: int) -> list[str]:
    """A column's values on the lines that sell something (a part number or a quantity): a
    money row the parser kept as a line ("Valid through: 18-Aug-2026 ... Product Total") has
    no item number."""
    return [
        line.raw_cells[col].strip()
        for line in parsed.lines
        if col < len(line.raw_cells)
        and line.raw_cells[col].strip()
        and (line.part_number or line.quantity is not None)
    ]


def _numbers_items(values: list[str]) -> bool:
    """Whether a column's values number the lines: every one an item number (1, 1.1, 1.0.3,
    10-1), and not one value on every line. Cisco's "Disc(%)" column reads 38.00 on each of
    its lines: a discount, not 20 lines all numbered "38.00"."""
    if len(values) < 2 or not all(NUMBERING.match(v) for v in values):
        return False
    return len(values) < 3 or len(set(values)) > 1


def _item_number(cells: list[str], col: int | None) -> str:
    """A line's item number in the numbering column; "" where the column holds something
    else (a money row's "Valid through: 18-Aug-2026")."""
    value = cells[col].strip() if col is not None and col < len(cells) else ""
    return value if NUMBERING.match(value) else ""


#: Header names of a configurator's module column: Dell's "Group Name | Module Name | Option
#: Name" export names each option's module ("Memory DIMM Type and Speed").
_MODULE_HEADERS = frozenset({"modulename", "module", "category", "componentcategory"})


def _module_column(parsed: ParsedQuote) -> int | None:
    """The module column, by its name, when the parser did not map it."""
    mapped = set(parsed.column_map.values())
    for col, name in enumerate(parsed.header_cells):
        if name not in mapped and re.sub(r"[^a-z]", "", name.casefold()) in _MODULE_HEADERS:
            return col
    return None


def _servers_column(parsed: ParsedQuote) -> int | None:
    """The "Servers" column of a "Qty per Server | Servers" layout (the parser's
    ``system_count``), by its name."""
    name = parsed.column_map.get("system_count")
    return parsed.header_cells.index(name) if name in parsed.header_cells else None
