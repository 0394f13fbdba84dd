"""Matching quote lines to the catalog: exact, alias, fuzzy, ambiguous, none, and "other"."""

import csv
import random

import pytest
from rapidfuzz import fuzz, utils

from apps.quotes import matching
from apps.quotes.matching import (
    _FUZZY_CUTOFF,
    AMBIGUITY_MARGIN,
    FUZZY_MIN_SCORE,
    LinesSeen,
    _compact,
    _compact_candidates,
    _text_candidates,
    fuzzy_closest,
    line_match,
    lines_match,
    mapping_key,
    match_index,
)
from tests.conftest import EXAMPLES


@pytest.fixture(scope="module")
def index(catalog):
    return match_index(catalog)


def _example_rows():
    for folder in sorted(EXAMPLES.iterdir()):
        quote = folder / "quote.csv"
        # The one-line quotes of the field guide; the real bills of materials (with a README)
        # are read line by line in the intake tests.
        if (
            not quote.exists()
            or folder.name.startswith("bad-not")
            or (folder / "README.md").exists()
        ):
            continue
        with quote.open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                yield folder.name, row["Part Number"], row["Description"]


EXAMPLE_ROWS = list(_example_rows())


def test_the_examples_have_rows_to_match():
    assert len(EXAMPLE_ROWS) >= 15


@pytest.mark.parametrize(("folder", "part_number", "description"), EXAMPLE_ROWS)
def test_every_example_part_number_matches_exactly(index, folder, part_number, description):
    match = line_match(part_number, description, index=index)
    assert match.match == "exact", (folder, part_number, match.reason)
    assert match.score == 100.0
    assert match.part is not None and match.part.part_number == part_number


@pytest.mark.parametrize(
    ("part_number", "sku", "kind"),
    [
        ("DGXB-G1440+P2CMI36", "dgx-b200", "system"),
        ("SYS-521GE-TNRT", "supermicro-sys-521ge-tnrt", "chassis"),
        ("900-2G133-0080-000", "l40s", "gpu_card"),
        ("NVLINK-BRIDGE-4WAY", "NVLINK-BRIDGE-4WAY", "bridge"),
        # Vendors disagree about dashes and case; the letters and digits decide.
        ("dgxb-g1440 + p2cmi36", "dgx-b200", "system"),
    ],
)
def test_exact_part_numbers_give_the_sku_and_kind(index, part_number, sku, kind):
    match = line_match(part_number, "", index=index)
    assert (match.match, match.sku, match.kind) == ("exact", sku, kind)


@pytest.mark.parametrize(
    ("description", "sku"),
    [
        ("NVIDIA DGX B200 1440GB", "dgx-b200"),
        ("DGX H200", "dgx-h200"),
        ("H100 NVL", "h100-nvl"),
        ("NVIDIA GB300 NVL72 rack, 72x Blackwell Ultra GPU, 36x Grace CPU", "gb300-nvl72"),
        ("Supermicro SYS-521GE-TNRT 5U dual Xeon", "supermicro-sys-521ge-tnrt"),
        # Its own system, not the L40S Supermicro box that once carried its name as an alias.
        ("ASUS ESC8000A-E13P 4U GPU server barebone, dual AMD EPYC 9005", "asus-esc8000a-e13p"),
        # A model number beats a longer name of plain words (NVIDIA's server class).
        ("Boston RTX PRO Server - GIGABYTE XL44-SX2-AAS1 (NVIDIA MGX 4U)", "gigabyte-xl44-sx2"),
    ],
)
def test_descriptions_without_a_part_number_match_by_alias(index, description, sku):
    match = line_match("", description, index=index)
    assert match.match == "alias", match.reason
    assert match.sku == sku


