"""Assembly: chassis + cards + bridges become vehicles; strange kits become line problems."""

from decimal import Decimal

import pytest

from apps.quotes.assembly import AssemblyLine, systems_assemble, vehicle_for
from apps.quotes.matching import LineMatch, line_match, match_index


@pytest.fixture(scope="module")
def kit(catalog):
    index = match_index(catalog)

    def build(*rows):
        lines = [
            AssemblyLine(
                line=n,
                quantity=qty,
                unit_price=Decimal(price) if price is not None else None,
                match=line_match(pn, "", index=index),
            )
            for n, (pn, qty, price) in enumerate(rows, 1)
        ]
        return systems_assemble(lines, catalog)

    return build


CHASSIS = "SYS-521GE-TNRT"  # 10 slots, 600 W per GPU, 2.2 kW without GPUs
L40S = "900-2G133-0080-000"  # 350 W, PCIe only
H200_NVL = "900-21010-0020-000"  # 600 W, NVLink bridges up to 4-way
BRIDGE_4 = "NVLINK-BRIDGE-4WAY"


def test_two_chassis_with_eight_l40s_are_two_vans_of_four(kit):
    result = kit((CHASSIS, 2, "28000"), (L40S, 8, "9500"))
    (van,) = result.systems
    assert (van.quantity, van.gpus_per_system, van.gpu, van.gpu_key) == (2, 4, "L40S", "l40s")
    assert van.nvlink_domain_gpus == 1  # the L40S has no NVLink: every GPU is its own domain
    # 2.2 kW chassis + 4 × 350 W = 3.6 kW per van.
    assert van.power_kw == pytest.approx(3.6)
    assert van.vehicle == "work van"
    # 28,000 + 4 × 9,500 = 66,000 per van; two vans = 132,000, the quote's total.
    assert van.unit_price == Decimal("66000")
    assert van.lines == [1, 2]
    assert result.problems == []


def test_eight_h200_nvl_with_two_4_way_bridges_is_domain_4(kit):
    result = kit((CHASSIS, 1, "28000"), (H200_NVL, 8, "30000"), (BRIDGE_4, 2, "500"))
    (van,) = result.systems
    assert (van.gpus_per_system, van.nvlink_domain_gpus) == (8, 4)
    # 2.2 kW + 8 × 600 W = 7.0 kW; 8 × 600 W is 4.8 kW of GPUs before the rest of the server.
    assert van.power_kw == pytest.approx(7.0)
    # 28,000 + 8 × 30,000 + 2 × 500 = 269,000.
    assert van.unit_price == Decimal("269000")
    assert van.lines == [1, 2, 3]
    assert result.problems == []


def test_one_bridge_for_eight_cards_bridges_only_four(kit):
    result = kit((CHASSIS, 1, None), (H200_NVL, 8, None), (BRIDGE_4, 1, None))
    assert result.systems[0].nvlink_domain_gpus == 4
    (finding,) = result.problems
    assert finding.severity == "info"
    assert "Only 4 of 8 GPUs bridged" in finding.title


def test_bridges_for_pcie_only_cards_are_a_warning(kit):
    result = kit((CHASSIS, 1, None), (L40S, 4, None), (BRIDGE_4, 1, None))
    assert result.systems[0].nvlink_domain_gpus == 1
    assert [f.severity for f in result.problems] == ["warning"]
    assert "nothing to bridge" in result.problems[0].title


def test_gpus_without_a_chassis_are_a_warning_not_a_crash(kit):
    result = kit((L40S, 8, "9500"))
    assert result.systems == []
    (finding,) = result.problems
    assert finding.severity == "warning"
    assert finding.metrics == {"lines": [1], "gpus": 8}


def test_cards_next_to_a_whole_system_have_no_chassis(kit):
    result = kit(("DGXB-G1440+P2CMI36", 1, None), (L40S, 2, None))
    assert [s.sku for s in result.systems] == ["dgx-b200"]
    assert "no chassis" in result.problems[0].title


def test_more_cards_than_slots_is_critical_and_capped(kit):
    result = kit((CHASSIS, 1, None), (H200_NVL, 12, None))
    (van,) = result.systems
    assert van.gpus_per_system == 10  # the chassis has 10 slots: 2 cards have nowhere to go
    assert van.power_kw == pytest.approx(2.2 + 10 * 0.6)
    (finding,) = result.problems
    assert finding.severity == "critical"
    assert finding.metrics == {"line": 1, "cards": 12, "slots": 10}


