import pytest

pytestmark = pytest.mark.django_db


def test_catalog_page_needs_login(client):
    response = client.get("/catalog/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_catalog_page_lists_the_lot(clients, catalog_db):
    response = clients["customer"].get("/catalog/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "NVIDIA DGX B200" in body and "NVIDIA GB300 NVL72" in body
    assert "<html" in body


def test_htmx_filter_returns_only_the_table_fragment(clients, catalog_db):
    response = clients["account_team"].get(
        "/catalog/", {"form_factor": "rack_nvl72"}, headers={"HX-Request": "true"}
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and 'id="systems-table"' in body
    assert "GB300 NVL72" in body and "DGX B200" not in body
    assert "HX-Request" in response["Vary"]


def test_system_page_shows_each_figures_source_and_unverified_marks(clients, catalog_db):
    body = clients["finance"].get("/catalog/systems/dgx-b300/").content.decode()
    assert "aiwiki.ai" in body  # the DGX B300 row's source
    assert "unverified" in body  # ~14 kW is unverified


def test_unknown_system_is_404(clients, catalog_db):
    assert clients["finance"].get("/catalog/systems/no-such-thing/").status_code == 404
