"""`GradedResponseFit.plot()`: the IRCCC panels of Amidei et al. (2020), Figures 2 and 3."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest

import pdagree
from pdagree.irt import GradedResponseFit

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")


@pytest.fixture(scope="module")
def fit() -> GradedResponseFit:
    df = pdagree.datasets.load("qgstec_simulated")
    relevance = df[df["criterion"] == "relevance"].drop(columns="criterion")
    return relevance.agree.irt()


def test_one_panel_per_judge_one_curve_per_category_used(fit: GradedResponseFit) -> None:
    figure = fit.plot()
    try:
        assert isinstance(figure, matplotlib.figure.Figure)
        axes = figure.get_axes()
        assert [ax.get_title() for ax in axes] == ["J1", "J2", "J3"]
        # J1 never gives relevance 4: three curves; the others four
        assert [len(ax.get_lines()) for ax in axes] == [3, 4, 4]
        assert [t.get_text() for t in axes[1].get_legend().get_texts()] == ["1", "2", "3", "4"]
        x, y = axes[2].get_lines()[0].get_data()
        curves = fit.irccc()
        expected = curves[(curves["rater"] == "J3") & (curves["category"] == 1)]
        np.testing.assert_allclose(x, expected["z"])
        np.testing.assert_allclose(y, expected["probability"])
    finally:
        plt.close(figure)


def test_chosen_judges_on_given_axes(fit: GradedResponseFit) -> None:
    figure, axes = plt.subplots(1, 2)
    try:
        out = fit.plot(["J3", "J1"], z=np.linspace(-2, 2, 5), ax=axes)
        assert out is figure
        assert [ax.get_title() for ax in axes] == ["J3", "J1"]
        assert len(axes[0].get_lines()[0].get_xdata()) == 5
        with pytest.raises(ValueError, match=r"^`ax` must hold one Axes per judge drawn \(3\)"):
            fit.plot(ax=axes)
        with pytest.raises(ValueError, match=r"^`raters` must name judges of the fit"):
            fit.plot(["J9"])
    finally:
        plt.close(figure)
    single, ax = plt.subplots()
    try:
        assert fit.plot(["J2"], ax=ax) is single
    finally:
        plt.close(single)


def test_without_matplotlib_the_error_says_what_to_install(
    fit: GradedResponseFit, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(
        ImportError,
        match=r"^`plot\(\)` needs matplotlib, which is not installed; install it with `pip "
        r'install "pdagree\[plot\]"`\.$',
    ):
        fit.plot()
    # everything else works without it
    assert isinstance(fit.irccc(), pd.DataFrame)
