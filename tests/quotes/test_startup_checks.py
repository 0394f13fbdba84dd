import openpyxl.xml

from apps.quotes.checks import defusedxml_active


def test_defusedxml_is_active_at_startup():
    assert openpyxl.xml.DEFUSEDXML is True
    assert defusedxml_active() == []


def test_the_check_fails_without_defusedxml(monkeypatch):
    monkeypatch.setattr("apps.quotes.checks.defusedxml_check", lambda: False)
    (error,) = defusedxml_active()
    assert error.id == "quotes.E001"
