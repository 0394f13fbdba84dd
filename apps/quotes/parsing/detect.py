"""What the upload really is, from its first bytes, not from its name.

"quote.xlsx" that starts with ``<!DOCTYPE html>`` is a saved web page; "quote.pdf" that starts
with ``MZ`` is a Windows program. Each is refused as "not a valid XLSX/PDF". Old binary
``.xls`` (OLE2), macro workbooks (``.xlsm``) and password-protected workbooks (an OLE2 file
holding ``EncryptionInfo``) each get a message that says what to do instead. A workbook is also
checked for zip and XML bombs here (``archive_inspect``), so a caller that stores only what
``type_detect`` accepts never stores a bomb.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from pathlib import PurePosixPath

from apps.quotes.parsing.archive import archive_inspect
from apps.quotes.parsing.errors import QuoteParseError
from apps.quotes.parsing.schemas import SPREADSHEETS, DetectedType

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
_EXTENSIONS: dict[str, DetectedType] = {
    ".csv": "csv",
    ".txt": "csv",
    ".tsv": "csv",
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".xls": "xls",
    ".xlsb": "xlsb",
    ".ods": "ods",
    ".pdf": "pdf",
}
_BINARY_MAGICS: tuple[tuple[bytes, str], ...] = (
    (b"MZ", "a Windows program"),
    (b"\x7fELF", "a Linux program"),
    (b"\xca\xfe\xba\xbe", "a program"),
    (b"\xcf\xfa\xed\xfe", "a program"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"Rar!", "a RAR archive"),
    (b"7z\xbc\xaf", "a 7-Zip archive"),
    (b"PK\x05\x06", "an empty ZIP archive"),
    (b"{\\rtf", "an RTF document"),
)


def _label(kind: str) -> str:
    labels = {"csv": "CSV", "xlsx": "XLSX", "xls": "XLS", "xlsb": "XLSB", "ods": "ODS"}
    return {**labels, "pdf": "PDF"}.get(kind, "quote file")


def type_detect(data: bytes, *, file_name: str) -> DetectedType:
    """Decide csv/xlsx/pdf from the content; refuse what is none of them or contradicts the
    file's extension ("quote.csv" holding a PDF is refused: re-export or rename it)."""
    suffix = PurePosixPath(file_name.replace("\\", "/")).suffix.casefold()
    claimed = _EXTENSIONS.get(suffix)
    label = _label(claimed or "")
    if not data:
        raise QuoteParseError("the file is empty", file=file_name)
    head = data[:1024]
    found: DetectedType
    # A web page is a web page even when "%PDF-1.4" appears in its first KB (a saved page
    # about PDFs, or one built to be taken for one): markup first, then the PDF header.
    lowered = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if lowered.startswith((b"<!doctype html", b"<html", b"<head", b"<body", b"<script")):
        raise QuoteParseError(f"not a valid {label}: it is an HTML page", file=file_name)
    if lowered.startswith((b"<?xml", b"<svg")):
        raise QuoteParseError(f"not a valid {label}: it is an XML document", file=file_name)
    if head.startswith(OLE2_MAGIC):
        _ole2_check(data, file_name=file_name)
        found = "xls"
    elif head.startswith(ZIP_MAGIC):
        found = _zip_check(data, file_name=file_name, label=label)
    elif b"%PDF-" in head:
        found = "pdf"
    else:
        for magic, what in _BINARY_MAGICS:
            if head.startswith(magic):
                raise QuoteParseError(f"not a valid {label}: it is {what}", file=file_name)
        found = "csv"
    workbooks = claimed in SPREADSHEETS and found in SPREADSHEETS  # an .xlsx saved as .xls
    if claimed and claimed != found and not workbooks:
        raise QuoteParseError(
            f"not a valid {label}: the content is {_label(found)}, not {label}; "
            "rename or re-export the file",
            file=file_name,
        )
    return found


def _ole2_check(data: bytes, *, file_name: str) -> None:
    """An OLE2 file is an Excel 97-2003 workbook (read like the others) or a password-protected
    workbook of any age (refused: we cannot read it)."""
    if "EncryptionInfo".encode("utf-16-le") in data:
        raise QuoteParseError(
            "the workbook is password-protected; remove the password "
            "(File → Info → Protect Workbook) and upload it again",
            file=file_name,
        )
    if "Workbook".encode("utf-16-le") not in data and "Book".encode("utf-16-le") not in data:
        raise QuoteParseError(
            "not a valid XLS: an Office file that is not an Excel workbook", file=file_name
        )


def _zip_check(data: bytes, *, file_name: str, label: str) -> DetectedType:
    """A ZIP must be a workbook (Excel, Excel binary or OpenDocument), and not a macro-enabled
    one; its members are inspected for bombs before any reader sees them."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
            content_types = b""
            if "[Content_Types].xml" in names:
                info = archive.getinfo("[Content_Types].xml")
                if info.file_size <= 1_000_000:
                    content_types = archive.read(info)
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, NotImplementedError):
        raise QuoteParseError(
            f"not a valid {label if label != 'quote file' else 'XLSX'}: the ZIP archive is damaged",
            file=file_name,
        ) from None
    except RuntimeError:  # an encrypted ZIP member
        raise QuoteParseError(
            "not a valid XLSX: the archive is encrypted", file=file_name
        ) from None
    binary = "xl/workbook.bin" in names  # .xlsb's content type says "macroEnabled" anyway
    if "xl/vbaProject.bin" in names or (b"macroEnabled" in content_types and not binary):
        raise QuoteParseError(
            "macro-enabled workbooks (.xlsm) are not accepted; save as .xlsx (no macros)",
            file=file_name,
        )
    found: DetectedType
    if "xl/workbook.bin" in names:
        found = "xlsb"
    elif "xl/workbook.xml" in names:
        found = "xlsx"
    elif "mimetype" in names and "content.xml" in names:
        found = "ods"
    else:
        raise QuoteParseError(
            f"not a valid {label if label != 'quote file' else 'XLSX'}: a ZIP archive that is "
            "not an Excel workbook",
            file=file_name,
        )
    archive_inspect(data, file_name=file_name)
    if found == "ods" and _ods_mimetype(data) != ODS_MIMETYPE:
        raise QuoteParseError(
            "not a valid ODS: an OpenDocument file that is not a spreadsheet", file=file_name
        )
    return found


ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"


def _ods_mimetype(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        info = archive.getinfo("mimetype")
        return archive.read(info)[:200].strip() if info.file_size <= 200 else b""
