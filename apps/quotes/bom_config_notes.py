"""A system's configuration written as a paragraph under its line: "Each node: 8x NVIDIA H200
SXM5 141GB on NVLink/NVSwitch baseboard, 2x Xeon 8568Y+ ...", a $0 text row (or a row with no
amounts at all) without a part number or a quantity. It is a note about the system above,
not another system ("node" is its subject, not its head), and the GPUs it counts are the
system's when the system's own line names none: a white-box builder's "XG-880 8U GPU compute
node" says what it carries only there.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re

from apps.quotes.bom_gpus import gpu_mention
from apps.quotes.bom_rows import Row

#: "Each node:", "Per server -", "Every system:", "Configuration per node:", "Node
#: configuration:", "System specs:", "Jede Einheit:", "Chaque nœud :", "Cada servidor:".
_CONFIG_LABEL = re.compile(
    r"^\s*(?:(?:each|per|every|jede[rs]?|chaque|cada|ogni|elke|ka[zż]dy)\s+"
    r"(?:node|server|system|unit|blade|chassis|einheit|knoten|n[oœ]e?ud|serveur|servidor|"
    r"nodo|sistema|serwer|węzeł)"
    r"|(?:(?:node|server|system|unit)\s+)?(?:configuration|config|specs?|specifications?)"
    r"(?:\s+(?:per|of each)\s+\w+)?)\s*[:\-–]\s*\S",
    re.IGNORECASE,
)


def config_note(row: Row) -> bool:
    """A row that describes the system above it in words: a configuration label, then text;
    no part number, no quantity, no price but zero."""
    if row.part_number or row.quantity is not None or row.priced:
        return False
    return _CONFIG_LABEL.match(row.text) is not None


def config_notes_read(rows: list[Row]) -> None:
    """Make each configuration paragraph a note, and give its GPUs to the system line just
    above it (the rows between being notes) when that line names none (module doc)."""
    system: Row | None = None
    for row in rows:
        if row.corrected:
            system = None
            continue
        if config_note(row):
            mention = gpu_mention(row.text)
            row.role, row.head_category, row.guessed, row.gpu = "note", "config", False, None
            if system is not None and mention is not None and mention.count:
                known = system.gpu
                if known is None or (known.key == mention.key and not known.count):
                    system.gpu = mention
            continue
        if row.role == "system" and row.line is not None:
            system = row
        elif row.role != "note":
            system = None
