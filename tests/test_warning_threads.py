"""Reading warnings are kept per read, in each thread on its own (#26's pipelines): two
frames read at the same time in two threads each keep their own warnings, and the
process's warning machinery is left as it was (a read does not swap the global filters or
``showwarning``, which interleaved reads would leave pointing at a finished read's list)."""

from __future__ import annotations

import html
import threading
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree.ratings import Ratings


def _wide_with_an_id(n: int = 60) -> pd.DataFrame:
    """A wide frame whose first column is an id: reading it warns (LayoutWarning)."""
    return pd.DataFrame(
        {"id": [f"u{k}" for k in range(n)], "a": ["x", "y"] * (n // 2), "b": ["x"] * n}
    )


def _clean() -> pd.DataFrame:
    return pd.DataFrame({"a": ["x", "y", "x"], "b": ["x", "y", "y"]})


@pytest.mark.filterwarnings("ignore::pdagree.LayoutWarning")
def test_reads_in_two_threads_keep_their_own_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    # Thread A starts reading, thread B starts reading, A finishes, B finishes: the order in
    # which global catch_warnings blocks undo each other wrongly.
    entered = {name: threading.Event() for name in "ab"}
    go = {name: threading.Event() for name in "ab"}
    read = Ratings._read.__func__  # type: ignore[attr-defined]

    def paused(cls: Any, df: pd.DataFrame, spec: Any) -> Any:
        name = df.attrs.get("name")
        if name is None:  # not one of the two frames: read at once
            return read(cls, df, spec)
        entered[name].set()
        assert go[name].wait(10)
        return read(cls, df, spec)

    monkeypatch.setattr(Ratings, "_read", classmethod(paused))
    frames = {"a": _wide_with_an_id(), "b": _clean()}
    for name, df in frames.items():
        df.attrs["name"] = name
    out: dict[str, Any] = {}

    def run(name: str) -> None:
        out[name] = frames[name].agree()

    before = (list(warnings.filters), warnings.showwarning)
    threads = {name: threading.Thread(target=run, args=(name,)) for name in "ab"}
    threads["a"].start()
    assert entered["a"].wait(10)
    threads["b"].start()
    assert entered["b"].wait(10)
    go["a"].set()
    threads["a"].join(10)
    go["b"].set()
    threads["b"].join(10)
    assert set(out) == {"a", "b"}
    assert len(out["a"]._state.warned) == 1 and "id" in out["a"]._state.warned[0]
    assert out["b"]._state.warned == ()
    assert (list(warnings.filters), warnings.showwarning) == before
    with pytest.warns(pdagree.LayoutWarning):  # later warnings still reach the caller
        _wide_with_an_id().agree()


def test_a_read_warns_once_at_the_user_s_line_and_keeps_the_message() -> None:
    with pytest.warns(pdagree.LayoutWarning) as caught:
        ratings = _wide_with_an_id().agree()
    assert len(caught) == 1 and caught[0].filename == __file__
    assert ratings._state.warned == (str(caught[0].message),)


def test_a_read_keeps_its_warnings_when_the_caller_ignores_them() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ratings = _wide_with_an_id().agree()
    assert len(ratings._state.warned) == 1


def test_the_page_lists_the_warnings_of_its_computations_without_raising_them() -> None:
    df = pd.DataFrame({"a": ["x"] * 6, "b": ["x"] * 6, "c": ["x"] * 6})
    before = (list(warnings.filters), warnings.showwarning)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        page = df.agree().to_html()
    assert "Warnings" in page
    assert (list(warnings.filters), warnings.showwarning) == before


@pytest.mark.filterwarnings("ignore::pdagree.LayoutWarning")
def test_a_page_lists_its_own_warnings_not_another_thread_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # While a page is computed in one thread, another thread reads a frame that warns: the
    # warning is that read's (and raised there), not listed on the page.
    import pdagree.page as page

    entered, go = threading.Event(), threading.Event()
    compute = page.compute

    def paused(*args: Any) -> Any:
        entered.set()
        assert go.wait(10)
        return compute(*args)

    monkeypatch.setattr(page, "compute", paused)
    out: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: out.setdefault("page", _clean().agree().to_html()))
    thread.start()
    assert entered.wait(10)
    other = _wide_with_an_id().agree()  # in this thread, while the page is computed
    go.set()
    thread.join(10)
    (message,) = other._state.warned
    assert "holds a different label" in message
    assert "holds a different label" not in html.unescape(out["page"])


def test_the_item_bootstrap_spread_is_numpy_s_without_its_warning() -> None:
    # per_category's bootstrap SE: np.nanstd(ddof=1) where two or more replicates are
    # defined, nan elsewhere, the same numbers, and no warning (none to filter, so no
    # process-wide filter swapped).
    from pdagree.category_inference import _nan_std

    rng = np.random.default_rng(3)
    values = rng.normal(size=(40, 6, 3))
    values[rng.random(values.shape) < 0.3] = np.nan
    values[:, 0, 0] = np.nan  # no replicate defined
    values[1:, 1, 1] = np.nan  # one
    count = np.isfinite(values).sum(axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = _nan_std(values, count)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.where(count >= 2, np.nanstd(values, axis=0, ddof=1), np.nan)
    np.testing.assert_array_equal(got, want)
    assert np.isnan(got[0, 0]) and np.isnan(got[1, 1]) and np.isfinite(got[2, 2])


def test_warnings_go_as_far_out_as_the_innermost_listing() -> None:
    from pdagree._warnings import listed, recorded, warn

    def inner_listed() -> None:
        warn("kept back")

    def inner_recorded() -> None:
        warn("raised")

    def page() -> None:
        listed(inner_listed)  # as per_rater's leave-one-out coefficients inside a page
        recorded(inner_recorded)  # as a read inside a page

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing reaches the caller
        _, messages = listed(page)
    assert messages == ("raised",)
    with pytest.warns(pdagree.UndefinedStatisticWarning, match="raised") as caught:
        _, messages = recorded(page)
    assert messages == ("raised",) and len(caught) == 1
