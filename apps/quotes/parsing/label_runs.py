"""A title-block line that holds several "Label: value" pairs in one cell.

A PDF printed "Quote Number: HPE-Q-7731026   Quote Date: 06/15/2026   Currency: USD" with
gaps narrower than a column gap, so it arrives as one cell; read as one pair its value is
"HPE-Q-7731026 Quote Date: 06/15/2026 Currency: USD", no quote number. The cell is cut before
each later label the metadata reader knows (one to three words and a colon).
"""

from __future__ import annotations

import re
from collections.abc import Callable

_LABEL_AT = re.compile(r"(?<=\s)((?:[^\W\d_][\w.#/]*\s+){0,2}[^\W\d_][\w.#/]*)\s*:")


def labelled_runs_split(cell: str, known: Callable[[str], bool]) -> list[str]:
    """ "Quote Number: Q-1 Quote Date: 06/15/2026" → ["Quote Number: Q-1", "Quote Date:
    06/15/2026"] when ``known`` knows both labels; a cell with one label stays whole."""
    if cell.count(":") < 2:
        return [cell]
    cuts: list[int] = []
    for match in _LABEL_AT.finditer(cell):
        words = match.group(1).split()
        # the longest run of the label's last words that is a known label ("Quote Date")
        for start in range(len(words)):
            if known(" ".join(words[start:])):
                offset = match.start(1) + match.group(1).index(words[start])
                if offset > 0 and ":" in cell[:offset]:
                    cuts.append(offset)
                break
    if not cuts:
        return [cell]
    parts, last = [], 0
    for cut in cuts:
        parts.append(cell[last:cut].strip())
        last = cut
    parts.append(cell[last:].strip())
    return [part for part in parts if part]
