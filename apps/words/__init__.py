"""The product's words and number formats, one module for every face.

The engine's findings, the page, the PDF and the CLI text all write a figure, a sum of money and
a vehicle the same way: 1,255.6 kW, USD 1,030,000.00, "a semi". Pure: no Django, so the engine
can use it as freely as the templates.
"""

from __future__ import annotations

import math

#: The field guide's vehicles, by the catalog's form factor.
VEHICLES: dict[str, str] = {
    "phone": "moped",
    "laptop": "motorcycle",
    "desktop": "compact car",
    "workstation": "sedan",
    "pcie_server": "work van",
    "nvl8_server": "semi",
    "rack_nvl72": "freight train",
}


def vehicle_name(form_factor: str) -> str:
    """`nvl8_server` -> "semi"; a form factor we do not know -> "unknown vehicle"."""
    return VEHICLES.get(form_factor, "unknown vehicle")


def number_format(value: float) -> str:
    """A figure as every face writes it: 1,500 and 247.5 and 1,255.6 and 0.27 and 12,600.

    Whole numbers print whole; below 10 two decimals, below 10,000 one, above that none
    (528,600 USD idle, not 528,600.0); trailing zeros go.
    """
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value!r}")
    magnitude = abs(value)
    if magnitude >= 10_000 or value == int(value):
        return f"{value:,.0f}"
    text = f"{value:,.1f}" if magnitude >= 10 else f"{value:,.2f}"
    return text.rstrip("0").rstrip(".")
