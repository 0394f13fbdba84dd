"""The hardware catalog: vendors, engines (GPUs), vehicles (systems), part numbers, model presets.

Every figure keeps its provenance in `figures` ({field: {raw, verified, source}}) and the row's
`source_urls`, so a user can see where any number that drives a verdict came from.
"""

from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from apps.catalog.choices import Cooling, CpuArch, FormFactor, Interconnect, PartKind, RentalTerm


def non_negative(*fields: str, prefix: str) -> list[models.BaseConstraint]:
    return [
        models.CheckConstraint(
            condition=Q(**{f"{f}__isnull": True}) | Q(**{f"{f}__gte": 0}),
            name=f"{prefix}_{f}_non_negative",
        )
        for f in fields
    ]


class Sourced(models.Model):
    source_urls = models.TextField(blank=True)
    notes = models.TextField(blank=True)
    figures = models.JSONField(default=dict, blank=True)

    class Meta:
        abstract = True

    def unverified_fields(self) -> list[str]:
        return sorted(k for k, v in self.figures.items() if not v.get("verified", True))


class Vendor(models.Model):
    name = models.CharField(max_length=120, unique=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Gpu(Sourced):
    """An engine: memory is the bowl, bandwidth the chewing speed."""

    key = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=200)
    vendor = models.ForeignKey(Vendor, on_delete=models.PROTECT, related_name="gpus")
    model = models.CharField(max_length=80)
    form_factor = models.CharField(max_length=20, choices=FormFactor.choices)
    memory_gb = models.FloatField()
    memory_type = models.CharField(max_length=40, blank=True)
    bandwidth_tbs = models.FloatField()
    fp64_tflops = models.FloatField(null=True, blank=True)
    fp64_tensor_tflops = models.FloatField(null=True, blank=True)
    fp32_tflops = models.FloatField(null=True, blank=True)
    bf16_tflops = models.FloatField(null=True, blank=True)
    fp8_tflops = models.FloatField(null=True, blank=True)
    fp4_tflops = models.FloatField(null=True, blank=True)
    interconnect = models.CharField(max_length=20, choices=Interconnect.choices)
    nvlink_domain_gpus = models.PositiveIntegerField(default=1)
    nvlink_bw_gbs = models.FloatField(null=True, blank=True)
    tdp_w_max = models.FloatField()
    tdp_w_typical = models.FloatField()
    cooling = models.CharField(max_length=20, choices=Cooling.choices, default=Cooling.AIR)
    cpu_arch = models.CharField(max_length=10, choices=CpuArch.choices, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = non_negative(
            "memory_gb",
            "bandwidth_tbs",
            "fp64_tflops",
            "fp64_tensor_tflops",
            "fp32_tflops",
            "bf16_tflops",
            "fp8_tflops",
            "fp4_tflops",
            "nvlink_bw_gbs",
            "tdp_w_max",
            "tdp_w_typical",
            prefix="gpu",
        )

    def __str__(self) -> str:
        return self.name


class System(Sourced):
    """A vehicle. A chassis that takes add-in cards has no fixed GPU (`gpu` is null)."""

    key = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=250)
    vendor = models.ForeignKey(Vendor, on_delete=models.PROTECT, related_name="systems")
    form_factor = models.CharField(max_length=20, choices=FormFactor.choices)
    gpu = models.ForeignKey(
        Gpu, on_delete=models.PROTECT, null=True, blank=True, related_name="systems"
    )
    gpu_count = models.PositiveIntegerField(default=0)
    nvlink_domain_gpus = models.PositiveIntegerField(default=1)
    power_max_kw = models.FloatField(null=True, blank=True)
    power_typical_kw = models.FloatField(null=True, blank=True)
    # transient peak above the maximum, where a source states one (an NVL72's ~1.4× spikes)
    power_peak_kw = models.FloatField(null=True, blank=True)
    base_power_kw = models.FloatField(null=True, blank=True)
    weight_lb = models.FloatField(null=True, blank=True)
    rack_units = models.FloatField(null=True, blank=True)
    cooling = models.CharField(max_length=20, choices=Cooling.choices, default=Cooling.AIR)
    cpu_arch = models.CharField(max_length=10, choices=CpuArch.choices, default=CpuArch.X86)
    cpu_memory_gb = models.FloatField(null=True, blank=True)
    gpu_slots = models.PositiveIntegerField(null=True, blank=True)
    max_gpu_watts = models.FloatField(null=True, blank=True)
    list_price_usd = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)
    price_source = models.TextField(blank=True)
    circuit_note = models.TextField(blank=True)
    family = models.CharField(max_length=120, blank=True)
    gpu_kind = models.CharField(max_length=20, blank=True)
    supported_gpus = models.JSONField(default=list, blank=True)
    max_gpus = models.PositiveIntegerField(null=True, blank=True)
    psu_count = models.PositiveIntegerField(null=True, blank=True)
    psu_watts = models.FloatField(null=True, blank=True)
    psu_redundancy = models.CharField(max_length=120, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["form_factor", "name"]
        constraints = non_negative(
            "power_max_kw",
            "power_typical_kw",
            "power_peak_kw",
            "base_power_kw",
            "weight_lb",
            "rack_units",
            "cpu_memory_gb",
            "max_gpu_watts",
            "list_price_usd",
            prefix="system",
        )

    def __str__(self) -> str:
        return self.name


class Part(models.Model):
    """A vendor part number: maps a quote line to a system, a GPU card, a bridge or other."""

    vendor = models.ForeignKey(Vendor, on_delete=models.PROTECT, related_name="parts")
    part_number = models.CharField(max_length=120)
    kind = models.CharField(max_length=20, choices=PartKind.choices)
    description = models.TextField(blank=True)
    system = models.ForeignKey(
        System, on_delete=models.PROTECT, null=True, blank=True, related_name="parts"
    )
    gpu = models.ForeignKey(
        Gpu, on_delete=models.PROTECT, null=True, blank=True, related_name="parts"
    )
    bridge_gpus = models.PositiveIntegerField(null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["vendor__name", "part_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["vendor", "part_number"], name="part_unique_per_vendor"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.part_number} ({self.vendor})"


class PartAlias(models.Model):
    """Another way quotes name a part: an OEM number, a description, a reseller's SKU."""

    part = models.ForeignKey(Part, on_delete=models.CASCADE, related_name="aliases")
    text = models.CharField(max_length=300)

    history = HistoricalRecords()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["part", "text"], name="alias_unique")]

    def __str__(self) -> str:
        return self.text


class ModelPreset(models.Model):
    """An open-weights model shape: parameters, layers and KV heads for the memory arithmetic."""

    name = models.CharField(max_length=120, unique=True)
    hf_repo = models.CharField(max_length=200, blank=True)
    total_params_b = models.FloatField()
    active_params_b = models.FloatField()
    layers = models.PositiveIntegerField()
    hidden_size = models.PositiveIntegerField(null=True, blank=True)
    attn_heads = models.PositiveIntegerField(null=True, blank=True)
    kv_heads = models.PositiveIntegerField()
    head_dim = models.PositiveIntegerField()
    kv_lora_rank = models.PositiveIntegerField(null=True, blank=True)
    qk_rope_head_dim = models.PositiveIntegerField(null=True, blank=True)
    max_context = models.PositiveIntegerField(null=True, blank=True)
    vocab = models.PositiveIntegerField(null=True, blank=True)
    native_dtype = models.CharField(max_length=80, blank=True)
    sliding_window = models.PositiveIntegerField(null=True, blank=True)
    sliding_layers_fraction = models.FloatField(null=True, blank=True)
    source = models.TextField(blank=True)
    # spellings users write (Hugging Face repo ids, Ollama tags) and the MoE / parameter split
    aliases = models.JSONField(default=list, blank=True)
    num_experts = models.PositiveIntegerField(null=True, blank=True)
    experts_per_token = models.PositiveIntegerField(null=True, blank=True)
    kv_layers = models.PositiveIntegerField(null=True, blank=True)
    attn_params_b = models.FloatField(null=True, blank=True)
    expert_params_b = models.FloatField(null=True, blank=True)
    dense_mlp_params_b = models.FloatField(null=True, blank=True)
    embed_params_b = models.FloatField(null=True, blank=True)
    lm_head_params_b = models.FloatField(null=True, blank=True)
    decode_read_params_b = models.FloatField(null=True, blank=True)
    license = models.CharField(max_length=120, blank=True)
    release_date = models.CharField(max_length=80, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        constraints = non_negative("total_params_b", "active_params_b", prefix="model")

    def __str__(self) -> str:
        return self.name


class RentalRate(models.Model):
    """What renting one GPU costs per hour at one provider: the other side of buy-or-rent.

    "H100 SXM, Lambda, 8x H100 SXM on-demand instance, $3.99/GPU-hour, US, 2026-09-20" — each
    rate keeps its source, its date and whether it was read on the provider's own page.
    """

    gpu = models.ForeignKey(Gpu, on_delete=models.PROTECT, related_name="rental_rates")
    provider = models.CharField(max_length=120)
    offering = models.CharField(max_length=250, blank=True)
    term = models.CharField(max_length=20, choices=RentalTerm.choices, default=RentalTerm.ON_DEMAND)
    usd_per_gpu_hour = models.DecimalField(max_digits=12, decimal_places=6)
    region = models.CharField(max_length=120, blank=True)
    as_of = models.CharField(max_length=20, blank=True, help_text="date the price was read, ISO")
    verified = models.BooleanField(default=False)
    source_url = models.TextField(blank=True)
    notes = models.TextField(blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["gpu__name", "term", "usd_per_gpu_hour"]
        constraints = [
            *non_negative("usd_per_gpu_hour", prefix="rental"),
            models.UniqueConstraint(
                fields=["gpu", "provider", "offering", "term"], name="rental_rate_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.gpu.model} at {self.provider} ({self.term}): ${self.usd_per_gpu_hour}/h"


class CatalogRevision(models.Model):
    """The catalog's revision: one row (pk 1) whose number goes up by one whenever a catalog
    row is saved or deleted (apps.catalog.signals). Every report carries the number it was
    made with; running processes compare it (one primary-key read, at most once a second)
    with the snapshot they hold and read the catalog again when it moved."""

    number = models.PositiveBigIntegerField(default=0)
    changed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"catalog revision {self.number}"
