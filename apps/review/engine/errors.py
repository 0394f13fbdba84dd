"""Errors the review engine raises for bad input.

The command line turns a `ReviewInputError` into exit status 2 and one `error: ...` line
(CONTRACT.md), so the message must name what is wrong in plain words:
`unknown model preset "Foo-7B"`.
"""

from __future__ import annotations


class ReviewInputError(ValueError):
    """The workload, facility or quoted systems cannot be reviewed as given.

    Example: a workload naming the model preset "Foo-7B", which is not in the catalog.
    """
