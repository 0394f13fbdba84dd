"""`review_quote` as the tests drive it: the workload and facility written as JSON files beside
the quote, the command called in-process, its stdout and stderr handed back."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

from django.core.management import call_command


def review_command(
    tmp_path: Path,
    quote: Path,
    workload: dict[str, Any],
    facility: dict[str, Any],
    fmt: str = "json",
) -> tuple[str, str]:
    """(stdout, stderr) of `review_quote QUOTE --workload W.json --facility F.json --format`."""
    (tmp_path / "workload.json").write_text(json.dumps(workload), encoding="utf-8")
    (tmp_path / "facility.json").write_text(json.dumps(facility), encoding="utf-8")
    out, err = StringIO(), StringIO()
    call_command(
        "review_quote",
        str(quote),
        "--workload",
        str(tmp_path / "workload.json"),
        "--facility",
        str(tmp_path / "facility.json"),
        "--format",
        fmt,
        stdout=out,
        stderr=err,
    )
    return out.getvalue(), err.getvalue()
