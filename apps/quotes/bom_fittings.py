"""Things made for a machine, which name the machine they fit: "VESA bracket for DGX Spark",
"DGX Spark stacking kit", "Mount compatible with NVIDIA DGX Spark". The machine's name in them
says what they fit, not what they are: they are accessories, never the system, whatever the
catalog matches in their text.

A line is such a fitting when its head (``bom_words.head``: the words before "for", "with",
a comma) ends in a fitting's noun, read from its last noun backwards as ``head_category``
reads a head: "4U rack mount server" is a server (its last noun), "VESA bracket" a bracket. A
kit is a fitting unless it is the machine sold as a kit ("Jetson AGX Thor Developer Kit").

Pure: no ORM, no Django.
"""

from __future__ import annotations

from apps.quotes.bom_rows import Row
from apps.quotes.bom_words import head, head_category, words_of

#: Nouns of things made to hold, mount or power a machine that ``head_category`` does not
#: already read as accessories (a case, a dock, a cable are accessories by their noun).
_FITTINGS = frozenset(
    {
        "bracket",
        "brackets",
        "mount",
        "mounts",
        "stand",
        "stands",
        "holder",
        "holders",
        "sleeve",
        "sleeves",
        "strap",
        "straps",
        "adapter",
        "adapters",
        "charger",
        "chargers",
        "hub",
        "hubs",
    }
)
#: What a head names when it names the machine itself.
_MACHINES = ("system", "chassis", "rack")
#: Kits that are the machine itself: a developer or starter kit is the board, sold boxed.
_MACHINE_KITS = frozenset({"developer", "dev", "starter", "evaluation", "devkit"})


def made_for_a_system(text: str) -> bool:
    """Whether a line is a fitting for the machine it names (module doc)."""
    words = words_of(head(text))
    for position in range(len(words) - 1, -1, -1):
        word = words[position]
        if word in ("kit", "kits"):
            before = words[position - 1] if position else ""
            # "stacking kit" is a fitting; "Jetson AGX Thor Developer Kit", "GPU server kit"
            # are the machine
            return before not in _MACHINE_KITS and head_category(before) not in (
                "system",
                "chassis",
            )
        if word in _FITTINGS:
            return True
        category = head_category(word)
        if category == "accessory":
            return True  # "DGX Spark carrying case"
        if category in _MACHINES:
            return False  # "4U rack mount server": the server
    return False


def fitting_read(row: Row) -> None:
    """A line read as a system, or as an accessory by default, that is a fitting for a
    machine is an accessory, known as one: bought beside the machine, not a part of it."""
    if (row.role == "system" or (row.role == "accessory" and row.guessed)) and made_for_a_system(
        row.text
    ):
        row.role, row.head_category, row.gpu, row.guessed = "accessory", "accessory", None, False
