"""`{% load money %}{{ review.total|money:review.currency }}`: money in its own currency, in the
reader's locale (apps.words.money)."""

from __future__ import annotations

import functools
from decimal import Decimal

from django import template
from django.utils.translation import get_language

from apps.words import power_format
from apps.words.money import locale_name
from apps.words.money import money as money_text

register = template.Library()


@functools.lru_cache(maxsize=4096)
def _money_in(amount: Decimal | float | None, currency: str, language: str | None) -> str:
    """The same amount, currency and language always read the same: a Finance queue page
    writes 50 totals, most of them seen on the page before (babel's formatting and its
    locale lookup are ~20 µs each)."""
    return money_text(amount, currency, locale_name(language))


@register.filter
def money(amount: Decimal | float | None, currency: str) -> str:
    """`Decimal("629289.71")|money:"EUR"` -> "EUR 629,289.71" (en) · "EUR 629.289,71" (de)."""
    return _money_in(amount, currency or "", get_language())


@register.filter
def power(kw: float | None) -> str:
    """`0.24|power` -> "240 W" (a desk machine), `14.3|power` -> "14.3 kW" (apps.words)."""
    return "" if kw is None else power_format(float(kw))
