"""Catalog services: load the bundled fixture into the database, read it back as a snapshot."""

from __future__ import annotations

from django.db import transaction

from apps.catalog.models import Gpu, ModelPreset, Part, PartAlias, RentalRate, System, Vendor
from apps.catalog.snapshot import (
    FIXTURE_PATH,
    CatalogSnapshot,
    GpuSpec,
    ModelSpec,
    PartSpec,
    RentalRateSpec,
    SystemSpec,
    snapshot_from_fixture,
)

_SNAPSHOT_CACHE: dict[str, CatalogSnapshot] = {}


def _row_fields(spec: GpuSpec | SystemSpec, exclude: set[str]) -> dict:
    data = spec.model_dump(exclude=exclude)
    data["figures"] = {k: v.model_dump() for k, v in spec.figures.items()}
    return data


@transaction.atomic
def catalog_load(*, snapshot: CatalogSnapshot | None = None) -> dict[str, int]:
    """Upsert the bundled catalog. Idempotent: a second run changes nothing."""
    snapshot = snapshot or snapshot_from_fixture(FIXTURE_PATH)
    vendors = {name: Vendor.objects.get_or_create(name=name)[0] for name in snapshot.vendors}

    def vendor(name: str) -> Vendor:
        if name not in vendors:
            vendors[name] = Vendor.objects.get_or_create(name=name)[0]
        return vendors[name]

    gpus: dict[str, Gpu] = {}
    for spec in snapshot.gpus:
        fields = _row_fields(spec, {"key", "vendor"})
        gpus[spec.key], _ = Gpu.objects.update_or_create(
            key=spec.key, defaults={**fields, "vendor": vendor(spec.vendor)}
        )
    systems: dict[str, System] = {}
    for system_spec in snapshot.systems:
        fields = _row_fields(system_spec, {"key", "vendor", "gpu"})
        systems[system_spec.key], _ = System.objects.update_or_create(
            key=system_spec.key,
            defaults={
                **fields,
                "vendor": vendor(system_spec.vendor),
                "gpu": gpus[system_spec.gpu] if system_spec.gpu else None,
            },
        )
    for part_spec in snapshot.parts:
        part, _ = Part.objects.update_or_create(
            vendor=vendor(part_spec.vendor),
            part_number=part_spec.part_number,
            defaults={
                "kind": part_spec.kind,
                "description": part_spec.description,
                "system": systems[part_spec.system] if part_spec.system else None,
                "gpu": gpus[part_spec.gpu] if part_spec.gpu else None,
                "bridge_gpus": part_spec.bridge_gpus,
            },
        )
        for alias in part_spec.aliases:
            PartAlias.objects.get_or_create(part=part, text=alias)
    for model_spec in snapshot.models:
        ModelPreset.objects.update_or_create(
            name=model_spec.name, defaults=model_spec.model_dump(exclude={"name"})
        )
    for rate in snapshot.rental_rates:
        RentalRate.objects.update_or_create(
            gpu=gpus[rate.gpu],
            provider=rate.provider,
            offering=rate.offering,
            term=rate.term,
            defaults=rate.model_dump(exclude={"gpu", "provider", "offering", "term"}),
        )
    catalog_snapshot_clear()
    return {
        "gpus": len(snapshot.gpus),
        "systems": len(snapshot.systems),
        "parts": len(snapshot.parts),
        "models": len(snapshot.models),
        "rental_rates": len(snapshot.rental_rates),
    }


def _figures(row: Gpu | System) -> dict:
    return dict(row.figures or {})


