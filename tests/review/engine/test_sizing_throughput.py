"""Throughput: the field guide's bandwidth bound and the calibrated roofline behind it."""

from __future__ import annotations

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.model_resolve import ModelFacts, model_resolve
from apps.review.engine.schemas import Precision
from apps.review.engine.sizing.gpu_rates import compute_tflops
from apps.review.engine.sizing.serving_load import ServingLoad, serving_load
from apps.review.engine.sizing.step_time import decode_bound_tokens_per_sec, users_at_speed
from apps.review.engine.sizing.throughput import fleet_serving, replica_plan
from apps.review.engine.sizing.vehicle import Vehicle, vehicles_from
from tests.review.engine.engine_kit import quoted_system


def _model(catalog: CatalogSnapshot, name: str) -> ModelFacts:
    model = model_resolve(name, catalog)
    assert model is not None
    return model


def _vehicle(catalog: CatalogSnapshot, sku: str, quantity: int = 1) -> Vehicle:
    return vehicles_from([quoted_system(catalog, sku, quantity)], catalog)[0]


def _load(
    catalog: CatalogSnapshot,
    name: str = "Qwen3-32B",
    precision: Precision = Precision.FP8,
    *,
    users: int = 1,
    speed: float = 4,
    context: int = 8192,
) -> ServingLoad:
    return serving_load(
        _model(catalog, name),
        precision=precision,
        context_tokens=context,
        users=users,
        tokens_per_sec_per_user=speed,
    )


def test_spark_bound_is_about_eight_tokens_per_second() -> None:
    # Qwen3-32B at 8 bits: 273 GB/s ÷ 32.8 GB = 8.32 tokens/s ("approximately eight")
    assert decode_bound_tokens_per_sec(273, 32.8) == pytest.approx(8.323, abs=0.001)
    # at BF16 the weights double: 273 ÷ 65.6 = 4.16 tokens/s
    assert decode_bound_tokens_per_sec(273, 65.6) == pytest.approx(4.162, abs=0.001)


def test_serving_load_in_bytes_and_flops(catalog: CatalogSnapshot) -> None:
    load = _load(catalog)
    assert load.weights_gb == pytest.approx(32.8)  # 32.8 B × 1 byte
    # FP8 weights keep an FP8 KV cache (was 16-bit: 2.147 GB): 2 × 64 × 8 × 128 × 1 B × 8,192
    assert load.kv_full_gb == pytest.approx(1.073741824)  # 8,192 tokens reserved
    assert load.kv_mean_gb == pytest.approx(0.536870912)  # read half-way: 4,096 tokens
    assert load.tflop_per_token == pytest.approx(0.0656)  # 2 × 32.8 B = 65.6 GFLOP
    # a step reads all but the embedding table (one row of it): 32.8 − 151,936 × 5,120 ×
    # (32.8 ÷ 32.76) = 32.8 − 0.779 = 32.02 GB
    assert load.dense_read_gb == pytest.approx(32.021, abs=0.001)


def test_spark_replica_for_qwen3_32b_fp8(catalog: CatalogSnapshot) -> None:
    load = _load(catalog, speed=4)
    plan = replica_plan(_vehicle(catalog, "dgx-spark"), load)
    assert (plan.gpus_per_replica, plan.replicas, plan.link) == (1, 1, "one GPU")
    # usable bandwidth 273 GB/s × 0.70 (measured Spark decode: 60-87 % of the bound) = 191.1
    assert plan.effective_bandwidth_gbs == pytest.approx(191.1)
    # KV room (FP8 KV): 128 GB LPDDR5X (not HBM: taken as listed) − 10 % engine reserve
    # 12.8 − 1.0 CUDA context − 8,192 × 5,120 × 2 B × 16 = 1.342 activations = 112.86 GB;
    # (112.86 − 32.8) ÷ 1.074 GB = 74.6 → 74 conversations
    assert plan.kv_slots == 74
    # the step floor: 1.0 µs + 64 layers × 52.79 µs (calibrated) = 3.380 ms
    assert plan.overhead_seconds == pytest.approx(0.00337956, abs=1e-6)
    # one conversation: (32.02 + 0.537) GB ÷ 191.1 GB/s + 3.380 ms = 0.17375 s → 5.755 tok/s
    assert plan.tokens_per_sec_per_user(1, load) == pytest.approx(5.755, abs=0.001)
    # at 4 tok/s a step may take 0.25 s: ((0.25 − 0.00338) × 191.1 − 32.02) ÷ 0.537 = 28.1
    assert plan.users_at_speed == 28


