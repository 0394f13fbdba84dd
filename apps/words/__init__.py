"""The product's words and number formats, one module for every face.

The engine's findings, the page, the PDF and the CLI text all write a figure, a sum of money, a
label and a vehicle the same way: 1,255.6 kW, USD 1,030,000.00, $1,400, 12 %, "GPUs needed",
"a semi". The labels of the engine's enums (severity, verdict, blood-pressure level, check, match,
load kind, cooling, site) live here too, so no template words a value of its own. Pure: no Django,
so the engine can use it as freely as the templates.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

#: The field guide's vehicles, by the catalog's form factor.
VEHICLES: dict[str, str] = {
    "phone": "moped",
    "laptop": "motorcycle",
    "desktop": "compact car",
    "workstation": "sedan",
    "pcie_server": "work van",
    "nvl8_server": "semi",
    "rack_nvl72": "freight train",
}


def vehicle_name(form_factor: str) -> str:
    """`nvl8_server` -> "semi"; a form factor we do not know -> "unknown vehicle"."""
    return VEHICLES.get(form_factor, "unknown vehicle")


# --- numbers and money ---------------------------------------------------------------------------


def number_format(value: float) -> str:
    """A figure as every face writes it: 1,500 and 247.5 and 1,255.6 and 0.27 and 12,600.

    Whole numbers print whole; below 10 two decimals, below 10,000 one, above that none
    (528,600 USD idle, not 528,600.0); trailing zeros go. A finding and the sizing table both
    say 5.25 tokens/s, never 5.2 in one and 5.25 in the other.
    """
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    magnitude = abs(value)
    if magnitude >= 10_000 or value == int(value):
        return f"{value:,.0f}"
    text = f"{value:,.1f}" if magnitude >= 10 else f"{value:,.2f}"
    text = text.rstrip("0").rstrip(".")
    return "0" if text in {"-0", ""} else text


def power_format(kw: float) -> str:
    """Desk machines in watts, servers and racks in kW: 0.24 -> "240 W", 14.3 -> "14.3 kW"."""
    return f"{number_format(kw * 1000)} W" if kw < 1 else f"{number_format(kw)} kW"


def finding_heading(label: str, title: str) -> str:
    """ "Rack power: 1 per rack, 4 racks of 10"; a title that only repeats its check's name
    ("Time to first token: Time to first token") is said once."""
    return label if title.strip().casefold() == label.casefold() else f"{label}: {title}"


def number_precise(value: float, digits: int) -> str:
    """A working figure inside a formula, with the digits its arithmetic needs: KV per sequence
    0.125 GB, 0.052 TFLOP per token. Thousands grouped; trailing zeros kept off."""
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    if abs(value - round(value)) < 1e-9:
        return f"{value:,.0f}"
    return f"{value:,.{digits}f}"


def money_format(amount: Decimal | float | None, currency: str) -> str:
    """`Decimal("2060000")`, "USD" -> "USD 2,060,000.00": the quote's own money, to the cent;
    unknown -> "—"."""
    if amount is None:
        return "—"
    cents = Decimal(str(amount)).quantize(Decimal("0.01"))
    return f"{currency} {cents:,}" if currency else f"{cents:,}"


def usd(amount: Decimal | float) -> str:
    """Money in a sentence: $300,000 · $586 · $12.50 (cents only below $100)."""
    value = Decimal(str(amount))
    return f"${value:,.0f}" if abs(value) >= 100 else f"${value:,.2f}"


def usd_whole(amount: Decimal | float | int) -> str:
    """A threshold or a rounded sum: $10,000 · $1,400 (never cents)."""
    return f"${Decimal(str(amount)):,.0f}"


def pct(share: float) -> str:
    """A share as a percentage: 0.12 -> "12 %"."""
    return f"{share * 100:.0f} %"


def plural(count: int, word: str) -> str:
    """ "1 user" · "100 users"."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def every(count: int, word: str) -> str:
    """A whole count, as it is said: "the 1 user" (not "all 1 user") · "all 100 users"."""
    return f"the {plural(count, word)}" if count == 1 else f"all {plural(count, word)}"


