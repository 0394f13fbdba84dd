"""The money filter remembers what it wrote: the same amount in another currency or for a
reader of another language is written afresh, never read back from the first."""

from decimal import Decimal

from apps.web.templatetags.money import money


def test_same_amount_other_currency_or_language_is_not_the_remembered_one(settings):
    assert money(Decimal("629289.71"), "EUR") == "EUR 629,289.71"
    assert money(Decimal("629289.71"), "USD") == "USD 629,289.71"
    settings.LANGUAGE_CODE = "de"  # the reader's language (USE_I18N is off: the site's)
    assert money(Decimal("629289.71"), "EUR") == "EUR 629.289,71"
    settings.LANGUAGE_CODE = "en-us"
    assert money(Decimal("629289.71"), "EUR") == "EUR 629,289.71"


def test_equal_amounts_written_to_the_cent_alike():
    assert money(Decimal("10"), "USD") == money(Decimal("10.00"), "USD") == "USD 10.00"
    assert money(None, "USD") == "—"
