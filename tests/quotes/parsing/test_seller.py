"""The vendor of a quote is the seller its letterhead names, found from the letterhead's
shape: sellers we have never heard of, in every layout below, and never the maker of what
they sell nor the customer they sell it to."""

from __future__ import annotations

import pytest

from apps.quotes.parsing import parse_upload
from apps.quotes.parsing.metadata import metadata_read
from apps.quotes.parsing.seller import seller_read, vendor_normalize
from tests.quotes.parsing.conftest import csv_bytes

QUOTE_ROWS = [["Quote #", "Q-2026-0101"], ["Date", "2026-05-04"], ["Currency", "USD"]]


@pytest.mark.parametrize(
    ("letterhead", "seller"),
    [
        # A distributor's quote names the reseller it sells to: the company heading the
        # letterhead sent it, the "Reseller:" label names its buyer.
        (
            [
                ["Ingram Micro Inc. - Advanced Solutions Quote"],
                ["Reseller: Brightline Systems LLC"],
                ["End User: Pacific Coast Materials Lab"],
            ],
            "Ingram Micro",
        ),
        # Under a bare quote title with no company line, the channel label names the seller.
        ([["Quotation"], ["Authorized Reseller: Vireo Data Ltd"]], "Vireo Data Ltd"),
        # A maker's configurator names itself after the maker: HP's own tool, spelled our way.
        ([["HP Inc. Workstation Configurator"]], "HP"),
        # A reseller's name, then the maker it partners with: the tagline is no seller.
        (
            [["Summit Ridge Systems, Inc. - Supermicro Premier Partner"]],
            "Summit Ridge Systems, Inc.",
        ),
        # A partner's tagline on its own row under the seller's name.
        (
            [["Keystone AI Infrastructure"], ["NVIDIA Partner Network - Elite Solution Provider"]],
            "Keystone AI Infrastructure",
        ),
        # The maker's logo above the partner's legal name: the partner sends the quote.
        ([["NVIDIA"], ["Orion Compute Partners Ltd"]], "Orion Compute Partners Ltd"),
        # The top-left company block, no legal form: name, street address, web address.
        (
            [["Puget Systems"], ["26265 Pacific Hwy S, Kent, WA 98032"], ["pugetsystems.com"]],
            "Puget Systems",
        ),
        # The maker's name with "via" the integrator who quotes it.
        (
            [["GIGA COMPUTING TECHNOLOGY CO., LTD. - via Atlas Systems Integration Pte Ltd"]],
            "Atlas Systems Integration Pte Ltd",
        ),
        # An aside in brackets and a title after the dash are not part of the name.
        (
            [["Ingrasys Technology Inc. (Foxconn) - Quotation"]],
            "Ingrasys Technology Inc.",
        ),
        # A two-column letterhead: the seller on the left, the customer's name on the right.
        (
            [["Price Estimate"], ["Cisco Systems, Inc.", "RIVERSIDE COMMUNITY COLLEGE"]],
            "Cisco",
        ),
        # A role in the left column is nobody's name; the company under it is.
        (
            [["Partner Account Manager", "CASCADIA STATE UNIVERSITY"], ["Vireo Data Ltd", "WA"]],
            "Vireo Data Ltd",
        ),
        # A Japanese letterhead: the document title, then the company (株式会社...).
        (
            [["御見積書"], ["株式会社東京GPUシステムズ"], ["お客様", "北陸先端AI研究所 御中"]],
            "株式会社東京GPUシステムズ",
        ),
        # A Korean one: 견적서 (quotation), the company (주식회사...), 수신 (to) the customer.
        (
            [["견적서"], ["주식회사 한빛데이터시스템"], ["수신", "한국과학기술원 AI대학원 귀중"]],
            "주식회사 한빛데이터시스템",
        ),
        (
            [["견적서"], ["수신: 주식회사 서울AI랩 귀중"], ["공급자: 주식회사 한빛데이터시스템"]],
            "주식회사 한빛데이터시스템",
        ),
        # A Chinese letterhead: 有限公司 is the legal form.
        ([["报价单"], ["深圳算力科技有限公司"]], "深圳算力科技有限公司"),
        # A "Vendor:" label beats a maker's name above it.
        ([["Supermicro"], ["Vendor:", "Acme Compute GmbH"]], "Acme Compute GmbH"),
        # German and memo-style seller labels.
        ([["Lieferant: Rechenwerk Nord GmbH"]], "Rechenwerk Nord GmbH"),
        ([["Sold by: Lakeside HPC LLC"], ["Sold to: Mercy Hospital Inc."]], "Lakeside HPC LLC"),
        # "From:" alone, its block below it; the "To:" block is the customer's.
        ([["To:"], ["Big Bank plc"], ["From:"], ["Orion HPC Ltd"]], "Orion HPC Ltd"),
        # A person's label names the seller only through the company beside the name.
        ([["Prepared by: J. Ruiz, Exxact Corporation"]], "Exxact Corporation"),
        ([["Your account manager at Colfax International: Ann Lee"]], "Colfax International"),
        # A title naming its sender and its number in one cell.
        ([["Penguin Computing Quote Q-2026-3318"]], "Penguin Computing"),
        # An e-mail address alone: the domain's name, spelled as the letterhead spells it...
        ([["Nova Compute sales team"], ["Contact: quotes@novacompute.io"]], "Nova Compute"),
        # ... or, when no words spell it, the domain's own name.
        ([["Questions: quotes@exxact.com"]], "Exxact"),
        # Vendors we know are spelled our way, whatever their legal entity.
        ([["Hewlett Packard Enterprise Deutschland GmbH"]], "HPE"),
        ([["Dell Technologies - Quote"]], "Dell"),
        # A configurator export names only the maker, in its tool's name.
        ([["HPE iQuote - Quote"]], "HPE"),
    ],
)
def test_the_letterhead_names_the_seller(letterhead: list[list[str]], seller: str) -> None:
    assert metadata_read([*letterhead, *QUOTE_ROWS])["vendor"] == seller