def and_list(items: Iterable[str]) -> str:
    """Names in a sentence, each once, in order: "A" · "A and B" · "A, B and C"."""
    names = list(dict.fromkeys(items))
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def article(number: int) -> str:
    """The article before a number as it is read aloud, by its leading group: "an 8,192-token
    prompt" (eight thousand), "an 11-GPU", "an 18,000" (eighteen thousand), "an 800";
    "a 4,096-token prompt", "a 110", "a 1,100" otherwise."""
    lead = f"{abs(number):,}".split(",")[0]
    return "an" if lead.startswith("8") or lead in ("11", "18") else "a"


# --- the engine's values, in words ---------------------------------------------------------------

SEVERITY_LABELS: dict[str, str] = {
    "ok": "OK",
    "info": "Note",
    "warning": "Warning",
    "critical": "Critical",
}
VERDICT_LABELS: dict[str, str] = {"pass": "Pass", "warn": "Warn", "fail": "Fail"}
#: The blood-pressure levels, calm to crisis.
LEVEL_LABELS: dict[str, str] = {
    "calm": "Calm",
    "raised": "Raised",
    "high": "High",
    "crisis": "Crisis",
}
#: The colour each verdict and blood-pressure level wears on every face. White text on each, and
#: each as text on white, is at least 4.5:1 (WCAG AA): "Raised" was #c49000 (2.9:1), "High"
#: #e65100 (3.8:1); now 5.9:1 both.
VERDICT_COLOURS: dict[str, str] = {"pass": "#2e7d32", "warn": "#8a5a00", "fail": "#b71c1c"}
LEVEL_COLOURS: dict[str, str] = {
    "calm": "#2e7d32",
    "raised": "#8a5a00",
    "high": "#b23c00",
    "crisis": "#b71c1c",
}
#: Check id -> (label, the question it answers). The order is every face's reading order:
#: does it add up, does it fit, does it run, does the building take it.
CHECKS: dict[str, tuple[str, str]] = {
    "quote_lines": ("Quote lines", "Does the quote add up, and do we know every part?"),
    "context_length": ("Context length", "Does the model take the context asked for?"),
    "memory_fit": ("Memory fit", "Does the biggest job fit in the GPUs' memory?"),
    "nvlink_domain": ("NVLink domain", "Does the biggest job ride in one coupled vehicle?"),
    "fp64": ("FP64", "Is there a 64-bit engine for the science?"),
    "precision_support": ("Precision support", "Do the GPUs run the asked number format?"),
    "throughput": ("Throughput", "How fast for each user, and for how many?"),
    "ttft": ("Time to first token", "How long before the first word of an answer?"),
    "utilization": ("Utilization", "How much of it would sit idle?"),
    "rack_power": ("Rack power", "Does the room have the power per rack?"),
    "transient_headroom": ("Power spikes", "Can the feed ride out the short spikes?"),
    "cooling": ("Cooling", "Can the room carry the heat away?"),
    "floor_load": ("Floor load", "Can the floor hold it?"),
    "circuit": ("Circuit", "Will the wall circuit hold it?"),
    "arch_portability": (
        "Arm, x86 and CUDA",
        "Will the software run on it, and move from the desk to production?",
    ),
    "energy": ("Energy", "What does it cost to run, and what heat does it give off?"),
    "buy_or_rent": ("Buy or rent", "Would renting the same GPUs cost less?"),
    "recommendation": ("Right fit", "What would fit this load in this room?"),
}


def check_label(check: str, fabric: str = "NVLink") -> str:
    """ "memory_fit" -> "Memory fit"; a check added later -> its id in words. `fabric`: what
    joins the GPUs the finding is about ("nvlink_domain", "Infinity Fabric" -> "Infinity
    Fabric domain")."""
    return fabric_words(CHECKS.get(check, (check.replace("_", " ").capitalize(), ""))[0], fabric)


#: The fabric that makes a board's GPUs one domain, by the catalog's interconnect, where it is
#: not NVIDIA's: AMD's Infinity Fabric joins 8 × MI300X on their OAM baseboard as NVSwitch joins
#: 8 × H200, and the review names it so, never "NVLink" for an AMD GPU.
FABRIC_NAMES: dict[str, str] = {"infinity_fabric": "Infinity Fabric"}


def fabric_name(interconnect: str | None) -> str:
    """ "infinity_fabric" -> "Infinity Fabric"; NVIDIA's interconnects (and none) -> "NVLink"."""
    return FABRIC_NAMES.get(interconnect or "", "NVLink")


