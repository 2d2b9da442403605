"""pdagree.plotting on the Agg backend: assertions on the artists drawn, not on pixels."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree import UndefinedStatisticWarning, plotting

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")


@pytest.fixture(autouse=True)
def _no_show_no_rcparams(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Charts never call ``plt.show()`` and leave ``rcParams`` as they found them."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a chart called plt.show()")

    monkeypatch.setattr(plt, "show", refuse)
    before = dict(matplotlib.rcParams)
    yield
    after = dict(matplotlib.rcParams)
    assert {k: v for k, v in after.items() if before.get(k) != v} == {}


def trains() -> pdagree.Ratings:
    return pdagree.datasets.load("fort2011_trains").agree()


def ticks(labels: list) -> list[str]:  # type: ignore[type-arg]
    return [t.get_text() for t in labels]


# --------------------------------------------------------------------------- the extra


def test_importing_pdagree_does_not_import_matplotlib() -> None:
    code = "import sys, pdagree, pdagree.plotting; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_missing_matplotlib_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'pip install "pdagree\[plot\]"'):
        plotting.spa_weights()


def test_charts_draw_on_the_axes_given() -> None:
    _, ax = plt.subplots()
    n_figures = len(plt.get_fignums())
    assert plotting.frequencies(trains(), ax=ax) is ax
    assert plotting.pairwise(trains(), ax=ax) is not None
    assert len(plt.get_fignums()) == n_figures


# --------------------------------------------------------------------------- frequencies


def test_frequencies_stacked() -> None:
    ratings = trains()
    ax = plotting.frequencies(ratings)
    table = ratings.frequencies()["proportion"]
    assert len(ax.patches) == table.size  # one bar per (rater, category)
    assert ticks(ax.get_yticklabels()) == ["Annot1", "Annot2", "Annot3", "Annot4"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list(table.columns)
    # Bars of one category, first rater on top (largest y): widths are the proportions.
    boxcar = sorted(ax.containers[0], key=lambda p: -p.get_y())
    np.testing.assert_allclose([p.get_width() for p in boxcar], table["Boxcar"])
    ends = {}
    for patch in ax.patches:
        ends[patch.get_y()] = max(ends.get(patch.get_y(), 0), patch.get_x() + patch.get_width())
    np.testing.assert_allclose(sorted(ends.values()), 1.0)


def test_frequencies_grouped_counts_from_the_frame() -> None:
    table = trains().frequencies()
    ax = plotting.frequencies(table, proportion=False, stacked=False)
    assert ticks(ax.get_xticklabels()) == ["Boxcar", "Engine1", "Engine2", "Tanker"]
    annot3 = ax.containers[2]
    assert [p.get_height() for p in annot3] == table.loc["Annot3", "count"].tolist()
    assert ax.get_ylabel() == "count"


def test_frequencies_refuses_other_inputs() -> None:
    with pytest.raises(TypeError, match=r"^expected the DataFrame of `frequencies\(\)`"):
        plotting.frequencies([1, 2])


# --------------------------------------------------------------------------- bias


def test_bias_by_category_and_by_rater() -> None:
    result = trains().bias()
    ax = plotting.bias(result)
    assert ticks(ax.get_xticklabels()) == list(result.per_category.index)
    np.testing.assert_allclose([p.get_height() for p in ax.patches], result.per_category)
    assert ax.get_title() == f"annotator bias B = {float(result):.4g} by category"
    ax = plotting.bias(result, by="rater")
    heights = [p.get_height() for p in ax.patches]
    np.testing.assert_allclose(heights, result.per_rater[("contribution", "")])
    # A complete design: the bars add up to B.
    assert sum(heights) == pytest.approx(float(result))
    assert sum(p.get_height() for p in plotting.bias(result).patches) == pytest.approx(
        float(result)
    )


def test_bias_refuses_other_results() -> None:
    with pytest.raises(TypeError, match=r"^expected the result of `bias\(\)` without `by=`"):
        plotting.bias(trains().fleiss())
    with pytest.raises(ValueError, match=r"^`by` must be 'category' or 'rater'; got 'item'\.$"):
        plotting.bias(trains().bias(), by="item")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- pairwise


def test_pairwise_heatmap() -> None:
    ratings = trains()
    ax = plotting.pairwise(ratings)
    table = ratings.pairwise()
    np.testing.assert_allclose(ax.images[0].get_array(), table.to_numpy())
    assert ticks(ax.get_xticklabels()) == list(table.columns)
    assert ticks(ax.get_yticklabels()) == list(table.index)
    # Fort's trains: 7 items, every pair shares them; under 10 shared items a cell is hatched
    # and says how many (issue #21: a kappa from 2 items must not look like one from 200).
    assert len(ax.texts) == 16 and ax.texts[1].get_text() == "0.18\nn=7"
    assert ax.texts[0].get_text() == "1.00"  # the diagonal is not in doubt
    assert ax.get_title() == "pairwise cohen (// under 10 items)"
    assert sum(p.get_hatch() == "//" for p in ax.patches) == 12
    ax = plotting.pairwise(ratings, few_items=2)
    assert ax.texts[1].get_text() == "0.18" and not any(p.get_hatch() for p in ax.patches)
    assert ax.get_title() == "pairwise cohen"
    ax = plotting.pairwise(ratings, coefficient="n_items", annotate=False, vmax=None)
    assert len(ax.texts) == 0 and ax.get_title() == "pairwise n_items"


def test_pairwise_refuses_by_frames() -> None:
    wide = pdagree.datasets.load("fort2011_trains").assign(g=[1, 1, 1, 2, 2, 2, 2])
    with pytest.raises(ValueError, match=r"^`pairwise` draws one table of raters x raters"):
        plotting.pairwise(wide.agree(by="g").pairwise())


# --------------------------------------------------------------------------- per category


def test_per_category_from_ratings() -> None:
    ratings = pdagree.datasets.load("fleiss1971").agree()
    ax = plotting.per_category(ratings)
    table = ratings.per_category()
    widths = [p.get_width() for p in sorted(ax.patches, key=lambda p: -p.get_y())]
    np.testing.assert_allclose(widths, table["kappa"])
    assert ticks(ax.get_yticklabels()) == list(table.index)
    assert not any(isinstance(c, matplotlib.container.ErrorbarContainer) for c in ax.containers)


def test_per_category_with_intervals() -> None:
    frame = pd.DataFrame(
        {"value": [0.2, 0.5], "low": [0.1, np.nan], "high": [0.4, np.nan]},
        index=pd.Index(["a", "b"], name="category"),
    )
    frame.attrs["coefficient"] = "fleiss"
    ax = plotting.per_category(frame)
    (bars,) = [c for c in ax.containers if isinstance(c, matplotlib.container.ErrorbarContainer)]
    (segments,) = bars.lines[2]
    spans = sorted(tuple(s[:, 0]) for s in segments.get_segments())
    assert spans == [pytest.approx((0.1, 0.4)), pytest.approx((0.5, 0.5))]  # b: no interval
    assert ax.get_xlabel() == "fleiss"
    with pytest.raises(ValueError, match=r"^`column` must name a column of the frame"):
        plotting.per_category(frame, column="kappa")


# --------------------------------------------------------------------------- coefficients


def test_coefficients_per_group_with_intervals() -> None:
    crowd = pdagree.datasets.load("crowd_sparse")
    groups = crowd.agree(item="item", rater="annotator", label="label", by="batch")
    frame = groups.fleiss(confidence_level=0.95)
    ax = plotting.coefficients(frame, thresholds=(0.667, 0.8))
    (container,) = ax.containers
    line, _, (segments,) = container.lines
    # The first group on top: y positions descend.
    np.testing.assert_allclose(line.get_xdata(), frame["value"])
    spans = [tuple(s[:, 0]) for s in segments.get_segments()]
    np.testing.assert_allclose(spans, frame[["low", "high"]].to_numpy())
    assert ticks(ax.get_yticklabels()) == ["1", "2", "3"]
    assert ax.get_ylabel() == "batch" and ax.get_xlabel() == "fleiss"
    assert ax.get_title() == "fleiss per batch (dashed: 0.667, 0.8)"  # says what the lines are
    assert len([line for line in ax.get_lines() if line.get_linestyle() == "--"]) == 2


def test_coefficients_from_results_and_reports() -> None:
    ratings = trains()
    ax = plotting.coefficients([ratings.fleiss(), ratings.conger(confidence_level=0.9)])
    assert ticks(ax.get_yticklabels()) == ["fleiss", "conger"]
    report = pdagree.datasets.load("fleiss1971").agree.report(confidence_level=0.95, rng=0)
    ax = plotting.coefficients(report)
    assert len(ax.get_yticklabels()) == len(report)
    with pytest.raises(TypeError, match=r"^expected a result \(a Coefficient\), a list of them"):
        plotting.coefficients("fleiss")
    with pytest.raises(ValueError, match=r"^expected a frame with a `value` column"):
        plotting.coefficients(ratings.pairwise())


# --------------------------------------------------------------------------- SPA weights


def test_spa_weight_curves() -> None:
    ax = plotting.spa_weights(n_max=6, p=[0.6, 0.3, 0.1], highlight="edges")
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(lines) == list(pdagree.spa.WEIGHTINGS)
    np.testing.assert_allclose(lines["edges"].get_ydata(), [1, 3, 6, 10, 15])
    np.testing.assert_allclose(lines["inv_var"].get_ydata(), lines["edges"].get_ydata())
    np.testing.assert_allclose(lines["annotations_m1"].get_ydata(), [1, 2, 3, 4, 5])
    assert lines["edges"].get_linewidth() > lines["flat"].get_linewidth()
    assert "inv_var_class" not in {line.get_label() for line in plotting.spa_weights().lines}
    with pytest.raises(ValueError, match=r"^`n_max` must be at least 2"):
        plotting.spa_weights(n_max=1)


@pytest.mark.parametrize("scheme", pdagree.spa.WEIGHTINGS)
def test_scheme_weights_are_the_weights_spa_uses(scheme: str) -> None:
    crowd = pdagree.datasets.load("crowd_sparse").agree(
        item="item", rater="annotator", label="label"
    )
    items = crowd.spa_items(scheme)
    counting = items[items["n_labels"] >= 2]
    p = crowd.spa(scheme).__dict__.get("p")
    mine = pdagree.spa.scheme_weights(counting["n_labels"], scheme, categories=3, p=p)
    np.testing.assert_allclose(mine, counting["weight"], rtol=1e-12)
    # Its former place (issue #21: every name in pdagree.plotting draws) warns and forwards.
    with pytest.warns(DeprecationWarning, match="moved to pdagree.spa.scheme_weights"):
        old = plotting.scheme_weights(counting["n_labels"], scheme, categories=3, p=p)
    np.testing.assert_array_equal(old, mine)
    assert "scheme_weights" not in plotting.__all__


# --------------------------------------------------------------------------- result.plot()


def test_results_plot_themselves() -> None:
    ratings = trains()
    bias = ratings.bias()
    assert len(bias.plot().patches) == 4  # by category
    assert len(bias.plot(by="rater").patches) == 4
    crowd = pdagree.datasets.load("crowd_sparse").agree(
        item="item", rater="annotator", label="label"
    )
    ax = crowd.spa("inv_var_class").plot(n_max=5)
    widths = {line.get_label(): line.get_linewidth() for line in ax.get_lines()}
    assert widths["inv_var_class"] == max(widths.values())
    ax = ratings.fleiss(confidence_level=0.95).plot()
    ((segment,),) = [c.lines[2] for c in ax.containers]
    assert segment.get_segments()[0][:, 0] == pytest.approx(
        list(ratings.fleiss().confidence_interval())
    )
    _, given = plt.subplots()
    assert ratings.light().plot(ax=given) is given


def test_against_tables_plot_as_frames() -> None:
    # A gold-standard table is a DataFrame: its per-rater F1 is one column away from a chart.
    wide = pdagree.datasets.load("fort2011_trains")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedStatisticWarning)
        table = wide.agree.against("Annot1", average="macro")
    ax = plotting.coefficients(table.rename(columns={"f1": "value"}))
    assert ticks(ax.get_yticklabels()) == ["Annot2", "Annot3", "Annot4"]


def test_pairwise_heatmap_greys_pairs_sharing_few_items() -> None:
    # a and c share one item: the cell is masked (drawn grey), not coloured like the rest.
    wide = pd.DataFrame(
        {
            "a": ["x", "y", "x", "y", "x", None],
            "b": ["x", "y", "y", "y", None, "x"],
            "c": [None, None, None, None, "y", "y"],
        }
    )
    ratings = wide.agree()
    ax = plotting.pairwise(ratings, coefficient="observed", min_items=2)
    image = ax.images[0]
    shown = image.get_array()
    assert shown.mask[0, 2] and shown.mask[2, 0] and not shown.mask[0, 1]
    assert image.get_cmap().get_bad()[:3] == pytest.approx(matplotlib.colors.to_rgb("lightgrey"))
    ax = plotting.pairwise(ratings, coefficient="observed", min_items=1)
    assert not image.get_array().mask[0, 1] and not ax.images[0].get_array().mask[0, 2]
    # method= is the former name of coefficient= (#27), kept for one release
    with pytest.warns(FutureWarning, match=r"use coefficient='observed'"):
        old = plotting.pairwise(ratings, method="observed", min_items=1)
    assert (old.images[0].get_array() == ax.images[0].get_array()).all()


def test_many_raters_stay_readable() -> None:
    # Issue #21, point 6: 25 e-mail addresses overlapped into a black band.
    rng = np.random.default_rng(0)
    emails = [f"annotator.number{i:02d}@example-labelling-company.com" for i in range(25)]
    wide = pd.DataFrame(rng.choice(["a", "b", "c"], (40, 25)), columns=emails)
    ratings = wide.agree()
    ax = plotting.pairwise(ratings)
    labels = ticks(ax.get_xticklabels())
    assert len(set(labels)) == 25 and max(map(len, labels)) <= 18  # cut, still distinct
    assert ax.xaxis.get_majorticklabels()[0].get_rotation() == 90
    assert len(ax.texts) == 0  # not annotated above 12 raters
    bars = plotting.bias(ratings.bias(), by="rater")
    assert len(ticks(bars.get_yticklabels())) == 25  # horizontal bars, one label per row
    assert ticks(plotting.frequencies(ratings).get_yticklabels())[7] == "annota…07…"
    report = ratings.report()
    assert plotting.coefficients(report).get_title() == "coefficients"


# ------------------------------------------- #26: legends inside the default saved figure


def _legend_inside_saved_figure(ax, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Save with the default savefig (no bbox_inches="tight"), then compare the legend's
    window extent, as drawn for that file, with the figure's box."""
    fig = ax.figure
    fig.savefig(tmp_path / "chart.png")
    box = ax.get_legend().get_window_extent(fig.canvas.get_renderer())
    page = fig.bbox
    assert box.x0 >= page.x0 and box.y0 >= page.y0, (box.bounds, page.bounds)
    assert box.x1 <= page.x1 and box.y1 <= page.y1, (box.bounds, page.bounds)
    # and the Axes were not squeezed to nothing to make room
    assert ax.get_window_extent().width > 0.3 * page.width
    plt.close(fig)


