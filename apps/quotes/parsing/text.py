"""Bytes → text for CSV quotes, with documented fallbacks and no silent mojibake.

Order: a UTF-16 BOM (Excel's "Unicode Text" export) → UTF-16; a UTF-8 BOM → UTF-8 with the
BOM removed (so the first header is exactly "sku", not "\\ufeffsku"); valid UTF-8 → UTF-8;
UTF-16 without a BOM (every other byte NUL in an ASCII header) → UTF-16; otherwise the legacy
code page whose text reads most plausibly (``charsets``): Windows-1252 (what Excel on a German
or French Windows writes for "CSV"), Shift-JIS, EUC-KR, GBK or Big5 (Excel in Japan, Korea,
China, Taiwan). Such a result says ``encoding_fallback=True`` and names the code page in a
warning, so the upload page shows a preview before anyone trusts "Stück", "€" or "数量". Bytes
that are none of them — NUL bytes, control characters, bytes no code page reads — are "not a
valid CSV".
"""

from __future__ import annotations

import codecs
import re

from apps.quotes.parsing.charsets import ENCODING_NAMES, legacy_decode
from apps.quotes.parsing.errors import QuoteParseError

#: Control characters no spreadsheet export writes (tab, CR and LF are fine; so is a trailing
#: Ctrl-Z, which old DOS tools append and we strip).
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_DOUBLE_ENCODED_RE = re.compile(r"Ã[\x80-\xbf¤¶¼Ÿ©¨]|â‚¬|Â[\xa0-\xbf]")
_NOT_TEXT = "not a valid CSV: the file is not text"


def _row_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _utf16_without_bom(data: bytes) -> str | None:
    """ "utf-16-le"/"utf-16-be" when the first bytes are ASCII text in UTF-16 (a NUL after or
    before every character of "Part Number\tQty"), else None."""
    head = data[:200] if len(data) % 2 == 0 else b""
    if len(head) < 8:
        return None
    for encoding, nul_at, text_at in (("utf-16-le", 1, 0), ("utf-16-be", 0, 1)):
        nuls, chars = head[nul_at::2], head[text_at::2]
        if not nuls.strip(b"\x00") and all(0x09 <= c < 0x7F for c in chars):
            return encoding
    return None


def _decode_utf16(data: bytes, encoding: str, *, file_name: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        raise QuoteParseError(
            "not a valid CSV: the file starts like UTF-16 text but is not", file=file_name
        ) from None


def text_decode(data: bytes, *, file_name: str) -> tuple[str, str, bool, list[str]]:
    """Decode a CSV upload; return (text, encoding, used_a_legacy_code_page, warnings)."""
    warnings: list[str] = []
    fallback = False
    unmarked_utf16 = _utf16_without_bom(data)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text, encoding = _decode_utf16(data, "utf-16", file_name=file_name), "utf-16"
    elif unmarked_utf16:
        text, encoding = _decode_utf16(data, unmarked_utf16, file_name=file_name), unmarked_utf16
    else:
        nul = data.find(b"\x00")
        if nul >= 0:
            raise QuoteParseError(
                f"{_NOT_TEXT} (a NUL byte)", file=file_name, row=data.count(b"\n", 0, nul) + 1
            )
        if data.startswith(codecs.BOM_UTF8):
            try:
                text, encoding = data[3:].decode("utf-8"), "utf-8-sig"
            except UnicodeDecodeError as exc:
                raise QuoteParseError(
                    "not a valid CSV: it is marked as UTF-8 but is not; save as CSV UTF-8",
                    file=file_name,
                    row=data.count(b"\n", 0, exc.start) + 1,
                ) from None
        else:
            try:
                text, encoding = data.decode("utf-8"), "utf-8"
            except UnicodeDecodeError as exc:
                reading = legacy_decode(data)
                if reading is None:
                    raise QuoteParseError(
                        "not a valid CSV: the text is neither UTF-8 nor Windows-1252, "
                        "Shift-JIS, EUC-KR, GBK or Big5; save as CSV UTF-8",
                        file=file_name,
                        row=data.count(b"\n", 0, exc.start) + 1,
                    ) from None
                text, encoding = reading.text, reading.encoding
                fallback = True
                warnings.append(
                    f"the file is not UTF-8; read as {ENCODING_NAMES[encoding]} — check the "
                    "preview (save as CSV UTF-8 to avoid this)"
                )
    text = text.rstrip("\x1a")
    bad = _CONTROL_RE.search(text)
    if bad:
        raise QuoteParseError(
            f"{_NOT_TEXT} (control character U+{ord(bad.group()):04X})",
            file=file_name,
            row=_row_of(text, bad.start()),
        )
    odd = _DOUBLE_ENCODED_RE.search(text)
    if odd:
        warnings.append(
            f"row {_row_of(text, odd.start())} looks double-encoded ({odd.group()!r}); "
            "check the preview"
        )
    return text, encoding, fallback, warnings
