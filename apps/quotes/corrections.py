"""What the account team says a line is: the words and checks the correction pages and
services share (the reader, apps.quotes.reading, applies corrections while it reads).

Pure (no ORM).
"""

from __future__ import annotations

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.schemas import (
    LineCorrection,
    LineRole,
    QuoteLineOut,
)

#: The role a line has when the reader gave none, from what it matched.
ROLE_OF_KIND: dict[str, LineRole] = {
    "system": "system",
    "chassis": "chassis",
    "gpu_card": "gpu_card",
    "bridge": "nvlink_bridge",
    "other": "component",
    "unknown": "unknown",
}


class CorrectionError(ValueError):
    """A correction the catalog cannot carry out ("no system dell-xe9999")."""


def line_role(line: QuoteLineOut) -> LineRole:
    """The line's role: the reader's, or, while it gives none, the one its match implies."""
    if line.role != "unknown" or line.corrected:
        return line.role
    return ROLE_OF_KIND.get(line.kind, "unknown")


def correction_check(correction: LineCorrection, catalog: CatalogSnapshot) -> None:
    """Raise CorrectionError for a system or GPU the catalog does not know."""
    if correction.system is not None and correction.system not in catalog.system_by_key:
        raise CorrectionError(f"the catalog has no system {correction.system!r}")
    if correction.gpu is not None and correction.gpu not in catalog.gpu_by_key:
        raise CorrectionError(f"the catalog has no GPU {correction.gpu!r}")
