"""The bundled `qgstec_simulated` data set is what `pdagree.irt.simulate` draws from the
documented parameters and seed.

Run this file as a script (``python tests/test_irt_dataset.py``) to write
``pdagree/data/qgstec_simulated.csv`` again.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

import pdagree
from pdagree.irt import simulate

CSV = Path(__file__).resolve().parents[1] / "pdagree" / "data" / "qgstec_simulated.csv"
SEED = 2020
N_QUESTIONS = 200
MISSING = 0.05
JUDGES = ["J1", "J2", "J3"]
nan = np.nan

#: Per criterion: the common discrimination and each judge's extremities. Ambiguity and
#: variety take Judge 1's and Judge 3's extremities from Amidei et al. (2020), section 2.3;
#: in relevance Judge 1 never gives the top score 4, as in the paper's Table 1.
CRITERIA: dict[str, tuple[float, dict[str, list[float]]]] = {
    "ambiguity": (1.3, {"J1": [0.601, 1.717], "J2": [0.40, 1.85], "J3": [0.173, 1.993]}),
    "variety": (5.0, {"J1": [-1.183, -0.990], "J2": [-1.17, -0.96], "J3": [-1.150, -0.944]}),
    "fluency": (1.8, {"J1": [-0.2, 0.6, 1.6], "J2": [-0.25, 0.6, 1.4], "J3": [-0.3, 0.55, 1.1]}),
    "relevance": (2.0, {"J1": [1.3, 1.55, nan], "J2": [1.1, 1.4, 2.0], "J3": [1.0, 1.3, 2.2]}),
}


def parameters(criterion: str) -> pd.DataFrame:
    a, extremities = CRITERIA[criterion]
    n_boundaries = len(extremities["J1"])
    columns = {
        f"extremity_{k + 1}": [extremities[j][k] for j in JUDGES] for k in range(n_boundaries)
    }
    return pd.DataFrame({"discrimination": a, **columns}, index=JUDGES)


def generate() -> pd.DataFrame:
    """The criteria in order, each simulated from one generator seeded with SEED."""
    rng = np.random.default_rng(SEED)
    frames = []
    for criterion in CRITERIA:
        frame = simulate(parameters(criterion), N_QUESTIONS, missing=MISSING, rng=rng)
        frame.index = pd.RangeIndex(1, N_QUESTIONS + 1, name="question")
        frame.insert(0, "criterion", criterion)
        frames.append(frame)
    return pd.concat(frames)


def test_bundled_csv_is_the_simulation() -> None:
    loaded = pdagree.datasets.load("qgstec_simulated")
    expected = generate()
    pd.testing.assert_frame_equal(loaded, expected, check_index_type=False)


def test_shape_of_the_paper() -> None:
    frame = pdagree.datasets.load("qgstec_simulated")
    assert frame.columns.tolist() == ["criterion", *JUDGES]
    assert frame.index.name == "question"
    sizes = frame.groupby("criterion", sort=False).size()
    assert sizes.to_dict() == dict.fromkeys(CRITERIA, N_QUESTIONS)
    frequencies = frame.agree(by="criterion").frequencies()["count"]
    assert frequencies.loc[("relevance", "J1"), 4] == 0  # as in the paper's Table 1
    assert (frequencies.loc[("relevance", "J1"), [1, 2, 3]] > 0).all()
    assert frame[JUDGES].isna().any().all()  # every judge has missing cells


def test_every_criterion_fits_and_converges() -> None:
    frame = pdagree.datasets.load("qgstec_simulated")
    for criterion, group in frame.groupby("criterion", sort=False):
        fit = group.drop(columns="criterion").agree.irt()
        assert fit.converged, criterion
        assert fit.parameters.index.tolist() == JUDGES
    relevance = frame[frame["criterion"] == "relevance"].drop(columns="criterion")
    assert np.isnan(relevance.agree.irt().parameters.loc["J1", "extremity_3"])


if __name__ == "__main__":
    generate().to_csv(CSV)
    print(f"wrote {CSV}")
