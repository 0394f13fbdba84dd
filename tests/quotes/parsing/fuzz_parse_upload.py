"""Coverage-guided fuzzing of ``parse_upload`` with atheris (RELIABILITY.md item 12, F12).

Not collected by pytest. Run (atheris is not a project dependency; install it in a scratch
venv): ``python tests/quotes/parsing/fuzz_parse_upload.py -max_total_time=600 -max_len=65536``.
A crash is any exception other than a deliberate ``QuoteParseError``; the seeds are the sample
quotes. PDFs are left out on purpose: each one starts a sandbox child, far too slow to fuzz.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

with atheris.instrument_imports(include=["apps.quotes.parsing"]):
    # The parser is free of Django; import every reader now so all of it is instrumented.
    from apps.quotes.parsing import (  # noqa: F401
        QuoteParseError,
        csv_reader,
        table,
        xlsx_reader,
    )
    from apps.quotes.parsing.readers_local import quote_parse_local

NAMES = ("quote.csv", "quote.xlsx", "quote")


def one_input(data: bytes) -> None:
    if data[:1024].find(b"%PDF-") >= 0:
        return
    name = NAMES[data[0] % len(NAMES)] if data else "quote.csv"
    try:
        quote_parse_local(data[1:], name)  # the readers in this process, not a child per input
    except QuoteParseError as error:
        if error.internal:
            raise AssertionError(f"unexpected error inside the parser: {error}") from error


def corpus_seed() -> str:
    """A scratch corpus seeded with the samples (libFuzzer writes into its first corpus
    directory, so never point it at tests/quotes/samples)."""
    import tempfile

    corpus = Path(tempfile.mkdtemp(prefix="quote-fuzz-"))
    for path in (ROOT / "tests" / "quotes" / "samples").iterdir():
        if path.suffix in {".csv", ".tsv", ".xlsx"}:
            kind = 1 if path.suffix == ".xlsx" else 0
            (corpus / path.name).write_bytes(bytes([kind]) + path.read_bytes())
    return str(corpus)


if __name__ == "__main__":
    atheris.Setup([*sys.argv, corpus_seed()], one_input)
    atheris.Fuzz()
