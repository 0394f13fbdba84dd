"""Made-up vendor quotes of any length, from the catalog's own part numbers.

A big reseller quote is mostly not vehicles: for every server there are cables, optics, rails,
drives and a support contract. The mix here, fixed before anything was measured:

- 15 % catalog parts (systems, chassis, GPU cards, bridges: exact part-number matches),
- 45 % components ("QSFP112 400G DAC cable 3m", each with its own part number),
- 25 % services ("ProSupport Plus 3yr, site 17"),
- 15 % lines the catalog does not know ("Custom bracket assembly rev 812"): rapidfuzz has to
  look at every one of them, the matcher's most expensive path.

Every non-catalog line has its own part number, so the matcher's per-distinct-line cache does
not make a 10,000-line quote look cheaper than it is. Seeded: the same length gives the same file.

    python -m bench.quotes        # writes var/bench/data/quote-{1,100,500,1000,10000}.csv/.xlsx
                                  # and quote-100.pdf (the same 100 lines as a ruled PDF table)
"""

from __future__ import annotations

import csv
import io
import random
from decimal import Decimal

from apps.catalog.snapshot import CatalogSnapshot, snapshot_from_fixture

HEADER = ["Part Number", "Description", "Qty", "Unit Price", "Extended Price"]
LENGTHS = (1, 100, 500, 1000, 10_000)
COMPONENTS = (
    ("CBL", "QSFP112 400G DAC cable {n}m"),
    ("OPT", "OSFP 800G transceiver, multimode, {n}"),
    ("RAIL", "Rail kit for 4U chassis, set {n}"),
    ("SSD", "3.84TB NVMe SSD U.2, bay {n}"),
    ("PDU", "Switched PDU 3-phase 60A, unit {n}"),
    ("NIC", "ConnectX-7 400G NIC, port {n}"),
)
SERVICES = (
    ("SVC", "ProSupport Plus 3yr next business day, site {n}"),
    ("INS", "Installation and rack and stack, visit {n}"),
    ("LIC", "NVIDIA AI Enterprise licence 1yr, seat {n}"),
)
UNKNOWN = ("MISC", "Custom bracket assembly rev {n}")


def _price(rng: random.Random, low: int, high: int) -> Decimal:
    return Decimal(rng.randint(low * 100, high * 100)) / 100


def quote_rows(lines: int, catalog: CatalogSnapshot, *, seed: int = 8) -> list[list[object]]:
    """[part number, description, qty, unit price, extended price] × `lines`.

    A one-line quote is one DGX B200: the smallest review there is."""
    rng = random.Random(seed + lines)
    parts = sorted(catalog.parts, key=lambda p: (p.vendor, p.part_number))
    rows: list[list[object]] = []
    for n in range(1, lines + 1):
        draw = rng.random() if lines > 1 else 0.0
        if draw < 0.15:
            part = parts[0] if lines == 1 else rng.choice(parts)
            text = part.aliases[0] if part.aliases else part.part_number
            pn, desc = part.part_number, f"{part.vendor} {text}"
            qty, unit = rng.randint(1, 4), _price(rng, 2_000, 600_000)
        elif draw < 0.60:
            prefix, template = rng.choice(COMPONENTS)
            pn, desc = f"{prefix}-{n:05d}", template.format(n=n % 97 + 1)
            qty, unit = rng.randint(1, 64), _price(rng, 20, 4_000)
        elif draw < 0.85:
            prefix, template = rng.choice(SERVICES)
            pn, desc = f"{prefix}-{n:05d}", template.format(n=n)
            qty, unit = 1, _price(rng, 500, 90_000)
        else:
            prefix, template = UNKNOWN
            pn, desc = f"{prefix}-{n:05d}", template.format(n=n)
            qty, unit = rng.randint(1, 10), _price(rng, 5, 900)
        rows.append([pn, desc, qty, unit, unit * qty])
    return rows


def _letterhead(lines: int) -> list[list[object]]:
    return [
        ["Vendor", "Bench Systems"],
        ["Quote Number", f"BENCH-{lines}"],
        ["Date", "2026-11-02"],
        [],
    ]


def quote_csv(rows: list[list[object]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows(_letterhead(len(rows)))
    writer.writerow(HEADER)
    writer.writerows(rows)
    total = sum((Decimal(str(row[4])) for row in rows), Decimal(0))
    writer.writerow(["", "", "", "Total", total])
    return out.getvalue().encode()


def quote_xlsx(rows: list[list[object]]) -> bytes:
    """The same quote as a workbook; prices are numbers, as Excel stores them."""
    from openpyxl import Workbook

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("Quote")
    for row in _letterhead(len(rows)):
        sheet.append(row)
    sheet.append(HEADER)
    total = Decimal(0)
    for pn, desc, qty, unit, extended in rows:
        sheet.append([pn, desc, qty, float(unit), float(extended)])
        total += Decimal(str(extended))
    sheet.append(["", "", "", "Total", float(total)])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def quote_pdf(rows: list[list[object]]) -> bytes:
    """The same quote as a vendor's PDF: the letterhead, then a ruled table (fpdf2, as the
    PDF reader's tests build theirs) that runs over several pages, header repeated."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("helvetica", size=8)
    pdf.add_page()
    for key, value in _letterhead(len(rows))[:3]:
        pdf.cell(0, 5, f"{key}: {value}", new_x="LMARGIN", new_y="NEXT")
    total = sum((Decimal(str(row[4])) for row in rows), Decimal(0))
    with pdf.table(col_widths=(28, 82, 12, 30, 30), repeat_headings=1) as table:
        header = table.row()
        for text in HEADER:
            header.cell(text)
        for pn, desc, qty, unit, extended in rows:
            row = table.row()
            for text in (str(pn), str(desc), str(qty), f"{unit:,.2f}", f"{extended:,.2f}"):
                row.cell(text)
    pdf.cell(0, 6, f"Total: {total:,.2f}", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


#: PDF quotes are written for these lengths only (the what-if preview's).
PDF_LENGTHS = (100,)


def quotes_write() -> dict[str, int]:
    """Write every benchmark quote under var/bench/data/; their sizes in bytes."""
    from bench.common import DATA

    DATA.mkdir(parents=True, exist_ok=True)
    catalog = snapshot_from_fixture()
    sizes: dict[str, int] = {}
    for lines in LENGTHS:
        rows = quote_rows(lines, catalog)
        for suffix, data in (("csv", quote_csv(rows)), ("xlsx", quote_xlsx(rows))):
            path = DATA / f"quote-{lines}.{suffix}"
            path.write_bytes(data)
            sizes[path.name] = len(data)
        if lines in PDF_LENGTHS:
            path = DATA / f"quote-{lines}.pdf"
            path.write_bytes(quote_pdf(rows))
            sizes[path.name] = path.stat().st_size
    return sizes


if __name__ == "__main__":
    from bench.common import result_emit

    result_emit({"files": quotes_write()})
