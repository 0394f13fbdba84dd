"""apps.words.article: the article before a number, as the number is read aloud."""

from __future__ import annotations

import pytest

from apps.words import article


@pytest.mark.parametrize(
    ("number", "word"),
    [
        (8192, "an"),  # "eight thousand ...": an 8,192-token prompt
        (4096, "a"),  # "four thousand ..."
        (8, "an"),
        (80, "an"),  # "eighty"
        (800, "an"),  # "eight hundred"
        (11, "an"),  # "eleven"
        (18, "an"),  # "eighteen"
        (18000, "an"),  # "eighteen thousand"
        (110, "a"),  # "one hundred ten"
        (1100, "a"),  # "one thousand one hundred"
        (1, "a"),
    ],
)
def test_the_article_follows_the_spoken_number(number: int, word: str) -> None:
    assert article(number) == word
