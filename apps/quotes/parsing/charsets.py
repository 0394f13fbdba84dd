"""Which legacy code page a non-UTF-8 CSV was written in, by reading what each one gives.

A quote from Tokyo saved by Excel as "CSV" is Shift-JIS (cp932), from Shanghai GBK (read as
GB18030, its superset), from Taipei Big5 (cp950), from Seoul EUC-KR (cp949), from Munich or
Lyon Windows-1252. The bytes carry no label, and most of them decode without error under
several of these: "Größe" in cp1252 is "Gr" + a valid GBK ideograph + "e". So each code page
that decodes the file strictly is scored by how plausible its text is:

- a CJK reading counts the characters a real quote in that script is made of: kana and the
  first level of JIS kanji for Shift-JIS, the 3,755 common hanzi of GB 2312 level 1 for GBK,
  Big5's common hanzi (A440-C67E), KS X 1001 Hangul for EUC-KR, and CJK punctuation and
  fullwidth forms for all four. An ideograph alone between two Latin letters ("Gr穢e") is a
  Western accent swallowed with its neighbour and counts against. Mis-read Japanese in GBK
  lands in GBK's rare rows; mis-read GBK in Big5 in its second level; Korean Hangul read as
  GBK gives common hanzi, so on a tie Korean is tried before GBK (GBK read as Korean gives
  Hanja, which a modern Korean quote hardly uses).
- a Windows-1252 reading counts accented letters and symbols standing alone or in pairs
  inside Latin words ("Stück", "€ 10,50", "Größe"); a CJK file read as cp1252 is runs of
  three and more ("·þÎñÆ÷" for 服务器).

The best score wins, ties in the order of ``LEGACY_ENCODINGS``; a CJK reading needs
``CJK_MIN_SCORE`` of its characters plausible, else Windows-1252 is used when it decodes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import NamedTuple

#: Code pages tried on a file that is not UTF-8, in the order that breaks a tie.
LEGACY_ENCODINGS = ("cp1252", "cp932", "cp949", "gb18030", "cp950")
#: Names the upload page shows.
ENCODING_NAMES = {
    "cp1252": "Windows-1252",
    "cp932": "Shift-JIS (cp932)",
    "cp949": "EUC-KR (cp949)",
    "gb18030": "GBK/GB18030",
    "cp950": "Big5 (cp950)",
}
#: Share of a CJK reading's non-ASCII characters that must be plausible for it to be taken.
CJK_MIN_SCORE = 0.6
#: The score is taken over the text's beginning (the whole file must still decode): a
#: 20,000-line quote is judged by its first pages, as a person would.
SCORED_CHARS = 65_536

_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")
_WESTERN_SYMBOLS = frozenset("€£¥¢–—‘’‚“”„•…™®©°±×÷µ²³¹½¼¾§\xa0¿¡ªº«»")


class Reading(NamedTuple):
    """A strict decode of the file under one code page and how plausible its text is."""

    encoding: str
    text: str
    score: float


def _shared_cjk(char: str) -> bool:
    """CJK punctuation (、。「」) and fullwidth forms (（）：１２３￥￦), written in every CJK
    script."""
    code = ord(char)
    return 0x3000 <= code <= 0x303F or 0xFF01 <= code <= 0xFF60 or 0xFFE0 <= code <= 0xFFE6


def _two_bytes(char: str, encoding: str) -> int | None:
    try:
        encoded = char.encode(encoding)
    except UnicodeEncodeError:
        return None
    return encoded[0] << 8 | encoded[1] if len(encoded) == 2 else None


def _japanese(char: str) -> bool:
    """Kana, or a kanji of JIS X 0208 level 1 (Shift-JIS 889F-9872), the everyday kanji."""
    if "\u3041" <= char <= "\u30ff" or _shared_cjk(char):
        return True
    code = _two_bytes(char, "cp932")
    return code is not None and 0x889F <= code <= 0x9872


def _chinese_simplified(char: str) -> bool:
    """A hanzi of GB 2312 level 1 (B0A1-D7F9), the 3,755 characters of everyday Chinese."""
    if _shared_cjk(char):
        return True
    code = _two_bytes(char, "gb2312")
    return code is not None and 0xB0A1 <= code <= 0xD7F9


def _chinese_traditional(char: str) -> bool:
    """A hanzi of Big5's frequently used level (A440-C67E) or its punctuation (A140-A3BF)."""
    if _shared_cjk(char):
        return True
    code = _two_bytes(char, "big5")
    return code is not None and (0xA440 <= code <= 0xC67E or 0xA140 <= code <= 0xA3BF)


def _korean(char: str) -> bool:
    """A Hangul syllable of KS X 1001 (the 2,350 of EUC-KR): modern Korean quotes use no
    Hanja to speak of, and cp949's extra syllables are rare."""
    if _shared_cjk(char):
        return True
    return "\uac00" <= char <= "\ud7a3" and _two_bytes(char, "euc_kr") is not None


_CJK_PLAUSIBLE: dict[str, Callable[[str], bool]] = {
    "cp932": _japanese,
    "gb18030": _chinese_simplified,
    "cp950": _chinese_traditional,
    "cp949": _korean,
}


def _latin(char: str) -> bool:
    return char.isascii() and char.isalpha()


def _cjk_score(text: str, plausible: Callable[[str], bool]) -> float:
    counted = good = 0
    for run in _NON_ASCII_RUN.finditer(text):
        start, end = run.span()
        swallowed = (
            end - start == 1
            and start > 0
            and end < len(text)
            and _latin(text[start - 1])
            and _latin(text[end])
        )
        for char in run.group():
            counted += 1
            good += plausible(char) and not swallowed
    return good / counted if counted else 1.0


def _western_score(text: str) -> float:
    counted = good = 0
    for run in _NON_ASCII_RUN.finditer(text):
        start, end = run.span()
        size = end - start
        beside_latin = (start > 0 and _latin(text[start - 1])) or (
            end < len(text) and _latin(text[end])
        )
        for char in run.group():
            counted += 1
            symbol = char in _WESTERN_SYMBOLS
            letter = unicodedata.category(char).startswith("L")
            good += (size == 1 and (letter or symbol)) or (
                size == 2 and (symbol or (letter and beside_latin))
            )
    return good / counted if counted else 1.0


def legacy_readings(data: bytes) -> list[Reading]:
    """Every code page of ``LEGACY_ENCODINGS`` that decodes ``data`` strictly, most plausible
    first (ties keep the tuple's order)."""
    readings = []
    for encoding in LEGACY_ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        plausible = _CJK_PLAUSIBLE.get(encoding)
        sample = text[:SCORED_CHARS]
        score = _cjk_score(sample, plausible) if plausible else _western_score(sample)
        readings.append(Reading(encoding, text, score))
    return sorted(readings, key=lambda reading: -reading.score)


def legacy_decode(data: bytes) -> Reading | None:
    """The reading to use for a non-UTF-8 file, or None when no code page reads it."""
    for reading in legacy_readings(data):
        if reading.encoding == "cp1252" or reading.score >= CJK_MIN_SCORE:
            return reading
    return None
