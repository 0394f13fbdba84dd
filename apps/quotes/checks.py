"""Startup checks: quote parsing must never run with a plain XML parser (RELIABILITY 6)."""

from __future__ import annotations

from typing import Any

from django.core.checks import CheckMessage, Error, register

from apps.quotes.parsing.xlsx_reader import defusedxml_check


@register()
def defusedxml_active(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """openpyxl must parse through defusedxml, so a billion-laughs sheet cannot expand."""
    if defusedxml_check():
        return []
    return [
        Error(
            "openpyxl is not using defusedxml: XLSX uploads could carry XML bombs.",
            hint="Install defusedxml (a project dependency) in this environment.",
            id="quotes.E001",
        )
    ]
