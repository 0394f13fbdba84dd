"""The committed calibration: where its parameters came from and how well they fit."""

from __future__ import annotations

import json

from apps.review.engine.sizing.calibration import CALIBRATION_PATH, calibration


def test_the_calibration_names_its_source_and_its_fit() -> None:
    data = json.loads(CALIBRATION_PATH.read_text(encoding="utf-8"))
    assert "aiconfigurator 0.12" in calibration().source
    assert data["provenance"]["grid"] == "fixtures/reference/aic_grid.jsonl.gz"
    headline = data["fit"]["H100/H200/B200/GB200 batch 1"]
    # single-stream: at least 90 % of the 432 batch-1 cases within ±25 % of aiconfigurator
    assert headline["cases"] == 432 and headline["within_25pct"] >= 0.90
    # the desk efficiency is the measured DGX Spark one, not fitted: 0.70
    assert calibration().bandwidth_efficiency_desk == 0.70
