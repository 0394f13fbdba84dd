"""CSV quotes in the code pages Excel writes outside the US: each one read as itself, and never
a UTF-8 or Windows-1252 file read as anything else (``parsing/text.py``, ``charsets.py``)."""

from __future__ import annotations

import codecs
from decimal import Decimal

import pytest

from apps.quotes.parsing import QuoteParseError, parse_upload
from apps.quotes.parsing.charsets import legacy_decode, legacy_readings
from apps.quotes.parsing.text import text_decode

#: One quote's worth of text in each script, as the sender's Excel writes it.
JAPANESE = (
    "品番,品名,数量,単価,金額\n"
    'G893-SD1,ギガバイト GPUサーバー 8x B200 空冷,2台,"￥68,500,000","￥137,000,000"\n'
    'MEM-64G,メモリ 64GB DDR5-6400 RDIMM,32枚,"￥98,000","￥3,136,000"\n'
    "SVC,3年オンサイト保守,1式,,\n"
)
CHINESE = (
    "物料编码,描述,数量,单价,金额\n"
    'NF5688M7,浪潮 NF5688M7 GPU服务器 8卡 H200,2,"1,980,000.00","3,960,000.00"\n'
    'MEM-64G,内存 64GB DDR5 4800,32,"3,200.00","102,400.00"\n'
    "SVC,三年原厂保修 上门服务,1,,\n"
)
TRADITIONAL = (
    "料號,品名規格,數量,單價,金額\n"
    'G593-SD1,技嘉 GPU 伺服器 8 張 H200,2,"8,800,000","17,600,000"\n'
    'MEM,記憶體 64GB DDR5,32,"9,000","288,000"\n'
    "SVC,三年保固 到府服務,1,,\n"
)
KOREAN = (
    "품번,품명,수량,단가,금액\n"
    'XE9680,델 GPU 서버 8x H100 공랭식,2,"650,000,000","1,300,000,000"\n'
    'MEM,메모리 64GB DDR5,32,"450,000","14,400,000"\n'
    "SVC,3년 방문 기술지원 서비스,1,,\n"
)
GERMAN = (
    "Artikelnummer;Beschreibung;Menge;Einzelpreis;Gesamtpreis\n"
    "K-1;Kabel 3 m, Stück – Größe L;2;€ 10,50;€ 21,00\n"
    "S-2;Einbau für Kunden’s Übergröße;1;10,00 €;10,00 €\n"
)
#: No "€" or "–" (the bytes GBK and Shift-JIS cannot start with): only accented letters, two
#: of them side by side in "Größe", which GBK reads as one common ideograph.
GERMAN_LETTERS_ONLY = "Artikel;Größe;Menge\nA;Grüße über Maß;1\n"
FRENCH = "Référence;Désignation;Qté;Prix unitaire\nX;Carte réseau élément;1;1 000,00\n"

LEGACY = [
    (JAPANESE, "cp932"),
    (CHINESE, "gbk"),
    (CHINESE, "gb18030"),
    (TRADITIONAL, "cp950"),
    (KOREAN, "cp949"),
    (GERMAN, "cp1252"),
    (GERMAN_LETTERS_ONLY, "cp1252"),
    (GERMAN_LETTERS_ONLY, "latin-1"),
    (FRENCH, "cp1252"),
]
#: What each encoding's bytes are read as (GBK is read by its superset GB18030, Latin-1 by
#: Windows-1252, which agrees with it on every printable byte).
READ_AS = {"gbk": "gb18030", "latin-1": "cp1252"}


@pytest.mark.parametrize(("text", "encoding"), LEGACY, ids=lambda v: str(v)[:12])
def test_each_legacy_code_page_is_read_as_itself(text: str, encoding: str) -> None:
    decoded, used, fallback, warnings = text_decode(text.encode(encoding), file_name="q.csv")
    assert decoded == text
    assert used == READ_AS.get(encoding, encoding)
    # Not UTF-8: the upload page shows a preview, and the warning names the code page.
    assert fallback is True
    assert len(warnings) == 1 and "not UTF-8" in warnings[0]


@pytest.mark.parametrize(("text", "_encoding"), LEGACY, ids=lambda v: str(v)[:12])
def test_the_same_text_in_utf8_stays_utf8(text: str, _encoding: str) -> None:
    # The other way round: valid UTF-8 is never put to the code-page trial.
    assert text_decode(text.encode("utf-8"), file_name="q.csv")[:3] == (text, "utf-8", False)


@pytest.mark.parametrize("text", [GERMAN, GERMAN_LETTERS_ONLY, FRENCH], ids=["de", "de2", "fr"])
def test_western_text_is_not_taken_for_a_cjk_code_page(text: str) -> None:
    # "Größe" in cp1252 is "Gr" + F6 DF + "e": GBK reads F6DF as a common hanzi, but an
    # ideograph alone between two Latin letters is a swallowed accent, so GBK scores 0 of 1.
    readings = {r.encoding: r.score for r in legacy_readings(text.encode("cp1252"))}
    assert readings["cp1252"] == 1.0
    assert all(score < 0.6 for name, score in readings.items() if name != "cp1252")