def _many_raters() -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        rng.integers(0, 3, (30, 40)), columns=[f"annotator{i:02d}" for i in range(40)]
    )


@pytest.mark.parametrize(
    "draw",
    [
        lambda: plotting.frequencies(pdagree.datasets.load("fleiss1971").agree()),
        lambda: plotting.frequencies(trains(), stacked=False),
        lambda: plotting.frequencies(_many_raters().agree(), stacked=False),
        lambda: plotting.frequencies(
            pd.DataFrame(np.random.default_rng(1).integers(0, 30, (200, 3))).agree()
        ),
        lambda: plotting.spa_weights(),
        lambda: plotting.spa_weights(p={"a": 0.2, "b": 0.8}, highlight="inv_var_class"),
    ],
    ids=["frequencies", "unstacked", "40 raters", "30 categories", "spa", "spa with p"],
)
def test_legends_fit_in_the_default_saved_figure(draw, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _legend_inside_saved_figure(draw(), tmp_path)


def test_a_legend_beside_the_callers_axes_leaves_the_figure_alone(tmp_path) -> None:  # type: ignore[no-untyped-def]
    fig, ax = plt.subplots()
    plotting.frequencies(trains(), ax=ax)
    assert fig.get_layout_engine() is None  # the caller's figure: room is theirs to give
    plt.close(fig)
    fig, ax = plt.subplots(layout="constrained")
    _legend_inside_saved_figure(plotting.frequencies(trains(), ax=ax), tmp_path)