def test_cards_hotter_than_the_chassis_takes_are_critical(kit, catalog):
    # A CatalogSnapshot caches its lookups, so build a fresh one rather than model_copy().
    systems = [
        s.model_copy(update={"max_gpu_watts": 300.0}) if s.key == "supermicro-sys-521ge-tnrt" else s
        for s in catalog.systems
    ]
    hot = type(catalog)(
        gpus=catalog.gpus, systems=tuple(systems), parts=catalog.parts, models=catalog.models
    )
    index = match_index(hot)
    lines = [
        AssemblyLine(line=1, quantity=1, match=line_match(CHASSIS, "", index=index)),
        AssemblyLine(line=2, quantity=4, match=line_match(L40S, "", index=index)),
    ]
    result = systems_assemble(lines, hot)
    (finding,) = result.problems
    # 350 W L40S > 300 W per slot.
    assert finding.severity == "critical"
    assert finding.metrics == {"gpu_w": 350.0, "max_gpu_w": 300.0}


def test_uneven_cards_split_into_two_groups(kit):
    result = kit((CHASSIS, 2, None), (L40S, 7, None))
    # 7 cards over 2 chassis: divmod(7, 2) = (3, 1) -> one van of 4, one of 3.
    assert [(s.quantity, s.gpus_per_system) for s in result.systems] == [(1, 4), (1, 3)]
    assert sum(s.quantity * s.gpus_per_system for s in result.systems) == 7
    assert result.problems[0].severity == "warning"


def test_a_chassis_without_cards_is_a_van_with_no_engine(kit):
    result = kit((CHASSIS, 1, "28000"))
    (van,) = result.systems
    assert (van.gpus_per_system, van.power_kw) == (0, pytest.approx(2.2))
    assert "with no GPUs" in result.problems[0].title


def test_two_gpu_models_fill_two_chassis_lines_in_order(kit):
    result = kit(
        (CHASSIS, 1, None), (L40S, 4, None), ("SYS-421GE-TNRT", 1, None), (H200_NVL, 2, None)
    )
    assert [(s.sku, s.gpu_key, s.gpus_per_system) for s in result.systems] == [
        ("supermicro-sys-521ge-tnrt", "l40s", 4),
        ("supermicro-sys-421ge-tnrt", "h200-nvl", 2),
    ]


def test_whole_systems_come_from_the_catalog(kit):
    result = kit(("DGXB-G1440+P2CMI36", 4, "515000"))
    (semi,) = result.systems
    assert (semi.quantity, semi.gpus_per_system, semi.nvlink_domain_gpus) == (4, 8, 8)
    assert (semi.power_kw, semi.weight_lb, semi.vehicle) == (14.3, 313.9, "semi")
    # Four semis at 14.3 kW: 4 × 14.3 = 57.2 kW.
    assert semi.quantity * semi.power_kw == pytest.approx(57.2)


def test_unmatched_other_and_zero_lines_are_skipped(kit, catalog):
    lines = [
        AssemblyLine(line=1, quantity=1, match=LineMatch()),
        AssemblyLine(line=2, quantity=3, match=LineMatch(kind="other")),
        AssemblyLine(
            line=3, quantity=0, match=line_match("DGX-SPARK-4TB", "", index=match_index(catalog))
        ),
    ]
    assert systems_assemble(lines, catalog).model_dump() == {"systems": [], "problems": []}


def test_a_system_line_without_quantity_is_a_finding(kit):
    result = kit(("DGX-SPARK-4TB", None, None))
    assert result.systems == []
    assert result.problems[0].title == "Line 1 has no quantity"


def test_vehicle_names_follow_the_field_guide(catalog):
    names = {
        key: vehicle_for(catalog.system(key))
        for key in ("dgx-spark", "dgx-station-gb300", "gb300-nvl72", "dgx-b200")
    }
    assert names == {
        "dgx-spark": "compact car",
        "dgx-station-gb300": "station wagon",
        "gb300-nvl72": "freight train",
        "dgx-b200": "semi",
    }
