"""The workload and facility forms: what the account team types becomes the contract's pydantic
`Workload` and `Facility`, validated by the same models the CLI and the API use.

Each form takes either a saved one (the customer's "Internal assistant, 100 users") or the fields
themselves, so "Qwen3-32B at FP8 for 100 users at 15 tokens/s" and "a 512 GB fine-tune" are both
one form. The model is a preset from the list, a name typed as users write it ("deepseek-ai/
DeepSeek-R1", resolved by the catalog with "did you mean …" for a near miss), or a pasted Hugging
Face config.json, read offline.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable
from typing import Any

from django import forms
from django.db.models import QuerySet
from pydantic import ValidationError

from apps.catalog.services import catalog_snapshot
from apps.review.engine.model_resolve import unknown_model_words
from apps.review.engine.schemas import (
    INPUT_RANGES,
    Facility,
    KvPrecision,
    ModelShape,
    Precision,
    Workload,
    WorkloadKind,
    input_range_text,
)
from apps.sites.models import SavedFacility, SavedWorkload

KIND_LABELS: dict[str, str] = {
    WorkloadKind.INFERENCE: "Inference serving (the school bus)",
    WorkloadKind.RAG: "RAG: retrieval plus inference",
    WorkloadKind.TRAINING: "Training (the cement truck)",
    WorkloadKind.FINE_TUNING: "Full fine-tuning (a cement truck too)",
    WorkloadKind.LORA: "LoRA fine-tuning",
    WorkloadKind.HPC: "FP64 HPC / science",
    WorkloadKind.VISION: "Computer vision",
    WorkloadKind.VDI: "Virtual desktops",
    WorkloadKind.DEVELOPMENT: "Development on the desk",
}
PRECISION_LABELS: dict[str, str] = {
    Precision.FP4: "FP4 (½ byte per parameter)",
    Precision.INT4: "INT4 (½ byte)",
    Precision.FP8: "FP8 (1 byte)",
    Precision.INT8: "INT8 (1 byte)",
    Precision.BF16: "BF16 (2 bytes)",
    Precision.FP16: "FP16 (2 bytes)",
    Precision.FP32: "FP32 (4 bytes)",
    Precision.FP64: "FP64 (8 bytes)",
    Precision.NVFP4: "NVFP4 (4.5 bits, BF16 embeddings and head)",
    Precision.MXFP4: "MXFP4 (4.25 bits; gpt-oss: experts only)",
    Precision.AWQ: "AWQ int4 (4.16 bits)",
    Precision.GPTQ: "GPTQ int4 (4.13 bits)",
    Precision.Q4_K_M: "GGUF Q4_K_M (4.89 bits)",
    Precision.Q5_K_M: "GGUF Q5_K_M (5.70 bits)",
    Precision.Q6_K: "GGUF Q6_K (6.56 bits)",
    Precision.Q8_0: "GGUF Q8_0 (8.5 bits)",
}
KV_LABELS: dict[str, str] = {
    "": "Follows the weights (FP8 and FP4 checkpoints: FP8)",
    KvPrecision.BF16: "BF16 (2 bytes a value)",
    KvPrecision.FP16: "FP16 (2 bytes)",
    KvPrecision.FP8: "FP8 (1 byte: twice the conversations)",
    KvPrecision.FP4: "FP4 (0.56 bytes)",
}
SITE_CHOICES = [("datacenter", "Data-center room"), ("office", "Office (a desk and a wall socket)")]
COOLING_CHOICES = [
    ("air", "Air"),
    ("air_rdhx", "Air with rear-door heat exchangers (RDHX)"),
    ("liquid", "Liquid (facility water loop, CDUs)"),
]
CUSTOM_MODEL = "__custom__"
DURATION_UNITS = [
    ("", "Not stated (no buy-or-rent comparison)"),
    ("weeks", "weeks"),
    ("months", "months"),
    ("ongoing", "ongoing (compared over 3 years)"),
]
FEED_VOLTS = [("", "Not given")] + [(str(v), f"{v} V") for v in (120, 208, 230, 240, 400, 415)]
FEED_PHASES = [("single", "Single-phase"), ("three", "Three-phase")]
UNITS = [("imperial", "Imperial (lb/sq ft, BTU/h)"), ("si", "SI (kg/m², kW)")]


def _number(
    kind: type[forms.IntegerField] | type[forms.FloatField],
    field: str,
    label: str,
    initial: float | None = None,
    *,
    help_text: str = "",
) -> forms.Field:
    """A number field bounded by the contract's physical range, stated next to it."""
    low, high, _unit = INPUT_RANGES[field]
    stated = f"From {input_range_text(field)}."
    whole = kind is forms.IntegerField
    return kind(
        min_value=int(low) if whole else low,  # type: ignore[arg-type]
        max_value=int(high) if whole else high,  # type: ignore[arg-type]
        required=initial is not None,
        initial=initial,
        label=label,
        help_text=f"{help_text} {stated}".strip(),
    )


