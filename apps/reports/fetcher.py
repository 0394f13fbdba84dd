"""The only door WeasyPrint has to the outside world: our own static files, by `asset:` URL.

A quote's description is customer text; if it ever reached the HTML unescaped as
`<img src="file:///etc/passwd">` or `<link rel=attachment href="http://169.254.169.254/">`,
WeasyPrint would ask its URL fetcher for it. This fetcher answers only `asset:css/report.css`
style URLs, reads them from the static directory, and refuses everything else: no http(s), no
`file://`, no `data:`, no redirects (nothing here ever follows one), no path outside the static
directory. It imports nothing from Django so the render child process can use it as is.
"""

from __future__ import annotations

import ssl
from collections.abc import Mapping
from pathlib import Path

from weasyprint.urls import URLFetcher, URLFetcherResponse

ASSET_SCHEME = "asset:"
#: `asset:logos/<file>` is an organisation's uploaded logo, read from the logo folder (not the
#: static one), and only as a PNG or JPEG.
LOGO_PREFIX = "logos/"
LOGO_TYPES = frozenset({".png", ".jpg", ".jpeg"})
#: `asset:drawings/<sha256>.svg` is one of the render's own inline drawings, moved out of its
#: HTML (apps/reports/pdf_markup.py) and served from memory, never read from a disk.
DRAWINGS = ASSET_SCHEME + "drawings/"
# What a report may pull in: its stylesheet, fonts and pictures. Never HTML, never scripts.
ASSET_TYPES: dict[str, str] = {
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
}
MAX_ASSET_BYTES = 5 * 1024 * 1024
#: URLFetcher's base class builds an HTTPS handler, by default with a context that loads the
#: system's certificates (40 ms per fetcher, per render). This fetcher never opens a
#: connection, so its handler gets a bare context, made once, that trusts nothing.
_NO_TLS = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def nothing_fetcher() -> URLFetcher:
    """A fetcher that serves no URL at all, for a stylesheet that names none (the user-agent
    one): without it WeasyPrint builds its default fetcher, and loads the system's certificates."""
    return URLFetcher(allowed_protocols=(), allow_redirects=False, ssl_context=_NO_TLS)


class AssetRefused(ValueError):
    """A URL the report may not fetch; WeasyPrint logs it and leaves the resource out."""


class StaticAssetFetcher(URLFetcher):
    """Serves `asset:<path>` from `static_root`; every other URL is refused.

    `asset:css/report.css` -> `<static_root>/css/report.css`. `asset:../settings.py`,
    `asset:/etc/passwd`, `file:///…`, `http://169.254.169.254/` all raise `AssetRefused`.
    """

    def __init__(self, static_root: Path | str, logo_root: Path | str | None = None) -> None:
        super().__init__(allowed_protocols=("asset",), allow_redirects=False, ssl_context=_NO_TLS)
        self.static_root = Path(static_root).resolve()
        self.logo_root = Path(logo_root).resolve() if logo_root else None
        #: This render's drawings, moved out of its HTML (`pdf_markup.drawings_split`), by URL.
        self.drawings: Mapping[str, bytes] = {}

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        if url.startswith(DRAWINGS):
            # Only a drawing this render's own HTML had inline, never a file.
            if url not in self.drawings:
                raise AssetRefused(f"refused drawing {url[:100]!r}: not one of this report's")
            return URLFetcherResponse(
                url, body=self.drawings[url], headers={"Content-Type": ASSET_TYPES[".svg"]}
            )
        path = asset_path(url, static_root=self.static_root, logo_root=self.logo_root)
        body = path.read_bytes()
        return URLFetcherResponse(
            url, body=body, headers={"Content-Type": ASSET_TYPES[path.suffix.lower()]}
        )

    def open(self, url: object, data: object = None, timeout: object = None) -> URLFetcherResponse:
        # urllib's OpenerDirector entry point: route it through the same gate.
        return self.fetch(str(getattr(url, "full_url", url)))

    def __call__(self, url: str) -> URLFetcherResponse:
        return self.fetch(url)


def asset_path(url: str, *, static_root: Path, logo_root: Path | None = None) -> Path:
    """The file an `asset:` URL names, or `AssetRefused` when it is anything else.

    `asset:logos/acme.png` is read from `logo_root` (an organisation's uploaded logo), PNG or
    JPEG only; everything else from `static_root`.
    """
    if not url.startswith(ASSET_SCHEME):
        raise AssetRefused(f"refused URL {url[:100]!r}: only {ASSET_SCHEME} URLs are served")
    relative = url.removeprefix(ASSET_SCHEME).split("?", 1)[0].split("#", 1)[0]
    if relative.startswith(LOGO_PREFIX):
        if logo_root is None:
            raise AssetRefused(f"refused asset {relative[:100]!r}: no logos in this render")
        relative = relative.removeprefix(LOGO_PREFIX)
        if Path(relative).suffix.lower() not in LOGO_TYPES:
            raise AssetRefused(f"refused logo {relative[:100]!r}: not a PNG or JPEG")
        static_root = logo_root
    if not relative or relative.startswith(("/", "\\")) or "\\" in relative or "\0" in relative:
        raise AssetRefused(f"refused asset {relative[:100]!r}: not a relative static path")
    if any(part in {"", ".", ".."} for part in relative.split("/")):
        raise AssetRefused(f"refused asset {relative[:100]!r}: not a plain static path")
    path = (static_root / relative).resolve()
    if not path.is_relative_to(static_root):
        raise AssetRefused(f"refused asset {relative[:100]!r}: outside the static directory")
    if path.suffix.lower() not in ASSET_TYPES:
        raise AssetRefused(f"refused asset {relative[:100]!r}: not a stylesheet, font or image")
    if not path.is_file():
        raise AssetRefused(f"refused asset {relative[:100]!r}: no such file")
    if path.stat().st_size > MAX_ASSET_BYTES:
        raise AssetRefused(f"refused asset {relative[:100]!r}: larger than 5 MiB")
    return path
