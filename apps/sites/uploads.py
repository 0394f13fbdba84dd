"""Uploads that never leave a temp file behind, whatever ends the request.

Django spools an upload over 2.5 MB to a *named* file in ``FILE_UPLOAD_TEMP_DIR`` and deletes
it when the request closes the file; a killed worker (SIGKILL, OOM, a deploy) never closes it,
and the file stays. Here the spool file is anonymous (``tempfile.TemporaryFile``: on Linux an
``O_TMPFILE`` inode with no name), so the kernel frees it when the last descriptor goes: on a
normal response, an exception, a refused file or a dead process alike. Nothing in this project
asks an upload for ``temporary_file_path()``; the views read its bytes.
"""

from __future__ import annotations

import tempfile
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler, TemporaryFileUploadHandler


class AnonymousTemporaryUploadedFile(UploadedFile):
    """An upload spooled to a temp file that has no name in the file system."""

    def __init__(
        self,
        name: str,
        content_type: str,
        size: int,
        charset: str | None,
        content_type_extra: dict[str, Any] | None = None,
    ) -> None:
        # Not a context manager: the upload owns the file and Django closes it with the request.
        spool = tempfile.TemporaryFile(dir=settings.FILE_UPLOAD_TEMP_DIR)  # noqa: SIM115
        super().__init__(spool, name, content_type, size, charset, content_type_extra)


class AnonymousTemporaryFileUploadHandler(TemporaryFileUploadHandler):
    """Django's temporary-file handler, spooling to an anonymous file instead."""

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        FileUploadHandler.new_file(self, *args, **kwargs)
        self.file = AnonymousTemporaryUploadedFile(  # type: ignore[assignment]
            self.file_name or "upload",
            self.content_type or "application/octet-stream",
            0,
            self.charset,
            self.content_type_extra,
        )