class SharedFields(dict[str, forms.Field]):
    """A form's fields prepared once and shared by every form built from them: Django copies
    a form's fields for each instance (a deep copy of ~25 fields, choices and widgets, on
    every what-if); copying these hands over the same field objects. Only for fields nothing
    changes after preparing them (no per-form queryset or choices): a form validates and
    renders without touching its fields."""

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, forms.Field]:
        return dict(self)


class PreparedFields:
    """SharedFields by key, for the catalog snapshot they were prepared with (a reloaded
    catalog prepares them again): at most SIZE keys (a custom model's label is one each)."""

    SIZE = 64

    def __init__(self) -> None:
        self._catalog: object = None
        self._items: dict[Any, SharedFields] = {}
        self._lock = threading.Lock()

    def get(self, key: Any, prepare: Callable[[Any], dict[str, forms.Field]]) -> SharedFields:
        catalog = catalog_snapshot()
        with self._lock:
            if self._catalog is catalog and key in self._items:
                return self._items[key]
        fields = SharedFields(prepare(key))
        with self._lock:
            if self._catalog is not catalog or len(self._items) >= self.SIZE:
                self._catalog, self._items = catalog, {}
            self._items[key] = fields
        return fields


_WORKLOAD_FIELDS = PreparedFields()
_FACILITY_FIELDS = PreparedFields()


def _custom_model_label(current: Workload | None) -> str | None:
    """The choice a workload with a custom model shape keeps it by (None: no such model)."""
    if current is not None and isinstance(current.model, ModelShape):
        return f"{current.model.name} (custom shape, kept)"
    return None


def _model_choices_set(fields: dict[str, forms.Field], custom: str | None) -> None:
    choices = [("", "No model (memory or FP64 only)")]
    if custom is not None:
        choices.append((CUSTOM_MODEL, custom))
    choices += [(m.name, _model_label(m)) for m in catalog_snapshot().models]
    fields["model"].choices = choices  # type: ignore[attr-defined]


def _pydantic_errors_to_form(form: forms.Form, error: ValidationError) -> None:
    """Put each pydantic complaint on the field it is about ("memory_gb: must be > 0")."""
    for problem in error.errors():
        field = str(problem["loc"][0]) if problem["loc"] else None
        target = field if field in form.fields else None
        form.add_error(target, problem["msg"])


