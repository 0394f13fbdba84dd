"""Layouts and languages the reader misread before (corpus folders added with them: Italian,
Spanish, Brazilian, Dutch and Polish quotes, a SuperCluster sold as racks, a lease, unpriced
lines, a configuration paragraph, Intel Gaudi 3, one sheet per configuration). Each test
names the misreading it guards against."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.bom_domains import rack_domain
from apps.quotes.bom_gpus import gpu_mention
from apps.quotes.bom_words_foreign import first_word_category
from apps.quotes.intake import QuoteIntake, quote_intake
from apps.quotes.parsing.headers import header_map
from apps.quotes.parsing.metadata import metadata_read
from apps.quotes.parsing.numbers import amount_parse
from apps.quotes.parsing.seller import seller_read, vendor_normalize
from apps.quotes.parsing.summary import summary_kind
from apps.quotes.parsing.xlsx_configs import sheets_named_by

HEADER = "Line,Part Number,Description,Qty,Unit Price,Extended Price\n"
BOMS = Path(__file__).resolve().parent.parent / "fixtures" / "boms"


def read(catalog: CatalogSnapshot, body: str) -> QuoteIntake:
    return quote_intake((HEADER + body).encode(), "quote.csv", catalog)


@pytest.mark.parametrize(
    "cells",
    [
        # before: "no header row found" for each of these quotes
        ["Pos.", "Codice", "Descrizione", "Quantità", "Prezzo unitario", "Totale"],
        ["Item", "Código", "Descrição", "Quantidade", "Valor unitário (R$)", "Valor total (R$)"],
        ["Regel", "Artikelnummer", "Omschrijving", "Aantal", "Stukprijs", "Bedrag"],
        ["Lp.", "Nr katalogowy", "Opis", "Ilość", "Cena jedn. netto", "Wartość netto"],
    ],
)
def test_italian_portuguese_dutch_and_polish_headers(cells: list[str]) -> None:
    mapping = header_map(cells)
    assert mapping["description"] == 2 and mapping["quantity"] == 3
    assert mapping["unit_price"] == 4 and mapping["extended_price"] == 5


def test_the_polish_net_value_is_the_price_not_the_gross_beside_it() -> None:
    cells = ["Lp.", "Opis", "Ilość", "Cena jedn. netto", "Wartość netto", "VAT %", "Wartość brutto"]
    assert header_map(cells)["extended_price"] == 4


@pytest.mark.parametrize(
    ("rows", "number", "date"),
    [
        (
            [["Offerta n.", "SAC-OF-2026-0418"], ["Data offerta", "22/05/2026"]],
            "SAC-OF-2026-0418",
            "22/05/2026",
        ),
        (
            [["Presupuesto nº", "IHS-P-26-0672"], ["Fecha", "03/06/2026"]],
            "IHS-P-26-0672",
            "03/06/2026",
        ),
        (
            [["Proposta comercial nº", "NFT-2026-1187"], ["Data", "15/06/2026"]],
            "NFT-2026-1187",
            "15/06/2026",
        ),
        (
            [["Oferta nr", "OWM/2026/05/214"], ["Data wystawienia", "2026-05-28"]],
            "OWM/2026/05/214",
            "2026-05-28",
        ),
    ],
)
def test_title_labels_in_more_languages(rows: list[list[str]], number: str, date: str) -> None:
    found = metadata_read(rows)
    assert (found["quote_number"], found["quote_date"]) == (number, date)
    assert found["date_order"] == "day_first"


def test_a_seller_named_data_is_no_date_label() -> None:
    # "Data" is now the Italian/Portuguese/Polish date label; "Data#3 Limited" split at its
    # "#" must not give the date "3" (it did, for the Data#3 corpus quote, once "data" was a label)
    found = metadata_read([["Data#3 Limited"], ["Quote Date:", "17/06/2026"]])
    assert found["quote_date"] == "17/06/2026"


@pytest.mark.parametrize(
    ("label", "kind"),
    [
        ("Imponibile", "subtotal"),
        ("IVA 22%", "tax"),
        ("Totale offerta (IVA inclusa)", "total"),
        ("ICMS (18%)", "tax"),
        ("Valor total da proposta", "total"),
        ("Subtotaal excl. BTW", "subtotal"),
        ("BTW 21%", "tax"),
        ("Totaal incl. BTW", "total"),
        ("Razem netto", "subtotal"),
        ("Razem brutto", "total"),
    ],
)
def test_summary_rows_in_more_languages(label: str, kind: str) -> None:
    assert summary_kind([label]) == kind


@pytest.mark.parametrize("text", ["Call for pricing", "POA", "Price on request", "TBC"])
def test_an_unpriced_cell_is_no_amount(text: str) -> None:
    # before: "Call for pricing" was an unreadable cell, a warning about the line
    assert amount_parse(text) is None


def test_included_in_italian_is_zero() -> None:
    assert amount_parse("incluso") == Decimal("0")


@pytest.mark.parametrize(
    ("head", "category"),
    [
        ("Garantía 5 años in situ", "service"),  # before: an accessory
        ("Installazione e messa in servizio presso il cliente", "service"),
        ("Instalação e configuração no local", "service"),
        ("Servidor Supermicro A+ AS-4126GS-NMR-LCC", "system"),  # before: an accessory
        ("Transport en verpakking", "freight"),
        # English heads are read by their last noun: never by an English first word
        ("Cable labeling and test report", ""),
        ("Extension cable, 2m", ""),
    ],
)
def test_a_name_first_head_is_what_its_first_word_names(head: str, category: str) -> None:
    assert first_word_category(head) == category


def test_a_polish_legal_form_is_a_company_name() -> None:
    # before: "Sp. z o.o." has lower-case words, so the letterhead was no name: vendor ""
    seller = seller_read([["Obliczenia Wysokiej Mocy Sp. z o.o."], ["Oferta nr", "OWM/1"]])
    assert vendor_normalize(seller) == "obliczenia wysokiej mocy"


def test_a_rack_of_hgx_servers_is_not_one_nvlink_domain() -> None:
    # 8 HGX B200 nodes in a rack: 8 × 8 = 64 GPUs, 8 NVLink domains of 8 (before: one of 64)
    assert rack_domain(64, 8, "nvl8_server") == 8
    # a GB200 NVL72 rack is one domain of its 72 GPUs
    assert rack_domain(72, 72, "rack_nvl72") == 72


def test_eight_gpus_per_board_in_spanish_is_a_board(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,AS-4126GS-NMR-LCC,"Servidor Supermicro AS-4126GS-NMR-LCC, 4U",2,300000.00,600000.00\n'
        '1.1,GPU-MI355X,"AMD Instinct MI355X 288GB OAM, 8 GPU por placa",1,0.00,0.00\n',
    )
    assert [role for _row, role in intake.row_roles] == ["system", "gpu_board"]
    # 2 servers × one board of 8 = 16
    assert sum(s.quantity * s.gpus_per_system for s in intake.systems) == 16


def test_bridges_tell_order_totals(catalog: CatalogSnapshot) -> None:
    # 4 four-way bridges per server would bridge 4 × 4 = 16 GPUs of the 8 the line names;
    # as the order's, 16 / 2 servers = 8: totals. Before: "cannot be told", a warning.
    intake = read(
        catalog,
        '1,ESC8000-E12P,"ASUS ESC8000-E12P, 8x NVIDIA H200 NVL 141GB",2,300000.00,600000.00\n'
        "2,NVL-BRG-4WAY,NVIDIA H200 NVL 4-way NVLink bridge,4,0.00,0.00\n",
    )
    assert intake.child_quantities == "totals"
    assert not [p for p in intake.line_problems if p.severity == "warning"]
    (system,) = intake.systems
    assert (system.gpus_per_system, system.nvlink_domain_gpus) == (8, 4)


def test_a_configuration_paragraph_gives_the_system_its_gpus(catalog: CatalogSnapshot) -> None:
    # before: the paragraph was a second system ("node") and the first had no GPU
    intake = read(
        catalog,
        "1,XG-880,Ardent Forge XG-880 8U GPU compute node,4,278600.00,1114400.00\n"
        ',,"Each node: 8x NVIDIA H200 SXM5 141GB on NVLink baseboard, 2x Xeon 8568Y+",,0.00,0.00\n',
    )
    assert [role for _row, role in intake.row_roles] == ["system", "note"]
    (system,) = intake.systems
    # 4 nodes × 8 H200 = 32
    assert (system.quantity, system.gpus_per_system, system.nvlink_domain_gpus) == (4, 8, 8)
    assert intake.child_quantities == "none"


def test_a_summary_sentence_without_amount_is_a_note(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        "1,X,PowerEdge R760 server,1,10000.00,10000.00\n"
        ",,Total,,,10000.00\n"
        ",,Sales tax is billed monthly on each lease payment,,,\n",
    )
    assert [role for _row, role in intake.row_roles] == ["system", "total", "note"]
    assert intake.summary.total == Decimal("10000.00")


def test_intel_gaudi_3_is_a_catalog_accelerator(catalog: CatalogSnapshot) -> None:
    mention = gpu_mention("PowerEdge XE9680 with 8x Intel Gaudi 3 AI accelerators 128GB OAM")
    assert mention is not None and (mention.key, mention.count) == ("gaudi3", 8)
    gaudi = catalog.gpu_by_key["gaudi3"]
    assert gaudi.memory_gb == 128 and gaudi.nvlink_domain_gpus == 8 and gaudi.joins_its_board
    # the third-party rates are marked unverified ("~")
    assert gaudi.figures["bf16_tflops"].verified is False


def test_a_summary_sheet_naming_each_sheet_makes_them_one_quote() -> None:
    summary = [(1, ["Configuration", "Sheet"]), (2, ["Training", "Config 1 - Training"])]
    summary += [(3, ["Inference", "Config 2 - Inference"])]
    assert sheets_named_by(summary, ["Config 1 - Training", "Config 2 - Inference"])
    assert not sheets_named_by(summary, ["Config 1 - Training", "Option B"])


def test_one_sheet_per_configuration_reads_both(catalog: CatalogSnapshot) -> None:
    # before: SheetChoiceNeeded, two sheets that look like quotes
    folder = BOMS / "granitepeak-lenovo-one-sheet-per-configuration-gbp-xlsx"
    intake = quote_intake((folder / "quote.xlsx").read_bytes(), "quote.xlsx", catalog)
    # 4 × 8 B300 + 6 × 4 RTX PRO 6000 = 32 + 24 = 56
    assert sum(s.quantity * s.gpus_per_system for s in intake.systems) == 56
    assert intake.parsed.currency == "GBP"  # from the summary sheet


def test_a_numbering_that_starts_again_nests_under_the_nearer_line(
    catalog: CatalogSnapshot,
) -> None:
    intake = read(
        catalog,
        "1,SR680A,Lenovo ThinkSystem SR680a V3 server,2,300000.00,600000.00\n"
        "1.1,B200-BRD,NVIDIA HGX B200 8-GPU board,1,0.00,0.00\n"
        "1,SR650A,Lenovo ThinkSystem SR650a V4 server,3,40000.00,120000.00\n"
        "1.1,L40S,NVIDIA L40S 48GB PCIe GPU,2,0.00,0.00\n",
    )
    got = sorted((s.quantity, s.gpus_per_system) for s in intake.systems)
    # 2 × 8 B200 under the first "1", 3 × 2 L40S under the second
    assert got == [(2, 8), (3, 2)]


@pytest.mark.parametrize(
    ("head", "category"),
    [
        ("Frais de port", "freight"),  # before: an accessory, "not in the catalog"
        ("Spese di spedizione", "freight"),
        ("Frais d'installation sur site", "service"),
    ],
)
def test_a_charge_head_is_read_by_the_words_after_it(head: str, category: str) -> None:
    assert first_word_category(head) == category


def test_a_lease_total_per_month_is_not_the_quote_total(catalog: CatalogSnapshot) -> None:
    # a lease quoting monthly payments instead of prices: before, its "Total monthly
    # payment" (1 month of 36) was read as what the systems cost
    body = (
        "Qty,Part,Description,Monthly Payment (36 mo),Term\n"
        '2,XE9680,"Dell PowerEdge XE9680, 8x NVIDIA H200 SXM",24850.00,36\n'
        ",,Total monthly payment,24850.00,\n"
    )
    intake = quote_intake(body.encode(), "quote.csv", catalog)
    assert intake.summary.total is None
    # 2 × 8 H200 = 16: the systems are read all the same
    assert sum(s.quantity * s.gpus_per_system for s in intake.systems) == 16


def test_a_monthly_column_beside_the_prices_leaves_the_price_total(
    catalog: CatalogSnapshot,
) -> None:
    folder = BOMS / "pinecrest-lease-dell-xe9785l-mi355x-monthly-payment-column"
    intake = quote_intake((folder / "quote.csv").read_bytes(), "quote.csv", catalog)
    # 2 × 438,500 + 2 × 46,200 + 2 × 11,800 + 16 × 395 = 999,320 (not the 29,779.74 a month)
    assert intake.summary.total == Decimal("999320.00")


@pytest.mark.parametrize(
    ("cells", "part", "quantity", "unit"),
    [
        # before: "Item" (the line counter) was the part number beside "Código"
        (["Item", "Código", "Descrição", "Qtde.", "Vlr. Unit.", "Vlr. Total"], 1, 3, 4),
        # before: no quantity (Q.tà), no unit price (P.U. HT, Precio Ud.)
        (["Cod.", "Descrizione", "Q.tà", "Prezzo Unit.", "Importo"], 0, 2, 3),
        (["Référence", "Désignation", "Qté", "P.U. HT", "Total HT"], 0, 2, 3),
        (["Referencia", "Descripción", "Uds.", "Precio Ud.", "Total"], 0, 2, 3),
        # "Item" alone is still the part column it always was
        (["Item", "Description", "Qty", "Price"], 0, 2, 3),
    ],
)
def test_abbreviated_headers(cells: list[str], part: int, quantity: int, unit: int) -> None:
    mapping = header_map(cells)
    assert (mapping["part_number"], mapping["quantity"], mapping["unit_price"]) == (
        part,
        quantity,
        unit,
    )
