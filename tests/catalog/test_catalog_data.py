"""The bundled catalog: it loads, every figure has a source, and the reference's traps hold."""

import pytest

from apps.catalog.models import Gpu, Part, System
from apps.catalog.services import catalog_load, snapshot_from_db


def test_every_non_empty_figure_has_a_source(catalog):
    for row in (*catalog.gpus, *catalog.systems):
        for field, figure in row.figures.items():
            assert figure.raw, (row.key, field)
            assert row.figure(field).source.strip(), f"{row.key}.{field} has no source"
        assert row.source_urls.strip(), f"{row.key} names no source"


def test_unverified_figures_are_the_tilde_ones(catalog):
    # hardware.csv marks unverified figures with "~"; H100 NVL FP64 is "~30".
    fp64 = catalog.gpu("h100-nvl").figure("fp64_tflops")
    assert fp64.raw == "~30" and fp64.verified is False
    assert catalog.gpu("b200").figure("fp64_tflops").verified is True


def test_eight_h200_nvl_server_is_two_four_gpu_domains(catalog):
    server = catalog.system("pcie-8x-h200-nvl")
    assert server.gpu_count == 8
    assert server.nvlink_domain_gpus == 4
    assert server.gpu_count // server.nvlink_domain_gpus == 2


def test_blackwell_ultra_has_almost_no_fp64_while_b200_has_37(catalog):
    assert catalog.gpu("b300").best_fp64_tflops == pytest.approx(1.25)
    assert catalog.gpu("gb300").best_fp64_tflops == pytest.approx(1.25)
    assert catalog.gpu("b200").best_fp64_tflops == pytest.approx(37)
    assert not catalog.gpu("gb300").is_verified("fp64_tflops")


def test_dgx_b200_power_and_weight(catalog):
    dgx = catalog.system("dgx-b200")
    assert dgx.power_max_kw == 14.3
    assert dgx.weight_lb == 313.9
    assert dgx.gpu_count * catalog.gpu("b200").memory_gb == 1440  # 8 x 180 GB


def test_dgx_spark_is_128_gb_at_273_gb_per_s(catalog):
    spark = catalog.gpu(catalog.system("dgx-spark").gpu)
    assert spark.memory_gb == 128
    assert spark.bandwidth_tbs * 1000 == pytest.approx(273)


def test_ranges_keep_top_for_facilities_and_bottom_for_finance(catalog):
    # GB300 NVL72: "120-142" kW -> breakers sized for 142, finance estimates from 120.
    rack = catalog.system("gb300-nvl72")
    assert (rack.power_max_kw, rack.power_typical_kw) == (142, 120)
    assert rack.cooling == "liquid"


def test_every_example_part_number_is_in_the_catalog(catalog):
    numbers = {p.part_number for p in catalog.parts}
    for pn in [
        "DGXB-G1440+P2CMI36",
        "DGXB300-G2304",
        "DGXH-G1128+P2CMI36",
        "SYS-521GE-TNRT",
        "900-2G133-0080-000",
        "DGX-SPARK-4TB",
        "DGX-STATION-GB300",
        "GB300-NVL72",
        "XE7745-RTXPRO",
    ]:
        assert pn in numbers


@pytest.mark.django_db
def test_catalog_loads_and_reads_back_identically(catalog):
    counts = catalog_load()
    again = catalog_load()  # idempotent
    assert counts == again
    assert System.objects.count() == len(catalog.systems)
    assert Gpu.objects.count() == len(catalog.gpus)
    from_db = snapshot_from_db()
    assert {s.key: s for s in from_db.systems} == {s.key: s for s in catalog.systems}
    assert {g.key: g for g in from_db.gpus} == {g.key: g for g in catalog.gpus}
    assert {m.name: m for m in from_db.models} == {m.name: m for m in catalog.models}


@pytest.mark.django_db
def test_part_numbers_are_unique_per_vendor(catalog_db):
    from django.db import IntegrityError, transaction

    part = Part.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Part.objects.create(vendor=part.vendor, part_number=part.part_number, kind="other")


@pytest.mark.django_db
def test_negative_power_is_refused_by_the_database(catalog_db):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        System.objects.filter(key="dgx-b200").update(power_max_kw=-1)


@pytest.mark.django_db
def test_a_gpu_in_use_cannot_be_deleted(catalog_db):
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError):
        Gpu.objects.get(key="b200").delete()


@pytest.mark.django_db
def test_catalog_check_lists_unverified_figures(catalog_db, capsys):
    from django.core.management import call_command

    call_command("catalog_check")
    out = capsys.readouterr().out
    assert "h100-nvl" in out and "fp64_tflops" in out and "~30" in out
    assert "unverified figures" in out