def test_spark_serves_nobody_at_ten_tokens_per_second(catalog: CatalogSnapshot) -> None:
    # 0.1 s × 191.1 GB/s = 19.1 GB per step, less than the 32.8 GB of weights alone
    load = _load(catalog, users=100, speed=10)
    serving = fleet_serving([_vehicle(catalog, "dgx-spark")], load)
    assert serving.max_concurrent_users == 0
    assert serving.served_users == 0
    assert serving.decode_bound == pytest.approx(8.323, abs=0.001)


@pytest.mark.parametrize(("speed", "users"), [(4.0, 29), (4.2, 25), (5.86, 1), (5.87, 0)])
def test_users_at_speed_falls_as_speed_rises(
    catalog: CatalogSnapshot, speed: float, users: int
) -> None:
    # A step may read 191.1 GB/s ÷ speed; the weights read take 32.02 GB, each user 0.537 GB
    # more (FP8 KV): 4.0 → (47.78 − 32.02) ÷ 0.537 = 29.3 → 29; 4.2 → (45.50 − 32.02) ÷ 0.537
    # = 25.1 → 25; one user needs 32.56 GB per step, so 191.1 ÷ 32.56 = 5.869 tok/s is the
    # edge: 5.86 → 1, 5.87 → 0 (no step floor passed here).
    load = _load(catalog, speed=speed)
    assert users_at_speed(load, slots=38, bandwidth_gbs=191.1, tflops=125.0) == users


def test_kv_memory_caps_users_at_speed(catalog: CatalogSnapshot) -> None:
    # at 1 tok/s bandwidth would allow (191.1 − 32.8) ÷ 1.074 = 147, but only 38 fit in memory
    load = _load(catalog, speed=1)
    assert users_at_speed(load, slots=38, bandwidth_gbs=191.1, tflops=125.0) == 38


def test_compute_bound_caps_users(catalog: CatalogSnapshot) -> None:
    load = _load(catalog, speed=1)
    # memory would allow (1 s × 191.1 − 32.8) ÷ 1.074 = 147; 1 TFLOPS ÷ 0.0656 TFLOP = 15.2 → 15
    assert users_at_speed(load, slots=1000, bandwidth_gbs=191.1, tflops=1.0) == 15


def test_b300_runs_one_copy_per_gpu(catalog: CatalogSnapshot) -> None:
    load = _load(catalog, users=100, speed=15)
    serving = fleet_serving([_vehicle(catalog, "dgx-b300")], load)
    assert serving.primary is not None
    plan = serving.primary[1]
    assert (plan.gpus_per_replica, plan.replicas) == (1, 8)
    # KV room per B300 (FP8 KV): 288 GiB = 309.24 GB × 0.9 − 1.0 CUDA context − 1.342
    # activations = 275.97 GB; (275.97 − 32.8) ÷ 1.074 = 226.5 → 226; × 8 replicas = 1,808
    # users (was 840 with a 16-bit cache in decimal GB); TP 2 would hold
    # 4 × ⌊(2 × 275.97 − 32.8) ÷ 1.074⌋ = 4 × 483 = 1,932, not 25 % more
    assert plan.kv_slots == 226
    assert serving.max_concurrent_users == 1808
    # bound for one replica: 8,000 GB/s ÷ 32.8 GB = 243.9 tokens/s
    assert serving.decode_bound == pytest.approx(243.9, abs=0.1)
    # 100 users over 8 copies = 13 per copy; 13 ≥ 8 so the calibration holds: medium
    assert serving.batch_at_load == 13
    assert serving.confidence == "medium"


