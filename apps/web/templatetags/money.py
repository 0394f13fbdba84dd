"""`{% load money %}{{ review.total|money:review.currency }}`: money in its own currency, in the
reader's locale (apps.words.money)."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.translation import get_language

from apps.words.money import locale_name
from apps.words.money import money as money_text

register = template.Library()


@register.filter
def money(amount: Decimal | float | None, currency: str) -> str:
    """`Decimal("629289.71")|money:"EUR"` -> "EUR 629,289.71" (en) · "EUR 629.289,71" (de)."""
    return money_text(amount, currency or "", locale_name(get_language()))
