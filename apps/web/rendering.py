"""Rendering a page whose context is garbage the moment the response is built.

Django's `render` pushes the view's context onto a RequestContext as a ContextDict, which
points back at the context: a reference cycle, so everything the context holds (a what-if's
report, its 100 line rows, its finding views: ~800 objects) outlives the request until the
garbage collector's next pass, and those passes come every few previews. `render_freed`
renders exactly as `render` does, then takes the context's dicts off it, so the cycle is
broken and all of it is freed as soon as the view returns.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template import TemplateDoesNotExist, loader
from django.template.backends.django import reraise
from django.template.context import make_context


def render_freed(request: HttpRequest, template_name: str, context: dict[str, Any]) -> HttpResponse:
    """`django.shortcuts.render(request, template_name, context)`, its context freed with it."""
    template = loader.get_template(template_name)
    engine = template.backend.engine  # type: ignore[attr-defined]
    request_context = make_context(context, request, autoescape=engine.autoescape)
    try:
        content = template.template.render(request_context)  # type: ignore[attr-defined]
    except TemplateDoesNotExist as exc:
        reraise(exc, template.backend)  # type: ignore[attr-defined]
    finally:
        request_context.dicts.clear()  # the ContextDict's way back to it: the cycle broken
    return HttpResponse(content)