def test_a_server_description_naming_its_gpus_is_the_server(index):
    # The vehicle beats the engines it carries, even though the GPU alias is longer.
    match = line_match(
        "",
        "Dell PowerEdge XE7745 RTX PRO Server, 8x NVIDIA RTX PRO 6000 Blackwell Server Edition",
        index=index,
    )
    assert (match.match, match.kind, match.sku) == ("alias", "system", "rtx-pro-server-8x")


def test_a_description_close_to_one_part_matches_fuzzily(index):
    # "NVLink bridge 4-way" has the words of "4-way NVLink bridge" in another order; the
    # H200 NVL server whose name mentions a 4-way bridge covers it too, but not word for word.
    match = line_match("", "NVLink bridge 4-way", index=index)
    assert (match.match, match.sku) == ("fuzzy", "NVLINK-BRIDGE-4WAY")
    assert FUZZY_MIN_SCORE <= match.score <= 100


def test_a_part_number_typo_still_matches(index):
    # One digit dropped from the L40S board number: "9002g133008000" (14 letters) against
    # "9002g1330080000" (15): ratio 2 × 14 / (14 + 15) ≈ 96.6.
    match = line_match("900-2G133-0080-00", "", index=index)
    assert match.match == "fuzzy"
    assert match.sku == "l40s"
    assert match.score == pytest.approx(96.6, abs=0.05)


def test_two_close_part_numbers_are_ambiguous(index):
    # SYS-621GE-TNRT is one character from both the 521GE and the 421GE chassis.
    match = line_match("SYS-621GE-TNRT", "", index=index)
    assert match.match == "ambiguous"
    assert {p.part_number for p in match.candidates} == {"SYS-521GE-TNRT", "SYS-421GE-TNRT"}
    assert match.sku is None
    # "sys621getnrt" vs "sys521getnrt": 11 of 12 letters agree, 2 × 11 / 24 ≈ 91.7 for both,
    # so the two are 0 apart, inside the margin.
    assert match.score == pytest.approx(91.7, abs=0.05)
    assert AMBIGUITY_MARGIN > 0


def test_an_edition_less_rtx_pro_6000_is_ambiguous(index):
    # Workstation, Server and Max-Q editions all answer to "RTX PRO 6000 Blackwell".
    match = line_match("", "NVIDIA RTX PRO 6000 Blackwell 96GB", index=index)
    assert match.match == "ambiguous"
    gpus = {p.gpu for p in match.candidates if p.kind == "gpu_card"}
    assert {"rtx-pro-6000-server", "rtx-pro-6000-ws"} <= gpus


@pytest.mark.parametrize(
    "description",
    [
        "ProSupport 3yr",
        "ProSupport Plus 3 Years Next Business Day for DGX B200",
        "NVIDIA AI Enterprise subscription, 5 years",
        "Installation and configuration services",
        "HPE Care Pack 3yr 24x7",
        "3m OSFP 800G transceiver",
        "Cat6 cable 3m",
        "ReadyRails sliding rails",
        "42U rack cabinet",
        "Switched PDU 3-phase 30A",
        "Spectrum-X Ethernet switch SN5600",
        "NVIDIA ConnectX-7 400G NIC",
        "Intel Xeon Platinum 8480+ processor",
        "64GB DDR5 RDIMM",
        "3.84TB NVMe SSD",
        "Windows Server 2025 licence",
        "HPE 5Y Tech Care Essential XD670 SVC",  # names the server it covers: still a service
        "3 years parts, next business day",
        "HPE 42U 600x1200 Enterprise Rack",
        "Support 3 Jahre, Vor-Ort-Service",
        "Garantie 5 ans sur site",
    ],
)
def test_non_compute_items_are_other(index, description):
    match = line_match("", description, index=index)
    assert (match.match, match.kind, match.sku) == ("none", "other", None), match.reason


def test_a_system_sold_with_support_is_still_the_system(index):
    match = line_match("", "NVIDIA DGX B200 1440GB with 3yr ProSupport", index=index)
    assert (match.kind, match.sku) == ("system", "dgx-b200")


