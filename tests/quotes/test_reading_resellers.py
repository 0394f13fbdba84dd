"""Distributor and reseller quotes (Ingram Micro, Bechtle, Connection, WWT, Computacenter...):
the system line's own GPU count over dual-socket CPUs, India's IGST, Swiss and Indian number
grouping. tests/quotes/test_reading_corpus.py reads the full quotes these come from.
"""

from __future__ import annotations

from decimal import Decimal

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.intake import quote_intake
from apps.quotes.parsing.metadata import date_normalize, day_first, metadata_read
from tests.quotes.quote_text import csv_quote_read as read
from tests.quotes.quote_text import row_roles


def test_the_system_lines_gpu_count_beats_two_cpus_for_two_servers(
    catalog: CatalogSnapshot,
) -> None:
    # 2 servers, each "8x H200", sub-lines 8 GPUs and 2 CPUs: the 2 CPUs are per server
    # (dual socket), not one CPU per server quoted twice; the line's own 8x settles it.
    intake = read(
        catalog,
        '1,210-BDJV,"PowerEdge XE9680 Rack Server, 8x NVIDIA H200 141GB SXM5",2,285400,570800\n'
        "1.1,490-BKFP,NVIDIA HGX H200 141GB SXM5 700W GPU,8,Included,0.00\n"
        "1.2,338-CHSG,Intel Xeon Platinum 8568Y+ 2.3G 48C/96T,2,Included,0.00\n",
    )
    (xe9680,) = intake.systems
    assert (xe9680.quantity, xe9680.gpus_per_system) == (2, 8)
    assert intake.child_quantities == "per_system"


def test_india_igst_is_the_tax_line(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,MQM9790-NS2F,NVIDIA Quantum-2 QM9790 switch,1,"28,90,000.00","28,90,000.00"\n'
        ',,Sub Total,,,"28,90,000.00"\n'
        ',,IGST @ 18%,,,"5,20,200.00"\n'
        ',,Grand Total,,,"34,10,200.00"\n',
    )
    assert row_roles(intake) == ["accessory", "subtotal", "tax", "total"]
    assert intake.summary.total == Decimal("3410200.00")
    assert not intake.line_problems


def test_a_distributor_named_in_the_letterhead_is_the_vendor() -> None:
    found = metadata_read([["Ingram Micro India Pvt. Ltd."], ["Quotation No.", "IMI/26/4512"]])
    assert found["vendor"] == "Ingram Micro"


def test_a_discount_with_only_an_amount_is_not_an_unreadable_line(
    catalog: CatalogSnapshot,
) -> None:
    # Swiss reseller: the project discount has no quantity, only its (negative) amount.
    intake = read(
        catalog,
        "10;5124410;Lenovo ThinkSystem SR650a V4 Server;1;61’480.00;61’480.00\n"
        "50;;Projektrabatt 4%;;;-2’459.20\n"
        ";;Total exkl. MWST;;;59’020.80\n"
        ";;MWST 8.1%;;;4’780.70\n"
        ";;Total inkl. MWST;;;63’801.50\n",
        header="Pos.;Artikelnr.;Bezeichnung;Menge;Einzelpreis CHF;Total CHF\n",
    )
    assert row_roles(intake) == ["system", "discount", "subtotal", "tax", "total"]
    assert not [p for p in intake.line_problems if "could not be read" in p.title]


def test_an_optional_line_is_offered_not_ordered(catalog: CatalogSnapshot) -> None:
    # A reseller prices an optional extra server beside the quote: not a system, not in the
    # total (515,000 + 1,000 tax = 516,000 adds up without the optional 515,000).
    intake = read(
        catalog,
        "1,DGXB-G1440+P2CMI36,NVIDIA DGX B200,1,515000,515000\n"
        "2,DGXB-G1440+P2CMI36,Optional - additional NVIDIA DGX B200,1,515000,515000\n"
        ',,"Alternative: Financing: 36-month FMV lease $14,900.00/month",,,\n'
        ",,Subtotal,,,515000\n,,Sales Tax,,,1000\n,,Total,,,516000\n",
    )
    assert row_roles(intake) == ["system", "note", "note", "subtotal", "tax", "total"]
    assert [s.quantity for s in intake.systems] == [1]
    assert not intake.line_problems


def test_the_sell_price_beside_the_list_price_is_the_price(catalog: CatalogSnapshot) -> None:
    # Distributor layout: list, discount, sell. The lines add up at sell, not at list.
    intake = read(
        catalog,
        "1,920-9B210-00FN-0D0,NVIDIA Quantum-2 QM9790 switch,2,44995.00,89990.00,22%,35096.10,"
        "70192.20\n"
        ",,,,,,,Total,70192.20\n",
        header="Line,Mfr Part #,Description,Qty,Unit List,Ext List,Disc %,Unit Sell,Ext Sell\n",
    )
    (line,) = intake.summary.lines
    assert (line.unit_price, line.extended_price) == (Decimal("35096.10"), Decimal("70192.20"))
    assert not intake.line_problems