def test_datacenter_gpu_at_batch_one_is_low_confidence(catalog: CatalogSnapshot) -> None:
    serving = fleet_serving([_vehicle(catalog, "dgx-b300")], _load(catalog, users=1, speed=15))
    assert serving.confidence == "low"
    assert "small batch" in serving.confidence_reason


def test_moe_bound_reads_active_parameters_only(catalog: CatalogSnapshot) -> None:
    load = _load(catalog, "Qwen3-235B-A22B", users=100, speed=20)
    # 235 GB resident, 22 GB read per token
    assert (load.weights_gb, load.active_weights_gb) == (235.0, 22.0)
    serving = fleet_serving([_vehicle(catalog, "dgx-b200")], load)
    assert serving.primary is not None
    plan = serving.primary[1]
    # the KV cache limits users, and one copy over 8 GPUs holds 8 × (180 GiB = 193.27 GB × 0.9
    # − 1.0 − 8,192 × 4,096 × 2 B × 16 = 1.074 activations) = 1,374.98 GB:
    # (1,374.98 − 235) ÷ 0.789 = 1,445
    # at 20 tok/s against 4 × 112 = 448 for four 2-GPU copies (was: the first size covering
    # the 100 asked users, 2 GPUs; capacity no longer depends on the asked count)
    assert (plan.gpus_per_replica, plan.replicas, plan.link) == (8, 1, "NVLink")
    assert serving.max_concurrent_users == 1445
    # bound: 8 × 7,700 GB/s ÷ 22 GB = 2,800 tokens/s
    assert plan.decode_bound == pytest.approx(2800.0)
    assert serving.confidence == "low"
    assert "experts" in serving.confidence_reason


def test_moe_step_reads_more_experts_as_the_batch_grows(catalog: CatalogSnapshot) -> None:
    load = _load(catalog, "Qwen3-235B-A22B", users=100, speed=20)
    plan = replica_plan(_vehicle(catalog, "dgx-b200"), load)
    one, many = plan.step_seconds(1, load), plan.step_seconds(32, load)
    # usable bandwidth 8 × 7,700 × 0.8039 = 49,520 GB/s; a step reads the dense part (7.37 GB:
    # attention, router, head) and of the 227.0 GB of routed experts the share the batch
    # touches, 1 − (1 − 8/128)^batch, at the calibrated expert efficiency 1.0, plus KV
    # (FP8: 0.394 GB per conversation); the floor is 1.0 µs + 94 layers × (52.79 + 4.3 NVLink ×
    # log2(8) = 12.9 + 11.0 MoE) µs = 7.30 ms
    floor = (1.0 + 94 * (52.79 + 4.3 * 3 + 11.0)) / 1e6
    assert plan.overhead_seconds == pytest.approx(floor, rel=1e-6)
    dense, experts, kv = load.dense_read_gb, 227.00712912, 0.394264576
    assert one == pytest.approx((dense + experts * 0.0625 / 1.0 + kv) / 49520.24 + floor)
    touched = 1 - (1 - 0.0625) ** 32  # 87.3 % of the experts
    assert many == pytest.approx(
        (dense + experts * touched / 1.0 + 32 * kv) / 49520.24 + floor, rel=1e-6
    )


