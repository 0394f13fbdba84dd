"""sizing.circuits: machines packed whole onto branch circuits, largest first."""

from __future__ import annotations

import pytest

from apps.review.engine.sizing.circuits import circuits_pack

# 120 V × 15 A × 0.8 = 1,440 W continuous
FIFTEEN_AMP_W = 1440.0


def test_ten_sparks_need_two_circuits() -> None:
    # 10 × 240 W = 2,400 W; 1,440 ÷ 240 = 6 per circuit → 6 + 4 on 2 circuits
    packing = circuits_pack([240.0] * 10, FIFTEEN_AMP_W)
    assert packing.total_w == 2400
    assert packing.machines_per_circuit == (6, 4)
    assert packing.circuits_needed == 2
    # ceil(2,400 ÷ 1,440) = ceil(1.67) = 2
    assert packing.lower_bound == 2


def test_six_sparks_fill_one_circuit_exactly() -> None:
    # 6 × 240 W = 1,440 W: exactly the continuous limit, one circuit
    packing = circuits_pack([240.0] * 6, FIFTEEN_AMP_W)
    assert packing.machines_per_circuit == (6,)


def test_machines_are_never_split_across_circuits() -> None:
    # 3 × 1,000 W = 3,000 W; ceil(3,000 ÷ 1,440) = 3 (2 would need 1,500 W each), and any two
    # together are 2,000 W > 1,440 W, so three circuits of one machine
    packing = circuits_pack([1000.0] * 3, FIFTEEN_AMP_W)
    assert packing.lower_bound == 3
    assert packing.machines_per_circuit == (1, 1, 1)


def test_packing_beats_the_order_machines_arrive_in() -> None:
    # 700 + 200 + 700 + 200 + 700 W: largest first puts 700 + 700 = 1,400 W on the first
    # circuit, 700 + 200 + 200 = 1,100 W on the second: 2 circuits. In arrival order,
    # first fit would put 700 + 200 = 900, then 700 (1,600 > 1,440) on a second, ...
    packing = circuits_pack([700.0, 200.0, 700.0, 200.0, 700.0], FIFTEEN_AMP_W)
    assert packing.circuits == ((700.0, 700.0), (700.0, 200.0, 200.0))
    assert packing.lower_bound == 2  # 2,500 W ÷ 1,440 W = 1.74 → 2


def test_six_workstations_at_1600_w_are_each_too_big_for_15_amps() -> None:
    # 1,600 W > 1,440 W: none fits a 15 A circuit; all six set aside (each wants 20 A)
    packing = circuits_pack([1600.0] * 6, FIFTEEN_AMP_W)
    assert packing.circuits_needed == 0
    assert packing.too_big == (1600.0,) * 6
    assert packing.total_w == 9600  # 6 × 1,600 W


def test_six_workstations_on_20_amp_circuits() -> None:
    # 120 V × 20 A × 0.8 = 1,920 W; two 1,600 W machines are 3,200 W > 1,920 W → 6 circuits
    packing = circuits_pack([1600.0] * 6, 1920.0)
    assert packing.circuits_needed == 6
    # ceil(9,600 ÷ 1,920) = 5: the floor, not reachable with whole machines
    assert packing.lower_bound == 5


def test_a_circuit_carries_something() -> None:
    with pytest.raises(ValueError, match="positive"):
        circuits_pack([240.0], 0)
