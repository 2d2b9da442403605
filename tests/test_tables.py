"""The registry of tables: each is a Ratings method that shows its function's docstring."""

from __future__ import annotations

import pytest

import pdagree
from pdagree.definitions.tables import TABLES


@pytest.mark.parametrize("name", list(TABLES))
def test_every_table_is_a_ratings_method(name: str) -> None:
    table = TABLES[name]
    assert table.name == name
    method = getattr(pdagree.Ratings, name)
    assert method.__doc__ == table.compute.__doc__


@pytest.mark.parametrize("name", [n for n, t in TABLES.items() if t.needs_raters])
def test_tables_that_need_raters_refuse_counts(name: str) -> None:
    counts = pdagree.datasets.load("fort2011_trains").agree.counts()
    ratings = counts.agree(layout="counts")
    arguments = {"contingency": ("Annot1", "Annot2"), "against": ("Annot1",)}.get(name, ())
    with pytest.raises(ValueError, match="needs to know which rater gave each rating"):
        getattr(ratings, name)(*arguments)
