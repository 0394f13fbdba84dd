"""`urlizetrunc_kept` draws what `urlizetrunc` draws, each plain text once per process."""

from __future__ import annotations

from django.template import Context, Template
from django.utils.safestring import mark_safe

SOURCES = [
    "https://www.nvidia.com/en-us/data-center/dgx-b300/ (spec sheet) <b>bold</b>",
    "NEC 210.19(A)(1): 80 % continuous load, see https://example.com/a-very-long-path/" + "x" * 90,
    mark_safe('<a href="https://example.com">already a link</a> https://example.org'),
    42,
]


def _drawn(filter_name: str, value: object, autoescape: str = "on") -> str:
    text = f"{{% load fragments %}}{{% autoescape {autoescape} %}}{{{{ s|{filter_name}:70 }}}}"
    return Template(text + "{% endautoescape %}").render(Context({"s": value}))


def test_the_kept_filter_draws_what_urlizetrunc_draws():
    for value in SOURCES:
        for autoescape in ("on", "off"):
            expected = _drawn("urlizetrunc", value, autoescape)
            assert _drawn("urlizetrunc_kept", value, autoescape) == expected
            assert _drawn("urlizetrunc_kept", value, autoescape) == expected  # kept, the same
