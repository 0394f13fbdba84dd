"""One voice: the review page, the PDF and the CLI text print the same figures for the same report.

Five shared examples go through the engine once (as `review_quote` runs it); the report is then
shown three ways: the review page (the account team's view), the PDF's HTML (what WeasyPrint lays
out, with the PDF's own text read back for one example) and `review_quote --format text`. From
each face we read the verdict, the verdict sentence, every sizing label with its value and unit,
every finding's title and every quoted system, and the three readings must be equal. A finding
that says 5.2 where the sizing table says 5.25, or "gpus needed" beside "GPUs needed", fails here.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from apps import words
from apps.reports.context import report_context_build
from apps.reports.render import report_html_from_context
from apps.reports.text import VERDICT_LINES
from apps.review.engine.schemas import ReviewReport
from apps.words import SIZING_ROWS, metric_value
from tests.conftest import EXAMPLES
from tests.reports.conftest import make_review

FACE_EXAMPLES = [
    "cement-truck-for-a-school-bus",
    "four-semis-in-a-2kw-room",
    "pcie-vans-for-one-finetune",
    "spark-for-a-department",
    "h200-semi-for-fp64",
    "work-van-for-rag",
]

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("catalog_db")]


# --- reading HTML --------------------------------------------------------------------------------


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    parts: list[str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    @property
    def text(self) -> str:
        return " ".join(unescape("".join(self.parts)).split())


class _Nodes(HTMLParser):
    """Every element with the text inside it (SVG titles included: they are text too)."""

    VOID = frozenset({"br", "img", "input", "meta", "link", "hr", "col", "source"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes: list[Node] = []
        self.open: list[Node] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.nodes.append(node)
        if tag not in self.VOID:
            self.open.append(node)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index].tag == tag:
                del self.open[index:]
                return

    def handle_data(self, data: str) -> None:
        for node in self.open:
            node.parts.append(data)


def nodes(html: str) -> list[Node]:
    parser = _Nodes()
    parser.feed(html)
    return parser.nodes


def with_class(all_nodes: list[Node], cls: str, tag: str | None = None) -> list[Node]:
    return [n for n in all_nodes if cls in n.classes and (tag is None or n.tag == tag)]


def inside(html: str, start: str, end: str) -> str:
    """The HTML between two markers: one section of a page."""
    head = html.index(start)
    return html[head : html.index(end, head)]


# --- what each face says -------------------------------------------------------------------------


@dataclass(frozen=True)
class Figures:
    verdict: str
    sentence: str
    sizing: list[tuple[str, str, str]]
    titles: list[str]
    systems: list[str]


def _clean(fragment: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def page_figures(html: str) -> Figures:
    all_nodes = nodes(html)
    (badge,) = with_class(all_nodes, "verdict-badge")
    (sentence,) = with_class(all_nodes, "verdict-sentence")
    sizing = [
        (_clean(label), _clean(value), _clean(unit))
        for label, value, unit in re.findall(
            r'<div class="sizing-row[^"]*" id="sizing-[a-z0-9_]+"><dt>(.*?)</dt><dd>'
            r'<span class="value">(.*?)</span> <span class="unit">(.*?)</span>',
            html,
        )
    ]
    titles = [
        _clean(strong)
        for paragraph in re.findall(r'<p class="finding-title">(.*?)</p>', html, re.S)
        for strong in re.findall(r"<strong>(.*?)</strong>", paragraph, re.S)
    ]
    vehicles = nodes(inside(html, 'id="vehicles"', "</section>"))
    systems = [n.text for n in vehicles if n.tag == "h3"]
    return Figures(badge.text, sentence.text, sizing, titles, systems)


def pdf_figures(html: str) -> Figures:
    all_nodes = nodes(html)
    (label,) = with_class(all_nodes, "verdict-label")
    (sentence,) = with_class(all_nodes, "verdict-sentence")
    table = inside(html, '<table class="sizing-table">', "</table>")
    sizing = [
        (_clean(a), _clean(b), _clean(c))
        for a, b, c in re.findall(
            r'<tr><td>(.*?)</td><td class="num">(.*?)</td><td>(.*?)</td></tr>', table
        )
    ]
    titles = [
        _clean(h3)
        for h3 in re.findall(r'<article class="finding[^"]*">\s*<h3>(.*?)</h3>', html, re.S)
    ]
    vehicles = nodes(inside(html, '<section class="vehicles">', "</section>"))
    systems = [re.sub(r" \([^)]*\)$", "", n.text) for n in vehicles if n.tag == "h3"]
    verdict = label.text.removeprefix("Verdict: ")
    return Figures(verdict, sentence.text, sizing, titles, systems)


# Each unit as every face prints it, one and many ("1 rack", "2 racks").
SIZING_UNITS = {
    shown
    for _key, _label, unit in words.SIZING_ROWS
    if unit
    for shown in (unit, words.unit_for(1, unit))
}


def text_figures(text: str) -> Figures:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Verdict: "))
    paragraph = " ".join(lines[start : lines.index("", start)]).removeprefix("Verdict: ")
    verdict = paragraph.split(" - ", 1)[0]
    # "Verdict: FAIL - <the field guide's line>" then the verdict sentence the page shows
    sentence = paragraph.removeprefix(VERDICT_LINES[verdict.lower()])
    sizing = []
    if "The numbers:" in lines:
        start = lines.index("The numbers:") + 1
        for line in lines[start : lines.index("", start)]:
            label, rest = line.strip().split(": ", 1)
            value, _, unit = rest.rpartition(" ")
            if unit not in SIZING_UNITS:  # a figure in words ("none: no rack here can take…")
                value, unit = rest, ""
            sizing.append((label, value, unit))
    start = lines.index("Findings, worst first:") + 1
    block = " ".join(lines[start : lines.index("", start)])
    titles = [t.strip() for t in re.findall(r"\[[A-Z]+ *\] (.*?)(?=\s{2,}|$)", block)]
    # "  - 2 × Supermicro SYS-521GE-TNRT, a work van: 4 × L40S …": the line as printed
    systems = [line[4:] for line in lines if line.startswith("  - ") and " × " in line]
    return Figures(verdict, " ".join(sentence.split()), sizing, titles, systems)


# --- the examples through the engine -------------------------------------------------------------


def example_report(name: str) -> ReviewReport:
    from apps.catalog.services import catalog_snapshot
    from apps.cli.management.commands.review_quote import quote_bytes_review
    from apps.review.inputs import facility_load, workload_load

    folder = EXAMPLES / name
    catalog = catalog_snapshot()
    workload = workload_load(str(folder / "workload.json"), catalog=catalog)
    facility = facility_load(str(folder / "facility.json"))
    _, report = quote_bytes_review(
        (folder / "quote.csv").read_bytes(),
        "quote.csv",
        workload=workload,
        facility=facility,
        catalog=catalog,
        workload_arg=str(folder / "workload.json"),
    )
    return report


def cli_text(name: str) -> str:
    from django.core.management import call_command

    folder: Path = EXAMPLES / name
    out = io.StringIO()
    call_command(
        "review_quote",
        str(folder / "quote.csv"),
        "--workload",
        str(folder / "workload.json"),
        "--facility",
        str(folder / "facility.json"),
        "--format",
        "text",
        stdout=out,
    )
    return out.getvalue()


def cli_json(name: str) -> dict[str, object]:
    from django.core.management import call_command

    folder: Path = EXAMPLES / name
    out = io.StringIO()
    call_command(
        "review_quote",
        str(folder / "quote.csv"),
        "--workload",
        str(folder / "workload.json"),
        "--facility",
        str(folder / "facility.json"),
        "--format",
        "json",
        stdout=out,
    )
    return json.loads(out.getvalue())


@pytest.mark.parametrize("name", FACE_EXAMPLES)
def test_page_pdf_and_cli_print_the_same_figures(name: str, demo, clients) -> None:
    report = example_report(name)
    # The CLI's JSON is the same report the faces are built from (and stays untouched).
    assert ReviewReport.model_validate(cli_json(name)).model_dump() == report.model_dump()

    review = make_review(
        organisation=demo["acme"], user=User.objects.get(username="account"), report=report
    )
    response = clients["account_team"].get(reverse("review:detail", args=[review.uuid]))
    assert response.status_code == 200
    page_html = response.content.decode()
    context = report_context_build(report=report, generated_on=dt.date(2026, 12, 1))
    pdf_html = report_html_from_context(context)
    text = cli_text(name)

    on_page, in_pdf, in_text = (
        page_figures(page_html),
        pdf_figures(pdf_html),
        text_figures(text),
    )

    # The verdict: "Fail" on the page badge, "Verdict: Fail" in the PDF, "FAIL - …" in the text.
    assert on_page.verdict == in_pdf.verdict == in_text.verdict.capitalize()
    assert on_page.sentence == in_pdf.sentence == in_text.sentence
    # Every sizing figure: same label, same value, same unit, same order.
    assert on_page.sizing == in_pdf.sizing == in_text.sizing
    assert len(on_page.sizing) >= 5
    # Every finding's title, on every face (the PDF and the text prefix the check's label, and
    # say it once where the title only repeats it: "Time to first token").
    titles = sorted(f.title for f in report.findings)
    assert sorted(on_page.titles) == titles
    labelled = sorted(words.finding_heading(_check(f.check), f.title) for f in report.findings)
    assert sorted(t.split(" ", 1)[1] for t in in_pdf.titles) == labelled
    # The text wraps at 96 columns, so its titles are read from the text with the wrapping undone.
    flat = " ".join(text.split())
    assert len(in_text.titles) == len(report.findings)
    for line in labelled:
        assert f"] {line} " in flat, line
    # A figure a finding shows and the sizing table shows is written the same (5.25, not 5.2).
    sized = {key: label for key, label, _ in SIZING_ROWS}
    table = {label: value for label, value, _ in on_page.sizing}
    for finding in report.findings:
        for key, value in finding.metrics.items():
            shown = value is not None and key in sized and sized[key] in table
            if shown and getattr(report.sizing, key) == value:
                assert metric_value(value) == table[sized[key]], (finding.check, key)
    # The systems: "2 × Supermicro SYS-521GE-TNRT" everywhere.
    systems = [f"{s.quantity} × {s.name}" for s in report.systems]
    assert on_page.systems == in_pdf.systems == systems
    assert len(in_text.systems) == len(systems)
    for system in systems:
        assert f"- {system}, a " in flat or f"- {system}: " in flat, system


def _check(check: str) -> str:
    from apps.words import check_label

    return check_label(check)


def test_the_pdf_itself_says_what_its_html_says(demo) -> None:
    """One example through WeasyPrint: the PDF's text carries the verdict, the sizing values and
    every finding title that the HTML above carries."""
    from pypdf import PdfReader

    from apps.reports.render import report_pdf_bytes

    report = example_report("four-semis-in-a-2kw-room")
    pdf = PdfReader(io.BytesIO(report_pdf_bytes(report)))
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)
    flat = text.replace("- ", "")
    context = report_context_build(report=report, generated_on=dt.date(2026, 12, 1))
    # The stylesheet sets the label in capitals ("VERDICT: FAIL"); the words are the same.
    assert f"verdict: {context.verdict_label}".lower() in text.lower()
    for row in context.sizing:
        assert row.label in text
    for finding in report.findings:
        assert " ".join(finding.title.split()[:4]) in flat
