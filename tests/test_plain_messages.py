"""#26: messages show plain values ("judge 0", not "judge np.int64(0)").

Raters, items, labels and groups named by NumPy integers (what an integer column index, an
integer item index or ``df.columns[0]`` give) are shown as the user would write them.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import pdagree

N64 = np.int64
NUMPY_SCALAR = re.compile(r"np\.(int|uint|float|str_|bool)")


def _wide(n: int = 8, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(rng.integers(1, 4, (n, 3)), columns=pd.Index([N64(10), N64(11), N64(12)]))
    df.index = pd.Index(np.arange(100, 100 + n, dtype=np.int64))
    return df


def _message(call) -> str:
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    return str(info.value)


def test_errors_name_raters_items_labels_and_groups_plainly():
    df = _wide()
    one_label = df.assign(**{"12": 2}).drop(columns=[N64(12)])
    one_label.columns = pd.Index([N64(10), N64(11), N64(12)])
    grouped = df.assign(g=N64(7))
    gold = pd.Series([3, 2, 1, 3, 3], index=pd.Index(np.arange(40, 45, dtype=np.int64)))
    split = pd.DataFrame(
        {"a": [1, 2, 1, 3, 3], "b": [1, 2, 2, 3, 3], "g": np.array([5, 5, 5, 6, 6], dtype=N64)},
        index=gold.index,
    )
    ordered = df.copy()
    ordered[N64(10)] = ordered[N64(10)].astype(pd.CategoricalDtype([1, 2, 3], ordered=True))
    ordered.loc[100, N64(11)] = 9
    expected = {
        "`b` must be one of the raters [10, 11, 12]; got 99.": lambda: df.agree.contingency(
            N64(10), N64(99)
        ),
        "judge 12 uses only category 2.": lambda: one_label.agree.irt(),
        "or be a Series of labels indexed by item; got 99, and": lambda: df.agree.against(N64(99)),
        "got 3 in group 7 ([10, 11, 12])": lambda: grouped.agree(by="g").cohen(),
        "`gold` gives item (5, 40) the label 3,": lambda: split.agree(by="g").consensus(
            method="majority", gold=gold, ties="first"
        ),
        "entries must be labels of the data or non-empty lists of them; 9 has [9].": lambda: (
            df.agree().multilabel_labels(labels=[N64(9)])
        ),
        "`item` names column 0, which is not in the frame": lambda: df.agree(
            item=N64(0), rater=N64(1), label=N64(2)
        ),
        "`categories` must not hold a missing value; got nan.": lambda: df.agree(
            categories=[1, 2, np.float64("nan")]
        ),
        "rating column 11 holds the label 9, which is not among the categories [1, 2, 3] of "
        "the ordered Categorical rating column 10": lambda: ordered.agree(),
    }
    for text, call in expected.items():
        message = _message(call)
        assert text in message, message
        assert not NUMPY_SCALAR.search(message), message


def test_irt_names_the_judge_and_categories_it_skips_plainly():
    rng = np.random.default_rng(1)
    df = pd.DataFrame(rng.integers(1, 4, (30, 3)), columns=pd.Index([N64(10), N64(11), N64(12)]))
    df[N64(12)] = np.where(df[N64(12)] == 2, 1, df[N64(12)])
    message = _message(lambda: df.agree.irt())
    assert "judge 12 never uses category 2 but uses 1 and 3, so the thresholds around 2" in (
        message
    )


def test_warnings_name_raters_plainly():
    df = _wide().astype(float)
    df.iloc[1:, 0] = np.nan
    with pytest.warns(pdagree.UndefinedStatisticWarning, match=r"\(e\.g\. 10 and 11\)"):
        df.agree.pairwise("cohen")
    rng = np.random.default_rng(0)
    ids = pd.DataFrame(
        {N64(1): np.arange(40), N64(2): rng.integers(0, 3, 40), N64(3): rng.integers(0, 3, 40)}
    )
    with pytest.warns(
        pdagree.LayoutWarning, match=r"^rater column 1 holds a different label in 40 of its 40"
    ) as seen:
        ids.agree.fleiss()
    assert "df.set_index(1) or read_csv(..., index_col=1)" in str(seen[0].message)


def test_fmt_and_plain_show_python_values():
    from pdagree.encoding._labels import _fmt, _plain

    assert _fmt([N64(0), np.str_("a"), np.float64(0.5), np.bool_(True)]) == "[0, 'a', 0.5, True]"
    assert _fmt(np.arange(7)) == "[0, 1, 2, 3, 4, ...]"
    assert repr(_plain((N64(5), np.str_("x")))) == "(5, 'x')"
    stamp = pd.Timestamp("2024-01-01")
    nanoseconds = np.datetime64("2024-01-01T00:00:00.000000000")
    assert _plain(stamp) is stamp
    assert _plain(nanoseconds) is nanoseconds  # .item() would give an int of nanoseconds


def test_options_given_as_numpy_scalars_are_shown_plainly():
    df = pdagree.datasets.load("fleiss1971")
    expected = {
        "e.g. 0.95; got 1.5.": lambda: df.agree.fleiss(confidence_level=np.float64(1.5)),
        "`n_resamples` must be an integer from 1 to 1,000,000; got 0.": lambda: df.agree.fleiss(
            confidence_level=0.9, method="bootstrap", n_resamples=N64(0)
        ),
        "`n_items` must be an integer >= 1; got 0.": lambda: pdagree.datasets.make_crowd_sparse(
            n_items=N64(0)
        ),
        "`beta` must be a positive number; got -1.0.": lambda: df.agree.against(
            "rater1", beta=np.float64(-1.0)
        ),
    }
    for text, call in expected.items():
        message = _message(call)
        assert text in message, message
        assert not NUMPY_SCALAR.search(message), message
