"""The workload and facility a review runs against, from whatever the user named.

``--workload`` may be a JSON file ("workload.json"), the name of a saved workload, or a preset
("internal-assistant", or a model preset such as "Qwen3-32B": one of its users at 10 tokens/s).
Bad input is one clear ``ReviewInputError`` naming the file and the field:
"workload.json: field 'kind': Input should be 'inference', 'rag', ..." or
"workload.json: unknown field 'gpu'".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.model_resolve import unknown_model_words
from apps.review.engine.schemas import Facility, Workload

#: Loads from the field guide, by name.
WORKLOAD_PRESETS: dict[str, dict[str, Any]] = {
    "internal-assistant": {
        "name": "Internal assistant",
        "kind": "inference",
        "model": "Qwen3-32B",
        "precision": "fp8",
        "concurrent_users": 100,
        "tokens_per_sec_per_user": 15,
    },
    "department-rag": {
        "name": "Department RAG",
        "kind": "rag",
        "model": "Qwen3-32B",
        "precision": "fp8",
        "concurrent_users": 100,
        "tokens_per_sec_per_user": 15,
    },
    "developer-prototype": {
        "name": "Prototype on the desk",
        "kind": "development",
        "model": "Qwen3-32B",
        "precision": "bf16",
        "tokens_per_sec_per_user": 2,
    },
    "full-fine-tune": {"name": "Full fine-tune", "kind": "fine_tuning", "memory_gb": 512},
    "six-week-fine-tune": {
        "name": "Six-week fine-tune",
        "kind": "fine_tuning",
        "memory_gb": 512,
        "duration_weeks": 6,
        "busy_hours_per_day": 24,
    },
    "fp64-cfd": {"name": "CFD solver", "kind": "hpc", "fp64_tflops": 100},
}

#: Buildings from the field guide, by name.
FACILITY_PRESETS: dict[str, dict[str, Any]] = {
    "office-15a": {
        "name": "Office desk",
        "site": "office",
        "circuit_volts": 120,
        "circuit_amps": 15,
    },
    "office-20a": {"name": "Lab bench", "site": "office", "circuit_volts": 120, "circuit_amps": 20},
    "office-230v-16a": {
        "name": "Office desk, 230 V 16 A",
        "site": "office",
        "circuit_volts": 230,
        "circuit_amps": 16,
        "electricity_usd_per_kwh": 0.2,
        "grid_kg_co2_per_kwh": 0.281,
        "units": "si",
    },
    "closet-server-room": {
        "name": "Closet server room, one 208 V 20 A feed",
        "site": "datacenter",
        "racks_available": 1,
        "rows": 1,
        "feed_volts": 208,
        "feed_phase": "single",
        "feed_amps": 20,
        "cooling": "air",
        "air_kw_per_rack": 5,
    },
    "enterprise-air-hall": {
        "name": "Enterprise air hall, 15 kW racks",
        "site": "datacenter",
        "rack_power_kw": 15,
        "racks_available": 10,
        "rows": 2,
        "cooling": "air",
        "air_kw_per_rack": 15,
        "floor_load_lb_per_sqft": 250,
    },
    "liquid-ai-hall": {
        "name": "Liquid-ready AI hall with CDUs",
        "site": "datacenter",
        "rack_power_kw": 150,
        "racks_available": 4,
        "rows": 1,
        "cooling": "liquid",
        "air_kw_per_rack": 30,
        "cdu_kw": 500,
        "facility_water_c": 32,
        "floor_load_lb_per_sqft": 500,
        "pue": 1.2,
    },
    "colo-cage-ab-208v-30a": {
        "name": "Colocation cage, A/B 208 V 30 A three-phase",
        "site": "datacenter",
        "racks_available": 4,
        "rows": 1,
        "feed_volts": 208,
        "feed_phase": "three",
        "feed_amps": 30,
        "feed_redundant": True,
        "cooling": "air",
        "floor_load_lb_per_sqft": 250,
    },
    "legacy-room": {
        "name": "Legacy room",
        "site": "datacenter",
        "rack_power_kw": 2,
        "racks_available": 1,
        "cooling": "air",
        "floor_load_lb_per_sqft": 150,
    },
    "server-room": {
        "name": "Server room",
        "site": "datacenter",
        "rack_power_kw": 15,
        "racks_available": 4,
        "cooling": "air",
        "floor_load_lb_per_sqft": 250,
    },
    "row-rdhx": {
        "name": "Row with rear-door heat exchangers",
        "site": "datacenter",
        "rack_power_kw": 20,
        "racks_available": 4,
        "cooling": "air_rdhx",
        "rdhx_kw_per_rack": 60,
        "floor_load_lb_per_sqft": 250,
    },
    "ai-hall": {
        "name": "AI hall",
        "site": "datacenter",
        "rack_power_kw": 150,
        "racks_available": 4,
        "cooling": "liquid",
        "floor_load_lb_per_sqft": 500,
    },
}


def _looks_like_path(arg: str) -> bool:
    return arg.casefold().endswith(".json") or "/" in arg or "\\" in arg or Path(arg).is_file()


def _read_json(path: Path, label: str) -> Any:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ReviewInputError(f"{label}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReviewInputError(f"{label}: cannot be read ({type(exc).__name__})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReviewInputError(
            f"{label}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None


def _validated[T: BaseModel](model: type[T], data: Any, label: str) -> T:
    """One readable line for the first problem: the field and what is wrong with it."""
    if not isinstance(data, dict):
        raise ReviewInputError(f"{label}: expected a JSON object, got {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        field = ".".join(str(p) for p in error["loc"]) or "(top level)"
        if error["type"] == "extra_forbidden":
            raise ReviewInputError(f"{label}: unknown field {field!r}") from None
        if error["type"] == "missing":
            raise ReviewInputError(f"{label}: field {field!r} is required") from None
        if not error["loc"]:  # a rule across fields: "a rack feed needs both feed_volts and …"
            reason = error["msg"].removeprefix("Value error, ")
            raise ReviewInputError(f"{label}: {reason}") from None
        given = error.get("input")
        # An out-of-range number already says what it got ("… (got 1e+308)").
        plain = not isinstance(given, dict | list) and error["type"] != "out_of_range"
        shown = f" (got {given!r})" if plain else ""
        raise ReviewInputError(f"{label}: field {field!r}: {error['msg']}{shown}") from None


def _model_known(workload: Workload, catalog: CatalogSnapshot | None, label: str) -> Workload:
    model = workload.model
    if catalog is not None and isinstance(model, str) and catalog.model_preset(model) is None:
        known = ", ".join(m.name for m in catalog.models)
        raise ReviewInputError(
            f"{label}: field 'model': {unknown_model_words(model, catalog)} "
            f"(known presets: {known})"
        )
    return workload


def workload_load(
    arg: str, *, organisation: Any = None, catalog: CatalogSnapshot | None = None
) -> Workload:
    """A JSON file, else a saved workload's name (in ``organisation`` when given), else a
    workload preset, else a model preset. With ``catalog``, an unknown model is an error
    here, naming the file."""
    if _looks_like_path(arg):
        path = Path(arg)
        workload = _validated(Workload, _read_json(path, path.name), path.name)
        return _model_known(workload, catalog, path.name)
    saved = _saved("SavedWorkload", arg, organisation)
    if saved is not None:
        label = f"saved workload {saved.name!r}"
        return _model_known(_validated(Workload, saved.spec, label), catalog, label)
    preset = WORKLOAD_PRESETS.get(arg.strip().casefold())
    if preset is not None:
        return Workload.model_validate(preset)
    if catalog is not None and (model := catalog.model_preset(arg)) is not None:
        return Workload(name=f"{model.name} for one user", kind="inference", model=model.name)
    raise ReviewInputError(
        f"{arg}: no such file, saved workload or preset "
        f"(presets: {', '.join(WORKLOAD_PRESETS)} or a model name)"
    )


def facility_load(arg: str, *, organisation: Any = None) -> Facility:
    """A JSON file, else a saved facility's name, else a facility preset."""
    if _looks_like_path(arg):
        path = Path(arg)
        return _validated(Facility, _read_json(path, path.name), path.name)
    saved = _saved("SavedFacility", arg, organisation)
    if saved is not None:
        return _validated(Facility, saved.spec, f"saved facility {saved.name!r}")
    preset = FACILITY_PRESETS.get(arg.strip().casefold())
    if preset is not None:
        return Facility.model_validate(preset)
    raise ReviewInputError(
        f"{arg}: no such file, saved facility or preset (presets: {', '.join(FACILITY_PRESETS)})"
    )


def _saved(model_name: str, name: str, organisation: Any) -> Any:
    """The saved workload or facility with this name; None when there is none, or when the
    name is not unique across organisations and no organisation was given."""
    from django.db import DatabaseError

    from apps.sites import models

    rows = getattr(models, model_name).objects.filter(name__iexact=name.strip())
    if organisation is not None:
        rows = rows.filter(organisation=organisation)
    try:
        found = list(rows[:2])
    except DatabaseError:  # no database yet: a preset or a file still works
        return None
    return found[0] if len(found) == 1 else None
