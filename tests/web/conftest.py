"""The report pages reuse the stored review the report tests build."""

from tests.reports.conftest import no_network, review_a

__all__ = ["no_network", "review_a"]
