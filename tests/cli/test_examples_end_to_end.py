"""All 24 shared examples end to end through `review_quote` (quote file parsed and read by
intake, then reviewed), judged with check_examples.py's own comparisons: the eight real bills
of materials (Dell configurator, HPE OCA totals, Lenovo XLSX, Cisco bundle, Gigabyte PDF,
HP workstation, a renewal-only quote) as well as the field guide's one-line quotes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_review_quote_command import run
from tests.conftest import EXAMPLES
from tests.review.engine.test_engine_examples import _problems

pytestmark = pytest.mark.usefixtures("catalog_db")

FOLDERS = sorted(p for p in EXAMPLES.iterdir() if (p / "expect.json").exists())


def _params() -> list[object]:
    # every example holds, the Hugging Face model id one included (the catalog reads repo ids)
    return [pytest.param(folder, id=folder.name) for folder in FOLDERS]


def test_all_24_examples_are_here() -> None:
    assert len(FOLDERS) == 24


@pytest.mark.parametrize("folder", _params())
def test_example_holds_end_to_end(folder: Path) -> None:
    expect = json.loads((folder / "expect.json").read_text(encoding="utf-8"))
    quote = next(p for p in sorted(folder.iterdir()) if p.stem == "quote")
    code, out, err = run(
        str(quote),
        "--workload",
        str(folder / "workload.json"),
        "--facility",
        str(folder / "facility.json"),
        "--format",
        "json",
    )
    assert code == expect.get("exit", 0), err
    if code != 0:
        assert err.startswith("error:") and "Traceback" not in err
        if expect.get("stderr_has"):
            assert expect["stderr_has"].lower() in err.lower()
        return
    assert _problems(expect, json.loads(out)) == []
