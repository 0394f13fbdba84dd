#!/usr/bin/env python
"""Query NVIDIA aiconfigurator 0.12.0 (SILICON / measured-kernel database mode)
over a grid of cases and write one JSON object per case (JSON lines).

Run with the venv's interpreter:

    .venv-aic/bin/python scripts/aic_query_grid.py            # built-in default grid
    .venv-aic/bin/python scripts/aic_query_grid.py --grid my_grid.json --out my.jsonl
    .venv-aic/bin/python scripts/aic_query_grid.py --print-default-grid > grid_default.json
    .venv-aic/bin/python scripts/aic_query_grid.py --time-cli   # time CLI invocations

What is called, per case (all through the public Python API
``aiconfigurator.cli.api.cli_estimate``, the programmatic twin of
``aiconfigurator cli estimate``), always with ``database_mode="SILICON"``:

* ``mode="static_gen"``  -> decode phase only: TPOT = mean decode-step latency
  of a static batch of ``batch`` sequences from KV length ``isl`` to
  ``isl+osl`` (engine stride 32, as the CLI), plus decode-phase memory.
* ``mode="static_ctx"``  -> prefill phase only: TTFT = latency of prefilling
  the whole batch (batch x isl tokens in one pass).  ``ttft_single_ms`` is the
  same at batch 1 (one request alone).
* ``mode="agg"``         -> what ``aiconfigurator cli estimate`` prints by
  default: in-flight-batching steady state at concurrency ``batch``
  (mixed prefill/decode steps, heuristic TTFT queueing).  Reported under
  ``agg``.

``static`` (the CLI's single-pass mode) is exactly static_ctx + static_gen, so
nothing is lost by calling the two halves separately; it lets memory fit be
judged on the decode phase (weights + KV + decode activations) and prefill
peak memory be reported on its own.

Below ``cli_estimate`` the chain is InferenceSession.run_static ->
BaseBackend.run_static -> rust_engine_step.estimate_static_latency_breakdown_with_rust
-> AicEngine._run_static_per_op_with_metadata (compiled Rust engine that
looks every op up in the per-system parquet tables).  We stay at cli_estimate
because it performs the model-config / quant / MoE-comm / NVFP4 resolution that
the CLI performs; calling the lower layers directly would skip that and drift
from what a buyer running the CLI sees.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import logging
import math
import os
import resource
import subprocess
import sys
import time
import traceback
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("PYTHONWARNINGS", "ignore")

HERE = os.path.dirname(os.path.abspath(__file__))
GIB = float(1 << 30)

# --------------------------------------------------------------------------------------
# Catalog: systems, models, precision presets
# --------------------------------------------------------------------------------------

SYSTEMS_DEFAULT = [
    "h100_sxm",
    "h200_sxm",
    "b200_sxm",
    "gb200",
    "b300_sxm",
    "gb300",
    "l40s",
    "rtx_pro_6000_server",
]
BLACKWELL = {"b200_sxm", "gb200", "b300_sxm", "gb300", "rtx_pro_6000_server"}
BACKENDS_DEFAULT = ["trtllm", "vllm", "sglang"]

# Each precision preset is a list of candidates tried in order until one runs
# (candidates differ only in the FMHA mode or, for gpt-oss, in the MXFP4 MoE
# kernel flavour; the weight format is never swapped behind your back).  The
# candidate actually used is written to the output (gemm_quant, moe_quant,
# kv_quant, fmha_quant, candidate_index).
#
# keys: model_path (HF id whose config.json ships in aiconfigurator_core),
#       gemm / moe / kv / fmha -> cli_estimate *_quant_mode (None = auto from checkpoint)

_FMHA_FALLBACK = [None, "fp8", "bfloat16"]


def _cands(model_path, *, gemm=None, moe=None, kv=None, fmha_list=None):
    out = []
    for fmha in fmha_list or _FMHA_FALLBACK:
        out.append({"model_path": model_path, "gemm": gemm, "moe": moe, "kv": kv, "fmha": fmha})
    return out


def _dense_llama(base):
    return {
        "bf16": {"kv": "bf16", "cands": _cands(base, gemm="bfloat16", kv="bfloat16", fmha_list=["bfloat16", None])},
        # FP8 as an NVIDIA ModelOpt FP8 checkpoint (nvidia/Llama-3.1-70B-Instruct-FP8) is
        # inferred by aiconfigurator: per-tensor static-scale FP8 GEMM ("fp8_static"), FP8 KV.
        # NB: aiconfigurator has no fp8_static GEMM table; those GEMMs are tagged
        # "estimated" (derived from the measured fp8 table), see silicon_share_*.
        "fp8": {"kv": "fp8", "cands": _cands(base, gemm="fp8_static", kv="fp8")},
        # FP8 with dynamic per-tensor activation quant: the measured "fp8" GEMM table.
        "fp8_dynamic": {"kv": "fp8", "cands": _cands(base, gemm="fp8", kv="fp8")},
        "fp4": {"kv": "fp8", "blackwell_only": True, "cands": _cands(base, gemm="nvfp4", kv="fp8")},
    }


MODELS = {
    # ---------------- dense ----------------
    "Llama-3.1-8B": {"moe": False, "precisions": _dense_llama("meta-llama/Meta-Llama-3.1-8B")},
    # Llama-3.3-70B has the identical architecture to 3.1-70B (only weights differ).
    "Llama-3.1-70B": {"moe": False, "precisions": _dense_llama("meta-llama/Meta-Llama-3.1-70B")},
    "Llama-3.1-405B": {"moe": False, "precisions": _dense_llama("meta-llama/Meta-Llama-3.1-405B")},
    "Qwen3-32B": {
        "moe": False,
        "precisions": {
            "bf16": {"kv": "bf16", "cands": _cands("Qwen/Qwen3-32B", gemm="bfloat16", kv="bfloat16", fmha_list=["bfloat16", None])},
            # Qwen's official FP8 checkpoint: block-scaled FP8 (fp8_block), FP8 KV.
            "fp8": {"kv": "fp8", "cands": _cands("Qwen/Qwen3-32B-FP8")},
            "fp4": {"kv": "fp8", "blackwell_only": True, "cands": _cands("Qwen/Qwen3-32B", gemm="nvfp4", kv="fp8")},
        },
    },
    # ---------------- MoE ----------------
    # DeepSeek-V3 and R1 share one architecture (identical numbers); R1 is queried.
    "DeepSeek-R1": {
        "moe": True,
        "precisions": {
            "bf16": {
                "kv": "bf16",
                "cands": _cands("deepseek-ai/DeepSeek-R1", gemm="bfloat16", moe="bfloat16", kv="bfloat16", fmha_list=["bfloat16", None]),
            },
            # native checkpoint: fp8_block GEMM + MoE, FP8 KV (auto-inferred)
            "fp8": {"kv": "fp8", "cands": _cands("deepseek-ai/DeepSeek-R1")},
            # NVIDIA's NVFP4 DeepSeek checkpoint shipped with aiconfigurator (V3.1, same arch)
            "fp4": {"kv": "fp8", "blackwell_only": True, "cands": _cands("nvidia/DeepSeek-V3.1-NVFP4")},
        },
    },
    "Qwen3-235B-A22B": {
        "moe": True,
        "precisions": {
            "bf16": {"kv": "bf16", "cands": _cands("Qwen/Qwen3-235B-A22B", gemm="bfloat16", moe="bfloat16", kv="bfloat16", fmha_list=["bfloat16", None])},
            "fp8": {"kv": "fp8", "cands": _cands("Qwen/Qwen3-235B-A22B-FP8")},
            "fp4": {"kv": "fp8", "blackwell_only": True, "cands": _cands("nvidia/Qwen3-235B-A22B-NVFP4")},
        },
    },
    "Qwen3-30B-A3B": {
        "moe": True,
        "precisions": {
            "bf16": {"kv": "bf16", "cands": _cands("Qwen/Qwen3-30B-A3B", gemm="bfloat16", moe="bfloat16", kv="bfloat16", fmha_list=["bfloat16", None])},
            "fp8": {"kv": "fp8", "cands": _cands("Qwen/Qwen3-30B-A3B-FP8")},
            "fp4": {"kv": "fp8", "blackwell_only": True, "cands": _cands("Qwen/Qwen3-30B-A3B", gemm="nvfp4", moe="nvfp4", kv="fp8")},
        },
    },
    # gpt-oss ships MXFP4 experts + BF16 attention.  aiconfigurator's auto mode is
    # w4a16_mxfp4; some tables only have the Blackwell w4a8_mxfp4_mxfp8 kernel
    # (e.g. rtx_pro_6000_server/trtllm), which is then used and reported.
    "gpt-oss-120b": {
        "moe": True,
        "precisions": {
            "mxfp4": {
                "kv": "bf16",
                "cands": _cands("openai/gpt-oss-120b")
                + _cands("openai/gpt-oss-120b", moe="w4a8_mxfp4_mxfp8")
                + _cands("openai/gpt-oss-120b", moe="w4a16_mxfp4_cutlass"),
            },
        },
    },
}

DEFAULT_GRID = {
    "systems": SYSTEMS_DEFAULT,
    "backends": BACKENDS_DEFAULT,
    "backend_version": "current",  # or an explicit version string / "previous" / "next"
    "models": {
        "Llama-3.1-8B": ["bf16", "fp8", "fp8_dynamic", "fp4"],
        "Llama-3.1-70B": ["bf16", "fp8", "fp8_dynamic", "fp4"],
        "Qwen3-32B": ["bf16", "fp8", "fp4"],
        "Llama-3.1-405B": ["bf16", "fp8", "fp8_dynamic", "fp4"],
        "DeepSeek-R1": ["bf16", "fp8", "fp4"],
        "Qwen3-235B-A22B": ["bf16", "fp8", "fp4"],
        "Qwen3-30B-A3B": ["bf16", "fp8", "fp4"],
        "gpt-oss-120b": ["mxfp4"],
    },
    # parallel layouts: dense models use tp only; MoE models use attention TP = tp
    # and expert parallel ep = tp (moe_tp = 1), the TRT-LLM-style default layout.
    "tp": [1, 2, 4, 8],
    "pp": [1],
    "batch": [1, 4, 16, 32, 64, 128],
    "isl": [1024, 4096],
    "osl": [512],
}

# --------------------------------------------------------------------------------------
# aiconfigurator access
# --------------------------------------------------------------------------------------

_AIC = {}


def _aic():
    if not _AIC:
        logging.disable(logging.WARNING)
        from aiconfigurator.cli.api import cli_estimate
        from aiconfigurator.sdk.perf_database import get_latest_database_version

        import aiconfigurator

        _AIC["cli_estimate"] = cli_estimate
        _AIC["latest"] = get_latest_database_version
        _AIC["version"] = getattr(aiconfigurator, "__version__", "0.12.0")
        try:
            from aiconfigurator.sdk.memory import kv_cache_budget_bytes

            _AIC["kv_budget"] = kv_cache_budget_bytes
        except Exception:  # pragma: no cover
            _AIC["kv_budget"] = None
    return _AIC


_VERSION_CACHE: dict = {}


def resolve_version(system, backend, requested):
    """Resolve 'current'/None to the concrete version (resolution costs ~0.8 s of YAML
    parsing, so it is done once per system/backend and then passed explicitly)."""
    key = (system, backend, requested)
    if key not in _VERSION_CACHE:
        if requested in (None, "", "current", "latest"):
            v = _aic()["latest"](system=system, backend=backend)
        else:
            v = requested  # aliases previous/next are accepted by cli_estimate itself
        _VERSION_CACHE[key] = v
    return _VERSION_CACHE[key]


def _short_err(exc: BaseException) -> str:
    msg = f"{type(exc).__name__}: {exc}"
    msg = msg.split(" at /")[0]  # drop long parquet paths
    return " ".join(msg.split())[:400]


def _source_share(summary, phase):
    try:
        if phase == "gen":
            lat, src = summary.get_generation_latency_dict(), summary.get_generation_source_dict()
        else:
            lat, src = summary.get_context_latency_dict(), summary.get_context_source_dict()
        tot = sum(lat.values())
        if tot <= 0:
            return None, {}
        by = {}
        for k, v in lat.items():
            s = src.get(k, "unknown")
            by[s] = by.get(s, 0.0) + v
        return round(by.get("silicon", 0.0) / tot, 4), {k: round(v / tot, 4) for k, v in sorted(by.items())}
    except Exception:
        return None, {}


def _max_batch_kv(summary):
    """KV-bound max batch for the same isl/osl, as the CLI's --detail memory prints
    it (under the backend's default free_gpu_memory_fraction)."""
    try:
        mem = summary.get_memory()
        cap = summary._mem_capacity_bytes / GIB
        kv_seq = summary._kv_bytes_per_seq / GIB
        if not kv_seq:
            return None
        non_kv = float(mem["total"]) - float(mem.get("kvcache", 0.0))
        frac = summary._free_gpu_memory_fraction
        fn = _aic()["kv_budget"]
        if frac is not None and fn is not None:
            budget = fn(
                capacity=cap,
                non_kv=non_kv,
                fraction=frac,
                of_free=getattr(summary, "_fraction_of_free", True),
                reserved=summary._kv_cache_reserved_fraction,
                tolerance=summary._kv_cache_tolerance,
            )
        else:
            budget = cap - non_kv
        return int(max(0.0, budget) // kv_seq)
    except Exception:
        return None


def _estimate(mode, *, system, backend, version, cand, tp, pp, ep, dp, moe_tp, batch, isl, osl, is_moe):
    kw = dict(
        model_path=cand["model_path"],
        system_name=system,
        mode=mode,
        backend_name=backend,
        backend_version=version,
        database_mode="SILICON",
        isl=isl,
        osl=osl,
        batch_size=batch,
        tp_size=tp,
        pp_size=pp,
        attention_dp_size=dp,
        gemm_quant_mode=cand.get("gemm"),
        moe_quant_mode=cand.get("moe"),
        kvcache_quant_mode=cand.get("kv"),
        fmha_quant_mode=cand.get("fmha"),
    )
    if is_moe:
        kw["moe_ep_size"] = ep
        kw["moe_tp_size"] = moe_tp
    return _aic()["cli_estimate"](**kw)


# --------------------------------------------------------------------------------------
# Grid expansion
# --------------------------------------------------------------------------------------


def expand_grid(grid: dict) -> list[dict]:
    """Expand a grid spec to a list of case dicts.

    Either give ``cases`` (explicit list; each needs system, backend, model,
    precision, tp, batch, isl, osl and may give pp, ep, dp, moe_tp,
    backend_version) or the cross-product keys of DEFAULT_GRID."""
    if "cases" in grid:
        out = []
        for c in grid["cases"]:
            c = dict(c)
            c.setdefault("pp", 1)
            c.setdefault("dp", 1)
            c.setdefault("backend_version", grid.get("backend_version", "current"))
            m = MODELS[c["model"]]
            if m["moe"]:
                c.setdefault("ep", c["tp"] * c["dp"])
                c.setdefault("moe_tp", 1)
            else:
                c.setdefault("ep", 1)
                c.setdefault("moe_tp", 1)
            out.append(c)
        return out
    g = copy.deepcopy(DEFAULT_GRID)
    g.update(grid)
    out = []
    for system, backend in itertools.product(g["systems"], g["backends"]):
        for model, precs in g["models"].items():
            m = MODELS[model]
            for prec in precs:
                p = m["precisions"][prec]
                if p.get("blackwell_only") and system not in BLACKWELL:
                    continue
                for tp, pp in itertools.product(g["tp"], g["pp"]):
                    for isl, osl, batch in itertools.product(g["isl"], g["osl"], g["batch"]):
                        out.append(
                            dict(
                                system=system,
                                backend=backend,
                                backend_version=g.get("backend_version", "current"),
                                model=model,
                                precision=prec,
                                tp=tp,
                                pp=pp,
                                dp=1,
                                ep=tp if m["moe"] else 1,
                                moe_tp=1,
                                batch=batch,
                                isl=isl,
                                osl=osl,
                            )
                        )
    return out


# --------------------------------------------------------------------------------------
# Per-case evaluation
# --------------------------------------------------------------------------------------

_CAND_CACHE: dict = {}  # config key -> (index, cand) or (None, errors)
_SINGLE_TTFT: dict = {}


def _config_key(c, version):
    return (c["system"], c["backend"], version, c["model"], c["precision"], c["tp"], c["pp"], c["ep"], c["dp"], c["moe_tp"])


def _pick_candidate(c, version):
    """First candidate of the precision preset that runs (static_gen, batch 1)."""
    key = _config_key(c, version)
    if key in _CAND_CACHE:
        return _CAND_CACHE[key]
    m = MODELS[c["model"]]
    preset = m["precisions"][c["precision"]]
    errs = []
    for i, cand in enumerate(preset["cands"]):
        try:
            for mode in ("static_gen", "static_ctx"):
                _estimate(
                    mode,
                    system=c["system"],
                    backend=c["backend"],
                    version=version,
                    cand=cand,
                    tp=c["tp"],
                    pp=c["pp"],
                    ep=c["ep"],
                    dp=c["dp"],
                    moe_tp=c["moe_tp"],
                    batch=1,
                    isl=min(c["isl"], 1024),
                    osl=min(c["osl"], 64),
                    is_moe=m["moe"],
                )
            _CAND_CACHE[key] = (i, cand)
            return _CAND_CACHE[key]
        except Exception as exc:  # noqa: BLE001
            e = _short_err(exc)
            if e not in errs:
                errs.append(e)
    _CAND_CACHE[key] = (None, errs)
    return _CAND_CACHE[key]


def _num(x, nd=4):
    if x is None:
        return None
    try:
        if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
            return None
        return round(float(x), nd)
    except Exception:
        return None


def run_case(c: dict, with_agg: bool = True) -> dict:
    t0 = time.perf_counter()
    m = MODELS[c["model"]]
    preset = m["precisions"][c["precision"]]
    rec = {
        "system": c["system"],
        "backend": c["backend"],
        "backend_version": None,
        "model": c["model"],
        "model_path": None,
        "weight_precision": c["precision"],
        "kv_precision": preset["kv"],
        "tp": c["tp"],
        "pp": c["pp"],
        "ep": c["ep"] if m["moe"] else None,
        "dp": c["dp"],
        "num_gpus": c["tp"] * c["pp"] * c["dp"],
        "batch": c["batch"],
        "isl": c["isl"],
        "osl": c["osl"],
        "database_mode": "SILICON",
        "tpot_ms": None,
        "tokens_per_sec_per_user": None,
        "ttft_ms": None,
        "ttft_single_ms": None,
        "total_tokens_per_sec": None,
        "memory_gb_per_gpu": None,
        "memory_gib_per_gpu": None,
        "error": None,
    }
    try:
        version = resolve_version(c["system"], c["backend"], c.get("backend_version", "current"))
    except Exception as exc:  # noqa: BLE001
        rec["error"] = "no database: " + _short_err(exc)
        return rec
    rec["backend_version"] = version
    if version is None:
        rec["error"] = f"no perf database for system={c['system']} backend={c['backend']}"
        return rec

    idx, cand = _pick_candidate(c, version)
    if idx is None:
        rec["error"] = "unsupported: " + " | ".join(cand)[:800]
        rec["elapsed_ms"] = round((time.perf_counter() - t0) * 1000, 2)
        return rec
    rec["model_path"] = cand["model_path"]
    rec["candidate_index"] = idx
    common = dict(
        system=c["system"],
        backend=c["backend"],
        version=version,
        cand=cand,
        tp=c["tp"],
        pp=c["pp"],
        ep=c["ep"],
        dp=c["dp"],
        moe_tp=c["moe_tp"],
        isl=c["isl"],
        osl=c["osl"],
        is_moe=m["moe"],
    )
    errors = []
    # ---- decode phase (TPOT, memory) ----
    try:
        g = _estimate("static_gen", batch=c["batch"], **common)
        s = g.summary
        raw = g.raw
        rec["gemm_quant"], rec["moe_quant"] = raw.get("gemm"), raw.get("moe")
        rec["kv_quant"], rec["fmha_quant"] = raw.get("kvcache"), raw.get("fmha")
        rec["comm_quant"] = raw.get("comm")
        rec["parallel"] = raw.get("parallel")
        mem = s.get_memory() or {}
        mem_gib = float(mem.get("total", raw.get("memory", 0.0)))
        rec["memory_gib_per_gpu"] = _num(mem_gib, 3)
        rec["memory_gb_per_gpu"] = _num(mem_gib * GIB / 1e9, 3)
        rec["memory_breakdown_gib"] = {k: _num(v, 3) for k, v in mem.items()}
        rec["gpu_capacity_gib"] = _num((s._mem_capacity_bytes or 0) / GIB, 2)
        rec["max_batch_kv"] = _max_batch_kv(s)
        rec["silicon_share_decode"], rec["source_share_decode"] = _source_share(s, "gen")
        oom = bool(s.check_oom())
        kv_oom = bool(s.check_kv_cache_oom())
        rec["fits_memory"] = not oom and not kv_oom
        if oom:
            errors.append(
                f"OOM: decode-phase memory {mem_gib:.1f} GiB/GPU exceeds capacity {rec['gpu_capacity_gib']} GiB"
            )
        elif kv_oom:
            errors.append(
                f"KV budget exceeded: batch {c['batch']} > KV-bound max batch {rec['max_batch_kv']} "
                "under the backend's default free_gpu_memory_fraction"
            )
        else:
            tpot = float(g.tpot)
            rec["tpot_ms"] = _num(tpot)
            rec["tokens_per_sec_per_user"] = _num(1000.0 / tpot, 3) if tpot > 0 else None
            # decode throughput of one replica (tp*pp*dp GPUs), all batch slots generating.
            # batch is per attention-DP rank (as in aiconfigurator); with pp>1 aiconfigurator
            # assumes pp batches in flight (its static seq/s is multiplied by pp), so do we.
            rec["total_tokens_per_sec"] = (
                _num(c["batch"] * c["dp"] * c["pp"] * 1000.0 / tpot, 2) if tpot > 0 else None
            )
    except Exception as exc:  # noqa: BLE001
        errors.append("decode: " + _short_err(exc))

    # ---- prefill phase (TTFT) ----
    if not errors:
        try:
            p = _estimate("static_ctx", batch=c["batch"], **common)
            rec["ttft_ms"] = _num(p.ttft, 3)
            ps = p.summary
            rec["prefill_memory_gib_per_gpu"] = _num((ps.get_memory() or {}).get("total"), 3)
            rec["prefill_batch_oom"] = bool(ps.check_oom())
            rec["silicon_share_prefill"], rec["source_share_prefill"] = _source_share(ps, "ctx")
            skey = (_config_key(c, version), c["isl"])
            if skey not in _SINGLE_TTFT:
                _SINGLE_TTFT[skey] = float(_estimate("static_ctx", batch=1, **common).ttft)
            rec["ttft_single_ms"] = _num(_SINGLE_TTFT[skey], 3)
        except Exception as exc:  # noqa: BLE001
            errors.append("prefill: " + _short_err(exc))

    # ---- aggregated IFB (what `aiconfigurator cli estimate` prints by default) ----
    if with_agg:
        agg = {"error": None}
        try:
            a = _estimate("agg", batch=c["batch"], **common)
            r = a.raw
            agg.update(
                tpot_ms=_num(a.tpot),
                tokens_per_sec_per_user=_num(r.get("tokens/s/user"), 3),
                ttft_ms=_num(a.ttft, 3),
                total_tokens_per_sec=_num(r.get("tokens/s"), 2),
                tokens_per_sec_per_gpu=_num(r.get("tokens/s/gpu"), 2),
                concurrency=_num(r.get("concurrency"), 2),
                request_latency_ms=_num(r.get("request_latency"), 2),
                memory_gib_per_gpu=_num(r.get("memory"), 3),
            )
            if a.kv_cache_warning:
                agg["error"] = "KV budget exceeded (agg): " + a.kv_cache_warning[:200]
        except Exception as exc:  # noqa: BLE001
            agg["error"] = _short_err(exc)
        rec["agg"] = agg

    rec["error"] = " ; ".join(errors) if errors else None
    rec["elapsed_ms"] = round((time.perf_counter() - t0) * 1000, 2)
    return rec


# --------------------------------------------------------------------------------------
# CLI timing
# --------------------------------------------------------------------------------------

CLI_TIMING_CASES = [
    {
        "name": "estimate: Llama-3.1-70B FP8, 8x H200, trtllm, bs1, isl1024/osl512 (single point)",
        "argv": ["cli", "estimate", "--model", "nvidia/Llama-3.1-70B-Instruct-FP8", "--system", "h200_sxm",
                 "--backend", "trtllm", "--tp", "8", "--bs", "1", "--isl", "1024", "--osl", "512"],
    },
    {
        "name": "estimate: DeepSeek-R1 FP8, 8x B200, trtllm, tp8/ep8, bs1, isl1024/osl512 (single point)",
        "argv": ["cli", "estimate", "--model", "deepseek-ai/DeepSeek-R1", "--system", "b200_sxm",
                 "--backend", "trtllm", "--tp", "8", "--ep", "8", "--bs", "1", "--isl", "1024", "--osl", "512"],
    },
    {
        "name": "default (sizing sweep agg+disagg): Llama-3.1-70B, 8x H200, trtllm, isl1024/osl512",
        "argv": ["cli", "default", "--model", "meta-llama/Meta-Llama-3.1-70B", "--total-gpus", "8",
                 "--system", "h200_sxm", "--backend", "trtllm", "--isl", "1024", "--osl", "512",
                 "--ttft", "2000", "--tpot", "30"],
    },
    {
        "name": "default (sizing sweep agg+disagg): DeepSeek-R1, 8x B200, trtllm, isl1024/osl512",
        "argv": ["cli", "default", "--model", "deepseek-ai/DeepSeek-R1", "--total-gpus", "8",
                 "--system", "b200_sxm", "--backend", "trtllm", "--isl", "1024", "--osl", "512",
                 "--ttft", "2000", "--tpot", "30"],
    },
]


def time_cli(repeats: int, out_path: str):
    exe = os.path.join(os.path.dirname(sys.executable), "aiconfigurator")
    results = []
    for case in CLI_TIMING_CASES:
        times, cpu, rc, tail = [], [], None, ""
        for _ in range(repeats):
            save = os.path.join(HERE, "cli_timing", "runs")
            os.makedirs(save, exist_ok=True)
            argv = [exe] + case["argv"]
            if case["argv"][1] == "default":
                argv += ["--save-dir", save]
            ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            proc = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
            times.append(time.perf_counter() - t)
            ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append((ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime))
            rc = proc.returncode
            tail = (proc.stdout or "")[-3000:]
        r = {
            "name": case["name"],
            "command": "aiconfigurator " + " ".join(case["argv"]),
            "returncode": rc,
            "wall_seconds": [round(x, 3) for x in times],
            "wall_seconds_median": round(sorted(times)[len(times) // 2], 3),
            "wall_seconds_min": round(min(times), 3),
            "cpu_seconds": [round(x, 3) for x in cpu],
            "cpu_seconds_median": round(sorted(cpu)[len(cpu) // 2], 3),
            "load_avg_1min_after": round(os.getloadavg()[0], 2),
            "stdout_tail": tail,
        }
        print(f"{r['wall_seconds_median']:8.2f} s wall, {r['cpu_seconds_median']:.2f} s CPU (wall runs: {r['wall_seconds']}, load {r['load_avg_1min_after']})  {case['name']}", flush=True)
        results.append(r)
    with open(out_path, "w") as f:
        json.dump(results, f, indent=2)
    return results


# --------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------


def _worker(args):
    cases, out_path, with_agg, wid = args
    n = 0
    t0 = time.time()
    with open(out_path, "w") as f:
        for c in cases:
            try:
                rec = run_case(c, with_agg=with_agg)
            except Exception as exc:  # noqa: BLE001
                rec = {**c, "error": "harness: " + _short_err(exc), "trace": traceback.format_exc()[-800:]}
            f.write(json.dumps(rec) + "\n")
            n += 1
            if n % 500 == 0:
                f.flush()
                print(f"[worker {wid}] {n}/{len(cases)} cases, {time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    return n


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--grid", help="grid JSON file (cross-product keys like the default, or {'cases': [...]})")
    ap.add_argument("--out", default=os.path.join(HERE, "grid.jsonl"))
    ap.add_argument("--workers", type=int, default=1, help="processes (split by system)")
    ap.add_argument("--no-agg", action="store_true", help="skip the agg (IFB) estimate")
    ap.add_argument("--limit", type=int, default=0, help="only the first N cases (smoke test)")
    ap.add_argument("--print-default-grid", action="store_true")
    ap.add_argument("--list-models", action="store_true")
    ap.add_argument("--time-cli", action="store_true", help="time aiconfigurator CLI invocations and exit")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args(argv)

    if a.print_default_grid:
        print(json.dumps(DEFAULT_GRID, indent=2))
        return 0
    if a.list_models:
        for k, m in MODELS.items():
            print(k, "moe" if m["moe"] else "dense", {p: sorted({c["model_path"] for c in v["cands"]}) for p, v in m["precisions"].items()})
        return 0
    if a.time_cli:
        time_cli(a.repeats, os.path.join(HERE, "cli_timing.json"))
        return 0

    grid = {}
    if a.grid:
        with open(a.grid) as f:
            grid = json.load(f)
    cases = expand_grid(grid)
    if a.limit:
        cases = cases[: a.limit]
    print(f"{len(cases)} cases -> {a.out}", file=sys.stderr, flush=True)
    t0 = time.time()
    if a.workers <= 1:
        _worker((cases, a.out, not a.no_agg, 0))
    else:
        import multiprocessing as mp

        systems = sorted({c["system"] for c in cases}, key=lambda s: -sum(1 for c in cases if c["system"] == s))
        buckets = [[] for _ in range(a.workers)]
        load = [0] * a.workers
        for s in systems:
            i = load.index(min(load))
            sc = [c for c in cases if c["system"] == s]
            buckets[i].extend(sc)
            load[i] += len(sc)
        parts = [f"{a.out}.part{i}" for i in range(a.workers)]
        with mp.get_context("spawn").Pool(a.workers) as pool:
            pool.map(_worker, [(b, p, not a.no_agg, i) for i, (b, p) in enumerate(zip(buckets, parts))])
        with open(a.out, "w") as out:
            for p in parts:
                with open(p) as f:
                    out.write(f.read())
                os.remove(p)
    dt = time.time() - t0
    n_ok = n_err = 0
    with open(a.out) as f:
        for line in f:
            r = json.loads(line)
            if r.get("error"):
                n_err += 1
            else:
                n_ok += 1
    print(f"done: {n_ok} ok, {n_err} with error, {dt:.1f}s wall ({dt / max(1, len(cases)) * 1000:.1f} ms/case)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
