"""The figures behind a finding as a customer reads them: real citations, not catalog keys.

The engine writes a source as "dgx-b300.power_max_kw: ~14 (unverified)"; the PDF prints
"NVIDIA DGX B300, maximum power ~14 kW" and cites the documents its catalog row names: the
document's title (from its address: the catalog keeps no titles), its publisher, its URL and
whether the figure is verified. A figure with a note of its own ("Rightsize estimate by form
factor") carries the note too. No internal key, file path or version reaches the page.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlparse

from pydantic import BaseModel, ConfigDict

from apps.catalog.snapshot import CatalogSnapshot, Sourced
from apps.words import metric_label

#: Hosts whose publisher has a better name than its address.
PUBLISHERS: dict[str, str] = {
    "docs.nvidia.com": "NVIDIA",
    "nvidia.com": "NVIDIA",
    "www.nvidia.com": "NVIDIA",
    "forums.developer.nvidia.com": "NVIDIA Developer Forums",
    "glennklockwood.com": "Glenn K. Lockwood",
    "huggingface.co": "Hugging Face",
    "servethehome.com": "ServeTheHome",
    "www.servethehome.com": "ServeTheHome",
    "aiwiki.ai": "AI Wiki",
    "raw.githubusercontent.com": "GitHub",
    "github.com": "GitHub",
}
#: Catalog fields in words, where the key's own words would read badly.
FIELD_LABELS: dict[str, tuple[str, str]] = {
    "power_max_kw": ("maximum power", "kW"),
    "power_typical_kw": ("typical power", "kW"),
    "base_power_kw": ("chassis power without GPUs", "kW"),
    "tdp_w_max": ("maximum board power", "W"),
    "tdp_w_typical": ("typical board power", "W"),
    "weight_lb": ("weight", "lb"),
    "memory_gb": ("GPU memory", "GB"),
    "bandwidth_tbs": ("memory bandwidth", "TB/s"),
    "list_price_usd": ("list price", "USD"),
    "rack_units": ("height", "U"),
    "cpu_memory_gb": ("system memory", "GB"),
}
_FIGURE = re.compile(
    r"^(?P<owner>[^:]+)\.(?P<field>[a-z0-9_]+):\s*(?P<raw>.*?)\s*(\((?P<status>[a-z]+)\))?$"
)


class Citation(BaseModel):
    """One document behind one or more figures."""

    model_config = ConfigDict(frozen=True)

    number: int
    title: str
    publisher: str
    url: str
    note: str = ""


class FigureCited(BaseModel):
    """One catalog figure behind a finding, in words, with the citations that back it."""

    model_config = ConfigDict(frozen=True)

    text: str  # the engine's own line, kept for matching ("dgx-b300.power_max_kw: ~14 …")
    label: str  # "NVIDIA DGX B300, maximum power ~14 kW"
    verified: bool
    citations: list[int] = []  # Citation.number
    note: str = ""  # the figure's own note: "Rightsize estimate by form factor"
    checks: list[str] = []


def figure_label(field: str) -> tuple[str, str]:
    """ "power_max_kw" -> ("maximum power", "kW"); an unlisted field from its own words."""
    if field in FIELD_LABELS:
        return FIELD_LABELS[field]
    label, unit = metric_label(field)
    return label[:1].lower() + label[1:], unit


def document_title(url: str) -> str:
    """A readable title from the address: ".../wiki/nvidia_dgx_b300" -> "nvidia dgx b300"."""
    parsed = urlparse(url if "://" in url else f"https://{url}")
    parts = [p for p in unquote(parsed.path).split("/") if p]
    slug = parts[-1] if parts else parsed.netloc
    slug = re.sub(r"\.(html?|php|aspx?|md|pdf)$", "", slug, flags=re.IGNORECASE)
    words = " ".join(w for w in re.split(r"[-_+.]+", slug) if w)
    return words[:1].upper() + words[1:] if words else parsed.netloc


def publisher(url: str) -> str:
    host = urlparse(url if "://" in url else f"https://{url}").netloc.lower()
    return PUBLISHERS.get(host, host.removeprefix("www."))


def _urls(text: str) -> list[str]:
    """ "https://a | https://b" -> both; bare "ai-infrastructure.net/dgx-spark" gets https://."""
    out = []
    for piece in re.split(r"\s*\|\s*|\s+", text.strip()):
        piece = piece.strip(" ,;'\"()")
        if piece.startswith(("http://", "https://")):
            out.append(piece)
        elif re.match(r"^[a-z0-9-]+(\.[a-z0-9-]+)+/\S*$", piece, re.IGNORECASE):
            out.append(f"https://{piece}")
    return out


class CitationBook:
    """Numbers each document once, in the order the report first cites it."""

    def __init__(self, catalog: CatalogSnapshot | None) -> None:
        self.catalog = catalog
        self.by_url: dict[str, Citation] = {}

    def _owner(self, key: str) -> tuple[str, Sourced | None]:
        if self.catalog is not None:
            system = self.catalog.system_by_key.get(key)
            if system is not None:
                return system.name, system
            gpu = self.catalog.gpu_by_key.get(key)
            if gpu is not None:
                return gpu.name, gpu
        return key.replace("-", " ").replace("_", " "), None

    def name_of(self, value: str) -> str:
        """A catalog key in a finding's metrics ("dgx-b200") as the customer knows it
        ("NVIDIA DGX B200"); any other value as it is."""
        if self.catalog is None:
            return value
        system = self.catalog.system_by_key.get(value)
        if system is not None:
            return system.name
        gpu = self.catalog.gpu_by_key.get(value)
        return gpu.name if gpu is not None else value

    def _cite(self, url: str) -> int:
        if url not in self.by_url:
            self.by_url[url] = Citation(
                number=len(self.by_url) + 1,
                title=document_title(url),
                publisher=publisher(url),
                url=url,
            )
        return self.by_url[url].number

    def figure(self, text: str, *, unverified: bool, check: str) -> FigureCited:
        match = _FIGURE.match(text.strip())
        if match is None:  # not a catalog figure ("quote description"): keep the words as said
            return FigureCited(text=text, label=text, verified=not unverified, checks=[check])
        name, owner = self._owner(match["owner"])
        field, raw = match["field"], match["raw"]
        label, unit = figure_label(field)
        value = f"{raw} {unit}".strip() if unit != "USD" else f"USD {raw}"
        urls: list[str] = []
        note = ""
        if owner is not None:
            own = owner.figures.get(field)
            if own is not None and own.source:
                found = _urls(own.source)
                urls += found
                note = "" if found else own.source
            urls += _urls(owner.source_urls)
        numbers = sorted(set(self._cite(url) for url in urls))
        return FigureCited(
            text=text,
            label=f"{name}, {label} {value}",
            verified=not unverified,
            citations=numbers,
            note=note,
            checks=[check],
        )

    @property
    def citations(self) -> list[Citation]:
        return sorted(self.by_url.values(), key=lambda c: c.number)
