"""`render_freed` renders what `render` renders, and its context goes with the response
(no reference cycle left for the garbage collector)."""

from __future__ import annotations

import gc
import weakref

from django.shortcuts import render
from django.test import RequestFactory

from apps.web.rendering import render_freed

TEMPLATE = "review/unrenderable.html#panel"  # a partial, as the preview renders one


class Quote:
    display_name = "dgx-<b>quote</b>.csv"


class Review:
    quote = Quote()
    organisation = {"name": "Acme & Co"}


def test_the_same_html_as_render():
    request = RequestFactory().get("/")
    context = {"review": Review(), "problem": "Figures out of range"}
    freed = render_freed(request, TEMPLATE, dict(context))
    rendered = render(request, TEMPLATE, dict(context))
    assert freed.status_code == rendered.status_code == 200
    assert freed.content == rendered.content and b"Acme &amp; Co" in freed.content
    assert freed["Content-Type"] == rendered["Content-Type"]


def test_the_context_is_freed_without_the_garbage_collector():
    request = RequestFactory().get("/")
    review = Review()
    held = weakref.ref(review)
    gc.disable()
    try:
        render_freed(request, TEMPLATE, {"review": review, "problem": ""})
        del review
        assert held() is None
    finally:
        gc.enable()
