"""Catalog services: load the bundled fixture into the database, read it back as a snapshot."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import models, transaction

from apps.catalog.models import Gpu, ModelPreset, Part, PartAlias, RentalRate, System, Vendor
from apps.catalog.revision import catalog_revision_current
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


@dataclass
class _Held:
    snapshot: CatalogSnapshot
    revision: int
    checked_at: float


_SNAPSHOT_CACHE: dict[str, _Held] = {}

#: rows load_catalog wrote, by (model, "+" created / "~" changed): their history is written in
#: bulk afterwards (one INSERT per model, not one per row)
Written = dict[tuple[type[models.Model], str], list[models.Model]]


def _upsert(
    model: type[models.Model], lookup: dict[str, Any], defaults: dict[str, Any], written: Written
) -> Any:
    """update_or_create that saves only when a value differs, so loading the same catalog twice
    writes nothing: no history row, no new catalog revision."""
    defaults = {k: list(v) if isinstance(v, tuple) else v for k, v in defaults.items()}
    row = model._default_manager.filter(**lookup).first()
    if row is None:
        row = model(**lookup, **defaults)
        kind = "+"
    else:
        changed = [k for k, v in defaults.items() if getattr(row, k) != v]
        if not changed:
            return row
        for k in changed:
            setattr(row, k, defaults[k])
        kind = "~"
    row.skip_history_when_saving = True  # type: ignore[attr-defined]
    row.save()
    del row.skip_history_when_saving  # type: ignore[attr-defined]
    written.setdefault((model, kind), []).append(row)
    return row


def _history_write(written: Written) -> None:
    for (model, kind), rows in written.items():
        model.history.bulk_history_create(  # type: ignore[attr-defined]
            rows, update=kind == "~", default_change_reason="load_catalog"
        )


def _row_fields(spec: GpuSpec | SystemSpec, exclude: set[str]) -> dict:
    data = spec.model_dump(exclude=exclude)
    data["figures"] = {k: v.model_dump() for k, v in spec.figures.items()}
    return data


def catalog_load(*, snapshot: CatalogSnapshot | None = None) -> dict[str, int]:
    """Upsert the bundled catalog. Idempotent: a second run changes nothing (no history row,
    the same revision); a run that changes rows moves the revision on once."""
    from apps.catalog.signals import revision_batch

    with revision_batch(), transaction.atomic():
        return _catalog_load(snapshot or snapshot_from_fixture(FIXTURE_PATH))


def _catalog_load(snapshot: CatalogSnapshot) -> dict[str, int]:
    written: Written = {}
    vendors = {name: Vendor.objects.get_or_create(name=name)[0] for name in snapshot.vendors}

    def vendor(name: str) -> Vendor:
        if name not in vendors:
            vendors[name] = Vendor.objects.get_or_create(name=name)[0]
        return vendors[name]

    gpus: dict[str, Gpu] = {}
    for spec in snapshot.gpus:
        fields = _row_fields(spec, {"key", "vendor"})
        gpus[spec.key] = _upsert(
            Gpu, {"key": spec.key}, {**fields, "vendor": vendor(spec.vendor)}, written
        )
    systems: dict[str, System] = {}
    for system_spec in snapshot.systems:
        fields = _row_fields(system_spec, {"key", "vendor", "gpu"})
        systems[system_spec.key] = _upsert(
            System,
            {"key": system_spec.key},
            {
                **fields,
                "vendor": vendor(system_spec.vendor),
                "gpu": gpus[system_spec.gpu] if system_spec.gpu else None,
            },
            written,
        )
    for part_spec in snapshot.parts:
        part = _upsert(
            Part,
            {"vendor": vendor(part_spec.vendor), "part_number": part_spec.part_number},
            {
                "kind": part_spec.kind,
                "description": part_spec.description,
                "system": systems[part_spec.system] if part_spec.system else None,
                "gpu": gpus[part_spec.gpu] if part_spec.gpu else None,
                "bridge_gpus": part_spec.bridge_gpus,
            },
            written,
        )
        for alias in part_spec.aliases:
            _upsert(PartAlias, {"part": part, "text": alias}, {}, written)
    for model_spec in snapshot.models:
        _upsert(
            ModelPreset, {"name": model_spec.name}, model_spec.model_dump(exclude={"name"}), written
        )
    for rate in snapshot.rental_rates:
        _upsert(
            RentalRate,
            {
                "gpu": gpus[rate.gpu],
                "provider": rate.provider,
                "offering": rate.offering,
                "term": rate.term,
            },
            rate.model_dump(exclude={"gpu", "provider", "offering", "term"}),
            written,
        )
    _history_write(written)
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


def snapshot_from_db(*, revision: int | None = None) -> CatalogSnapshot:
    """Read the whole catalog in a fixed number of queries into a frozen snapshot, stamped
    with its revision (read first: a change while reading moves the revision past it, so the
    next check reads again)."""
    if revision is None:
        revision = catalog_revision_current()
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
        version=f"revision {revision}",
        revision=revision,
        vendors=vendors,
        gpus=tuple(gpus),
        systems=tuple(systems),
        parts=tuple(parts),
        models=tuple(models),
        rental_rates=tuple(rental_rates),
    )


def catalog_snapshot() -> CatalogSnapshot:
    """The catalog for a review, held per process for as long as the catalog revision stays.

    At most once every ``CATALOG_REVISION_CHECK_SECONDS`` (1 s) the held snapshot's revision is
    compared with the database's (one primary-key read); when another process (an admin's edit,
    ``load_catalog``, an import) moved it, the catalog is read again. Falls back to the bundled
    fixture when the database holds no catalog yet, so a review never silently runs against
    an empty lot.
    """
    now = time.monotonic()
    held = _SNAPSHOT_CACHE.get("current")
    interval = float(getattr(settings, "CATALOG_REVISION_CHECK_SECONDS", 1.0))
    if held is not None and now - held.checked_at < interval:
        return held.snapshot
    revision = catalog_revision_current()
    if held is not None and held.revision == revision:
        held.checked_at = now
        return held.snapshot
    if System.objects.exists():
        snapshot = snapshot_from_db(revision=revision)
    else:
        snapshot = snapshot_from_fixture()
    _SNAPSHOT_CACHE["current"] = _Held(snapshot=snapshot, revision=revision, checked_at=now)
    return snapshot


def catalog_snapshot_stale() -> None:
    """This process changed the catalog: check the revision on the next read, not in a second."""
    held = _SNAPSHOT_CACHE.get("current")
    if held is not None:
        held.checked_at = float("-inf")


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
