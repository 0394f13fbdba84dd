"""nvlink_domain: does the biggest single job fit one coupled vehicle?

"Eight GPUs in one NVLink domain and eight GPUs scattered among other servers are not
interchangeable." A training or fine-tuning job split over PCIe is critical: a house balanced on
the roofs of eight vans. Inference split over PCIe runs, slower: a warning. For inference the
piece that must sit together is one copy of the weights plus one conversation; more users are
served by more copies.

The check keeps its id for every GPU, but its words name the fabric that joins them: 8 × MI300X
on AMD's OAM baseboard are "one Infinity Fabric domain of 8 GPUs", never NVLink
(`apps.words.fabric_name`).
"""

from __future__ import annotations

import math
import re

from apps.review.engine.checks._common import finding_make, gpu_figure, num, pct
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding, WorkloadKind
from apps.review.engine.sizing.memory import gpu_memory_gb, gpu_memory_words
from apps.review.engine.sizing.throughput import link_words
from apps.words import domain_words, fabric_name

CHECK = "nvlink_domain"
NVSWITCH_DOMAIN = 8  # below this, GPUs are joined by PCIe or a bridge, not an NVSwitch fabric


def check(ctx: ReviewContext) -> list[Finding]:
    job = ctx.job
    if job is None:
        return []
    best = ctx.biggest_domain
    unit = job.unit_gb
    kind = ctx.workload.kind
    piece = (
        "one copy of the weights plus one conversation"
        if job.basis == "inference"
        else f"the {kind.value.replace('_', '-')} job"
    )
    if best is None or best.gpu is None:
        return [
            finding_make(
                CHECK,
                "critical",
                "No NVLink domain on the quote",
                "There are no GPUs on the quote, so nothing can carry the job.",
                metrics={"unit_memory_gb": round(unit, 2)},
                lever="Quote a vehicle with engines.",
            )
        ]
    gpu = best.gpu
    fabric = fabric_name(gpu.interconnect)
    domain_gb = best.domain_memory_gb
    if best.domain_gpus <= 1:
        domain_text = f"one {gpu.model} ({num(domain_gb)} GB, its own domain: no {fabric} to a "
        domain_text += "neighbour)"
    elif fabric == "NVLink":
        domain_text = (
            f"one {num(domain_gb)} GB NVLink domain ({best.domain_gpus} × "
            f"{gpu_memory_words(gpu)} {gpu.model})"
        )
    else:  # "one Infinity Fabric domain of 8 GPUs (8 × 192 GiB MI300X = 1,649.3 GB)"
        domain_text = (
            f"{domain_words(best.domain_gpus, gpu.interconnect)} ({best.domain_gpus} × "
            f"{gpu_memory_words(gpu)} {gpu.model} = {num(domain_gb)} GB)"
        )
    gpus_needed = math.ceil(unit / gpu_memory_gb(gpu))
    serving = ctx.serving
    plan = None
    if job.basis == "inference" and serving is not None and serving.primary is not None:
        # one plan per report: the GPUs a copy rides on are the serving plan's (TP sizes that
        # divide the heads: 128 heads over 4 or 8, never 5), and so is the link that joins them
        plan = serving.primary[1]
        gpus_needed = plan.gpus_per_replica
    if plan is not None and plan.link in ("PCIe", "network"):
        link_kind, link = plan.link, plan.link_text
    else:
        link_kind = "PCIe" if gpus_needed <= best.gpus_per_system else "network"
        link = link_words(best, link_kind, gpus_needed)
    metrics = {
        "unit_memory_gb": round(unit, 2),
        "nvlink_domain_memory_gb": round(domain_gb, 2),
        "nvlink_domain_gpus": best.domain_gpus,
        "gpus_needed": gpus_needed,
        "system": best.system.sku,
        "link": link_kind,
        "fabric": fabric,
    }
    formula = (
        f"{num(unit)} GB vs {best.domain_gpus} × {gpu_memory_words(gpu)} = {num(domain_gb)} GB"
    )
    figures = [gpu_figure(best, "memory_gb")]
    if unit <= domain_gb:
        return [
            finding_make(
                CHECK,
                "ok",
                f"The job fits one {fabric} domain",
                f"{piece.capitalize()} ({num(unit)} GB) fits {domain_text}: one tractor, one "
                "trailer, one load.",
                metrics=metrics,
                formula=formula,
                figures=figures,
            )
        ]
    training = kind in {WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING}
    # a cement-truck job wants an NVSwitch semi or train, not a bridged pair of cards
    right_fit = ctx.smallest_domain_holding(unit, min_gpus=NVSWITCH_DOMAIN if training else 2)
    right_text = ""
    if right_fit is not None:
        right_gpu = ctx.catalog.gpu_by_key[right_fit.gpu or ""]
        right_gb = right_fit.nvlink_domain_gpus * gpu_memory_gb(right_gpu)
        right_text = (
            f" (e.g. {right_fit.name.split(' (')[0]}: {right_fit.nvlink_domain_gpus} × "
            f"{gpu_memory_words(right_gpu)} = {num(right_gb)} GB)"
        )
    lever = f"Quote the smallest NVLink domain that holds the job{right_text}, then scale out."
    if fabric != "NVLink":  # the catalog's right fit is an NVIDIA system: named as one
        nvidia = right_text.replace(" (e.g. ", " (the catalog's NVIDIA choice: ")
        lever = f"Quote the smallest {fabric} domain that holds the job, then scale out{nvidia}."
    if unit > ctx.total_memory_gb:
        return [
            finding_make(
                CHECK,
                "critical",
                "The job fits no domain, not even the whole quote",
                f"{piece.capitalize()} needs {num(unit)} GB; the biggest domain here is "
                f"{domain_text} and the whole quote holds {num(ctx.total_memory_gb)} GB.",
                metrics=metrics,
                formula=formula,
                lever=lever,
                figures=figures,
            )
        ]
    over_pcie = link_kind == "PCIe"
    if training and best.domain_gpus < NVSWITCH_DOMAIN:
        return [
            finding_make(
                CHECK,
                "critical",
                "A house on the roofs of eight vans",
                f"The {num(unit)} GB {kind.value.replace('_', '-')} job has to ride in one coupled "
                f"vehicle, but the biggest domain here is {domain_text}. Split over {link} across "
                f"{gpus_needed} GPUs, it passes notes at a fraction of {fabric} speed and would "
                "run so slowly it effectively wouldn't work. The GPU count and name match a semi; "
                "the vehicle does not.",
                metrics=metrics,
                formula=formula,
                lever=lever,
                figures=figures,
            )
        ]
    if training:
        title = f"Split across {fabric} domains over the network"
        detail = (
            f"The {num(unit)} GB job is bigger than {domain_text}, so it is sharded across "
            f"{math.ceil(unit / domain_gb)} domains over {link}. That works with a real fabric "
            "(InfiniBand or RoCE per GPU), but time-to-result depends on it."
        )
    else:
        title = f"Split over {'PCIe' if over_pcie else 'the network'}: it runs, slower"
        detail = (
            f"{piece.capitalize()} ({num(unit)} GB) is bigger than {domain_text}, so each copy is "
            f"split across {gpus_needed} GPUs over {link}. It runs, but the GPUs pass notes at a "
            f"fraction of {fabric} speed."
        )
        if link_kind == "network" and plan is not None:
            hosts = math.ceil(gpus_needed / max(best.gpus_per_system, 1))
            pooled = gpus_needed * gpu.memory_gb
            detail += (
                f" The {hosts} hosts are a small cluster: their memory is pooled for sharding "
                f"({gpus_needed} × {num(gpu.memory_gb)} GB = {num(pooled)} GB), and every layer's "
                f"notes cross that link, so the throughput estimate gives up "
                f"{pct(plan.split_penalty)} of their combined bandwidth and compute to the split "
                "(a Rightsize estimate)."
            )
            metrics["pooled_memory_gb"] = round(pooled, 2)
            metrics["split_penalty"] = round(plan.split_penalty, 2)
            cable = _interconnect_line(ctx)
            metrics["interconnect_line"] = cable
            if cable is None:
                detail += (
                    " The quote carries no cable between them (a QSFP cable for two, a switch "
                    "for more): without one they are separate machines and a copy cannot be "
                    "split at all."
                )
    return [
        finding_make(
            CHECK,
            "warning",
            title,
            detail,
            metrics=metrics,
            formula=formula,
            lever=lever,
            figures=figures,
        )
    ]


#: A quote line that joins hosts: a QSFP/DAC cable, a ConnectX-7 link, a switch.
_INTERCONNECT = re.compile(r"\bqsfp|\bdac\b|connectx|\b[24]00\s*gbe\b|\bswitch\b", re.IGNORECASE)


def _interconnect_line(ctx: ReviewContext) -> int | None:
    """The line number of the cable (or switch) joining the quote's hosts, if it has one."""
    for line in ctx.quote.lines:
        if line.sku is None and _INTERCONNECT.search(line.description):
            return line.line
    return None
