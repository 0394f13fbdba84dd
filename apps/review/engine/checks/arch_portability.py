"""arch_portability: what carries over from the vehicle on the quote to the production target.

"Spark uses an Arm-based CPU, so moving workloads from Spark to an x86-based server may require
rebuilding containers, validating architecture-specific dependencies, and tuning performance."
Applies when the quote has an Arm system; always info: it is engineering effort, not a mistake.

A machine that is not CUDA at all (Apple silicon, AMD's Strix Halo, a Copilot+ PC's NPU, a
phone) shares less still with the DGX family: the CUDA containers, the DGX software stack and
NVLink stay behind. A phone runs models on-device only; it serves nobody else.

A data-center GPU that is not CUDA (AMD Instinct: ROCm) is a warning, not a note: the quote
only works if every piece of the customer's software runs on that stack, and what does not
(CUDA-only code, TensorRT-LLM) is found out after the servers arrive.
"""

from __future__ import annotations

from collections.abc import Iterable

from apps.review.engine.checks._common import finding_make
from apps.review.engine.checks.context import ReviewContext
from apps.review.engine.schemas import Finding
from apps.review.engine.sizing.vehicle import Vehicle
from apps.words import and_list

CHECK = "arch_portability"
#: What a non-CUDA engine runs instead, by vendor.
STACKS = {
    "Apple": "Metal, MLX or llama.cpp",
    "AMD": "ROCm, Vulkan or DirectML",
    "Qualcomm": "the NPU through ONNX Runtime or Qualcomm's AI stack",
}
#: What a non-CUDA data-center GPU runs, by vendor, and which of a CUDA shop's software runs
#: on it and which does not.
SERVER_STACKS = {
    "AMD": ("ROCm", "vLLM, SGLang and PyTorch", "CUDA-only code and TensorRT-LLM"),
    "Intel": (
        "the Intel Gaudi software stack",
        "PyTorch (through its Gaudi bridge), vLLM's Gaudi plugin and Optimum for Intel Gaudi",
        "CUDA-only code and TensorRT-LLM",
    ),
}
#: The vehicles that serve a data center: their engine's stack is the production stack.
SERVER_FORM_FACTORS = frozenset({"pcie_server", "nvl8_server", "rack_nvl72"})


def check(ctx: ReviewContext) -> list[Finding]:
    not_cuda = _distinct(v for v in ctx.vehicles if not v.is_cuda)
    servers = [v for v in not_cuda if v.system.form_factor in SERVER_FORM_FACTORS]
    findings = [_not_cuda(v) for v in not_cuda if v not in servers]
    findings += [_not_cuda_server(group) for group in _by_engine(servers)]
    arm = [v.name for v in ctx.vehicles if v.system.cpu_arch == "arm" and v.is_cuda]
    if not arm:
        return findings
    x86 = [v.name for v in ctx.vehicles if v.system.cpu_arch == "x86"]
    names = ", ".join(dict.fromkeys(arm))
    detail = (
        f"{names} runs an Arm CPU: containers built on it are arm64. Moving the workload to an "
        "x86 server may require rebuilding containers, validating architecture-specific "
        "dependencies and tuning. The CUDA ecosystem is the commonality; production deployment "
        "still takes real engineering."
    )
    if x86:
        detail += f" This quote mixes it with x86 ({', '.join(dict.fromkeys(x86))})."
    findings.append(
        finding_make(
            CHECK,
            "info",
            "Arm here, x86 elsewhere: rebuild the containers",
            detail,
            metrics={"arm_systems": arm, "x86_systems": x86},
            lever="Build multi-arch images (arm64 and amd64) in CI and test on the production "
            "architecture.",
        )
    )
    return findings


def _distinct(vehicles: Iterable[Vehicle]) -> list[Vehicle]:
    seen: dict[str, Vehicle] = {}
    for vehicle in vehicles:
        seen.setdefault(vehicle.system.sku, vehicle)
    return list(seen.values())


