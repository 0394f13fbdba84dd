from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from apps.catalog.choices import Cooling, FormFactor
from apps.catalog.models import Gpu, System
from apps.catalog.selectors import systems_filtered
from apps.sites.access import ANY_ROLE, require_roles
from apps.sites.http import HtmxHttpRequest


@require_GET
@require_roles(*ANY_ROLE)
def catalog_index(request: HtmxHttpRequest) -> HttpResponse:
    """The lot, read-only: filter by vehicle, engine and cooling (htmx swaps the table)."""
    filters = {
        "form_factor": request.GET.get("form_factor", ""),
        "gpu": request.GET.get("gpu", ""),
        "cooling": request.GET.get("cooling", ""),
        "query": request.GET.get("q", "").strip()[:100],
    }
    context = {
        "systems": systems_filtered(**filters),
        "filters": filters,
        "form_factors": FormFactor.choices,
        "coolings": Cooling.choices,
        "gpus": Gpu.objects.order_by("name").only("key", "name"),
    }
    template = "catalog/index.html#systems-table" if request.htmx else "catalog/index.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
@require_roles(*ANY_ROLE)
def system_detail(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """One vehicle with the source of every figure, unverified ones marked."""
    system = get_object_or_404(System.objects.select_related("vendor", "gpu"), key=key)
    rows = []
    for label, field, unit, obj in [
        ("GPUs", "gpu_count", "", system),
        ("NVLink domain", "nvlink_domain_gpus", "GPUs", system),
        ("Maximum power", "power_max_kw", "kW", system),
        ("Typical power", "power_typical_kw", "kW", system),
        ("Weight", "weight_lb", "lb", system),
        ("Rack units", "rack_units", "U", system),
        ("List price", "list_price_usd", "USD", system),
    ]:
        value = getattr(obj, field)
        figure = obj.figures.get(field, {})
        rows.append(
            {
                "label": label,
                "value": value,
                "unit": unit,
                "raw": figure.get("raw", ""),
                "verified": figure.get("verified", True),
                "source": figure.get("source") or obj.source_urls,
            }
        )
    gpu_rows = []
    if system.gpu:
        gpu = system.gpu
        for label, field, unit in [
            ("Memory", "memory_gb", "GB"),
            ("Bandwidth", "bandwidth_tbs", "TB/s"),
            ("FP64 (vector)", "fp64_tflops", "TFLOPS"),
            ("FP64 (tensor)", "fp64_tensor_tflops", "TFLOPS"),
            ("BF16 dense", "bf16_tflops", "TFLOPS"),
            ("FP8 dense", "fp8_tflops", "TFLOPS"),
            ("FP4 dense", "fp4_tflops", "TFLOPS"),
            ("TDP", "tdp_w_max", "W"),
        ]:
            figure = gpu.figures.get(field, {})
            gpu_rows.append(
                {
                    "label": label,
                    "value": getattr(gpu, field),
                    "unit": unit,
                    "raw": figure.get("raw", ""),
                    "verified": figure.get("verified", True),
                    "source": figure.get("source") or gpu.source_urls,
                }
            )
    return render(
        request, "catalog/system.html", {"system": system, "rows": rows, "gpu_rows": gpu_rows}
    )
