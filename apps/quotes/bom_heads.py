"""Heads whose last noun misleads ``bom_words.head_category``: the server whose head goes on
to name its processors ("Supermicro A+ Server AS-4125GS-TNRT 4U DP AMD EPYC 9004") and the
processor whose clock is a "2.0 GHz base" frequency, not a chassis.

Pure: no ORM, no Django.
"""

from __future__ import annotations

import re

from apps.quotes.bom_words import HPE_OPTION_SUFFIX, NOTE_HEADS, head_category
from apps.quotes.bom_words_foreign import first_word_category

#: Where a server's head starts describing its processors: "DP AMD EPYC 9004", "2x Intel Xeon
#: 6", "dual-socket AMD EPYC", "Intel Xeon 6 ...". The words before it name the machine.
_CPU_PHRASE = re.compile(
    r"\b(?:(?:dp|up|2p|1p|dual[- ]socket|single[- ]socket|dual[- ]processor)\s+)?"
    r"(?:\d\s*x\s*)?(?:amd|intel|ampere)\b",
    re.IGNORECASE,
)
#: A processor's base clock: "60-core 2.0 GHz base (up to 4.8 GHz)".
_BASE_CLOCK = re.compile(r"\b[gm]hz\s+base\b", re.IGNORECASE)


def head_category_read(head: str) -> str:
    """``head_category`` of a head, but a server named before its processors is a system and
    a base clock is no chassis; a head in a name-first language ("Garantía 5 años in situ",
    "Servidor Supermicro ...") is what its first word names."""
    first = first_word_category(head)
    if first:
        return first
    category = head_category(head)
    if category == "chassis" and _BASE_CLOCK.search(head):
        # "Intel Xeon w9-3595X 60-core 2.0 GHz base": a processor, read without its clock
        return head_category(_BASE_CLOCK.sub(" ", head))
    if category == "component":
        cpu = _CPU_PHRASE.search(head)
        if cpu is not None and cpu.start() > 0 and head_category(head[: cpu.start()]) == "system":
            return "system"  # "Supermicro A+ Server AS-4125GS-TNRT 4U DP AMD EPYC 9004"
    return category


#: A configuration choice or label rather than a part: Cisco's "Dummy PID for Airflow
#: Selection", HPE's "#B19 United States - English localization" option row, and Lenovo's
#: "Machine Type 7DHE" row under the CTO line (the machine that line builds, not another one).
_CHOICE = re.compile(
    r"^dummy pid\b|\blocali[sz]ation\s*$|^machine type\s+[0-9a-z]{4}\s*$", re.IGNORECASE
)


def names_a_choice(text: str) -> bool:
    """A line that records a choice, not a part: "No Operating System", "Factory
    Integrated", "P65412-B21 #0D1" alone, a "Dummy PID", a localization or a machine type
    label (a note, whatever it costs)."""
    return (
        text.casefold().startswith(NOTE_HEADS)
        or _CHOICE.search(text) is not None
        or HPE_OPTION_SUFFIX.match(text) is not None
    )
