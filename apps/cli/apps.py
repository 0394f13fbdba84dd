from django.apps import AppConfig


class CliConfig(AppConfig):
    """The command line face: `review_quote` and `compare_quotes` (CONTRACT.md)."""

    name = "apps.cli"
    label = "cli"