@pytest.mark.parametrize(
    "letterhead",
    [
        # The customer's block, however it is labelled, is never the seller.
        [["Customer: Kestrel Sovereign AI Ltd."]],
        [["Bill To"], ["Harbor Hospital Inc."], ["12 Main Street, Boston MA"]],
        [["Prepared for", "Granite Bay Research Institute"]],
        # A person alone is not a company; a free mail address names no one.
        [["Prepared by: Jane Doe"], ["Contact: bob.smith@gmail.com"]],
        # Sentences and terms are not names.
        [["All prices in USD"], ["Valid for 30 days"]],
    ],
)
def test_no_seller_is_invented(letterhead: list[list[str]]) -> None:
    assert "vendor" not in metadata_read([*letterhead, *QUOTE_ROWS])


@pytest.mark.parametrize(
    ("closing", "seller"),
    [
        # The sign-off below the lines names the seller the letterhead left out.
        ([["Thank you for your business - Lambda, Inc."]], "Lambda, Inc."),
        ([["Thank you for choosing Exxact!"]], "Exxact"),
        ([["Remit to: Orion HPC Ltd, PO Box 12, Leeds LS1 4AB"]], "Orion HPC Ltd"),
        ([["Make checks payable to", "Silver Lake Compute LLC"]], "Silver Lake Compute LLC"),
    ],
)
def test_the_closing_rows_name_the_seller(closing: list[list[str]], seller: str) -> None:
    # A maker mentioned in the title ("Supermicro") is the last resort, below the sign-off.
    title = [["Supermicro SYS-821GE-TNHR configuration"], *QUOTE_ROWS]
    assert seller_read(title, closing) == seller
    assert seller_read(title) == "Supermicro"


def test_a_letterhead_seller_outranks_the_sign_off() -> None:
    # Both name a seller: the letterhead is what a reader sees first.
    assert seller_read([["Aspen Systems Inc."]], [["Thank you for choosing Acme!"]]) == (
        "Aspen Systems Inc."
    )


def test_a_csv_quote_reads_its_sign_off_after_the_lines() -> None:
    data = csv_bytes(
        "GPU-1,NVIDIA H200 NVL 141GB,2,31000.00,62000.00",
        ",Total,,,62000.00",
        ",Thank you for your business - Vireo Data Ltd,,,",
    )
    assert parse_upload(data, "quote.csv").vendor == "Vireo Data Ltd"


@pytest.mark.parametrize(
    ("spellings", "normal"),
    [
        (("Exxact Corporation", "EXXACT CORP.", "Exxact"), "exxact"),
        (("Straits Compute Pte. Ltd.", "Straits Compute"), "straits compute"),
        (("Boston Server & Storage Solutions GmbH",), "boston server storage solutions"),
        (("GIGA COMPUTING TECHNOLOGY CO., LTD.",), "giga computing technology"),
        (("Eviden S.A.", "Eviden SA"), "eviden"),
        (("株式会社東京GPUシステムズ", "東京GPUシステムズ"), "東京gpuシステムズ"),
        # Korean (Hangul is CJK too: no Latin words to fold) and Taiwanese legal forms.
        (
            ("주식회사 한빛데이터시스템", "(주)한빛데이터시스템", "한빛데이터시스템"),
            "한빛데이터시스템",
        ),
        (("鼎新智算科技股份有限公司", "鼎新智算科技"), "鼎新智算科技"),
    ],
)
def test_vendor_normalize_compares_spellings_of_one_seller(
    spellings: tuple[str, ...], normal: str
) -> None:
    assert {vendor_normalize(spelling) for spelling in spellings} == {normal}
