"""Originals kept by content hash in Django's default storage: ``uploads/<sha256>``.

The name a user's browser sends ("../../etc/passwd", "quote.csv%00.exe", 300 characters of
"a") never becomes a path: the blob name is the hash, and the name we show is a sanitised copy.
A blob is written before the database rows that point at it, so a request killed in between
leaves an orphan blob and no row; ``blobs_orphaned_sweep`` removes such blobs after a day.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable
from datetime import datetime, timedelta

from django.core.files import File
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone

UPLOAD_DIR = "uploads"
DISPLAY_NAME_MAX = 120
_UNSAFE = re.compile(r"[\x00-\x1f\x7f<>:\"|?*%]+")


def blob_name(sha256: str) -> str:
    """ "uploads/<64 hex digits>": the only name an original is ever stored under."""
    if not re.fullmatch(r"[0-9a-f]{64}", sha256):
        raise ValueError("not a sha256 hex digest")
    return f"{UPLOAD_DIR}/{sha256}"


def display_name_clean(filename: str) -> str:
    """What we show for an upload: the base name, printable, at most 120 characters, the
    extension kept. "../../secret/quote.csv" -> "quote.csv"; "quote.csv%00.exe" ->
    "quote.csv00.exe"; "" or ".." -> "quote"."""
    base = filename.replace("\\", "/").rsplit("/", 1)[-1]
    base = unicodedata.normalize("NFC", base)
    base = "".join(ch for ch in base if ch.isprintable())
    base = _UNSAFE.sub("", base).strip().lstrip(".").strip()
    if not base:
        return "quote"
    if len(base) > DISPLAY_NAME_MAX:
        stem, dot, ext = base.rpartition(".")
        if dot and 0 < len(ext) <= 8:
            base = f"{stem[: DISPLAY_NAME_MAX - len(ext) - 1]}.{ext}"
        else:
            base = base[:DISPLAY_NAME_MAX]
    return base


def blob_store(data: bytes) -> tuple[str, str]:
    """Store the bytes once under their hash; return (sha256, blob name). Storing the same
    quote twice writes nothing the second time."""
    sha256 = hashlib.sha256(data).hexdigest()
    name = blob_name(sha256)
    if not default_storage.exists(name):
        saved = default_storage.save(name, ContentFile(data))
        if saved != name:  # another request stored the same bytes at the same moment
            default_storage.delete(saved)
    return sha256, name


def blob_open(name: str) -> File:
    """The stored original as an open file (for streaming downloads)."""
    return default_storage.open(name, "rb")


def blob_read(name: str) -> bytes:
    with default_storage.open(name, "rb") as handle:
        return handle.read()


#: Other layers' rows that hold a blob before any QuoteFile does (a queued background upload):
#: each callable gets candidate names and returns those still wanted. Registered in AppConfig.ready.
BLOB_HOLDERS: list[Callable[[list[str]], set[str]]] = []


def blobs_orphaned_sweep(
    *, older_than: timedelta = timedelta(hours=24), now: datetime | None = None
) -> list[str]:
    """Delete stored originals no QuoteFile row points at, once they are older than
    ``older_than`` (younger ones may belong to an upload that is still committing)."""
    from apps.quotes.models import QuoteFile

    now = now or timezone.now()
    try:
        _dirs, files = default_storage.listdir(UPLOAD_DIR)
    except FileNotFoundError:
        return []
    names = [f"{UPLOAD_DIR}/{f}" for f in files]
    known = set(QuoteFile.objects.filter(blob__in=names).values_list("blob", flat=True))
    for holder in BLOB_HOLDERS:
        known |= holder(names)
    removed = []
    for name in names:
        if name in known:
            continue
        if now - default_storage.get_modified_time(name) >= older_than:
            default_storage.delete(name)
            removed.append(name)
    return removed
