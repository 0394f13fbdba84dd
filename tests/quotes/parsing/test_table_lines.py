"""The lines the table reader builds without validation (``table._line_new``) are what
``ParsedLine.model_construct`` builds: the same values, fields set, dump and equality."""

from __future__ import annotations

from decimal import Decimal

from apps.quotes.parsing import ParsedLine, parse_upload
from tests.quotes.parsing.conftest import csv_bytes


def test_a_read_line_is_the_line_model_construct_builds() -> None:
    data = csv_bytes(
        'DGXB-G1440+P2CMI36,"  NVIDIA DGX B200",2,"515,000.00","1,030,000.00"',
        ",Rail kit,1,twelve,",
    )
    lines = parse_upload(data, "quote.csv").lines
    for line in lines:
        values = {name: getattr(line, name) for name in line.model_fields_set}
        built = ParsedLine.model_construct(**values)
        assert list(line.__dict__) == list(ParsedLine.model_fields)
        assert line.__dict__ == built.__dict__
        assert line.model_fields_set == built.model_fields_set
        assert "page" not in line.model_fields_set
        assert line.model_dump_json(exclude_unset=True) == built.model_dump_json(exclude_unset=True)
        assert line == built
        assert line.__pydantic_extra__ is None and line.__pydantic_private__ is None
    assert lines[0].indent == 2 and lines[0].unit_price == Decimal("515000.00")
    assert lines[1].errors  # the unreadable price marks its line
    lines[0].quantity = 3  # a line built this way is an ordinary model afterwards
    assert lines[0].quantity == 3 and "quantity" in lines[0].model_fields_set


def test_a_per_server_quantity_times_the_servers_is_the_order_quantity() -> None:
    # Aspen-style "Qty per Server | Servers": 8 cards in each of 2 servers are 16 cards, as
    # the extended price (8,995.00 × 16) says; a lone "Systems" column is the quantity.
    data = csv_bytes(
        '90SF02Y1-M000A0,ASUS ESC8000A-E13P barebone,1,2,"16,850.00","33,700.00"',
        '900-2G153-0000-000,NVIDIA RTX PRO 6000 Blackwell Server Edition,8,2,"8,995.00",'
        '"143,920.00"',
        header="Part Number,Description,Qty per Server,Servers,Unit Price,Extended Price",
    )
    assert [line.quantity for line in parse_upload(data, "quote.csv").lines] == [2, 16]
    alone = csv_bytes(
        '90SF02Y1-M000A0,ASUS ESC8000A-E13P,2,"16,850.00","33,700.00"',
        header="Part Number,Description,Systems,Unit Price,Extended Price",
    )
    assert parse_upload(alone, "quote.csv").lines[0].quantity == 2
