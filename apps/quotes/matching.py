"""Match a quote line to the catalog: a vehicle, an engine, a bridge, or something non-compute.

Vendors never write a part the same way twice. NVIDIA's own number for a DGX B200 is
"DGXB-G1440+P2CMI36", a reseller writes "NVIDIA DGX B200 1440GB" and a third quote says
"DGXB-G1440". The order of the tests below is the order of confidence:

1. a mapping a user already confirmed for this vendor ("alias", score 100);
2. the part number itself ("exact");
3. the part number or the whole description equal to a known alias ("alias");
4. services, support and licences ("other": "ProSupport 3yr" is not a vehicle);
5. a known alias inside the description, e.g. "DGX B200 1440GB" in
   "NVIDIA DGX B200 1440GB, 8x B200 SXM" ("alias");
6. components and networking: cables, rails, CPUs, switches ("other");
7. rapidfuzz over part numbers, aliases and names ("fuzzy"), or "ambiguous" when two different
   parts score within ``AMBIGUITY_MARGIN`` of each other (a "SYS-621GE-TNRT" is as close to the
   521GE as to the 421GE, so we ask instead of guessing);
8. nothing ("none").

Pure: no ORM. Confirmed mappings arrive as a dict from ``mapping_key(text)`` to the catalog
part's (vendor, part_number).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict
from rapidfuzz import fuzz, process, utils

from apps.catalog.snapshot import CatalogSnapshot, PartSpec

MatchKindName = Literal["exact", "alias", "fuzzy", "ambiguous", "none"]
LineKindName = Literal["system", "chassis", "gpu_card", "bridge", "other", "unknown"]
PartRef = tuple[str, str]  # (vendor, part_number) of a catalog part

#: Best fuzzy score a line needs before we call it a match at all (0-100).
FUZZY_MIN_SCORE = 86.0
#: Two different parts closer than this are "ambiguous": the user confirms which one.
AMBIGUITY_MARGIN = 4.0
#: Token-sort ratio at which a candidate's words are the line's words, give or take a typo.
_SAME_WORDS = 95.0
#: Candidates an ambiguous match lists for the user to choose from.
MAX_CANDIDATES = 6
#: The least score rapidfuzz reports: a part this far below the best cannot make a match
#: ambiguous, and one below FUZZY_MIN_SCORE is no match.
_FUZZY_CUTOFF = FUZZY_MIN_SCORE - AMBIGUITY_MARGIN

_KIND_RANK = {"system": 0, "chassis": 0, "gpu_card": 1, "bridge": 2, "other": 3}

# Services, support and licences: a line that names one is not hardware even when it names
# the hardware it covers ("ProSupport 3yr for DGX B200").
_SERVICE_RE = re.compile(
    r"\b(?:pro)?support\b|\bwarrant(?:y|ies)\b|\bservices?\b|\binstall(?:ation)?\b"
    r"|\bdeployment\b|\bcare ?pack\b|\bonsite\b|\bon-site\b|\bsoftware\b|\blicen[cs]es?\b"
    r"|\bsubscriptions?\b|\bai enterprise\b|\bshipping\b|\bfreight\b|\bdelivery\b"
    r"|\bconsulting\b|\btraining course\b|\bprofessional\b|\bsetup\b|\brack ?and ?stack\b"
    r"|\bsvc\b|\btech ?care\b|\bnext business day\b|\bnbd\b|\b\d+ ?(?:y|yr|yrs|years?)\b"
    r"|\b\d+ ?(?:jahre|ans|anos|años)\b|\bgarantie\b|\bgarantía\b|\bwartung\b"
)
# Components and networking: only "other" when the line names no catalog part ("2x Grace CPU"
# inside an NVL72 description is still the rack).
_COMPONENT_RE = re.compile(
    r"\bcables?\b|\bcabling\b|\btransceivers?\b|\boptics?\b|\bqsfp\w*|\bosfp\w*|\bdac\b|\baoc\b"
    r"|\brails?\b|\brail kit\b|\brack (?:cabinet|enclosure|kit)\b|\b\d{2}u rack\b|\bcabinet\b"
    r"|\bpdus?\b|\b(?<!nvlink )switch(?:es)?\b|\bnetwork(?:ing)?\b|\bnics?\b|\bconnectx\S*"
    r"|\bbluefield\S*|\binfiniband\b|\bethernet\b|\bmellanox\b|\bcpus?\b|\bprocessors?\b"
    r"|\bxeon\b|\bepyc\b|\bdimms?\b|\bddr\d\b|\brdimm\b|\bssds?\b|\bnvme\b|\bhdds?\b|\bdrives?\b"
    r"|\bpower suppl(?:y|ies)\b|\bpsus?\b|\bpower cords?\b|\bbezel\b|\bfans?\b|\btpm\b"
    r"|\bheatsinks?\b|\braid\b|\bboot\b|\bdiscount\b|\bmemory kit\b|\brack\b|\b\d{2}u\b"
)
# "DGX B200 with 3yr ProSupport" is the DGX: a service after "with" does not make it a service.
_BUNDLED_RE = re.compile(r"\b(?:with|incl|including|includes|w|plus)\b")


_NON_WORD = re.compile(r"[^0-9a-z]+")


def _text(value: str) -> str:
    """Lower-case words separated by single spaces: "DGX B200, 1440GB" -> "dgx b200 1440gb"."""
    return " ".join(_NON_WORD.sub(" ", value.casefold()).split())


def _compact(value: str) -> str:
    """Letters and digits only: vendors disagree about dashes ("DGXB-G1440" vs "DGXBG1440")."""
    return _NON_WORD.sub("", value.casefold())


def mapping_key(text: str) -> str:
    """The key a confirmed vendor mapping is stored under: the words of the part number
    (or, when the line has none, of the description)."""
    return _text(text)


def part_ref(part: PartSpec) -> PartRef:
    return (part.vendor, part.part_number)


class LineMatch(BaseModel):
    """What one quote line is in catalog terms."""

    model_config = ConfigDict(frozen=True)

    match: MatchKindName = "none"
    kind: LineKindName = "unknown"
    score: float | None = None
    part: PartSpec | None = None
    candidates: tuple[PartSpec, ...] = ()  # the close ones, best first, when ambiguous
    reason: str = ""

    @property
    def sku(self) -> str | None:
        """The catalog key the report shows: the system for a vehicle or chassis, the GPU for
        a card, the part number for a bridge; None for non-compute and unmatched lines."""
        part = self.part
        if part is None or self.match == "ambiguous":
            return None
        if part.kind in ("system", "chassis"):
            return part.system
        if part.kind == "gpu_card":
            return part.gpu
        if part.kind == "bridge":
            return part.part_number
        return None


@dataclass
class MatchIndex:
    """The catalog arranged for fast matching; built once per catalog snapshot."""

    by_part_number: dict[str, PartSpec] = field(default_factory=dict)
    by_ref: dict[PartRef, PartSpec] = field(default_factory=dict)
    by_alias: dict[str, list[PartSpec]] = field(default_factory=dict)
    phrases: list[tuple[str, PartSpec]] = field(default_factory=list)  # longest first
    #: first word of a phrase -> the positions in `phrases` of the phrases that start with it
    phrases_by_first_word: dict[str, list[int]] = field(default_factory=dict)
    compact_choices: list[str] = field(default_factory=list)
    compact_parts: list[PartSpec] = field(default_factory=list)
    #: `compact_choices` positions by the choice's length, ascending within each length.
    compact_by_length: dict[int, list[int]] = field(default_factory=dict)
    text_choices: list[str] = field(default_factory=list)
    text_parts: list[PartSpec] = field(default_factory=list)
    #: `text_choices` for `_text_candidates`: the positions holding each word; the length
    #: of each choice's distinct words, sorted, joined by spaces, in ascending order, with
    #: the positions in that order; the positions of choices not of plain words (never
    #: skipped).
    text_by_word: dict[str, list[int]] = field(default_factory=dict)
    text_word_lengths: list[int] = field(default_factory=list)
    text_by_word_length: list[int] = field(default_factory=list)
    text_not_plain: list[int] = field(default_factory=list)
    #: each `text_choices` entry's distinct words, sorted, joined by spaces ("" for one not
    #: of plain words): what token_set_ratio compares when the query shares no word with it.
    text_joined: list[str] = field(default_factory=list)


def match_index(catalog: CatalogSnapshot) -> MatchIndex:
    """Index part numbers, aliases and catalog names (cached per snapshot object)."""
    cached = _INDEX_CACHE.get(id(catalog))
    if cached is not None and cached[0] is catalog:
        return cached[1]
    index = MatchIndex()
    for part in catalog.parts:
        index.by_ref[part_ref(part)] = part
        index.by_part_number.setdefault(_compact(part.part_number), part)
        names = [part.part_number, *part.aliases]
        if part.description:
            names.append(part.description)
        for name in names:
            index.by_alias.setdefault(_text(name), []).append(part)
            index.by_alias.setdefault(_compact(name), []).append(part)
            if len(_text(name)) >= 2:
                index.phrases.append((_text(name), part))
            index.compact_choices.append(_compact(name))
            index.compact_parts.append(part)
        for name in _catalog_names(part, catalog):
            index.text_choices.append(utils.default_process(name))
            index.text_parts.append(part)
        for name in part.aliases:
            index.text_choices.append(utils.default_process(name))
            index.text_parts.append(part)
    index.phrases.sort(key=lambda item: len(item[0]), reverse=True)
    by_length: list[tuple[int, int]] = []
    for position, choice in enumerate(index.text_choices):
        if not _PLAIN_WORDS.fullmatch(choice):
            index.text_not_plain.append(position)
            index.text_joined.append("")
            continue
        words = set(choice.split())
        index.text_joined.append(" ".join(sorted(words)))
        for word in words:
            index.text_by_word.setdefault(word, []).append(position)
        by_length.append((_words_length(words), position))
    by_length.sort()
    index.text_word_lengths = [length for length, _ in by_length]
    index.text_by_word_length = [position for _, position in by_length]
    for position, (phrase, _) in enumerate(index.phrases):
        index.phrases_by_first_word.setdefault(phrase.split(" ", 1)[0], []).append(position)
    for position, choice in enumerate(index.compact_choices):
        index.compact_by_length.setdefault(len(choice), []).append(position)
    if len(_INDEX_CACHE) > 8:
        _INDEX_CACHE.clear()
    _INDEX_CACHE[id(catalog)] = (catalog, index)
    return index


_INDEX_CACHE: dict[int, tuple[CatalogSnapshot, MatchIndex]] = {}

#: Lower-case ASCII words separated by spaces, as `utils.default_process` leaves most texts:
#: split on " " they are exactly the words rapidfuzz's token ratios see.
_PLAIN_WORDS = re.compile(r"[0-9a-z ]*")


def _words_length(words: set[str]) -> int:
    """len(" ".join(sorted(words))): what token_set_ratio compares when no word is shared."""
    return sum(len(word) for word in words) + max(len(words) - 1, 0)


def _length_window(length: int) -> tuple[float, float]:
    """The lengths a choice may have and still reach `_FUZZY_CUTOFF` against a query of
    `length` characters: a ratio is at most 100 × (1 − |a − b| / (a + b)) for lengths a and b
    (widened by one character each way, against rounding)."""
    slack = 1.0 - _FUZZY_CUTOFF / 100.0
    shortest = length * (1.0 - slack) / (1.0 + slack) - 1.0
    longest = length * (1.0 + slack) / (1.0 - slack) + 1.0
    return shortest, longest


def _compact_candidates(query: str, index: MatchIndex) -> list[int]:
    """The positions in `index.compact_choices` whose plain ratio with `query` can reach
    `_FUZZY_CUTOFF` (`_length_window`), ascending: the others would score below the cutoff
    and never be returned, so rapidfuzz scores about a fifth of them."""
    shortest, longest = _length_window(len(query))
    by_length = index.compact_by_length
    return sorted(
        position
        for length in range(max(math.ceil(shortest), 0), math.floor(longest) + 1)
        for position in by_length.get(length, ())
    )


def _text_candidates(query: str, index: MatchIndex) -> list[int] | None:
    """The positions in `index.text_choices` whose token-set ratio with `query` can reach
    `_FUZZY_CUTOFF`, ascending; None when every choice must be scored.

    A choice sharing no word with the query scores the plain ratio of the two texts' distinct
    words, sorted and joined (rapidfuzz's token_set_ratio), and a ratio is at most
    100 × (1 − |a − b| / (a + b)) for lengths a and b: "custom bracket assembly rev 12" (30
    characters) cannot reach 82 against a 12-character name. So only choices sharing a word,
    or within that length window (widened by one character each way, against rounding),
    are scored; the others would score below the cutoff and never be returned.

    Of the choices in that window that share no word, token_set_ratio is exactly the plain
    ratio of the two sorted, joined word sets (rapidfuzz's own definition; equal to within
    1e-13 over every catalog choice): that ratio, far cheaper than tokenising each choice
    again, is taken first, and only the choices it puts within a point of the cutoff are
    scored."""
    if not _PLAIN_WORDS.fullmatch(query):
        return None
    words = set(query.split())
    if not words:
        return None
    shortest, longest = _length_window(_words_length(words))
    lengths = index.text_word_lengths
    window = index.text_by_word_length[
        bisect_left(lengths, shortest) : bisect_right(lengths, longest)
    ]
    candidates: set[int] = set()
    for word in words:
        candidates.update(index.text_by_word.get(word, ()))
    apart = [position for position in window if position not in candidates]
    if apart:
        joined = index.text_joined
        near = process.extract(
            " ".join(sorted(words)),
            [joined[position] for position in apart],
            scorer=fuzz.ratio,
            processor=None,
            limit=None,
            score_cutoff=_FUZZY_CUTOFF - 1.0,
        )
        candidates.update(apart[i] for _, _, i in near)
    candidates.update(index.text_not_plain)
    return sorted(candidates)


def _catalog_names(part: PartSpec, catalog: CatalogSnapshot) -> list[str]:
    """The system's or GPU's own catalog name: "NVIDIA DGX B200", "L40S 48GB"."""
    names: list[str] = []
    if part.system and part.system in catalog.system_by_key:
        names.append(re.sub(r"\(.*?\)", " ", catalog.system(part.system).name))
    if part.gpu and part.gpu in catalog.gpu_by_key:
        gpu = catalog.gpu(part.gpu)
        names.extend([gpu.name, f"{gpu.vendor} {gpu.name}"])
    return names


@dataclass
class LinesSeen:
    """One quote's matching so far, under one catalog and one vendor's mappings: each distinct
    line matched once (``lines``) and each description read once (its words, the aliases
    inside it, its fuzzy candidates): the 10,000-line bench quote has 8,614 distinct lines but
    4,720 descriptions, each line with its own part number (bench/README.md, parsing). Kept
    for one quote only, so no quote is matched faster for the one before it."""

    lines: dict[tuple[str, str], LineMatch] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)
    contained: dict[str, LineMatch | None] = field(default_factory=dict)
    described: dict[str, list[tuple[float, PartSpec, float]]] = field(default_factory=dict)

    def text(self, value: str) -> str:
        """``_text(value)``, once per value."""
        found = self.words.get(value)
        if found is None:
            found = self.words[value] = _text(value)
        return found

    def contained_in(self, words: str, index: MatchIndex) -> LineMatch | None:
        """``_contained(words, index)``, once per text."""
        if words in self.contained:
            return self.contained[words]
        found = self.contained[words] = _contained(words, index)
        return found


def line_match(
    part_number: str,
    description: str,
    *,
    index: MatchIndex,
    mappings: Mapping[str, PartRef] | None = None,
    seen: LinesSeen | None = None,
) -> LineMatch:
    """Match one line. ``mappings`` are this vendor's confirmed matches (see module doc);
    ``seen``, what this quote's other lines read already (``LinesSeen``)."""
    if seen is None:
        seen = LinesSeen()
    pn, desc = part_number.strip(), description.strip()
    if mappings:
        for text in (pn, desc):
            ref = mappings.get(mapping_key(text)) if text else None
            if ref is not None and ref in index.by_ref:
                part = index.by_ref[ref]
                return _found("alias", part, 100.0, "confirmed for this vendor")
    # Each form once: a 10,000-line quote has 10,000 distinct lines to normalise (bench/).
    pn_compact, pn_text, desc_text = _compact(pn), _text(pn), seen.text(desc)
    exact = index.by_part_number.get(pn_compact) if pn else None
    if exact is not None:
        return _found("exact", exact, 100.0, "part number")
    for text, key in ((pn, pn_compact), (desc, desc_text)):
        parts = _distinct(index.by_alias.get(key, [])) if text else []
        if len(parts) == 1:
            return _found("alias", parts[0], 100.0, f"alias {text!r}")
        if len(parts) > 1:
            return _ambiguous(parts[:MAX_CANDIDATES], 100.0, f"{text!r} names several parts")
    words = " ".join(w for w in (pn_text, desc_text) if w)  # = _text(f"{pn} {desc}")
    service = _SERVICE_RE.search(words)
    if service and not _BUNDLED_RE.search(words[: service.start()]):
        return _non_compute(service.group(0))
    contained = seen.contained_in(desc_text, index) or _contained(pn_text, index)
    if contained is not None:
        return contained
    component = _COMPONENT_RE.search(words)
    if component:
        return _non_compute(component.group(0))
    return _fuzzy(pn, desc, index, seen)


@lru_cache(maxsize=512)
def _non_compute(word: str) -> LineMatch:
    """A line that names a service or a component ("support", "cable"): one frozen answer
    per word, shared by the thousands of such lines a long quote has."""
    return LineMatch(match="none", kind="other", reason=f"non-compute: {word}")


def _found(match: MatchKindName, part: PartSpec, score: float, reason: str) -> LineMatch:
    return LineMatch(match=match, kind=part.kind, score=score, part=part, reason=reason)


def _ambiguous(parts: list[PartSpec], score: float, reason: str) -> LineMatch:
    kinds = {p.kind for p in parts}
    return LineMatch(
        match="ambiguous",
        kind=parts[0].kind if len(kinds) == 1 else "unknown",
        score=score,
        part=parts[0],
        candidates=tuple(parts),
        reason=reason,
    )


def _distinct(parts: list[PartSpec]) -> list[PartSpec]:
    seen: dict[PartRef, PartSpec] = {}
    for part in parts:
        seen.setdefault(part_ref(part), part)
    return list(seen.values())


def not_a_model(phrase: str) -> bool:
    """A name of plain words ("rtx pro server", "lambda vector"), not a model number with a
    digit in it ("xl44 sx2 aas1", "poweredge xe9680"): the less specific of two names."""
    return not any(ch.isdigit() for ch in phrase)


def _contained(words: str, index: MatchIndex) -> LineMatch | None:
    """Known aliases inside the text, as whole words. A vehicle beats the engines it carries
    ("PowerEdge XE7745 ... 8x RTX PRO 6000 Blackwell Server Edition" is the server), then a
    model number beats plain words ("Boston RTX PRO Server - GIGABYTE XL44-SX2-AAS1" is the
    XL44-SX2, not NVIDIA's RTX PRO Server class), then the longest alias wins; two different
    parts tied on all three are ambiguous."""
    if not words:
        return None
    padded = f" {words} "
    # A phrase inside the text starts with one of its words: only those phrases are tried
    # (in `phrases` order, so ties resolve as before), not every alias of the catalog.
    first = index.phrases_by_first_word
    tried = sorted({i for word in set(words.split(" ")) for i in first.get(word, ())})
    hits = [index.phrases[i] for i in tried if f" {index.phrases[i][0]} " in padded]
    if not hits:
        return None
    hits.sort(key=lambda hit: (_KIND_RANK.get(hit[1].kind, 9), not_a_model(hit[0]), -len(hit[0])))
    best_phrase, best = hits[0]
    rivals = _distinct(
        [
            part
            for phrase, part in hits
            if len(phrase) == len(best_phrase)
            and _KIND_RANK[part.kind] == _KIND_RANK[best.kind]
            and not_a_model(phrase) == not_a_model(best_phrase)
        ]
    )
    if len(rivals) > 1:
        return _ambiguous(rivals[:MAX_CANDIDATES], 100.0, f"{best_phrase!r} names several parts")
    return _found("alias", best, 100.0, f"alias {best_phrase!r} in the line")


def _fuzzy(pn: str, desc: str, index: MatchIndex, seen: LinesSeen) -> LineMatch:
    """rapidfuzz: part numbers by plain ratio (typos: "DGXB-G1440+P2CMI3"), descriptions by
    token-set ratio (word order and extra words don't matter). When several parts cover the
    description equally, one whose words are the description's (token-sort ratio >= 95) wins:
    "NVLink bridge 4-way" is the bridge, not the server whose name mentions a bridge; with no
    such part, "RTX PRO 6000 Blackwell" (three editions) is ambiguous."""
    best: dict[PartRef, list] = {}

    def consider(score: float, part: PartSpec, exact_words: float = 0.0) -> None:
        entry = best.setdefault(part_ref(part), [0.0, part, 0.0])
        entry[0] = max(entry[0], score)
        entry[2] = max(entry[2], exact_words)

    pn_compact = _compact(pn)
    if len(pn_compact) >= 4:
        # Only the choices long enough and short enough to reach the cutoff, in their order:
        # the same best 8 (by score, then position) as scoring all of them.
        positions = _compact_candidates(pn_compact, index)
        for _, score, i in process.extract(
            pn_compact,
            [index.compact_choices[p] for p in positions],
            scorer=fuzz.ratio,
            limit=8,
            score_cutoff=_FUZZY_CUTOFF,
        ):
            consider(score, index.compact_parts[positions[i]], exact_words=score)
    for score, part, exact_words in _described(desc, index, seen):
        consider(score, part, exact_words)
    ranked = sorted(best.values(), key=lambda item: (-item[0], -item[2]))
    if not ranked or ranked[0][0] < FUZZY_MIN_SCORE:
        return LineMatch(match="none", kind="unknown", reason="no catalog part is close")
    top_score = ranked[0][0]
    close = [entry for entry in ranked if top_score - entry[0] < AMBIGUITY_MARGIN]
    worded = [entry for entry in close if entry[2] >= _SAME_WORDS]
    if len(close) > 1 and len(worded) != 1:
        parts = [entry[1] for entry in close][:MAX_CANDIDATES]
        return _ambiguous(parts, round(top_score, 1), "several catalog parts are this close")
    score, top, _ = worded[0] if worded else ranked[0]
    return _found("fuzzy", top, round(score, 1), "closest catalog text")


def _described(
    desc: str, index: MatchIndex, seen: LinesSeen
) -> list[tuple[float, PartSpec, float]]:
    """The catalog texts closest to a description, best first, as (token-set ratio, part,
    token-sort ratio): what `_fuzzy` weighs for it, once per description and quote."""
    found = seen.described.get(desc)
    if found is not None:
        return found
    found = seen.described[desc] = []
    query = utils.default_process(desc)
    if len(query) >= 2:
        # Only the choices that can reach the cutoff, in their order: the same best 24 (by
        # score, then position) as scoring all of them, for a quarter of the work.
        positions = _text_candidates(query, index)
        choices = (
            index.text_choices if positions is None else [index.text_choices[i] for i in positions]
        )
        for choice, score, i in fuzzy_closest(query, choices):
            part = index.text_parts[i if positions is None else positions[i]]
            found.append((score, part, fuzz.token_sort_ratio(query, choice)))
    return found


def fuzzy_closest(query: str, choices: list[str]) -> list[tuple[str, float, int]]:
    """The fuzzy search ``_fuzzy`` runs over ``choices``: the 24 best token-set ratios at or
    above the cutoff, as (choice, score, position), by score then position."""
    return process.extract(
        query,
        choices,
        scorer=fuzz.token_set_ratio,
        processor=None,
        limit=24,
        score_cutoff=_FUZZY_CUTOFF,
    )


def lines_match(
    lines: list[tuple[str, str]],
    catalog: CatalogSnapshot,
    *,
    mappings: Mapping[str, PartRef] | None = None,
    seen: LinesSeen | None = None,
) -> list[LineMatch]:
    """Match many (part number, description) pairs; identical lines are matched once, so a
    10,000-line quote of repeated cables costs one rapidfuzz pass per distinct line.
    ``seen``: what earlier batches of the same quote read under the same catalog and
    ``mappings`` (filled in here), so a line repeated across batches is matched once too."""
    index = match_index(catalog)
    if seen is None:
        seen = LinesSeen()
    known = seen.lines
    out: list[LineMatch] = []
    for pn, desc in lines:
        key = (pn, desc)
        match = known.get(key)
        if match is None:
            match = known[key] = line_match(pn, desc, index=index, mappings=mappings, seen=seen)
        out.append(match)
    return out