def test_korean_that_gbk_also_reads_is_read_as_korean() -> None:
    # Every KS X 1001 Hangul syllable's two bytes are a GB 2312 level-1 hanzi too: both score
    # 1.0 and the tie goes to Korean, tried first; GBK Chinese read as Korean gives Hanja.
    data = KOREAN.encode("cp949")
    scores = {r.encoding: r.score for r in legacy_readings(data)}
    assert scores["cp949"] == scores["gb18030"] == 1.0
    chosen = legacy_decode(data)
    assert chosen is not None and chosen.encoding == "cp949"
    # GBK Chinese read as Korean: either not decodable at all, or mostly Hanja.
    chinese = {r.encoding: r.score for r in legacy_readings(CHINESE.encode("gbk"))}
    assert chinese.get("cp949", 0.0) < 0.6


def test_a_shift_jis_quote_reads_its_lines_and_amounts() -> None:
    quote = parse_upload(JAPANESE.encode("cp932"), "見積.csv")
    assert (quote.encoding, quote.encoding_fallback) == ("cp932", True)
    assert quote.lines[0].description == "ギガバイト GPUサーバー 8x B200 空冷"
    # "2台" is 2 servers; ￥68,500,000 × 2 = ￥137,000,000.
    assert (quote.lines[0].quantity, quote.lines[0].extended_price) == (2, Decimal("137000000"))
    assert any("Shift-JIS" in warning for warning in quote.warnings)


def test_a_gbk_quote_reads_its_lines_and_amounts() -> None:
    quote = parse_upload(CHINESE.encode("gbk"), "报价.csv")
    assert (quote.encoding, quote.encoding_fallback) == ("gb18030", True)
    assert quote.lines[1].description == "内存 64GB DDR5 4800"
    # 32 × 3,200.00 = 102,400.00
    assert (quote.lines[1].quantity, quote.lines[1].extended_price) == (32, Decimal("102400.00"))


def test_a_big5_quote_reads_its_lines_and_amounts() -> None:
    quote = parse_upload(TRADITIONAL.encode("cp950"), "報價單.csv")
    assert (quote.encoding, quote.encoding_fallback) == ("cp950", True)
    assert quote.lines[0].description == "技嘉 GPU 伺服器 8 張 H200"
    # 2 × 8,800,000 = 17,600,000
    assert (quote.lines[0].quantity, quote.lines[0].extended_price) == (2, Decimal("17600000"))


def test_an_euc_kr_quote_reads_its_lines_and_amounts() -> None:
    quote = parse_upload(KOREAN.encode("cp949"), "견적서.csv")
    assert (quote.encoding, quote.encoding_fallback) == ("cp949", True)
    assert quote.lines[1].description == "메모리 64GB DDR5"
    # 32 × 450,000 = 14,400,000
    assert (quote.lines[1].quantity, quote.lines[1].extended_price) == (32, Decimal("14400000"))


@pytest.mark.parametrize("bom", [codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE], ids=["le", "be"])
def test_utf16_unicode_text_with_either_byte_order(bom: bytes) -> None:
    text = (
        "Part Number\tDescription\tQty\tUnit Price\tExtended Price\n"
        "A-1\t数量 Stück\t2\t1.50\t3.00\n"
    )
    codec = "utf-16-le" if bom == codecs.BOM_UTF16_LE else "utf-16-be"
    quote = parse_upload(bom + text.encode(codec), "quote.txt")
    assert (quote.encoding, quote.delimiter) == ("utf-16", "\t")
    assert quote.lines[0].description == "数量 Stück"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_is_recognised_by_its_nul_bytes(codec: str) -> None:
    # Without the BOM the first NUL used to refuse the file as "not text".
    text = "Part Number\tDescription\tQty\tUnit Price\tExtended Price\nA-1\tKabel\t2\t1.50\t3.00\n"
    quote = parse_upload(text.encode(codec), "quote.txt")
    assert (quote.encoding, quote.lines[0].description) == (codec, "Kabel")


def test_utf8_with_a_bom_stays_utf8_for_cjk_text() -> None:
    quote = parse_upload(codecs.BOM_UTF8 + CHINESE.encode("utf-8"), "q.csv")
    assert (quote.encoding, quote.encoding_fallback) == ("utf-8-sig", False)
    assert quote.column_map["part_number"] == "物料编码"


def test_binary_that_no_code_page_reads_is_refused_naming_the_file_and_row() -> None:
    # Random high bytes: no CJK reading of them is plausible and 0x81/0x8D are undefined in
    # Windows-1252, so the file is refused, not read as gibberish.
    data = b"Part Number,Qty\n" + bytes([0x81, 0x8D, 0xFE, 0x90, 0x8F, 0x9D]) * 20 + b"\n"
    with pytest.raises(QuoteParseError) as caught:
        parse_upload(data, "junk.csv")
    assert (caught.value.file, caught.value.row) == ("junk.csv", 2)
    assert "neither UTF-8 nor Windows-1252, Shift-JIS" in caught.value.message


def test_a_nul_byte_in_text_that_is_not_utf16_is_still_refused() -> None:
    with pytest.raises(QuoteParseError) as caught:
        parse_upload(b"Part Number,Qty\nA-1,\x00\x012\n", "bad.csv")
    assert (caught.value.file, caught.value.row) == ("bad.csv", 2)
    assert "NUL byte" in caught.value.message
