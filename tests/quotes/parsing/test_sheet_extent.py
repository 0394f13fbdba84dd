"""The worksheet extent read before calamine sees a sheet (``extent.sheet_extent``):
each tag's first ``r`` attribute, implicit rows and columns, formatting-only cells, prefixes
and chunk boundaries, as the one-regex-per-chunk reading must keep them."""

from __future__ import annotations

import re

import pytest

from apps.quotes.parsing.extent import sheet_extent

_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(row|c|dimension)\b([^>]*?)(/?)>")
_R = re.compile(rb'\br\s*=\s*["\']([A-Za-z]*)([0-9]*)["\']')
_REF = re.compile(rb'\bref\s*=\s*["\']([A-Za-z]+[0-9]+(?::[A-Za-z]+[0-9]+)?)["\']')


def _reference(xml: bytes) -> tuple[int, int, str]:
    """The extent read tag by tag, a second search for ``r`` in each (the reading before)."""
    max_col = max_row = row = col = 0
    declared = ""
    for match in _TAG.finditer(xml):
        name, attrs, closed = match.groups()
        if name == b"dimension":
            ref = _REF.search(attrs)
            declared = ref.group(1).decode("ascii") if ref else ""
            continue
        ref = _R.search(attrs)
        if name == b"row":
            row = int(ref.group(2)) if ref and ref.group(2) else row + 1
            col = 0
            continue
        if ref and ref.group(1):
            col = sum(
                (letter - 64) * 26**power
                for power, letter in enumerate(reversed(ref.group(1).upper()))
            )
            if ref.group(2):
                row = int(ref.group(2))
        else:
            col += 1
        if not closed:
            max_col, max_row = max(max_col, col), max(max_row, row)
    return max_col, max_row, declared


CASES = [
    (b'<dimension ref="A1:XFD1048576"/><row r="1"><c r="A1"><v>1</v></c></row>', (1, 1)),
    (b'<row><c><v>1</v></c><c t="s"><v>2</v></c></row><row><c/><c/><c><v>3</v></c></row>', (3, 2)),
    (b'<x:row r="7"><x:c r="AB7" t="n"><x:v>1</x:v></x:c></x:row>', (28, 7)),
    (b'<row r="3"><c r="XFD9" s="1"/><c r="B3"><v>1</v></c></row>', (2, 3)),
    (b'<row r="4"><c r="12"><v>1</v></c><c r="c"><v>1</v></c></row>', (3, 4)),
    (b'<row r="5"><c r=""><v>1</v></c><c rr="Z9"><v>1</v></c></row>', (2, 5)),
    (b'<row r=\'6\'><c t="s" r = \'D6\'><v>1</v></c><c r="E6" r="ZZ6"><v/></c></row>', (5, 6)),
    (b'<row r="2"><c r="A2"><is><t>&lt;c r="ZZ99"&gt; r="ZZ99"</t></is></c></row>', (1, 2)),
    (b'<row r="8"/><rows r="90"/><cc r="Z90"><v>1</v></cc><c r="b8"><v>1</v></c>', (2, 8)),
    (b'<row r="1"><c r="A1" foo="r=\'K2\'"><v>1</v></c></row>', (1, 1)),
]


@pytest.mark.parametrize(("xml", "extent"), CASES)
def test_the_extent_is_each_tags_first_r_and_the_implicit_ones(
    xml: bytes, extent: tuple[int, int]
) -> None:
    assert sheet_extent(iter([xml]))[:2] == extent
    assert sheet_extent(iter([xml])) == _reference(xml)


@pytest.mark.parametrize(("xml", "extent"), CASES)
def test_the_extent_does_not_depend_on_where_the_chunks_are_cut(
    xml: bytes, extent: tuple[int, int]
) -> None:
    for cut in range(1, len(xml)):
        assert sheet_extent(iter([xml[:cut], xml[cut:]]))[:2] == extent


def test_the_declared_dimension_is_read() -> None:
    xml = b'<dimension ref="A1:E10006"/><row r="1"><c r="A1"><v>1</v></c></row>'
    assert sheet_extent(iter([xml])) == (1, 1, "A1:E10006")