def test_a_model_bigger_than_one_card_is_split_over_pcie(catalog: CatalogSnapshot) -> None:
    load = _load(catalog, "Llama-3.1-70B", Precision.BF16, users=10, speed=10)
    plan = replica_plan(_vehicle(catalog, "rtx-pro-server-8x"), load)
    # 141.1 GB + 2.68 GB ÷ (96 GB GDDR7 × 0.9 − 1.0 − 2.15 activations = 83.25) = 1.73 → at
    # least 2 cards, joined only by PCIe; all 8 in one copy hold (666.0 − 141.1) ÷ 2.68 = 195
    # users at 10 tok/s against 4 × 11 = 44
    assert (plan.gpus_per_replica, plan.replicas, plan.link) == (8, 1, "PCIe")
    # 8 × 1,792 GB/s × 0.8039 (calibrated datacenter) × 0.70 (PCIe split) = 8,067.30 GB/s
    assert plan.effective_bandwidth_gbs == pytest.approx(8067.30, abs=0.01)


def test_a_model_bigger_than_the_vehicle_does_not_fit(catalog: CatalogSnapshot) -> None:
    load = _load(catalog, "Llama-3.1-405B", Precision.BF16)
    serving = fleet_serving([_vehicle(catalog, "dgx-spark")], load)
    assert serving.primary is not None
    assert not serving.primary[1].fits
    assert serving.max_concurrent_users == 0
    assert serving.tokens_per_sec_per_user == 0.0


def test_two_vehicle_lines_add_up(catalog: CatalogSnapshot) -> None:
    load = _load(catalog, users=30, speed=4)
    # a Spark serves 13 at 4 tok/s; a DGX Station many more: the fleet is the sum
    spark = fleet_serving([_vehicle(catalog, "dgx-spark")], load).max_concurrent_users
    station = fleet_serving([_vehicle(catalog, "dgx-station-gb300")], load).max_concurrent_users
    both = fleet_serving(
        [_vehicle(catalog, "dgx-spark"), _vehicle(catalog, "dgx-station-gb300")], load
    )
    assert both.max_concurrent_users == spark + station


def test_rates_fall_back_when_the_catalog_lacks_one(catalog: CatalogSnapshot) -> None:
    # GB10 lists only FP4 (~500): FP8 is taken as half, BF16 as a quarter
    assert compute_tflops(catalog.gpu("gb10"), Precision.FP8) == (250.0, "fp4_tflops")
    assert compute_tflops(catalog.gpu("gb10"), Precision.BF16) == (125.0, "fp4_tflops")
    # Hopper has no FP4: 4-bit weights run at the FP8 rate
    assert compute_tflops(catalog.gpu("h100-sxm"), Precision.FP4) == (1979.0, "fp8_tflops")
    assert compute_tflops(catalog.gpu("h200-sxm"), Precision.FP64) == (
        67.0,
        "fp64_tensor_tflops",
    )


@pytest.mark.parametrize(
    ("model", "precision", "measured"),
    [
        ("Qwen3-8B", Precision.BF16, 13.1),  # vLLM, measured.md
        ("Qwen3-30B-A3B", Precision.FP8, 60.92),  # llama.cpp Q8_0, depth 0
        ("Llama-3.3-70B", Precision.FP4, 4.1),  # vLLM NVFP4, 4.0-4.2
    ],
)
def test_single_stream_estimate_is_calibrated_on_measured_spark_decode(
    catalog: CatalogSnapshot, model: str, precision: Precision, measured: float
) -> None:
    # Short context (256 tokens) as in the benchmarks; the estimate stays within 35 % of each
    # measurement: Qwen3-8B 191.1 ÷ 16.4 = 11.7 (−11 %), Qwen3-30B-A3B 191.1 ÷ 3.3 = 57.7
    # (−5 %), Llama-3.3-70B NVFP4 191.1 ÷ 35.3 = 5.4 (+32 %: FP4 serving stacks run lower).
    load = _load(catalog, model, precision, context=256)
    plan = replica_plan(_vehicle(catalog, "dgx-spark"), load)
    estimate = plan.tokens_per_sec_per_user(1, load)
    assert abs(estimate - measured) / measured < 0.35