class WorkloadForm(forms.Form):
    """The load: a saved workload, or a model preset with its serving shape, or a memory size."""

    saved = forms.ModelChoiceField(
        queryset=SavedWorkload.objects.none(),
        required=False,
        empty_label="Describe it below",
        label="Saved workload",
    )
    name = forms.CharField(max_length=200, required=False, initial="Workload")
    kind = forms.ChoiceField(choices=list(KIND_LABELS.items()), initial=WorkloadKind.INFERENCE)
    model = forms.ChoiceField(choices=(), required=False, label="Model")
    model_name = forms.CharField(
        max_length=200,
        required=False,
        label="…or the model's name",
        help_text='As you would write it: "Llama-3.3-70B-Instruct" or "deepseek-ai/DeepSeek-R1".',
    )
    model_config = forms.CharField(
        max_length=200_000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        label="…or paste its config.json",
        help_text="The Hugging Face config.json as published: layers, heads, experts are read "
        "from it offline.",
    )
    precision = forms.ChoiceField(choices=list(PRECISION_LABELS.items()), initial=Precision.BF16)
    kv_precision = forms.ChoiceField(
        choices=list(KV_LABELS.items()), required=False, label="KV cache", initial=""
    )
    context_tokens = _number(forms.IntegerField, "context_tokens", "Context (tokens)", 8192)
    concurrent_users = _number(forms.IntegerField, "concurrent_users", "Concurrent users", 1)
    tokens_per_sec_per_user = _number(
        forms.FloatField, "tokens_per_sec_per_user", "Tokens/s per user", 10
    )
    memory_gb = _number(
        forms.FloatField,
        "memory_gb",
        "Biggest job's memory (GB)",
        help_text="Overrides the computed memory: a 512 GB fine-tune needs no model preset.",
    )
    fp64_tflops = _number(
        forms.FloatField, "fp64_tflops", "FP64 needed (TFLOPS)", help_text="For HPC codes."
    )
    duration = forms.FloatField(min_value=0.1, required=False, label="Project runs for")
    duration_unit = forms.ChoiceField(choices=DURATION_UNITS, required=False, label="Unit")
    busy_hours_per_day = forms.FloatField(
        min_value=0.1,
        max_value=24,
        required=False,
        label="Busy hours per day",
        help_text="24 when not given. With a duration, the review compares buying with renting.",
    )
    rent_usd_per_gpu_hour = forms.FloatField(
        min_value=0.01,
        max_value=1000,
        required=False,
        label="Rental rate ($/GPU-hour)",
        help_text="Blank: the median on-demand rate in the catalog for the quoted GPU.",
    )

    def __init__(
        self,
        *args: Any,
        saved_workloads: QuerySet[SavedWorkload] | None = None,
        current: Workload | None = None,
        **kwargs: Any,
    ) -> None:
        if current is not None and "initial" not in kwargs:
            kwargs["initial"] = workload_initial(current)
        custom = _custom_model_label(current)
        if saved_workloads is None:  # the review page's form: its fields prepared once
            self.__dict__["base_fields"] = _WORKLOAD_FIELDS.get(custom, self._fields_for)
        super().__init__(*args, **kwargs)
        self.current = current
        if saved_workloads is not None:
            _model_choices_set(self.fields, custom)
            saved = self.fields["saved"]
            assert isinstance(saved, forms.ModelChoiceField)
            saved.queryset = saved_workloads

    @classmethod
    def _fields_for(cls, custom: str | None) -> dict[str, forms.Field]:
        """The fields of a form without saved workloads, its model choices set."""
        fields = copy.deepcopy(cls.base_fields)
        del fields["saved"]
        _model_choices_set(fields, custom)
        return fields

    def clean_model_name(self) -> str:
        name: str = (self.cleaned_data.get("model_name") or "").strip()
        if name:
            catalog = catalog_snapshot()
            spec = catalog.model_preset(name)
            if spec is None:
                words = unknown_model_words(name, catalog)
                raise forms.ValidationError(words[0].upper() + words[1:])
            return spec.name
        return name

    def clean_model_config(self) -> dict[str, Any] | None:
        text = (self.cleaned_data.get("model_config") or "").strip()
        if not text:
            return None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                f"Not JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}"
            ) from None
        if not isinstance(data, dict):
            raise forms.ValidationError("A config.json is one JSON object { … }.")
        return data

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            self.workload = self._build(cleaned)
        except ValidationError as error:
            if cleaned.get("model_config"):
                for problem in error.errors():
                    if problem["loc"] and problem["loc"][0] == "model":
                        self.add_error("model_config", problem["msg"].removeprefix("Value error, "))
                        return cleaned
            _pydantic_errors_to_form(self, error)
        return cleaned

    def _build(self, cleaned: dict[str, Any]) -> Workload:
        saved: SavedWorkload | None = cleaned.get("saved")
        if saved is not None:
            return Workload.model_validate(saved.spec)
        model: str | ModelShape | dict[str, Any] | None = cleaned.get("model") or None
        if model == CUSTOM_MODEL and self.current is not None:
            model = self.current.model
        if cleaned.get("model_name"):
            model = cleaned["model_name"]
        if cleaned.get("model_config"):
            model = cleaned["model_config"]
        return Workload.model_validate(
            {
                "name": cleaned.get("name") or "Workload",
                "kind": cleaned["kind"],
                "model": model,
                "precision": cleaned["precision"],
                "kv_precision": cleaned.get("kv_precision") or None,
                "context_tokens": cleaned["context_tokens"],
                "concurrent_users": cleaned["concurrent_users"],
                "tokens_per_sec_per_user": cleaned["tokens_per_sec_per_user"],
                "memory_gb": cleaned.get("memory_gb"),
                "fp64_tflops": cleaned.get("fp64_tflops"),
                **_duration_fields(cleaned.get("duration"), cleaned.get("duration_unit") or ""),
                "busy_hours_per_day": cleaned.get("busy_hours_per_day"),
                "rent_usd_per_gpu_hour": cleaned.get("rent_usd_per_gpu_hour"),
            }
        )


