"""Picking reviews of one load by customer, load and date; saving a comparison; the saved list;
a saved comparison opened again and sent as a one-page PDF. Internal roles only."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from apps.catalog.snapshot import CatalogSnapshot
from apps.review.comparisons import load_key, review_load
from apps.review.engine.schemas import Workload
from apps.review.models import Review, SavedComparison
from tests.review.engine.engine_kit import quoted_system, run
from tests.review.factories import quote_make, review_make

URL = reverse("review:compare")
SAVE = reverse("review:comparison_save")
FINE_TUNE = Workload(name="Full fine-tune", kind="fine_tuning", memory_gb=512)
TRAINING = Workload(name="Pre-training", kind="training", memory_gb=1000)

pytestmark = pytest.mark.usefixtures("catalog_db")


@pytest.fixture
def reviews(demo, catalog: CatalogSnapshot) -> dict[str, Review]:
    """Acme: vans and a DGX B200 for one 512 GB fine-tune (comparable) and a training run;
    Globex: one DGX B200 for the same fine-tune."""
    user = User.objects.get(username="account")
    vans = quoted_system(
        catalog, "supermicro-sys-521ge-tnrt", 2, gpu_key="l40s", gpus=4, domain=1, unit_price=66_000
    )
    semi = quoted_system(catalog, "dgx-b200")

    def make(org: str, systems: list, load: Workload, total: str, **quote: object) -> Review:
        quote_row = quote_make(organisation=demo[org], user=user, **quote)
        report = run(catalog, systems, load, total=Decimal(total))
        return review_make(organisation=demo[org], user=user, report=report, quote=quote_row)

    made = {
        "vans": make(
            "acme", [vans], FINE_TUNE, "132000", vendor="Contoso", quote_number="C-7", quote_date=""
        ),
        "semi": make(
            "acme",
            [semi],
            FINE_TUNE,
            "515000",
            vendor="Northwind",
            quote_number="NW-1042",
            quote_date="2026-11-03",
        ),
        "training": make("acme", [semi], TRAINING, "515000", vendor="Northwind"),
        "globex": make("globex", [semi], FINE_TUNE, "515000", vendor="Fabrikam"),
    }
    # the vans were reviewed in October, the rest today
    Review.objects.filter(pk=made["vans"].pk).update(
        created_at=timezone.make_aware(dt.datetime(2026, 10, 5, 12))
    )
    for key in made:
        made[key].refresh_from_db()
    return made


def shown(html: str, review: Review) -> bool:
    return f'value="{review.uuid}"' in html


def test_reviews_are_named_by_customer_quote_number_vendor_and_date(
    clients: dict[str, Client], reviews: dict[str, Review]
) -> None:
    html = clients["account_team"].get(URL).content.decode()
    # the quote's own date when it gave one, else the day it was reviewed
    assert "Acme Research · Northwind NW-1042 · 2026-11-03" in html
    assert "Acme Research · Contoso C-7 · 2026-10-05" in html
    assert reviews["semi"].quote.display_name not in html  # never the file name


def test_filter_by_organisation_load_and_date(
    clients: dict[str, Client], reviews: dict[str, Review], demo
) -> None:
    client = clients["finance"]
    html = client.get(URL, {"organisation": demo["globex"].pk}).content.decode()
    assert shown(html, reviews["globex"])
    assert not any(shown(html, reviews[k]) for k in ("vans", "semi", "training"))

    fine_tune = load_key(review_load(reviews["semi"]))
    html = client.get(URL, {"load": fine_tune}).content.decode()
    assert all(shown(html, reviews[k]) for k in ("vans", "semi", "globex"))
    assert not shown(html, reviews["training"])
    # the load filter offers each load once, counted over the other filters: 3 fine-tunes, 1 run
    assert "Full fine-tune" in html and "(3 reviews)" in html and "(1 review)" in html

    html = client.get(URL, {"until": "2026-10-31"}).content.decode()
    assert shown(html, reviews["vans"])
    assert not any(shown(html, reviews[k]) for k in ("semi", "training", "globex"))
    html = client.get(URL, {"since": "2026-11-01", "load": fine_tune}).content.decode()
    assert shown(html, reviews["semi"]) and shown(html, reviews["globex"])
    assert not shown(html, reviews["vans"])


def test_htmx_swaps_the_filters_and_the_list(
    clients: dict[str, Client], reviews: dict[str, Review]
) -> None:
    response = clients["account_team"].get(
        URL, {"organisation": reviews["globex"].organisation_id}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="card" id="pick-reviews">')
    assert "<html" not in html and 'id="compare-upload"' not in html
    assert shown(html, reviews["globex"]) and not shown(html, reviews["vans"])
    # the load filter counts Globex's reviews only: its one fine-tune, not Acme's loads
    assert "(1 review)" in html and "Pre-training" not in html


def test_an_unknown_filter_value_is_ignored_not_an_error(
    clients: dict[str, Client], reviews: dict[str, Review]
) -> None:
    response = clients["admin"].get(URL, {"organisation": "x", "since": "yesterday"})
    assert response.status_code == 200
    assert shown(response.content.decode(), reviews["training"])


def save(client: Client, *picked: Review, name: str = "Fine-tune: vans or the semi"):
    return client.post(SAVE, {"review": [str(r.uuid) for r in picked], "name": name})


def test_save_list_open_again(clients: dict[str, Client], reviews: dict[str, Review]) -> None:
    response = save(clients["account_team"], reviews["vans"], reviews["semi"])
    saved = SavedComparison.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("review:comparison", args=[saved.uuid])
    assert [i.review_id for i in saved.items.all()] == [reviews["vans"].pk, reviews["semi"].pk]
    assert saved.created_by.username == "account"

    listing = clients["finance"].get(reverse("review:comparisons")).content.decode()
    assert "Fine-tune: vans or the semi" in listing
    assert reverse("review:comparison_pdf", args=[saved.uuid]) in listing

    page = clients["finance"].get(response["Location"]).content.decode()
    assert "Fine-tune: vans or the semi" in page
    assert "The better buy: quote 2" in page  # the DGX B200 wins on fit, as on the compare page
    # $515,000 ÷ 512 GB = $1,005.86 per GB; $132,000 ÷ 48 GB = $2,750.00 per GB
    assert "USD 1,005.86" in page and "USD 2,750.00" in page
    assert 'id="save-comparison"' not in page  # already saved


def test_what_cannot_be_saved(clients: dict[str, Client], reviews: dict[str, Review]) -> None:
    client = clients["account_team"]
    refused = save(client, reviews["semi"], reviews["training"])
    assert refused.status_code == 400
    assert "different loads" in refused.content.decode()
    assert save(client, reviews["semi"], reviews["vans"], name="").status_code == 400
    assert save(client, reviews["semi"]).status_code == 400  # one review is not a comparison
    assert SavedComparison.objects.count() == 0
    assert clients["customer"].post(SAVE, {}).status_code == 403


def test_customers_never_see_saved_comparisons(
    clients: dict[str, Client], reviews: dict[str, Review]
) -> None:
    save(clients["account_team"], reviews["semi"], reviews["globex"])
    saved = SavedComparison.objects.get()
    for role in ("customer", "other_customer"):
        client = clients[role]
        assert client.get(reverse("review:comparisons")).status_code == 403
        assert client.get(reverse("review:comparison", args=[saved.uuid])).status_code == 403
        assert client.get(reverse("review:comparison_pdf", args=[saved.uuid])).status_code == 403


def test_a_comparison_whose_load_changed_says_so(
    clients: dict[str, Client], reviews: dict[str, Review], catalog: CatalogSnapshot
) -> None:
    save(clients["account_team"], reviews["vans"], reviews["semi"])
    saved = SavedComparison.objects.get()
    # the semi's review re-run for the training load after the comparison was saved
    rerun = run(catalog, [quoted_system(catalog, "dgx-b200")], TRAINING, total=Decimal("515000"))
    Review.objects.filter(pk=reviews["semi"].pk).update(report=rerun.model_dump(mode="json"))
    response = clients["admin"].get(reverse("review:comparison", args=[saved.uuid]))
    assert response.status_code == 409
    assert "This comparison no longer holds: different loads" in response.content.decode()


def test_the_pdf_is_one_page_with_the_ranking(
    clients: dict[str, Client], reviews: dict[str, Review]
) -> None:
    save(clients["account_team"], reviews["vans"], reviews["semi"])
    saved = SavedComparison.objects.get()
    url = reverse("review:comparison_pdf", args=[saved.uuid])
    response = clients["finance"].get(url, {"page_size": "Letter"})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    # US Letter: 8.5 × 11 in = 612 × 792 pt
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Fine-tune: vans or the semi" in text
    assert "the better buy: quote 2" in text.lower()  # the label is set in capitals
    assert "Acme Research · Northwind NW-1042 · 2026-11-03" in text
    assert "Acme Research · Contoso C-7 · 2026-10-05" in text
    # $515,000 ÷ 512 GB = $1,005.86 per GB; $132,000 ÷ 48 GB = $2,750.00 per GB;
    # 515,000 − 132,000 = 383,000 cheaper
    assert "USD 1,005.86 per GB of one-domain memory" in text
    assert "USD 2,750.00 per GB of one-domain memory" in text
    assert "USD 383,000 cheaper" in text
    for leak in ("shared/", "examples", "Catalog version", ".csv"):
        assert leak not in text
    assert clients["finance"].get(url, {"page_size": "A3"}).status_code == 400