def fabric_words(text: str, fabric: str) -> str:
    """Words written for NVLink, said for the fabric the GPUs ride on: "Memory in one NVLink
    domain" -> "Memory in one Infinity Fabric domain" for a quote of MI300X."""
    return text if fabric == "NVLink" else text.replace("NVLink", fabric)


def domain_words(gpus: int, interconnect: str | None) -> str:
    """ "one Infinity Fabric domain of 8 GPUs" (8 × MI300X), "one NVLink domain of 8 GPUs"."""
    return f"one {fabric_name(interconnect)} domain of {plural(gpus, 'GPU')}"


MATCH_LABELS: dict[str, str] = {
    "exact": "Exact",
    "alias": "Alias",
    "fuzzy": "Fuzzy: confirm",
    "ambiguous": "Ambiguous: pick one",
    "none": "No match",
}
KIND_LABELS: dict[str, str] = {
    "inference": "Inference serving (the school bus)",
    "rag": "Retrieval-augmented generation (the school bus)",
    "training": "Training (the cement truck)",
    "fine_tuning": "Fine-tuning (the cement truck)",
    "lora": "LoRA fine-tuning",
    "hpc": "FP64 scientific computing",
    "vision": "Computer vision",
    "vdi": "Virtual desktops",
    "development": "Development",
}
#: The load kind inside a sentence: "inference, Qwen3-32B at FP8, 100 users …".
KIND_WORDS: dict[str, str] = {
    "inference": "inference",
    "rag": "RAG",
    "training": "training",
    "fine_tuning": "full fine-tuning",
    "lora": "LoRA fine-tuning",
    "hpc": "FP64 HPC",
    "vision": "computer vision",
    "vdi": "virtual desktops",
    "development": "development",
}
#: Cooling in a sentence ("air with rear-door heat exchangers cooling").
COOLING_WORDS: dict[str, str] = {
    "air": "air",
    "air_rdhx": "air with rear-door heat exchangers",
    "liquid": "liquid",
    "air_or_liquid": "air or liquid",
}


def cooling_label(cooling: str) -> str:
    """ "air_rdhx" -> "Air with rear-door heat exchangers"."""
    return COOLING_WORDS.get(cooling, cooling.replace("_", " ")).capitalize()


SITE_LABELS: dict[str, str] = {"datacenter": "Data center", "office": "Office"}
CPU_LABELS: dict[str, str] = {"x86": "x86", "arm": "Arm"}


# --- sizing and finding metrics ------------------------------------------------------------------

#: The sizing figures in reading order: key, label, unit. Page, PDF and CLI print these rows.
SIZING_ROWS: list[tuple[str, str, str]] = [
    ("job_memory_gb", "Memory of the biggest single job", "GB"),
    ("nvlink_domain_memory_gb", "Memory in one NVLink domain", "GB"),
    ("decode_tokens_per_sec_bound", "One conversation, bandwidth bound", "tokens/s"),
    ("tokens_per_sec_per_user", "Per user at the asked load", "tokens/s"),
    ("max_concurrent_users", "Users served at the asked speed", "users"),
    ("fp64_tflops", "FP64 on the quote", "TFLOPS"),
    ("utilization_pct", "Utilization at the asked load", "%"),
    ("power_kw", "Power, every system at maximum", "kW"),
    ("rack_power_kw", "Power per rack", "kW"),
    ("usable_rack_kw", "Usable power per rack (its limit)", "kW"),
    ("racks_needed", "Racks needed", "racks"),
    ("weight_lb", "Weight, every system", "lb"),
    ("heat_btu_per_hr", "Heat, every system at maximum", "BTU/h"),
    ("liquid_kw", "Heat into the liquid loop", "kW"),
    ("air_kw", "Heat into the room's air", "kW"),
    ("energy_kwh_per_year", "Energy a year (typical kW × 8,760 h × PUE)", "kWh"),
    ("energy_cost_per_year", "Energy bill a year", "USD"),
    ("co2_tonnes_per_year", "CO2 a year", "t"),
]