def snapshot_from_db() -> CatalogSnapshot:
    """Read the whole catalog in a fixed number of queries into a frozen snapshot."""
    gpus = [
        GpuSpec(
            key=g.key,
            name=g.name,
            vendor=g.vendor.name,
            model=g.model,
            form_factor=g.form_factor,
            memory_gb=g.memory_gb,
            memory_type=g.memory_type,
            bandwidth_tbs=g.bandwidth_tbs,
            fp64_tflops=g.fp64_tflops,
            fp64_tensor_tflops=g.fp64_tensor_tflops,
            fp32_tflops=g.fp32_tflops,
            bf16_tflops=g.bf16_tflops,
            fp8_tflops=g.fp8_tflops,
            fp4_tflops=g.fp4_tflops,
            interconnect=g.interconnect,
            nvlink_domain_gpus=g.nvlink_domain_gpus,
            nvlink_bw_gbs=g.nvlink_bw_gbs,
            tdp_w_max=g.tdp_w_max,
            tdp_w_typical=g.tdp_w_typical,
            cooling=g.cooling,
            cpu_arch=g.cpu_arch,
            source_urls=g.source_urls,
            notes=g.notes,
            figures=_figures(g),
        )
        for g in Gpu.objects.select_related("vendor").order_by("key")
    ]
    systems = [
        SystemSpec(
            key=s.key,
            name=s.name,
            vendor=s.vendor.name,
            form_factor=s.form_factor,
            gpu=s.gpu.key if s.gpu else None,
            gpu_count=s.gpu_count,
            nvlink_domain_gpus=s.nvlink_domain_gpus,
            power_max_kw=s.power_max_kw,
            power_typical_kw=s.power_typical_kw,
            power_peak_kw=s.power_peak_kw,
            base_power_kw=s.base_power_kw,
            weight_lb=s.weight_lb,
            rack_units=s.rack_units,
            cooling=s.cooling,
            cpu_arch=s.cpu_arch,
            cpu_memory_gb=s.cpu_memory_gb,
            gpu_slots=s.gpu_slots,
            max_gpu_watts=s.max_gpu_watts,
            list_price_usd=s.list_price_usd,
            price_source=s.price_source,
            circuit_note=s.circuit_note,
            family=s.family,
            gpu_kind=s.gpu_kind,
            supported_gpus=tuple(s.supported_gpus or ()),
            max_gpus=s.max_gpus,
            psu_count=s.psu_count,
            psu_watts=s.psu_watts,
            psu_redundancy=s.psu_redundancy,
            source_urls=s.source_urls,
            notes=s.notes,
            figures=_figures(s),
        )
        for s in System.objects.select_related("vendor", "gpu").order_by("key")
    ]
    parts = [
        PartSpec(
            vendor=p.vendor.name,
            part_number=p.part_number,
            kind=p.kind,
            description=p.description,
            system=p.system.key if p.system else None,
            gpu=p.gpu.key if p.gpu else None,
            bridge_gpus=p.bridge_gpus,
            aliases=tuple(a.text for a in p.aliases.all()),
        )
        for p in Part.objects.select_related("vendor", "system", "gpu")
        .prefetch_related("aliases")
        .order_by("vendor__name", "part_number")
    ]
    models = [
        ModelSpec.model_validate(
            {f.name: getattr(m, f.name) for f in ModelPreset._meta.fields if f.name != "id"}
        )
        for m in ModelPreset.objects.order_by("name")
    ]
    rental_rates = [
        RentalRateSpec(
            gpu=r.gpu.key,
            provider=r.provider,
            offering=r.offering,
            term=r.term,
            usd_per_gpu_hour=r.usd_per_gpu_hour,
            region=r.region,
            as_of=r.as_of,
            verified=r.verified,
            source_url=r.source_url,
            notes=r.notes,
        )
        for r in RentalRate.objects.select_related("gpu").order_by("gpu__key", "term", "pk")
    ]
    vendors = tuple(Vendor.objects.order_by("name").values_list("name", flat=True))
    return CatalogSnapshot(
        version="db",
        vendors=vendors,
        gpus=tuple(gpus),
        systems=tuple(systems),
        parts=tuple(parts),
        models=tuple(models),
        rental_rates=tuple(rental_rates),
    )


def catalog_snapshot() -> CatalogSnapshot:
    """The catalog for a review, cached per process until the catalog is reloaded.

    Falls back to the bundled fixture when the database holds no catalog yet, so a review
    never silently runs against an empty lot.
    """
    cached = _SNAPSHOT_CACHE.get("current")
    if cached is None:
        cached = snapshot_from_db() if System.objects.exists() else snapshot_from_fixture()
        _SNAPSHOT_CACHE["current"] = cached
    return cached


def catalog_snapshot_clear() -> None:
    _SNAPSHOT_CACHE.clear()


def catalog_unverified() -> list[tuple[str, str, str]]:
    """(row, field, raw) for every unverified figure, and rows that name no source."""
    snapshot = snapshot_from_db()
    problems: list[tuple[str, str, str]] = []
    rows: list[GpuSpec | SystemSpec] = [*snapshot.gpus, *snapshot.systems]
    for row in rows:
        if not row.source_urls.strip():
            problems.append((row.key, "source_urls", "no source"))
        for field, fig in sorted(row.figures.items()):
            if not fig.verified:
                problems.append((row.key, field, fig.raw))
    return problems