def _duration_fields(amount: float | None, unit: str) -> dict[str, Any]:
    """ "6" + "weeks" → duration_weeks 6; "ongoing" needs no number; a number without a unit is
    taken as months."""
    if unit == "ongoing":
        return {"duration_ongoing": True}
    if amount is None:
        return {}
    return {"duration_weeks": amount} if unit == "weeks" else {"duration_months": amount}


def _model_label(model: Any) -> str:
    if model.active_params_b < model.total_params_b:
        return f"{model.name} ({model.total_params_b:g}B, {model.active_params_b:g}B active)"
    return f"{model.name} ({model.total_params_b:g}B)"


def _tidy(data: dict[str, Any]) -> dict[str, Any]:
    """15.0 tokens/s shows as 15, as the person typed it."""
    return {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in data.items()}


def workload_initial(workload: Workload) -> dict[str, Any]:
    """The form's starting values from a workload already reviewed."""
    data = workload.model_dump(mode="json")
    if isinstance(workload.model, ModelShape):
        data["model"] = CUSTOM_MODEL
    elif isinstance(workload.model, str) and workload.model.casefold() not in (
        catalog_snapshot().model_by_name
    ):
        # a name as the user wrote it ("deepseek-ai/DeepSeek-R1") goes back in the typed field
        data["model"], data["model_name"] = "", workload.model
    if workload.duration_weeks is not None:
        data |= {"duration": workload.duration_weeks, "duration_unit": "weeks"}
    elif workload.duration_months is not None:
        data |= {"duration": workload.duration_months, "duration_unit": "months"}
    elif workload.duration_ongoing:
        data["duration_unit"] = "ongoing"
    data["kv_precision"] = data.get("kv_precision") or ""
    return _tidy(data)