#: A metric key's suffix -> its unit ("floor_load_lb_per_sqft" -> "lb/sq ft").
UNITS: tuple[tuple[str, str], ...] = (
    ("_kg_co2_per_kwh", "kg CO2/kWh"),
    ("_usd_per_kwh", "USD/kWh"),
    ("_kwh_per_year", "kWh a year"),
    ("_usd_per_year", "USD a year"),
    ("_tonnes_per_year", "t a year"),
    ("_btu_per_hr", "BTU/h"),
    ("_kg_per_m2", "kg/m²"),
    ("_tokens_per_sec_per_user", "tokens/s per user"),
    ("_per_sec_per_replica", "a second per copy"),
    ("_lb_per_sqft", "lb/sq ft"),
    ("_per_sqft", "lb/sq ft"),
    ("_tokens_per_sec", "tokens/s"),
    ("_tbs", "TB/s"),
    ("_gbs", "GB/s"),
    ("_gb", "GB"),
    ("_kw", "kW"),
    ("_w", "W"),
    ("_pct", "%"),
    ("_lb", "lb"),
    ("_sqft", "sq ft"),
    ("_ms", "ms"),
    ("_tflops", "TFLOPS"),
    ("_usd", "USD"),
    ("_amps", "A"),
    ("_volts", "V"),
    ("_a", "A"),
    ("_v", "V"),
)
#: Words that keep their capitals in a metric's label.
CAPITALS: dict[str, str] = {
    "nvlink": "NVLink",
    "gpu": "GPU",
    "gpus": "GPUs",
    "fp64": "FP64",
    "fp8": "FP8",
    "fp4": "FP4",
    "bf16": "BF16",
    "kv": "KV",
    "cpu": "CPU",
    "tdp": "TDP",
    "hbm": "HBM",
    "rdhx": "RDHX",
    "pcie": "PCIe",
    "co2": "CO2",
    "ttft": "TTFT",
    "pue": "PUE",
    "x86": "x86",
}
#: Metrics whose key is all unit ("usd_per_kwh"): their label and unit, on every face.
METRIC_LABELS: dict[str, tuple[str, str]] = {
    "usd_per_kwh": ("Electricity", "USD/kWh"),
    "kg_co2_per_kwh": ("Grid carbon", "kg CO2/kWh"),
    "tokens_per_sec_per_user": ("Per user", "tokens/s"),
    "asked_tokens_per_sec_per_user": ("Asked per user", "tokens/s"),
    "tokens_per_sec_per_user_with_prefill": ("Per user, reading prompts too", "tokens/s"),
    "decode_tokens_per_sec_bound": ("One conversation, bandwidth bound", "tokens/s"),
}
#: Counted units, one and many: "1 rack", "2 racks".
COUNTED_UNITS: dict[str, str] = {
    "racks": "rack",
    "users": "user",
    "GPUs": "GPU",
    "circuits": "circuit",
    "systems": "system",
}


def unit_for(value: float, unit: str) -> str:
    """A counted unit as the figure beside it needs it: (1, "racks") -> "rack", (2, "racks")
    -> "racks"; measures ("kW", "GB") stay as they are."""
    return COUNTED_UNITS.get(unit, unit) if value == 1 else unit


_NUMBER = re.compile(r"-?\d+(\.\d+)?")


@functools.lru_cache(maxsize=1024)  # a few dozen keys, asked for by every finding shown
def metric_label(key: str) -> tuple[str, str]:
    """`nvlink_domain_memory_gb` -> ("NVLink domain memory", "GB"); `gpus_needed` ->
    ("GPUs needed", ""): the unit from the suffix, capitals kept, on every face."""
    if key in METRIC_LABELS:
        return METRIC_LABELS[key]
    unit = ""
    for suffix, suffix_unit in UNITS:
        if key.endswith(suffix):
            key, unit = key.removesuffix(suffix), suffix_unit
            break
    parts = [word for word in key.split("_") if word]
    words = [CAPITALS.get(word, word) for word in parts]
    if words and words[0] == words[0].lower() and parts[0] not in CAPITALS:
        words[0] = words[0].capitalize()
    return " ".join(words), unit


def metric_value(value: Any) -> str:
    """A finding's metric as printed: 57.2 -> "57.2"; True -> "yes"; None -> "—"; money as a
    decimal string "528600" -> "528,600"; other text stays text."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float | Decimal):
        return number_format(float(value))
    if isinstance(value, list | tuple):
        if not value:
            return "none"
        return ", ".join(metric_value(v) for v in value)
    if isinstance(value, str) and _NUMBER.fullmatch(value):
        return number_format(float(value))
    return str(value)