def test_an_unknown_line_matches_nothing(index):
    match = line_match("ACME-42", "Flux capacitor", index=index)
    assert (match.match, match.kind, match.part) == ("none", "unknown", None)


def test_a_confirmed_vendor_mapping_wins(index):
    # The reseller calls the L40S "GPU-ACCEL-48"; someone confirmed it once.
    mappings = {mapping_key("GPU-ACCEL-48"): ("NVIDIA", "900-2G133-0080-000")}
    match = line_match("GPU-ACCEL-48", "Accelerator 48GB", index=index, mappings=mappings)
    assert (match.match, match.sku, match.score) == ("alias", "l40s", 100.0)
    without = line_match("GPU-ACCEL-48", "Accelerator 48GB", index=index)
    assert without.sku is None


def test_mapping_keys_ignore_case_and_punctuation():
    assert mapping_key(" GPU-Accel 48 ") == mapping_key("gpu accel-48") == "gpu accel 48"


def test_lines_match_keeps_order_and_repeats(catalog):
    lines = [("DGXB-G1440+P2CMI36", ""), ("", "Cat6 cable"), ("DGXB-G1440+P2CMI36", "")]
    matches = lines_match(lines, catalog)
    assert [m.kind for m in matches] == ["system", "other", "system"]


def _mutated_names(index, count: int, seed: int) -> list[str]:
    """Catalog texts with words dropped, added, swapped and letters changed."""
    rng = random.Random(seed)
    vocab = [*sorted({w for c in index.text_choices for w in c.split()}), "custom", "rev", "8x"]
    texts = []
    for _ in range(count):
        words = rng.choice(index.text_choices).split()
        for _ in range(rng.randint(1, 3)):
            change = rng.random()
            if change < 0.3 and words:
                words.pop(rng.randrange(len(words)))
            elif change < 0.6:
                words.insert(rng.randrange(len(words) + 1), rng.choice(vocab))
            elif change < 0.8 and words:
                at = rng.randrange(len(words))
                word = words[at]
                cut = rng.randrange(len(word))
                words[at] = word[:cut] + rng.choice("abcx019") + word[cut + 1 :]
            else:
                rng.shuffle(words)
        texts.append(utils.default_process(" ".join(words)))
    texts += [" ".join(rng.choice(vocab) for _ in range(rng.randint(1, 6))) for _ in range(500)]
    return [t for t in texts if len(t) >= 2]


def test_text_candidates_give_what_scoring_every_choice_gives(index):
    """The token-set search over the candidates only returns what it returns over every
    catalog text: the same choices, scores and order (ties by position)."""
    queries = _mutated_names(index, 2500, seed=19)
    shortened = 0
    for query in queries:
        everything = fuzzy_closest(query, index.text_choices)
        positions = _text_candidates(query, index)
        if positions is None:  # not plain words ("技嘉 h100"): every choice is scored
            continue
        shortened += 1
        some = fuzzy_closest(query, [index.text_choices[i] for i in positions])
        assert [(c, s, positions[i]) for c, s, i in some] == everything, query
    assert shortened > 0.9 * len(queries)


def test_text_candidates_score_every_choice_for_a_text_not_of_plain_words(index):
    assert _text_candidates("nvidia grafikkarte für ki", index) is None
    assert _text_candidates("", index) is None


def test_the_joined_word_sets_ratio_is_the_token_set_ratio_of_texts_sharing_no_word(index):
    """What `_text_candidates` prefilters with: for a text sharing no word with a catalog
    choice, the plain ratio of the two sorted, joined word sets is rapidfuzz's token-set
    ratio (to within a rounding error, far below the point of slack it keeps)."""
    queries = [f"custom bracket assembly rev {n}" for n in range(1, 400)]
    queries += _mutated_names(index, 300, seed=23)
    compared = 0
    for query in queries:
        words = set(query.split())
        joined = " ".join(sorted(words))
        for choice, choice_joined in zip(index.text_choices, index.text_joined, strict=True):
            if not choice_joined or words & set(choice.split()):
                continue
            compared += 1
            assert fuzz.token_set_ratio(query, choice, processor=None) == pytest.approx(
                fuzz.ratio(joined, choice_joined, processor=None), abs=1e-9
            )
    assert compared > 10_000


