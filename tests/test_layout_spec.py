"""One layout spec (#27): the layout arguments, declared once as `LayoutSpec`, taken by every
entry point, with the public keyword arguments unchanged."""

from __future__ import annotations

import dataclasses
import inspect

import pandas as pd
import pytest

import pdagree
from pdagree.accessor import AgreeAccessor
from pdagree.encoding import LayoutSpec, encode

LAYOUT = ["item", "rater", "label", "raters", "categories", "by", "layout", "rank"]


def test_layout_spec_holds_the_eight_layout_arguments() -> None:
    fields = [f.name for f in dataclasses.fields(LayoutSpec)]
    assert sorted(LAYOUT) == sorted(set(fields) - {"check_duplicates"})
    assert list(inspect.signature(LayoutSpec.of).parameters)[: len(LAYOUT)] == LAYOUT
    spec = LayoutSpec.of(item="doc", rater="coder", label="tag")
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.item = "other"  # type: ignore[misc]


def _layout_parameters(function: object) -> dict[str, object]:
    parameters = inspect.signature(function).parameters  # type: ignore[arg-type]
    return {name: p.default for name, p in parameters.items() if name in LAYOUT}


def test_public_entry_points_keep_their_keyword_arguments() -> None:
    # Each public entry point spells the layout arguments for users and IDEs; all of them
    # agree with LayoutSpec.of, names, order and defaults (a tally and counts have no rank).
    from pdagree.count_ratings import CountRatings

    spec = _layout_parameters(LayoutSpec.of)
    assert list(spec) == LAYOUT and all(default is None for default in spec.values())
    no_rank = {k: v for k, v in spec.items() if k != "rank"}
    assert _layout_parameters(AgreeAccessor.__call__) == spec
    assert _layout_parameters(pdagree.Ratings.from_frame) == spec
    assert _layout_parameters(CountRatings.from_frame) == spec
    assert _layout_parameters(pdagree.Tally) == no_rank
    dask = pytest.importorskip("pdagree.dask")
    assert _layout_parameters(dask.DaskAgreeAccessor.__call__) == spec


def test_encode_reads_a_spec_as_its_keyword_arguments() -> None:
    long = pd.DataFrame(
        {"doc": [1, 1, 2, 2], "coder": ["a", "b", "a", "b"], "tag": ["x", "y", "x", "x"]}
    )
    spec = LayoutSpec.of(item="doc", rater="coder", label="tag")
    by_spec = encode(long, spec)
    by_keywords = encode(long, item="doc", rater="coder", label="tag")
    assert by_spec.layout == by_keywords.layout == "long"
    assert (by_spec.code == by_keywords.code).all() and (by_spec.item == by_keywords.item).all()
    assert float(pdagree.Ratings._from_spec(long, spec).fleiss()) == float(
        long.agree(item="doc", rater="coder", label="tag").fleiss()
    )
    with pytest.raises(TypeError, match="not both"):
        encode(long, spec, item="doc")


def test_batches_spec_is_checked_once_and_idempotent() -> None:
    spec = LayoutSpec.of(item="doc", rater="coder", label="tag", by="g").for_batches()
    assert spec.layout == "long" and spec.by == ("g",)
    assert spec.for_batches() == spec
    with pytest.raises(TypeError, match="a counts table is counted already"):
        LayoutSpec.of(layout="counts").for_batches()
    with pytest.raises(ValueError, match="`by` and `item` both name column 'doc'"):
        LayoutSpec.of(item="doc", rater="coder", label="tag", by="doc").for_batches()


def test_frame_encoder_and_batch_reader_share_the_layout_rules() -> None:
    # One rule, one message: a missing item key, a by column that is also a role, and a
    # missing column read the same on the pandas path and in a tally.
    import numpy as np

    doc = np.str_("doc")
    long = pd.DataFrame(
        {doc: [1.0, None, 2.0, 2.0], "coder": ["a", "b", "a", "b"], "tag": ["x", "y", "x", "x"]}
    )
    cases = [
        ({"item": doc, "rater": "coder", "label": "tag"}, ValueError),
        ({"item": doc, "rater": "coder", "label": "tag", "by": "coder"}, ValueError),
        ({"item": "nope", "rater": "coder", "label": "tag"}, ValueError),
    ]
    for arguments, error in cases:
        with pytest.raises(error) as pandas_path:
            long.agree(**arguments)
        with pytest.raises(error) as tally:
            pdagree.Tally(**arguments).add(long)
        assert str(tally.value) == str(pandas_path.value)
    assert str(pandas_path.value).startswith("`item` names column 'nope'")
    with pytest.raises(ValueError, match=r"^`item` column 'doc' has 1 missing values"):
        pdagree.Tally(item=doc, rater="coder", label="tag").add(long)
