"""Bytes → text for CSV quotes, with one documented fallback and no silent mojibake.

Order: a UTF-16 BOM (Excel's "Unicode Text" export) → UTF-16; a UTF-8 BOM → UTF-8 with the
BOM removed (so the first header is exactly "sku", not "\\ufeffsku"); valid UTF-8 → UTF-8;
otherwise Windows-1252 (what Excel on a German or French Windows writes for "CSV"), and the
result says ``encoding_fallback=True`` so the upload page shows a preview before anyone trusts
"Stück" and "€". Bytes that are neither — NUL bytes, control characters, undefined cp1252
bytes — are "not a valid CSV".
"""

from __future__ import annotations

import codecs
import re

from apps.quotes.parsing.errors import QuoteParseError

#: Control characters no spreadsheet export writes (tab, CR and LF are fine; so is a trailing
#: Ctrl-Z, which old DOS tools append and we strip).
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_DOUBLE_ENCODED_RE = re.compile(r"Ã[\x80-\xbf¤¶¼Ÿ©¨]|â‚¬|Â[\xa0-\xbf]")
_NOT_TEXT = "not a valid CSV: the file is not text"


def _row_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def text_decode(data: bytes, *, file_name: str) -> tuple[str, str, bool, list[str]]:
    """Decode a CSV upload; return (text, encoding, used_cp1252_fallback, warnings)."""
    warnings: list[str] = []
    fallback = False
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text, encoding = data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            raise QuoteParseError(
                "not a valid CSV: the file starts like UTF-16 text but is not", file=file_name
            ) from None
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
            except UnicodeDecodeError:
                try:
                    text, encoding = data.decode("cp1252"), "cp1252"
                except UnicodeDecodeError as exc:
                    raise QuoteParseError(
                        "not a valid CSV: the text is neither UTF-8 nor Windows-1252; "
                        "save as CSV UTF-8",
                        file=file_name,
                        row=data.count(b"\n", 0, exc.start) + 1,
                    ) from None
                fallback = True
                warnings.append(
                    "the file is not UTF-8; read as Windows-1252 — check the preview "
                    "(save as CSV UTF-8 to avoid this)"
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
