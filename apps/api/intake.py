"""A quote posted with its workload and facility → a stored review. Shared by the
unversioned `POST /api/reviews` and `POST /api/v1/reviews`; every refusal an ApiProblem."""

from __future__ import annotations

import json
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.models import User
from ninja import UploadedFile
from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from apps.api.errors import ApiProblem, problem_of_input, problem_of_parse, problem_of_sheets
from apps.catalog.services import catalog_snapshot
from apps.quotes.parsing import QuoteParseError, SheetChoiceNeeded
from apps.review.engine.errors import ReviewInputError
from apps.review.engine.model_resolve import unknown_model_words
from apps.review.engine.schemas import Facility, Workload
from apps.review.inputs import FACILITY_PRESETS, WORKLOAD_PRESETS
from apps.review.models import Review
from apps.review.services import review_upload
from apps.sites.models import Organisation, SavedFacility, SavedWorkload

#: Bounds on what a client may send besides the file.
MAX_SPEC_CHARS = 64 * 1024
MAX_SLUG_CHARS = 100


def spec_parse[T: BaseModel](
    model: type[T], text: str, label: str, presets: dict[str, dict[str, Any]], saved: Any
) -> T:
    """A JSON object, or the name of a preset or of one of the organisation's saved ones.

    Never a path: a name is looked up, not opened.
    """
    text = text.strip()
    if not text.startswith("{"):
        row = saved.filter(name__iexact=text).first()
        data = row.spec if row is not None else presets.get(text.casefold())
        if data is None:
            names = ", ".join(presets)
            raise ReviewInputError(
                f"{label}: {text!r} is not JSON, a saved {label} or a preset ({names})"
            )
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ReviewInputError(
                f"{label}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            ) from None
        except RecursionError:
            raise ReviewInputError(f"{label}: the JSON nests too deeply") from None
    try:
        return model.model_validate(data)
    except PydanticValidationError as exc:
        problem = exc.errors(include_url=False)[0]
        if not problem["loc"]:  # a rule across fields: "a rack feed needs both feed_volts …"
            reason = problem["msg"].removeprefix("Value error, ")
            raise ReviewInputError(f"{label}: {reason}") from None
        field = ".".join(str(p) for p in problem["loc"])
        raise ReviewInputError(f"{label}: field {field!r}: {problem['msg']}") from None


def organisation_for(slug: str | None) -> Organisation:
    if not slug:
        raise ReviewInputError("organisation: required (the customer organisation's slug)")
    if len(slug) > MAX_SLUG_CHARS:
        raise ReviewInputError(f"organisation: at most {MAX_SLUG_CHARS} characters")
    organisation = Organisation.objects.filter(slug=slug.strip()).first()
    if organisation is None:
        raise ReviewInputError(f"organisation: no organisation {slug.strip()!r}")
    if organisation.is_internal:
        # The upload form offers only customers; the API must not accept the reseller either.
        raise ReviewInputError(
            f"organisation: {organisation.slug!r} is the reseller itself; "
            "name the customer organisation the quote is for"
        )
    return organisation


def _bounded(text: str, label: str) -> str:
    """A workload or facility argument: at most 64 KB of text."""
    if len(text) > MAX_SPEC_CHARS:
        raise ReviewInputError(
            f"{label}: {len(text):,} characters; at most {MAX_SPEC_CHARS:,} (a JSON object "
            "or a preset name)"
        )
    return text


def _quote_bytes(file: UploadedFile | None, lines: str | None) -> tuple[bytes, str]:
    limit = settings.QUOTE_MAX_UPLOAD_BYTES
    if file is None and not (lines or "").strip():
        raise ApiProblem(
            400,
            "file_missing",
            "file: Field required (or paste the table as 'lines')",
            [{"field": "file", "message": "Field required (or paste the table as 'lines')"}],
        )
    if file is not None:
        name = file.name or "quote"
        if file.size is not None and file.size > limit:
            message = f"{file.size:,} bytes; the limit is {limit:,}"
            raise ApiProblem(
                413, "too_large", f"{name}: {message}", [{"file": name, "message": message}]
            )
        return file.read(), name
    data = (lines or "").encode("utf-8")
    name = "pasted.tsv" if "\t" in (lines or "").split("\n", 1)[0] else "pasted.csv"
    if len(data) > limit:
        message = f"{len(data):,} bytes; the limit is {limit:,}"
        raise ApiProblem(
            413, "too_large", f"lines: {message}", [{"field": "lines", "message": message}]
        )
    return data, name


def review_posted(
    *,
    user: User,
    workload: str,
    facility: str,
    file: UploadedFile | None,
    lines: str | None,
    organisation: str | None,
    sheet: str | None = None,
) -> Review:
    """Read the quote, check the load and the room, review and store it; or raise ApiProblem."""
    data, name = _quote_bytes(file, lines)
    try:
        org = organisation_for(organisation)
        spec_workload = spec_parse(
            Workload,
            _bounded(workload, "workload"),
            "workload",
            WORKLOAD_PRESETS,
            SavedWorkload.objects.filter(organisation=org),
        )
        spec_facility = spec_parse(
            Facility,
            _bounded(facility, "facility"),
            "facility",
            FACILITY_PRESETS,
            SavedFacility.objects.filter(organisation=org),
        )
        catalog = catalog_snapshot()
        if isinstance(spec_workload.model, str) and (
            catalog.model_preset(spec_workload.model) is None
        ):
            raise ReviewInputError(
                f"workload: field 'model': {unknown_model_words(spec_workload.model, catalog)}"
            )
        return review_upload(
            data=data,
            filename=name,
            organisation=org,
            uploaded_by=cast(User, user),
            workload=spec_workload,
            facility=spec_facility,
            sheet=(sheet or "").strip()[:200] or None,
        )
    except SheetChoiceNeeded as exc:
        raise problem_of_sheets(exc) from exc
    except QuoteParseError as exc:
        raise problem_of_parse(exc) from exc
    except ReviewInputError as exc:
        raise problem_of_input(exc) from exc
