"""The peer: one sizing case in our engine and in NVIDIA aiconfigurator's CLI, as a ratio.

The case: Qwen3-32B in BF16 on two H200 SXM GPUs of a DGX H200 (tensor parallel 2), batch 16,
2,000 prompt tokens and 500 generated; "how fast does each user get tokens?".

- ours: `model_resolve` + `serving_load` + `replica_evaluate` (the speed model the review and
  the recommendation share) + the step time at batch 16, in this process; median of many calls.
- theirs: `aiconfigurator cli estimate` (0.12, agg mode, its measured-kernel database) in its own
  venv `.venv-aic` (`make calibrate-grid` builds it; aiconfigurator is never a dependency of
  Rightsize), one run, wall clock and CPU of the child: what a person typing the command waits.

`ratio` = their wall clock ÷ ours. Both answers (tokens/s per user) are printed beside it as a
sanity check, not as a goal: the calibration (`make calibrate`) owns the agreement. Without
`.venv-aic` the piece is skipped with the reason (SKIP, never FAIL).

    python -m bench.peer        # prints BENCH-RESULT {...}
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import time
from typing import Any

from bench.common import ROOT, result_emit

AIC = ROOT / ".venv-aic" / "bin" / "aiconfigurator"
CASE = {"model": "Qwen3-32B", "sku": "dgx-h200", "tp": 2, "batch": 16, "isl": 2000, "osl": 500}
AIC_ARGS = [
    "cli",
    "estimate",
    "--model-path",
    "Qwen/Qwen3-32B",
    "--system",
    "h200_sxm",
    "--backend",
    "trtllm",
    "--estimate-mode",
    "agg",
    "--isl",
    str(CASE["isl"]),
    "--osl",
    str(CASE["osl"]),
    "--batch-size",
    str(CASE["batch"]),
    "--tp-size",
    str(CASE["tp"]),
]
RUNS = 200


def ours() -> dict[str, Any]:
    from apps.catalog.snapshot import snapshot_from_fixture
    from apps.quotes.assembly import quoted_system_from_spec
    from apps.review.engine.model_resolve import model_resolve
    from apps.review.engine.schemas import Precision
    from apps.review.engine.sizing.serving_load import serving_load
    from apps.review.engine.sizing.throughput import replica_evaluate
    from apps.review.engine.sizing.vehicle import vehicles_from

    catalog = snapshot_from_fixture()
    spec = catalog.system(str(CASE["sku"]))
    system = quoted_system_from_spec(spec, catalog, quantity=1, unit_price=None)
    vehicle = vehicles_from([system], catalog)[0]

    def once() -> float:
        model = model_resolve(str(CASE["model"]), catalog)
        assert model is not None
        load = serving_load(
            model,
            precision=Precision("bf16"),
            context_tokens=int(CASE["isl"]) + int(CASE["osl"]),
            users=int(CASE["batch"]),
            tokens_per_sec_per_user=10.0,
            prompt_tokens=int(CASE["isl"]),
        )
        plan = replica_evaluate(vehicle, load, int(CASE["tp"]))
        return plan.tokens_per_sec_per_user(int(CASE["batch"]), load)

    once()
    wall: list[float] = []
    answer = 0.0
    for _ in range(RUNS):
        started = time.perf_counter()
        answer = once()
        wall.append((time.perf_counter() - started) * 1000)
    return {"ours_ms": round(statistics.median(wall), 3), "ours_tokens_per_s_per_user": answer}


def theirs() -> dict[str, Any]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [str(AIC), *AIC_ARGS], capture_output=True, text=True, timeout=120, check=False
    )
    wall_ms = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = re.search(r"tokens/s/user:\s*([\d.]+)", done.stdout + done.stderr)
    if done.returncode != 0 or found is None:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or [""]
        return {"error": f"aiconfigurator exited {done.returncode}: {tail[0][:200]}"}
    cpu_ms = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
    return {
        "aiconfigurator_ms": round(wall_ms, 1),
        "aiconfigurator_cpu_ms": round(cpu_ms, 1),
        "aiconfigurator_tokens_per_s_per_user": float(found.group(1)),
    }


def peer_run() -> dict[str, Any]:
    result: dict[str, Any] = {"case": CASE, "load_average": [round(x, 2) for x in os.getloadavg()]}
    if not AIC.exists():
        return {**result, "skipped": "peer: aiconfigurator not installed (make calibrate-grid)"}
    result |= ours()
    answer = theirs()
    if "error" in answer:
        return {**result, **answer}
    result |= answer
    result["ratio"] = round(result["aiconfigurator_ms"] / result["ours_ms"], 0)
    return result


if __name__ == "__main__":
    from bench.common import django_setup

    django_setup()
    result_emit(peer_run())
