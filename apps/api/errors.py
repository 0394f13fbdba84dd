"""The API's one error shape, and the exceptions that become it.

On /api/v1/ every refusal is

    {"error": {"code": "quote_unreadable", "message": "bad.csv, row 2, column 'Qty': …",
               "problems": [{"file": "bad.csv", "row": 2, "column": "Qty", "field": null,
                             "message": "quantity -2 is negative"}]}}

The unversioned paths (/api/reviews, kept for existing clients) answer `{"error": message}`
with the same message.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from django.http import HttpRequest
from ninja import Schema

from apps.quotes.parsing import QuoteParseError, SheetChoiceNeeded
from apps.review.engine.errors import ReviewInputError

V1_PREFIX = "/api/v1/"
_FIELD = re.compile(r"^(?P<label>[a-z_]+): (?:field '(?P<field>[^']+)': )?")


class ProblemOut(Schema):
    file: str | None = None
    row: int | None = None
    column: str | None = None
    field: str | None = None
    message: str


class SheetOut(Schema):
    """A sheet that looks like a quote, when the workbook has two: post again with `sheet`."""

    name: str
    rows: int
    header: list[str]
    first_lines: list[str]


class ErrorDetail(Schema):
    code: str
    message: str
    problems: list[ProblemOut] = []
    #: Only when two sheets of a workbook both look like quotes: the ones to choose from.
    sheets: list[SheetOut] | None = None


class ErrorOut(Schema):
    """The /api/v1/ error."""

    error: ErrorDetail


class LegacyErrorOut(Schema):
    """The unversioned paths' error."""

    error: str
    #: Only when two sheets of a workbook both look like quotes: the ones to choose from.
    sheets: list[SheetOut] | None = None


@dataclass
class ApiProblem(Exception):
    status: int
    code: str
    message: str
    problems: list[dict[str, Any]] = field(default_factory=list)
    sheets: list[dict[str, Any]] | None = None

    def __str__(self) -> str:
        return self.message


def is_v1(request: HttpRequest) -> bool:
    return request.path.startswith(V1_PREFIX)


def error_body(request: HttpRequest, problem: ApiProblem) -> dict[str, object]:
    extra = {"sheets": problem.sheets} if problem.sheets is not None else {}
    if not is_v1(request):
        return {"error": problem.message, **extra}
    problems = [ProblemOut(**p).model_dump() for p in problem.problems]
    detail = {"code": problem.code, "message": problem.message, "problems": problems}
    return {"error": detail | extra}


def problem_of_sheets(exc: SheetChoiceNeeded) -> ApiProblem:
    """Two sheets that both look like quotes: the sheets to choose from, and post again."""
    message = f"{exc}: post again with 'sheet' naming one"
    return ApiProblem(
        400,
        "sheet_choice_needed",
        message,
        [{"file": exc.file or "quote", "field": "sheet", "message": message}],
        sheets=[asdict(c) for c in exc.candidates],
    )


def problem_of_parse(exc: QuoteParseError) -> ApiProblem:
    """A quote we could not read: the file, and the row and column when the reader knows them."""
    where = {"file": exc.file or "quote", "row": exc.row, "column": exc.column}
    return ApiProblem(400, "quote_unreadable", str(exc), [where | {"message": exc.message}])


def problem_of_input(exc: ReviewInputError) -> ApiProblem:
    """A workload, facility or organisation that cannot be used: "workload: field 'kind': …"
    names the form field and, inside its JSON, the field."""
    text = str(exc)
    match = _FIELD.match(text)
    if match is None:
        return ApiProblem(400, "invalid_input", text, [{"message": text}])
    name = match["label"] + (f".{match['field']}" if match["field"] else "")
    return ApiProblem(400, "invalid_input", text, [{"field": name, "message": text[match.end() :]}])


#: Where ninja says a bad parameter came from; dropped from the field name.
SOURCES = ("body", "form", "file", "query", "path", "header", "cookie")
