"""The compare page: reviews on file or uploaded quotes, side by side, with both
blood-pressure gauges per quote; internal roles only, customers 403, other reviews 404."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from apps.catalog.snapshot import CatalogSnapshot
from apps.quotes.models import Quote, QuoteFile
from apps.review.engine.schemas import Workload
from apps.review.models import Review
from tests.conftest import EXAMPLES
from tests.review.engine.engine_kit import quoted_system, run
from tests.review.factories import review_make

URL = reverse("review:compare")
VANS = EXAMPLES / "pcie-vans-for-one-finetune"
SEMI = EXAMPLES / "semi-for-one-finetune"
FINE_TUNE = Workload(name="Full fine-tune", kind="fine_tuning", memory_gb=512)

pytestmark = pytest.mark.usefixtures("catalog_db")


@pytest.fixture
def two_reviews(demo, catalog: CatalogSnapshot) -> list[Review]:
    """Org A's DGX B200 and PCIe-vans reviews of the same 512 GB fine-tune."""
    user = User.objects.get(username="account")
    vans = quoted_system(
        catalog, "supermicro-sys-521ge-tnrt", 2, gpu_key="l40s", gpus=4, domain=1, unit_price=66_000
    )
    reports = [
        run(catalog, [vans], FINE_TUNE, total=Decimal("132000")),
        run(catalog, [quoted_system(catalog, "dgx-b200")], FINE_TUNE, total=Decimal("515000")),
    ]
    return [review_make(organisation=demo["acme"], user=user, report=r) for r in reports]


def picked(reviews: list[Review]) -> str:
    return URL + "?" + "&".join(f"review={r.uuid}" for r in reviews)


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 302),
        ("customer", 403),
        ("other_customer", 403),
        ("account_team", 200),
        ("finance", 200),
        ("admin", 200),
    ],
)
def test_who_may_compare(clients: dict[str, Client], role: str, status: int) -> None:
    response = clients[role].get(URL)
    assert response.status_code == status
    if status == 200:
        assert b"Reviews on file" in response.content


def test_customers_cannot_compare_even_their_own(
    clients: dict[str, Client], two_reviews: list[Review]
) -> None:
    assert clients["customer"].get(picked(two_reviews)).status_code == 403


def test_two_reviews_side_by_side(clients: dict[str, Client], two_reviews: list[Review]) -> None:
    response = clients["finance"].get(picked(two_reviews))
    assert response.status_code == 200
    html = response.content.decode()
    assert "INVALID_TEMPLATE_VARIABLE" not in html
    # the DGX B200 (quote 2) wins on fit; both quotes show both gauges
    assert "The better buy: quote 2" in html
    assert html.count('class="chart chart-gauge"') == 4
    # $515,000 ÷ 512 GB = $1,005.86 per GB; $132,000 ÷ 48 GB = $2,750.00 per GB
    assert "USD 1,005.86" in html and "USD 2,750.00" in html
    assert "nothing was wasted on paper, everything was wasted in practice" in html
    for review in two_reviews:
        assert reverse("review:detail", args=[review.uuid]) in html
    # named by customer, vendor and quote number, date; never by file name
    for review in two_reviews:
        quote = review.quote
        assert f"Acme Research · Northwind {quote.quote_number} · " in html
        assert quote.display_name not in html
    # the save form carries both reviews in order
    assert 'id="save-comparison"' in html
    assert html.index(f'name="review" value="{two_reviews[0].uuid}"') < html.index(
        f'name="review" value="{two_reviews[1].uuid}"'
    )


def test_reviews_of_different_workloads_are_refused(
    clients: dict[str, Client], two_reviews: list[Review], demo, catalog: CatalogSnapshot
) -> None:
    user = User.objects.get(username="account")
    other = run(
        catalog,
        [quoted_system(catalog, "dgx-b200")],
        Workload(kind="training", memory_gb=1000),
        total=Decimal("515000"),
    )
    odd = review_make(organisation=demo["acme"], user=user, report=other)
    response = clients["account_team"].get(picked([two_reviews[0], odd]))
    assert response.status_code == 400
    html = response.content.decode()
    # the reason names both sides and what to change
    assert "These reviews cannot be compared: different loads: fine-tuning load vs training" in (
        html
    )
    assert "512 GB job memory vs 1,000 GB job memory" in html
    assert "re-run one with the other&#x27;s load" in html
    # the list below offers only reviews of the first review's load: the two fine-tune ones
    for review in two_reviews:
        assert f'value="{review.uuid}"' in html
    assert f'value="{odd.uuid}"' not in html


def test_unknown_or_malformed_reviews_are_404(
    clients: dict[str, Client], two_reviews: list[Review]
) -> None:
    unknown = f"{URL}?review={two_reviews[0].uuid}&review={uuid.uuid4()}"
    assert clients["admin"].get(unknown).status_code == 404
    assert clients["admin"].get(f"{URL}?review=not-a-uuid&review=x").status_code == 404


def upload(*files: SimpleUploadedFile) -> dict[str, object]:
    """The three parts of the form: files, the load (w-) and the room (f-)."""
    return {
        "files": list(files),
        "w-name": "Full fine-tune",
        "w-kind": "fine_tuning",
        "w-precision": "bf16",
        "w-context_tokens": "8192",
        "w-concurrent_users": "1",
        "w-tokens_per_sec_per_user": "10",
        "w-memory_gb": "512",
        "f-name": "Server room",
        "f-site": "datacenter",
        "f-rack_power_kw": "15",
        "f-racks_available": "4",
        "f-cooling": "air",
        "f-floor_load_lb_per_sqft": "250",
    }


def example_file(folder, name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, (folder / "quote.csv").read_bytes(), "text/csv")


def test_uploaded_quotes_are_compared_and_nothing_is_stored(clients: dict[str, Client]) -> None:
    before = (Quote.objects.count(), QuoteFile.objects.count(), Review.objects.count())
    data = upload(example_file(VANS, "vans.csv"), example_file(SEMI, "semi.csv"))
    response = clients["account_team"].post(URL, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "INVALID_TEMPLATE_VARIABLE" not in html
    assert "The better buy: quote 2" in html
    assert "vans.csv" in html and "semi.csv" in html
    # 515,000 − 132,000 = 383,000
    assert "USD 383,000 cheaper" in html
    assert (Quote.objects.count(), QuoteFile.objects.count(), Review.objects.count()) == before


def test_one_upload_is_not_a_comparison(clients: dict[str, Client]) -> None:
    response = clients["finance"].post(URL, upload(example_file(VANS, "vans.csv")))
    assert response.status_code == 400
    assert b"Pick two quotes or more to compare." in response.content


def test_an_unreadable_upload_names_its_row(clients: dict[str, Client]) -> None:
    bad = example_file(EXAMPLES / "bad-negative-quantity", "negative.csv")
    response = clients["admin"].post(URL, upload(example_file(SEMI, "semi.csv"), bad))
    assert response.status_code == 400
    html = response.content.decode()
    assert "negative.csv" in html and "quantity -2 is negative" in html


def test_posting_without_a_csrf_token_is_refused(demo) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(User.objects.get(username="account"))
    data = upload(example_file(VANS, "vans.csv"), example_file(SEMI, "semi.csv"))
    assert client.post(URL, data).status_code == 403
