"""fixtures/reference/rack_layout.csv: how systems land in racks, each figure with a source."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from apps.catalog.snapshot import CatalogSnapshot

ROOT = Path(__file__).resolve().parents[2]


def _build_catalog() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_catalog", ROOT / "scripts/build_catalog.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_layout_figure_names_its_source(catalog: CatalogSnapshot) -> None:
    for key, field in [
        ("gb200-nvl36x2", "racks_per_system"),
        ("gb300-nvl36x2", "racks_per_system"),
        ("gb200-nvl4", "blades_per_cabinet"),
        ("hpe-cray-ex154n", "blades_per_cabinet"),
    ]:
        figure = catalog.system(key).figures[field]
        assert figure.source.startswith("https://"), key


def test_the_gb300_nvl36x2_power_is_a_labelled_estimate(catalog: CatalogSnapshot) -> None:
    gb300 = catalog.system("gb300-nvl36x2")
    # ~142 kW: the GB300 NVL72's "up to 142 kW" over two racks (~71 kW each), not found
    assert (gb300.power_max_kw, gb300.racks_per_system) == (142.0, 2)
    assert not gb300.is_verified("power_max_kw")


def test_a_layout_row_for_an_unknown_system_names_file_row_and_column(tmp_path: Path) -> None:
    layout = tmp_path / "rack_layout.csv"
    layout.write_text("system,field,value,source\nno-such-rack,racks_per_system,2,x\n")
    with pytest.raises(ValueError, match=r"rack_layout.csv: row 2, column system"):
        _build_catalog().layout_from_csv(layout, [{"key": "gb200-nvl72", "figures": {}}])


def test_a_layout_value_must_be_a_count(tmp_path: Path) -> None:
    layout = tmp_path / "rack_layout.csv"
    layout.write_text("system,field,value,source\ngb200-nvl72,racks_per_system,0,x\n")
    with pytest.raises(ValueError, match=r"row 2, column value: not a count"):
        _build_catalog().layout_from_csv(layout, [{"key": "gb200-nvl72", "figures": {}}])