def test_text_candidates_of_unknown_lines_give_what_scoring_every_choice_gives(index):
    """Lines the catalog does not know (a tenth of a long quote, each its own text) keep
    the same best choices as scoring every catalog text, now that most are skipped."""
    for query in [f"custom bracket assembly rev {n}" for n in range(1, 300)] + [
        "nvidia dgx b200 1440gb rev 7",
        "qsfp112 400g dac cable 3m",
        "rtx pro 6000 blackwell rev 2",
    ]:
        everything = fuzzy_closest(query, index.text_choices)
        positions = _text_candidates(query, index)
        assert positions is not None
        some = fuzzy_closest(query, [index.text_choices[i] for i in positions])
        assert [(c, s, positions[i]) for c, s, i in some] == everything, query


def test_compact_candidates_give_what_scoring_every_part_number_gives(index):
    """The part-number search over the choices of a length that can reach the cutoff returns
    what it returns over every catalog part number: the same choices, scores and order."""
    rng = random.Random(29)
    queries = [_compact(f"MISC-{n:05d}") for n in range(1, 300)]
    for choice in index.compact_choices:
        for _ in range(3):
            cut = rng.randrange(len(choice)) if choice else 0
            queries.append(choice[:cut] + rng.choice("abc019") + choice[cut + 1 :])
            queries.append(choice[: max(cut, 1)])  # cut short: lengths far apart
    found = 0
    for query in (q for q in queries if len(q) >= 4):
        everything = matching.process.extract(
            query, index.compact_choices, scorer=fuzz.ratio, limit=8, score_cutoff=_FUZZY_CUTOFF
        )
        positions = _compact_candidates(query, index)
        assert positions == sorted(positions)
        some = matching.process.extract(
            query,
            [index.compact_choices[p] for p in positions],
            scorer=fuzz.ratio,
            limit=8,
            score_cutoff=_FUZZY_CUTOFF,
        )
        assert [(c, s, positions[i]) for c, s, i in some] == everything, query
        found += len(everything)
        assert len(positions) < len(index.compact_choices)
    assert found > 1000


def test_a_description_under_many_part_numbers_is_read_once_and_matches_as_alone(
    catalog, monkeypatch
):
    """`LinesSeen`: a quote's lines that share a description (each its own part number) read
    it once (its words, the aliases inside it, its fuzzy candidates) and match as each
    would on its own."""
    descriptions = [
        "Custom bracket assembly rev 4",
        "NVIDIA DGX B200 1440GB, 8x B200 SXM",
        "ConnectX-7 400G NIC, port 2",
        "Supermicro SYS-521GE-TNRX 8x L40S",
    ]
    lines = [(f"SKU-{n:04d}", descriptions[n % 4]) for n in range(40)]
    alone = [line_match(pn, desc, index=match_index(catalog)) for pn, desc in lines]
    calls: list[str] = []
    real = matching._contained

    def contained(words, index):  # type: ignore[no-untyped-def]
        calls.append(words)
        return real(words, index)

    monkeypatch.setattr(matching, "_contained", contained)
    seen = LinesSeen()
    assert lines_match(lines, catalog, seen=seen) == alone
    assert len(seen.lines) == 40
    assert sorted(seen.described) == ["Custom bracket assembly rev 4"]  # the one read fuzzily
    assert len([w for w in calls if "bracket" in w]) == 1  # its words once, not 10 times
    assert {m.kind for m in alone} >= {"system", "other", "unknown"}