def _by_engine(vehicles: list[Vehicle]) -> list[list[Vehicle]]:
    """Servers grouped by their GPU: a Dell and a Supermicro box of Gaudi 3 are one story."""
    groups: dict[str, list[Vehicle]] = {}
    for vehicle in vehicles:
        assert vehicle.gpu is not None
        groups.setdefault(vehicle.gpu.key, []).append(vehicle)
    return list(groups.values())


def _not_cuda(vehicle: Vehicle) -> Finding:
    """A non-CUDA vehicle: what does not carry over to the DGX family, and what it runs."""
    gpu = vehicle.gpu
    assert gpu is not None
    stack = STACKS.get(gpu.vendor, "its vendor's own runtime")
    metrics = {"system": vehicle.system.sku, "engine": gpu.model, "vendor": gpu.vendor}
    if vehicle.system.form_factor == "phone":
        return finding_make(
            CHECK,
            "info",
            "On-device only: a phone is not a server",
            f"The {vehicle.name} runs small models on its own chip ({gpu.model}): photos, "
            "dictation, summaries, one rider. It serves nobody else, and none of it is CUDA: the "
            "containers, the DGX software stack and NVLink have nothing to run on. The tokens "
            "its apps use mostly come from someone else's AI factory.",
            metrics=metrics,
            lever="Size the service the phones call, not the phones.",
        )
    return finding_make(
        CHECK,
        "info",
        "Not CUDA: the containers and the DGX stack do not carry over",
        f"The {vehicle.name} runs the {gpu.model} with "
        f"{vehicle.gpu_memory_gb:g} GB of unified memory, not an NVIDIA GPU. CUDA containers, the "
        "DGX software stack (DGX OS, NVIDIA AI Enterprise, NIM) and NVLink do not carry over: "
        f"the work runs on {stack}, and what is built here is rebuilt and re-validated before it "
        "moves to a CUDA server or rack. A DGX Spark is the desk machine that shares the racks' "
        "stack.",
        metrics=metrics | {"unified_memory_gb": vehicle.gpu_memory_gb},
        lever="Prototype where production runs (a DGX Spark or an RTX PRO workstation) when the "
        "target is CUDA; keep the Mac for the work that stays on it.",
    )


def _not_cuda_server(vehicles: list[Vehicle]) -> Finding:
    """Data-center GPUs that run another stack (8 × MI300X: ROCm): the customer's software
    has to run on it, in plain words, with what does and what does not. One finding per GPU,
    naming every system on the quote that carries it."""
    vehicle = vehicles[0]
    gpu = vehicle.gpu
    assert gpu is not None
    stack, runs, does_not = SERVER_STACKS.get(
        gpu.vendor,
        ("its vendor's own runtime", "PyTorch builds from its vendor", "CUDA-only code"),
    )
    carriers = and_list(f"the {v.name} carries {v.gpus_per_system} × {gpu.model}" for v in vehicles)
    metrics: dict[str, object] = {
        "system": vehicle.system.sku,
        "engine": gpu.model,
        "vendor": gpu.vendor,
        "stack": stack,
    }
    if len(vehicles) > 1:
        metrics["systems"] = [v.system.sku for v in vehicles]
    return finding_make(
        CHECK,
        "warning",
        f"Not CUDA: the software has to run on {stack}",
        f"{carriers[:1].upper()}{carriers[1:]}, {gpu.vendor} GPUs that run {stack}, not "
        f"CUDA. {runs} run on {stack}; {does_not} do not, and "
        "NVIDIA's software stack (NVIDIA AI Enterprise, NIM, "
        f"the CUDA containers) does not carry over. Every piece of the customer's software has "
        f"to run on {stack} before these servers are any use.",
        metrics=metrics,
        lever=f"List the customer's serving engine, frameworks and any custom CUDA kernels, and "
        f"confirm each runs on {stack} ({runs} do) before anyone signs; if something only runs "
        "on CUDA, quote NVIDIA GPUs instead.",
    )
