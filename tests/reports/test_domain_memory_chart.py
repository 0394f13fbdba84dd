"""The memory chart compares what must ride in ONE NVLink domain with that domain.

For inference that is one copy of the weights plus one conversation (other users ride in other
copies); for training it is the whole job. Drawing the whole inference job against one domain
made a passing quote look split (a work van of 96 GB cards "at 258 %").
"""

import html
import re

import pytest

from apps.reports import page
from tests.review.engine.engine_kit import quoted_system, run

SERVER_ROOM = {
    "name": "Server room", "site": "datacenter", "rack_power_kw": 15, "racks_available": 4,
    "cooling": "air", "floor_load_lb_per_sqft": 250,
}  # fmt: skip
RAG = {
    "name": "RAG for 100", "kind": "rag", "model": "Qwen3-32B", "precision": "fp8",
    "context_tokens": 8192, "concurrent_users": 100, "tokens_per_sec_per_user": 15,
}  # fmt: skip


def _memory_chart(report):
    (chart,) = [c for c in page.charts(report) if c.key == "memory"]
    return chart


def test_inference_domain_memory_is_one_copy_and_one_conversation(catalog):
    report = run(catalog, [quoted_system(catalog, "rtx-pro-server-8x")], RAG, SERVER_ROOM)
    # weights 32.8 B x 1 byte = 32.8 GB
    # one conversation: 2 x 64 layers x 8 KV heads x 128 x 1 byte (FP8 KV, following the FP8
    # weights; was 2 bytes) x 8,192 tokens = 1.074 GB
    # one domain must hold 32.8 + 1.074 = 33.87 GB; the whole job holds 100 conversations:
    # 32.8 + 100 x 1.074 = 140.17 GB, spread over several copies
    assert report.sizing.domain_job_memory_gb == pytest.approx(33.87, abs=0.01)
    assert report.sizing.job_memory_gb == pytest.approx(140.17, abs=0.01)
    assert report.sizing.nvlink_domain_memory_gb == 96.0  # one RTX PRO 6000, PCIe only

    chart = _memory_chart(report)
    assert "One model copy against one NVLink domain" in chart.svg
    assert "33.9" in chart.svg or "34" in chart.svg
    assert "140.2" not in chart.svg
    assert report.worst("nvlink_domain") in {"ok", "info"}


def test_training_domain_memory_is_the_whole_job(catalog):
    report = run(
        catalog,
        [quoted_system(catalog, "dgx-b200")],
        {"name": "Full fine-tune", "kind": "fine_tuning", "memory_gb": 512},
        SERVER_ROOM,
    )
    assert report.sizing.domain_job_memory_gb == report.sizing.job_memory_gb == 512
    chart = _memory_chart(report)
    assert "Biggest job against one NVLink domain" in chart.svg
    # 512 GB of a 1,546.2 GB domain (8 x 180 GiB = 8 x 193.27 GB, HBM is binary) = 33.1 %
    assert re.search(r"33\.1\s*%", chart.svg)


def _svg_texts(svg: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg)]


def test_the_pdf_prints_each_charts_title_and_summary_as_text_the_svg_leaves_out(catalog):
    # The page's charts draw every word in SVG; the PDF's (text_outside) carry the title and the
    # line of figures as `title` / `summary` and draw the rest: together, the same words.
    report = run(catalog, [quoted_system(catalog, "rtx-pro-server-8x")], RAG, SERVER_ROOM)
    drawn = page.charts(report)
    printed = page.charts(report, text_outside=True)
    assert [c.key for c in printed] == [c.key for c in drawn]
    assert {"memory", "users", "rack", "rack-row"} <= {c.key for c in printed}
    for inside, outside in zip(drawn, printed, strict=True):
        assert inside.title == inside.summary == ""
        assert outside.caption == inside.caption
        words = _svg_texts(outside.svg)
        assert outside.title and outside.title not in words
        assert outside.summary not in words
        moved = [outside.title] + ([outside.summary] if outside.summary else [])
        assert sorted(words + moved) == sorted(_svg_texts(inside.svg))
    memory = next(c for c in printed if c.key == "memory")
    assert memory.title == "One model copy against one NVLink domain"
    assert re.fullmatch(r"Demand is [\d.]+% of capacity", memory.summary)
