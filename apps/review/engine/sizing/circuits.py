"""Office machines packed onto branch circuits: how many circuits of the kind the facility
describes the whole quote needs.

A circuit carries volts × amps × 0.8 for a continuous load (three hours or more): 120 V × 15 A
× 0.8 = 1,440 W. A machine is never split across two circuits (one power cord, one outlet), so
the count is a bin packing: machines whole, largest first, each onto the first circuit with
room left (first-fit decreasing). Ten DGX Sparks at 240 W: 1,440 ÷ 240 = 6 per circuit, so
6 + 4 on 2 circuits; ceil(2,400 ÷ 1,440) = 2 is the floor no packing can beat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# A load this close to a circuit's limit counts as fitting: 6 × 240 W is exactly 1,440 W.
_TOLERANCE_W = 1e-6


@dataclass(frozen=True, slots=True)
class CircuitPacking:
    """Machines (their watts) on circuits of `capacity_w` continuous watts each."""

    capacity_w: float
    circuits: tuple[tuple[float, ...], ...]  # each circuit's machines, heaviest first
    too_big: tuple[float, ...]  # machines over one circuit alone: each wants a bigger circuit

    @property
    def total_w(self) -> float:
        """Every machine's draw together, the ones too big for the circuit included."""
        return sum(sum(c) for c in self.circuits) + sum(self.too_big)

    @property
    def circuits_needed(self) -> int:
        """Circuits of the described kind for the machines that fit one alone."""
        return len(self.circuits)

    @property
    def lower_bound(self) -> int:
        """ceil(packed watts ÷ capacity): no arrangement uses fewer circuits."""
        packed = sum(sum(c) for c in self.circuits)
        return math.ceil(packed / self.capacity_w - _TOLERANCE_W / self.capacity_w)

    @property
    def machines_per_circuit(self) -> tuple[int, ...]:
        return tuple(len(c) for c in self.circuits)


def circuits_pack(watts: list[float], capacity_w: float) -> CircuitPacking:
    """First-fit decreasing: 10 × 240 W on 1,440 W circuits → (6, 4); 3 × 1,000 W → three
    circuits (two never share one: 2,000 W > 1,440 W). A machine over `capacity_w` alone is
    set aside in `too_big` (the per-machine circuit verdict covers it)."""
    if capacity_w <= 0:
        raise ValueError(f"a circuit carries a positive wattage, not {capacity_w}")
    loads: list[float] = []
    circuits: list[list[float]] = []
    too_big: list[float] = []
    for machine in sorted(watts, reverse=True):
        if machine > capacity_w + _TOLERANCE_W:
            too_big.append(machine)
            continue
        for index, load in enumerate(loads):
            if load + machine <= capacity_w + _TOLERANCE_W:
                loads[index] += machine
                circuits[index].append(machine)
                break
        else:
            loads.append(machine)
            circuits.append([machine])
    return CircuitPacking(
        capacity_w=capacity_w,
        circuits=tuple(tuple(c) for c in circuits),
        too_big=tuple(too_big),
    )