def test_an_alternates_per_server_says_nothing_of_the_ordered_sub_lines(
    catalog: CatalogSnapshot,
) -> None:
    # 4 servers with one 8-GPU board each, quoted as order totals; the alternate below is
    # priced "per server", which must not make 4 boards per server (32 GPUs in an XE9680).
    intake = read(
        catalog,
        "1,210-BDJV,PowerEdge XE9680 Rack Server,4,255750,1023000\n"
        "1.1,490-BKFN,NVIDIA HGX H200 141GB 700W SXM5 8-GPU Baseboard,4,0,0\n"
        "1.2,338-CHSG,Intel Xeon Platinum 8568Y+ Processor,8,0,0\n"
        '2,210-BDJV,"ALTERNATE: PowerEdge XE9680 with 8x H100 SXM5 (per server, not included)",'
        "1,209560,209560\n",
    )
    (xe9680,) = intake.systems
    assert (xe9680.quantity, xe9680.gpus_per_system) == (4, 8)
    assert intake.child_quantities == "totals"


def test_hpes_gpu_module_is_the_gpu_board(catalog: CatalogSnapshot) -> None:
    # HPE names the XD685's HGX board a "Module"; a memory module stays a component.
    intake = read(
        catalog,
        "1,P71671-B21,HPE ProLiant Compute XD685 8-GPU CTO Server,2,96450,192900\n"
        "1.1,P74372-B21,HPE XD685 NVIDIA HGX B200 180GB 8-GPU Air-Cooled Module,2,271300,542600\n"
        "1.2,P64986-B21,HPE 64GB Dual Rank x4 DDR5-6400 Registered Memory Module,48,742,35616\n",
    )
    assert row_roles(intake) == ["system", "gpu_board", "component"]
    (xd685,) = intake.systems
    assert (xd685.quantity, xd685.gpus_per_system, xd685.nvlink_domain_gpus) == (2, 8, 8)


def test_a_pound_or_rupee_quote_writes_the_day_first() -> None:
    found = metadata_read([["Quotation Date: 02/06/2026"], ["Currency: GBP"]])
    assert date_normalize(found["quote_date"], day_first=day_first(".", "GBP")) == "2026-06-02"
    assert date_normalize("02/06/2026", day_first=day_first(".", "USD")) == "2026-02-06"


def test_a_resellers_own_work_on_the_order_is_a_service(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '6,CC-LOGISTICS,"Configuration Centre build, asset tagging",1,1350,1350\n'
        "7,ZSTAGE,Staging and imaging of workstations,10,85,850\n",
    )
    assert row_roles(intake) == ["service", "service"]


def test_a_japanese_quote_is_read(catalog: CatalogSnapshot) -> None:
    # 御見積書 with 品番 / 品名 / 数量 / 単価 / 金額 and full-width yen: read as any other quote.
    body = "御見積書\n見積番号,TF-2026-0611-08\n\nNo.,品番,品名,数量,単価,金額\n"
    body += (
        '1,SYS-421GE-TNRT3,Supermicro GPUサーバー SYS-421GE-TNRT3,3,"￥9,850,000","￥29,550,000"\n'
    )
    intake = quote_intake(body.encode(), "quote.csv", catalog)
    (line,) = intake.summary.lines
    # 3 × ¥9,850,000 = ¥29,550,000
    assert (line.quantity, line.unit_price, line.extended_price) == (
        3,
        Decimal("9850000"),
        Decimal("29550000"),
    )
    assert [s.quantity for s in intake.systems] == [3]


def test_a_german_on_call_position_is_not_ordered(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        "10;4879120;GIGABYTE G893-SD1-AAX5 8HE HGX B200 Server;2;398.500,00;797.000,00\n"
        "50;4879120;Eventualposition: weiteres GIGABYTE G893-SD1-AAX5 wie Pos. 10;1;"
        "398.500,00;398.500,00\n"
        ";;Summe netto;;;797.000,00\n",
        header="Pos.;Artikelnr.;Bezeichnung;Menge;Einzelpreis;Gesamtpreis\n",
    )
    assert row_roles(intake) == ["system", "note", "total"]  # the only sum row is the total
    assert [s.quantity for s in intake.systems] == [2]
    assert not intake.line_problems


def test_a_catalog_name_with_a_parenthesis_inside_keeps_its_model(
    catalog: CatalogSnapshot,
) -> None:
    intake = read(catalog, "1,6NG893SD1DR-000,GIGABYTE G893-SD1-AAX5 HGX B200 Server,1,1,1\n")
    (system,) = intake.systems
    assert system.name.startswith("Gigabyte G893-SD1-AAX5")