class FacilityForm(forms.Form):
    """The building: a data-center room (rack kW, racks, cooling, floor) or an office circuit."""

    saved = forms.ModelChoiceField(
        queryset=SavedFacility.objects.none(),
        required=False,
        empty_label="Describe it below",
        label="Saved facility",
    )
    name = forms.CharField(max_length=200, required=False, initial="Facility")
    site = forms.ChoiceField(choices=SITE_CHOICES, initial="datacenter")
    rack_power_kw = _number(forms.FloatField, "rack_power_kw", "Power qualified per rack (kW)")
    racks_available = _number(forms.IntegerField, "racks_available", "Racks available")
    cooling = forms.ChoiceField(choices=COOLING_CHOICES, initial="air")
    floor_load_lb_per_sqft = _number(
        forms.FloatField, "floor_load_lb_per_sqft", "Floor rating (lb/sq ft)"
    )
    circuit_volts = _number(
        forms.FloatField, "circuit_volts", "Circuit volts", help_text="120 V (US) or 230 V."
    )
    circuit_amps = _number(
        forms.FloatField, "circuit_amps", "Circuit amps", help_text="15 or 20 A; 10 or 16 A."
    )
    # the building in Facilities' own words
    feed_volts = forms.TypedChoiceField(
        choices=FEED_VOLTS, coerce=int, empty_value=None, required=False, label="Rack feed volts"
    )
    feed_phase = forms.ChoiceField(choices=FEED_PHASES, required=False, label="Phase")
    feed_amps = forms.FloatField(min_value=1, max_value=800, required=False, label="Breaker amps")
    feeds_per_side = forms.IntegerField(
        min_value=1, max_value=8, required=False, label="Feeds per side"
    )
    feed_redundant = forms.BooleanField(
        required=False,
        label="A/B redundant feeds (N+N)",
        help_text="Either side must carry the whole rack: the usable kW is one side's.",
    )
    continuous_share = forms.FloatField(
        min_value=0.1,
        max_value=1,
        required=False,
        label="Continuous share of the breaker",
        help_text="0.8 (the NEC 80 % rule) unless the breaker is listed for 100 %.",
    )
    rows = forms.IntegerField(min_value=0, required=False, label="Rows")
    air_kw_per_rack = forms.FloatField(
        min_value=0.1, required=False, label="Air removes per rack (kW)"
    )
    rdhx_kw_per_rack = forms.FloatField(
        min_value=0.1, required=False, label="Rear door removes per rack (kW)"
    )
    cdu_kw = forms.FloatField(min_value=0.1, required=False, label="CDU capacity, liquid (kW)")
    facility_water_c = forms.FloatField(
        min_value=2, max_value=70, required=False, label="Facility water supply (°C)"
    )
    floor_load_kg_per_m2 = forms.FloatField(
        min_value=1, required=False, label="Floor rating (kg/m²)"
    )
    rack_footprint_sqft = forms.FloatField(
        min_value=0.1,
        max_value=100,
        required=False,
        label="Rack footprint (sq ft)",
        help_text="10 when not given: the rack and its share of the aisle.",
    )
    electricity_usd_per_kwh = forms.FloatField(
        min_value=0,
        max_value=10,
        required=False,
        label="Electricity ($/kWh)",
        help_text="Default $0.0895 (EIA 2023, Virginia commercial).",
    )
    grid_kg_co2_per_kwh = forms.FloatField(
        min_value=0,
        max_value=2,
        required=False,
        label="Grid carbon (kg CO2/kWh)",
        help_text="Default 0.3674 (EIA 2023, US grid).",
    )
    pue = forms.FloatField(
        min_value=1,
        max_value=4,
        required=False,
        label="PUE",
        help_text="Default 1.54 (Uptime Institute 2025).",
    )
    units = forms.ChoiceField(choices=UNITS, required=False, label="Units")

    def __init__(
        self,
        *args: Any,
        saved_facilities: QuerySet[SavedFacility] | None = None,
        current: Facility | None = None,
        **kwargs: Any,
    ) -> None:
        if current is not None and "initial" not in kwargs:
            kwargs["initial"] = _tidy(current.model_dump(mode="json"))
        if saved_facilities is None:  # the review page's form: its fields prepared once
            self.__dict__["base_fields"] = _FACILITY_FIELDS.get(None, self._fields_for)
        super().__init__(*args, **kwargs)
        if saved_facilities is not None:
            saved = self.fields["saved"]
            assert isinstance(saved, forms.ModelChoiceField)
            saved.queryset = saved_facilities

    @classmethod
    def _fields_for(cls, _key: None) -> dict[str, forms.Field]:
        """The fields of a form without saved facilities."""
        fields = copy.deepcopy(cls.base_fields)
        del fields["saved"]
        return fields

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            saved: SavedFacility | None = cleaned.get("saved")
            if saved is not None:
                self.facility = Facility.model_validate(saved.spec)
            else:
                fields = [f for f in Facility.model_fields if f in cleaned]
                data = {f: cleaned[f] for f in fields if cleaned[f] not in (None, "")}
                data.setdefault("name", "Facility")
                self.facility = Facility.model_validate(data)
        except ValidationError as error:
            _pydantic_errors_to_form(self, error)
        return cleaned


def load_and_room_forms(*, data: Any = None) -> dict[str, forms.Form]:
    """Steps 2 and 3 of the upload and compare pages: the load and the room, each offering
    every customer's saved ones, labelled "Acme Research · Internal assistant" so two
    customers' "Main hall" stay apart. Prefixes `w` and `f` keep their fields apart too."""
    workloads = SavedWorkload.objects.filter(organisation__is_internal=False)
    facilities = SavedFacility.objects.filter(organisation__is_internal=False)
    built: dict[str, forms.Form] = {
        "workload_form": WorkloadForm(
            data, prefix="w", saved_workloads=workloads.select_related("organisation")
        ),
        "facility_form": FacilityForm(
            data, prefix="f", saved_facilities=facilities.select_related("organisation")
        ),
    }
    for form in built.values():
        saved = form.fields["saved"]
        assert isinstance(saved, forms.ModelChoiceField)
        saved.label_from_instance = _saved_label  # type: ignore[method-assign,assignment]
    return built


def _saved_label(saved: SavedWorkload | SavedFacility) -> str:
    return f"{saved.organisation.name} · {saved.name}"