def test_cgst_and_sgst_are_both_the_tax(catalog: CatalogSnapshot) -> None:
    # Within one Indian state GST is charged as two halves; the total holds both.
    intake = read(
        catalog,
        '1,7DHECTO1WW,Lenovo ThinkSystem SR680a V3 8x H200,1,"3,15,00,000.00","3,15,00,000.00"\n'
        ',,Taxable Value,,,"3,15,00,000.00"\n'
        ',,CGST @ 9%,,,"28,35,000.00"\n'
        ',,SGST @ 9%,,,"28,35,000.00"\n'
        ',,Total Amount,,,"3,71,70,000.00"\n',
    )
    assert row_roles(intake) == ["system", "subtotal", "tax", "tax", "total"]
    assert not intake.line_problems


def test_a_company_alone_on_the_first_row_is_the_vendor() -> None:
    found = metadata_read([["Redington Limited"], ["Quotation No.", "RIL/CHN/2026/7781"]])
    assert found["vendor"] == "Redington Limited"
    assert metadata_read([["Offre n°: OF-88123"]])["quote_number"] == "OF-88123"


def test_a_line_note_naming_gpus_is_a_note(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,SYS-821GE-TNHR,"SuperServer SYS-821GE-TNHR HGX H200 8-GPU",3,289000,867000\n'
        ',,"Line Note: configured per attached BOM, 8x H200 SXM5 141GB per server",,,\n',
    )
    assert row_roles(intake) == ["system", "note"]
    (system,) = intake.systems
    assert (system.quantity, system.gpus_per_system) == (3, 8)


def test_a_line_typed_optional_is_not_ordered(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        'Hardware,210-BDJV,"Dell PowerEdge XE9680 Server, 8x H200 SXM5",2,262400,524800\n'
        'Optional,210-BDJV,"Dell PowerEdge XE9680 Server, 8x H200 SXM5",1,262400,262400\n'
        ",,Sub Total,,,524800\n",
        header="Type,Manufacturer Part No,Description,Qty,Unit Price,Line Total\n",
    )
    assert row_roles(intake) == ["system", "note", "total"]  # the only sum row is the total
    assert [s.quantity for s in intake.systems] == [2]
    assert not intake.line_problems


def test_canadas_gst_and_pst_then_total_tax_count_once(catalog: CatalogSnapshot) -> None:
    intake = read(
        catalog,
        '1,210-BDJV,"Dell PowerEdge XE9680, 8x NVIDIA H200 SXM5",1,395000.00,395000.00\n'
        ",,Subtotal,,,395000.00\n,,GST 5%,,,19750.00\n,,PST 7%,,,27650.00\n"
        ",,Total Tax,,,47400.00\n,,Total,,,442400.00\n",
    )
    assert row_roles(intake) == ["system", "subtotal", "tax", "tax", "tax", "total"]
    assert not intake.line_problems


def test_a_trade_in_with_a_negative_quantity_is_a_credit(catalog: CatalogSnapshot) -> None:
    # "-2 | 1,700.00 | -3,400.00": two old servers traded in, not an unreadable quote.
    intake = read(
        catalog,
        "1,P74461-B21,HPE ProLiant Compute DL380a Gen12 8DW GPU CTO Server,2,38950.00,77900.00\n"
        "2,TRADE-IN,Trade-in: HPE ProLiant DL380 Gen10 (customer owned),-2,1700.00,-3400.00\n"
        ",,Total,,,74500.00\n",
    )
    assert row_roles(intake) == ["system", "discount", "total"]
    assert [s.quantity for s in intake.systems] == [2]
    assert not intake.line_problems


def test_qty_per_system_and_the_number_of_systems_in_one_cell(catalog: CatalogSnapshot) -> None:
    # A distributor prices one system ("Qty per System") and states the count in a cell of
    # its own: 4 servers of 8 H200, the total 4 × the per-system lines.
    intake = read(
        catalog,
        ",,Number of Systems: 4,,,\n"
        "1,SYS-821GE-TNHR,Supermicro SuperServer SYS-821GE-TNHR,1,95000.00,95000.00\n"
        "2,GPU-NVHGX-H200-8,NVIDIA HGX H200 8-GPU 141GB baseboard,1,240000.00,240000.00\n"
        "3,P4X-EMR8568Y,Intel Xeon Platinum 8568Y+,2,6900.00,13800.00\n"
        ",,Total per System,,,348800.00\n"
        ",,Total (4 Systems),,,1395200.00\n",
        header="Item,Part Number,Description,Qty per System,Unit Price,Extended Price\n",
    )
    (system,) = intake.systems
    assert (system.quantity, system.gpus_per_system) == (4, 8)
    assert row_roles(intake)[0] == "note"
    assert not [p for p in intake.line_problems if p.severity == "warning"]
