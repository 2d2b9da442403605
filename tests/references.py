"""Published reference values for pdagree's tests.

Plain data, no pdagree imports: data sets exactly as published and the numbers the
sources print for them, each with its citation in a comment next to it. Tests build
pandas frames from these lists/dicts (``np.nan`` marks a missing rating) and compare
pdagree's results with the printed numbers at the precision the source prints.

Sections
--------
1. R package irrCAC (K. L. Gwet): raw ratings (``cac.raw4raters``), distribution of
   raters (``distrib.6raters``) and a contingency table (``cont3x3abstractors``), with
   every printed coefficient, standard error, 95% CI and p-value; weighted (quadratic)
   versions; ``cont4x4diagnosis`` and every weighting of both tables from the Python port;
   benchmark membership probabilities; the benchmark scales.
2. Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": the 4 observers x
   12 units example with missing values (nominal/ordinal/interval/ratio) and the two
   2-observer examples.
3. SAS/STAT PROC FREQ, AGREE option: the "Agreement Study" (skin condition) example, and
   a SAS printout kept in statsmodels' test suite (simple and weighted kappa, with the ASE
   under H0 and Z). 3b. R package irr: kappa2's z on the anxiety data with weight vectors,
   kappam.fleiss's z on the diagnoses.
4. Fleiss (1971): the 30 patients x 5 diagnoses count table, kappa and category kappas.
5. Interpretation bands: Landis & Koch (1977), Altman (1991), Fleiss (1981),
   Krippendorff (2004).

How the sources print (read this before choosing a tolerance)
-------------------------------------------------------------
* irrCAC raw-ratings functions print ``coeff.val`` and ``coeff.se`` rounded to 5
  decimals, ``pa``/``pe`` with 7 significant digits, the CI rounded to 3 decimals and
  clipped at 1 (a printed upper limit ``1`` is the clip, not a computed bound). The CI is
  coefficient +/- qt(0.975, n - 1) * se with n = number of units rated at least once
  (12 for ``cac.raw4raters``, 15 for ``distrib.6raters``).
* irrCAC p-values changed convention on 2021-11-30 (commit 3ed7833, "revised the
  calculation of all p-values": "The p-value is now right-tailed throughout the
  program. They used to be 2-tailed"). Every p below carries ``"p_sided"``: README.md
  at HEAD (irrCAC 1.4) is one-sided, 1 - pt(coef / se, n - 1); the vignettes rendered
  2021-08-28 (irrCAC 1.2) are two-sided, 2 * (1 - pt(|coef / se|, n - 1)).
* irrCAC's contingency-table functions print p as ``0e+00`` (recorded as 0.0).
* irrCAC "quadratic" weights on categories c_1..c_q are 1 - (c_k - c_l)^2 /
  (c_max - c_min)^2, so quadratic Krippendorff alpha equals interval alpha here.

Sources read for this file
--------------------------
* irrCAC git repository, github.com/kgwet/irrCAC: README.md at commit 7fb7509236672b86
  (2026-05-08, DESCRIPTION Version 1.4); rendered vignettes inst/doc/weighting.html
  (last changed in commit 4abd58c, dated 2021-08-28) and inst/doc/benchmarking.html
  (last changed in commit 1b5c575, 2021-08-28), both DESCRIPTION Version 1.2 and both
  deleted in commit f4efa7a; data from inst/extdata/*.csv (text copies of
  data/*.RData).
* krippendorff (PyPI) 0.9.0, docstring of ``krippendorff.alpha`` (Examples).
* statsmodels 0.15.0, statsmodels/stats/tests/test_inter_rater.py.
* SAS/STAT User's Guide, PROC FREQ, "Getting Started: Agreement Study"
  (e.g. documentation.sas.com/doc/en/pgmsascdc/9.4_3.5/statug/
  statug_freq_gettingstarted02.htm).
"""

import numpy as np

nan = np.nan

# =====================================================================================
# 1. R package irrCAC (Gwet)
# =====================================================================================

# -- 1a. cac.raw4raters: 12 units x 4 raters, categories 1..5, missing = nan ----------
# Data: irrCAC README.md (commit 7fb7509, irrCAC 1.4), "Computing agreement
# coefficients from raw ratings", printed ``cac.raw4raters``; identical to
# inst/extdata/cac.raw4raters.csv and inst/extdata/xraw12x4.csv. man/cac.raw4raters.Rd
# gives the source as Gwet (2014), Handbook of Inter-Rater Reliability, 4th ed., p. 120.
# NOTE: this is Krippendorff's (2011) 4 x 12 example (section 2 below) transposed, except
# that the lone rating 3 of unit 12 is attributed to Rater3 here and to observer B in
# Krippendorff (2011). Single-rated units are not pairable, so alpha is unchanged.
IRRCAC_RAW4RATERS_UNITS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
IRRCAC_RAW4RATERS = {
    "Rater1": [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    "Rater2": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, nan],
    "Rater3": [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
    "Rater4": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
}
IRRCAC_RAW4RATERS_CATEGORIES = [1, 2, 3, 4, 5]  # README: $categories [1] 1 2 3 4 5
IRRCAC_RAW4RATERS_TOTAL_RATINGS = 41  # README: tot.obs 41
IRRCAC_RAW4RATERS_RATINGS_PER_RATER = {  # README: $obs  9 10 11 11
    "Rater1": 9,
    "Rater2": 10,
    "Rater3": 11,
    "Rater4": 11,
}

# Unweighted. Source: irrCAC README.md at commit 7fb7509 (irrCAC 1.4), outputs of
# pa.coeff.raw, gwet.ac1.raw, fleiss.kappa.raw, krippen.alpha.raw, conger.kappa.raw,
# bp.coeff.raw on cac.raw4raters ($est rows, w.name "unweighted"). p is one-sided.
IRRCAC_RAW4RATERS_EXPECTED = {
    "percent_agreement": {  # README, pa.coeff.raw(cac.raw4raters)
        "pa": 0.8181818,
        "pe": 0.0,
        "value": 0.8181818,
        "se": 0.12561,
        "ci": (0.542, 1.0),
        "p": 2.172686e-05,
        "p_sided": "one-sided",
    },
    "gwet_ac1": {  # README, gwet.ac1.raw(cac.raw4raters), coeff.name "AC1"
        "pa": 0.8181818,
        "pe": 0.1903212,
        "value": 0.77544,
        "se": 0.14295,
        "ci": (0.461, 1.0),
        "p": 0.0001043605,
        "p_sided": "one-sided",
    },
    "fleiss": {  # README, fleiss.kappa.raw(cac.raw4raters)
        "pa": 0.8181818,
        "pe": 0.2387153,
        "value": 0.76117,
        "se": 0.15302,
        "ci": (0.424, 1.0),
        "p": 0.0002095865,
        "p_sided": "one-sided",
    },
    "krippendorff": {  # README, krippen.alpha.raw(cac.raw4raters)
        "pa": 0.805,
        "pe": 0.24,
        "value": 0.74342,
        "se": 0.14548,
        "ci": (0.423, 1.0),
        "p": 0.0001693123,
        "p_sided": "one-sided",
    },
    "conger": {  # README, conger.kappa.raw(cac.raw4raters)
        "pa": 0.8181818,
        "pe": 0.2334252,
        "value": 0.76282,
        "se": 0.14917,
        "ci": (0.435, 1.0),
        "p": 0.0001683533,
        "p_sided": "one-sided",
    },
    "brennan_prediger": {  # README, bp.coeff.raw(cac.raw4raters)
        "pa": 0.8181818,
        "pe": 0.2,
        "value": 0.77273,
        "se": 0.14472,
        "ci": (0.454, 1.0),
        "p": 0.0001187804,
        "p_sided": "one-sided",
    },
}

# Quadratic weights (weights = "quadratic"). Source: irrCAC vignette "Weighted
# Chance-corrected Agreement Coefficients", rendered inst/doc/weighting.html (dated
# 2021-08-28, irrCAC 1.2; git commit 4abd58c, removed in f4efa7a), section "Weighting
# for a dataset of raw ratings", ``<fun>(cac.raw4raters, weights = "quadratic")$est``,
# w.name "quadratic", tot.obs 41. p is TWO-sided (pre-2021-11-30 convention).
IRRCAC_RAW4RATERS_QUADRATIC_EXPECTED = {
    "percent_agreement": {  # weighting.html, pa.coeff.raw(..., "quadratic")
        "pa": 0.9753788,
        "pe": 0.0,
        "value": 0.9753788,
        "se": 0.09062,
        "ci": (0.776, 1.0),
        "p": 3.526377e-07,
        "p_sided": "two-sided",
    },
    "gwet_ac2": {  # weighting.html, gwet.ac1.raw(..., "quadratic"), coeff.name "AC2"
        "pa": 0.9753788,
        "pe": 0.7137044,
        "value": 0.914,
        "se": 0.10396,
        "ci": (0.685, 1.0),
        "p": 2.634438e-06,
        "p_sided": "two-sided",
    },
    "fleiss": {  # weighting.html, fleiss.kappa.raw(..., "quadratic")
        "pa": 0.9753788,
        "pe": 0.8177083,
        "value": 0.86494,
        "se": 0.14603,
        "ci": (0.544, 1.0),
        "p": 9.976081e-05,
        "p_sided": "two-sided",
    },
    "krippendorff": {  # weighting.html, krippen.alpha.raw(..., "quadratic")
        "pa": 0.9735938,
        "pe": 0.825,
        "value": 0.84911,
        "se": 0.12905,
        "ci": (0.565, 1.0),
        "p": 3.972199e-05,
        "p_sided": "two-sided",
    },
    "conger": {  # weighting.html, conger.kappa.raw(..., "quadratic")
        "pa": 0.9753788,
        "pe": 0.8269638,
        "value": 0.85771,
        "se": 0.14367,
        "ci": (0.541, 1.0),
        "p": 9.319979e-05,
        "p_sided": "two-sided",
    },
    "brennan_prediger": {  # weighting.html, bp.coeff.raw(..., "quadratic")
        "pa": 0.9753788,
        "pe": 0.75,
        "value": 0.90152,
        "se": 0.11089,
        "ci": (0.657, 1.0),
        "p": 5.60548e-06,
        "p_sided": "two-sided",
    },
}

# -- 1b. distrib.6raters: 15 subjects, counts of 6 raters over 5 categories -----------
# Data: irrCAC README.md (commit 7fb7509), "Computing agreement coefficients from the
# distribution of raters by subject & category"; = inst/extdata/distrib.6raters.csv.
# NOTE: these are rows 1-15 of Fleiss's (1971) table (section 4 below).
IRRCAC_DISTRIB_6RATERS_CATEGORIES = [
    "Depression",
    "Personality Disorder",
    "Schizophrenia",
    "Neurosis",
    "Other",
]
IRRCAC_DISTRIB_6RATERS = [
    [0, 0, 0, 6, 0],
    [0, 3, 0, 0, 3],
    [0, 1, 4, 0, 1],
    [0, 0, 0, 0, 6],
    [0, 3, 0, 3, 0],
    [2, 0, 4, 0, 0],
    [0, 0, 4, 0, 2],
    [2, 0, 3, 1, 0],
    [2, 0, 0, 4, 0],
    [0, 0, 0, 0, 6],
    [1, 0, 0, 5, 0],
    [1, 1, 0, 4, 0],
    [0, 3, 3, 0, 0],
    [1, 0, 0, 5, 0],
    [0, 2, 0, 3, 1],
]

# Unweighted. Source: irrCAC README.md at commit 7fb7509 (irrCAC 1.4): outputs of
# gwet.ac1.dist, fleiss.kappa.dist, krippen.alpha.dist, bp.coeff.dist on
# distrib.6raters (n 15, q 5, r.min 6, r.max 6). p is one-sided. These functions print
# coeff/stderr with 7 significant digits.
IRRCAC_DISTRIB_6RATERS_EXPECTED = {
    "gwet_ac1": {  # README, gwet.ac1.dist(distrib.6raters)
        "pa": 0.5511111,
        "pe": 0.1914815,
        "value": 0.4448007,
        "se": 0.08418757,
        "ci": (0.264, 0.625),
        "p": 5.779637e-05,
        "p_sided": "one-sided",
    },
    "fleiss": {  # README, fleiss.kappa.dist(distrib.6raters)
        "pa": 0.5511111,
        "pe": 0.2340741,
        "value": 0.4139265,
        "se": 0.08119291,
        "ci": (0.24, 0.588),
        "p": 8.113618e-05,
        "p_sided": "one-sided",
    },
    "krippendorff": {  # README, krippen.alpha.dist(distrib.6raters)
        "pa": 0.5560988,
        "pe": 0.2340741,
        "value": 0.4204384,
        "se": 0.08243228,
        "ci": (0.244, 0.597),
        "p": 8.078607e-05,
        "p_sided": "one-sided",
    },
    "brennan_prediger": {  # README, bp.coeff.dist(distrib.6raters)
        "pa": 0.5511111,
        "pe": 0.2,
        "value": 0.4388889,
        "se": 0.08312142,
        "ci": (0.261, 0.617),
        "p": 5.814998e-05,
        "p_sided": "one-sided",
    },
}

# Quadratic weights, quadratic.weights(1:5) (categories scored 1..5 in column order).
# Source: irrCAC weighting.html (2021-08-28, irrCAC 1.2), section "Weighting when input
# data is the distribution of raters by subject and rating". p is TWO-sided.
IRRCAC_DISTRIB_6RATERS_QUADRATIC_EXPECTED = {
    "gwet_ac2": {  # weighting.html, gwet.ac1.dist(..., quadratic.weights(1:q))
        "pa": 0.8544444,
        "pe": 0.7180556,
        "value": 0.4837438,
        "se": 0.1058227,
        "ci": (0.257, 0.711),
        "p": 0.0004356618,
        "p_sided": "two-sided",
    },
    "fleiss": {  # weighting.html, fleiss.kappa.dist(..., quadratic.weights(1:q))
        "pa": 0.8544444,
        "pe": 0.8056173,
        "value": 0.2511909,
        "se": 0.1457381,
        "ci": (-0.061, 0.564),
        "p": 0.1067865,
        "p_sided": "two-sided",
    },
    "krippendorff": {  # weighting.html, krippen.alpha.dist(..., quadratic.weights(1:q))
        "pa": 0.8560617,
        "pe": 0.8056173,
        "value": 0.259511,
        "se": 0.133958,
        "ci": (-0.028, 0.547),
        "p": 0.07315748,
        "p_sided": "two-sided",
    },
    "brennan_prediger": {  # weighting.html, bp.coeff.dist(..., quadratic.weights(1:q))
        "pa": 0.8544444,
        "pe": 0.75,
        "value": 0.4177778,
        "se": 0.1067493,
        "ci": (0.189, 0.647),
        "p": 0.001559352,
        "p_sided": "two-sided",
    },
}

# -- 1c. cont3x3abstractors: 2 raters, 3 x 3 contingency table (n = 100) --------------
# Data: irrCAC README.md (commit 7fb7509), "Computing agreement Coefficients from
# Contingency tables"; = inst/extdata/cont3x3abstractors.csv. Rows = rater 1,
# columns = rater 2, both in the order below.
IRRCAC_CONT3X3ABSTRACTORS_CATEGORIES = ["Ectopic", "AIU", "NIU"]
IRRCAC_CONT3X3ABSTRACTORS = [
    [13, 0, 0],
    [0, 20, 7],
    [0, 4, 56],
]

# Unweighted. Source: irrCAC README.md at commit 7fb7509 (irrCAC 1.4; the same numbers
# are in the 2021-08-28 overview vignette): kappa2.table, scott2.table,
# gwet.ac1.table, bp2.table, krippen2.table, bangdiwala.table, pa2.table. CI printed to
# 3 decimals; p printed "0e+00".
IRRCAC_CONT3X3ABSTRACTORS_EXPECTED = {
    "cohen": {"value": 0.7964094, "se": 0.05891072, "ci": (0.68, 0.913), "p": 0.0},
    "scott": {"value": 0.7962397, "se": 0.05905473, "ci": (0.679, 0.913), "p": 0.0},
    "gwet_ac1": {"value": 0.8493305, "se": 0.04321747, "ci": (0.764, 0.935), "p": 0.0},
    "brennan_prediger": {
        "value": 0.835,  # README, bp2.table(cont3x3abstractors)
        "se": 0.04693346,
        "ci": (0.742, 0.928),
        "p": 0.0,
    },
    "krippendorff": {
        "value": 0.7972585,  # README, krippen2.table(cont3x3abstractors)
        "se": 0.05905473,
        "ci": (0.68, 0.914),
        "p": 0.0,
    },
    "bangdiwala_b": {
        "value": 0.8059604,  # README, bangdiwala.table(cont3x3abstractors)
        "se": 0.05449465,
        "ci": (0.698, 0.914),
        "p": 0.0,
    },
    "percent_agreement": {
        "value": 0.89,  # README, pa2.table(cont3x3abstractors)
        "se": 0.03128898,
        "ci": (0.828, 0.952),
        "p": 0.0,
    },
}

# Quadratic weights, quadratic.weights(1:3). Source: irrCAC weighting.html
# (2021-08-28, irrCAC 1.2), section "Weighting ratings from a contingency table".
IRRCAC_CONT3X3ABSTRACTORS_QUADRATIC_EXPECTED = {
    "cohen": {"value": 0.8921569, "se": 0.03535151, "ci": (0.822, 0.962), "p": 0.0},
    "scott": {"value": 0.8921093, "se": 0.03539506, "ci": (0.822, 0.962), "p": 0.0},
    "gwet_ac2": {"value": 0.9402369, "se": 0.01792019, "ci": (0.905, 0.976), "p": 0.0},
    "brennan_prediger": {
        "value": 0.9175,  # weighting.html, bp2.table(..., quadratic.weights(1:q))
        "se": 0.02346673,
        "ci": (0.871, 0.964),
        "p": 0.0,
    },
    "krippendorff": {
        "value": 0.8926487,  # weighting.html, krippen2.table(..., quadratic)
        "se": 0.03539506,
        "ci": (0.822, 0.963),
        "p": 0.0,
    },
    "percent_agreement": {
        "value": 0.9725,  # weighting.html, pa2.table(..., quadratic.weights(1:q))
        "se": 0.007822244,
        "ci": (0.957, 0.988),
        "p": 0.0,
    },
}

# -- 1c'. cont4x4diagnosis: 2 diagnosis methods, 4 x 4 contingency table (n = 223) -------
# Data: irrCAC inst/extdata/cont4x4diagnosis.csv at commit 7fb7509 (= data/cont4x4diagnosis.
# RData; man page: Gwet (2014), Handbook of Inter-Rater Reliability, 4th ed.). Rows = method 1
# (clinical diagnosis), columns = method 2 (research diagnosis), both in the order below.
# irrCAC's README and vignettes print no output for this table (the overview vignette only
# names it); see IRRCAC_PY_0_4_4_TABLES below.
IRRCAC_CONT4X4DIAGNOSIS_CATEGORIES = ["Schizophrenia", "Bipolar Disorder", "Depression", "Other"]
IRRCAC_CONT4X4DIAGNOSIS = [
    [40, 6, 4, 15],
    [4, 25, 1, 5],
    [4, 2, 21, 9],
    [17, 13, 12, 45],
]

# Every weighting on both tables, NOT an R printout: the Python port of R irrCAC,
# github.com/afergadis/irrCAC (PyPI irrCAC 0.4.4, commit 2b71b15, 2024-11-13), unit tests
# test/unit/irrCAC/table/test_<coefficient>.py, function named in the comment above each
# entry, CAC(table, weights=<name>).<coefficient>() rounded to 3 decimals (a few CI bounds
# printed to 2, e.g. 0.68 for 0.680). Its functions port kappa2.table, scott2.table,
# gwet.ac1.table, bp2.table, krippen2.table and pa2.table; where irrCAC prints a value
# (IRRCAC_CONT3X3ABSTRACTORS_EXPECTED, _QUADRATIC_EXPECTED) the port rounds to it. Weights
# are Gwet's schemes on the category positions 1..q (the labels are text). The port stores
# cont4x4diagnosis transposed (rows = method 2); every coefficient here is the same on the
# transposed table (symmetric weights), which a test checks. Its "custom weights" tests use
# asymmetric matrices, which pdagree refuses, and are not recorded.
IRRCAC_PY_0_4_4_TABLES = {
    # test_brennan_prediger.py::test_bp_cont3x3abstractors_bipolar_weights
    ("cont3x3abstractors", "brennan_prediger", "bipolar"): {"value": 0.901, "ci": (0.845, 0.957)},
    # test_brennan_prediger.py::test_bp_cont3x3abstractors_circular_weights
    ("cont3x3abstractors", "brennan_prediger", "circular"): {"value": 0.835, "ci": (0.742, 0.928)},
    # test_brennan_prediger.py::test_bp_cont3x3abstractors
    ("cont3x3abstractors", "brennan_prediger", "identity"): {"value": 0.835, "ci": (0.742, 0.928)},
    # test_brennan_prediger.py::test_bp_cont3x3abstractors_linear_weights
    ("cont3x3abstractors", "brennan_prediger", "linear"): {"value": 0.876, "ci": (0.806, 0.946)},
    # test_brennan_prediger.py::test_bp_cont3x3abstractors_ordinal_weights
    ("cont3x3abstractors", "brennan_prediger", "ordinal"): {"value": 0.901, "ci": (0.845, 0.957)},
    # test_brennan_prediger.py::test_bp_cont3x3abstractors_quadratic_weights
    ("cont3x3abstractors", "brennan_prediger", "quadratic"): {
        "value": 0.918,
        "ci": (0.871, 0.964),
    },
    # test_brennan_prediger.py::test_bp_cont3x3abstractors_radical_weights
    ("cont3x3abstractors", "brennan_prediger", "radical"): {"value": 0.855, "ci": (0.773, 0.937)},
    # test_brennan_prediger.py::test_bp_cont3x3abstractors_ratio_weights
    ("cont3x3abstractors", "brennan_prediger", "ratio"): {"value": 0.951, "ci": (0.923, 0.978)},
    # test_cohen.py::test_cohen_cont3x3abstractors_bipolar_weights
    ("cont3x3abstractors", "cohen", "bipolar"): {"value": 0.872, "ci": (0.791, 0.953)},
    # test_cohen.py::test_cohen_cont3x3abstractors_circular_weights
    ("cont3x3abstractors", "cohen", "circular"): {"value": 0.796, "ci": (0.68, 0.913)},
    # test_cohen.py::test_cohen_cont3x3abstractors
    ("cont3x3abstractors", "cohen", "identity"): {"value": 0.796, "ci": (0.68, 0.913)},
    # test_cohen.py::test_cohen_cont3x3abstractors_linear_weights
    ("cont3x3abstractors", "cohen", "linear"): {"value": 0.843, "ci": (0.748, 0.938)},
    # test_cohen.py::test_cohen_cont3x3abstractors_ordinal_weights
    ("cont3x3abstractors", "cohen", "ordinal"): {"value": 0.872, "ci": (0.791, 0.953)},
    # test_cohen.py::test_cohen_cont3x3abstractors_quadratic_weights
    ("cont3x3abstractors", "cohen", "quadratic"): {"value": 0.892, "ci": (0.822, 0.962)},
    # test_cohen.py::test_cohen_cont3x3abstractors_radical_weights
    ("cont3x3abstractors", "cohen", "radical"): {"value": 0.819, "ci": (0.712, 0.925)},
    # test_cohen.py::test_cohen_cont3x3abstractors_ratio_weights
    ("cont3x3abstractors", "cohen", "ratio"): {"value": 0.927, "ci": (0.876, 0.977)},
    # test_gwet.py::test_gwet_cont3x3abstractors_bipolar_weights
    ("cont3x3abstractors", "gwet", "bipolar"): {"value": 0.925, "ci": (0.881, 0.969)},
    # test_gwet.py::test_gwet_cont3x3abstractors_circular_weights
    ("cont3x3abstractors", "gwet", "circular"): {"value": 0.849, "ci": (0.764, 0.935)},
    # test_gwet.py::test_gwet_cont3x3abstractors
    ("cont3x3abstractors", "gwet", "identity"): {"value": 0.849, "ci": (0.764, 0.935)},
    # test_gwet.py::test_gwet_cont3x3abstractors_linear_weights
    ("cont3x3abstractors", "gwet", "linear"): {"value": 0.9, "ci": (0.842, 0.958)},
    # test_gwet.py::test_gwet_cont3x3abstractors_ordinal_weights
    ("cont3x3abstractors", "gwet", "ordinal"): {"value": 0.925, "ci": (0.881, 0.969)},
    # test_gwet.py::test_gwet_cont3x3abstractors_quadratic_weights
    ("cont3x3abstractors", "gwet", "quadratic"): {"value": 0.94, "ci": (0.905, 0.976)},
    # test_gwet.py::test_gwet_cont3x3abstractors_radical_weights
    ("cont3x3abstractors", "gwet", "radical"): {"value": 0.875, "ci": (0.804, 0.947)},
    # test_gwet.py::test_gwet_cont3x3abstractors_ratio_weights
    ("cont3x3abstractors", "gwet", "ratio"): {"value": 0.963, "ci": (0.942, 0.985)},
    # test_krippendorff.py::test_krippendorff_cont3x3abstractors_bipolar_weights
    ("cont3x3abstractors", "krippendorff", "bipolar"): {"value": 0.873, "ci": (0.792, 0.953)},
    # test_krippendorff.py::test_krippendorff_cont3x3abstractors_circular_weights
    ("cont3x3abstractors", "krippendorff", "circular"): {"value": 0.797, "ci": (0.68, 0.914)},
    # test_krippendorff.py::test_krippendorff_cont3x3abstractors
    ("cont3x3abstractors", "krippendorff", "identity"): {"value": 0.797, "ci": (0.68, 0.914)},
    # test_krippendorff.py::test_krippendorff_cont3x3abstractors_linear_weights
    ("cont3x3abstractors", "krippendorff", "linear"): {"value": 0.844, "ci": (0.748, 0.939)},
    # test_krippendorff.py::test_krippendorff_cont3x3abstractors_ordinal_weights
    ("cont3x3abstractors", "krippendorff", "ordinal"): {"value": 0.873, "ci": (0.792, 0.953)},
    # test_krippendorff.py::test_krippendorff_cont3x3abstractors_quadratic_weights
    ("cont3x3abstractors", "krippendorff", "quadratic"): {"value": 0.893, "ci": (0.822, 0.963)},
    # test_krippendorff.py::test_krippendorff_cont3x3abstractors_radical_weights
    ("cont3x3abstractors", "krippendorff", "radical"): {"value": 0.819, "ci": (0.713, 0.926)},
    # test_krippendorff.py::test_krippendorff_cont3x3abstractors_ratio_weights
    ("cont3x3abstractors", "krippendorff", "ratio"): {"value": 0.927, "ci": (0.877, 0.977)},
    # test_pa.py::test_pa2_cont3x3abstractors_bipolar_weights
    ("cont3x3abstractors", "percent_agreement", "bipolar"): {
        "value": 0.963,
        "se": 0.01,
        "ci": (0.943, 0.984),
    },
    # test_pa.py::test_pa2_cont3x3abstractors_circular_weights
    ("cont3x3abstractors", "percent_agreement", "circular"): {
        "value": 0.89,
        "se": 0.031,
        "ci": (0.828, 0.952),
    },
    # test_pa.py::test_pa2_cont3x3abstractors
    ("cont3x3abstractors", "percent_agreement", "identity"): {
        "value": 0.89,
        "se": 0.031,
        "ci": (0.828, 0.952),
    },
    # test_pa.py::test_pa2_cont3x3abstractors_linear_weights
    ("cont3x3abstractors", "percent_agreement", "linear"): {"value": 0.945, "ci": (0.914, 0.976)},
    # test_pa.py::test_pa2_cont3x3abstractors_ordinal_weights
    ("cont3x3abstractors", "percent_agreement", "ordinal"): {
        "value": 0.963,
        "se": 0.01,
        "ci": (0.943, 0.984),
    },
    # test_pa.py::test_pa2_cont3x3abstractors_quadratic_weights
    ("cont3x3abstractors", "percent_agreement", "quadratic"): {
        "value": 0.972,
        "se": 0.008,
        "ci": (0.957, 0.988),
    },
    # test_pa.py::test_pa2_cont3x3abstractors_radical_weights
    ("cont3x3abstractors", "percent_agreement", "radical"): {
        "value": 0.922,
        "se": 0.022,
        "ci": (0.878, 0.966),
    },
    # test_pa.py::test_pa2_cont3x3abstractors_ratio_weights
    ("cont3x3abstractors", "percent_agreement", "ratio"): {
        "value": 0.982,
        "se": 0.005,
        "ci": (0.972, 0.992),
    },
    # test_scott.py::test_scott_cont3x3abstractors_bipolar_weights
    ("cont3x3abstractors", "scott", "bipolar"): {
        "value": 0.872,
        "se": 0.041,
        "ci": (0.791, 0.953),
    },
    # test_scott.py::test_scott_cont3x3abstractors_circular_weights
    ("cont3x3abstractors", "scott", "circular"): {
        "value": 0.796,
        "se": 0.059,
        "ci": (0.679, 0.913),
    },
    # test_scott.py::test_scott_cont3x3abstractors
    ("cont3x3abstractors", "scott", "identity"): {
        "value": 0.796,
        "se": 0.059,
        "ci": (0.679, 0.913),
    },
    # test_scott.py::test_scott_cont3x3abstractors_linear_weights
    ("cont3x3abstractors", "scott", "linear"): {"value": 0.843, "se": 0.048, "ci": (0.748, 0.938)},
    # test_scott.py::test_scott_cont3x3abstractors_ordinal_weights
    ("cont3x3abstractors", "scott", "ordinal"): {
        "value": 0.872,
        "se": 0.041,
        "ci": (0.791, 0.953),
    },
    # test_scott.py::test_scott_cont3x3abstractors_quadratic_weights
    ("cont3x3abstractors", "scott", "quadratic"): {
        "value": 0.892,
        "se": 0.035,
        "ci": (0.822, 0.962),
    },
    # test_scott.py::test_scott_cont3x3abstractors_radical_weights
    ("cont3x3abstractors", "scott", "radical"): {
        "value": 0.819,
        "se": 0.054,
        "ci": (0.712, 0.925),
    },
    # test_scott.py::test_scott_cont3x3abstractors_ratio_weights
    ("cont3x3abstractors", "scott", "ratio"): {"value": 0.927, "se": 0.025, "ci": (0.876, 0.977)},
    # test_brennan_prediger.py::test_bp_cont4x4diagnosis_bipolar_weights
    ("cont4x4diagnosis", "brennan_prediger", "bipolar"): {
        "value": 0.264,
        "se": 0.075,
        "ci": (0.115, 0.412),
    },
    # test_brennan_prediger.py::test_bp_cont4x4diagnosis_circular_weights
    ("cont4x4diagnosis", "brennan_prediger", "circular"): {
        "value": 0.471,
        "se": 0.047,
        "ci": (0.379, 0.563),
    },
    # test_brennan_prediger.py::test_bp_cont4x4diagnosis
    ("cont4x4diagnosis", "brennan_prediger", "identity"): {
        "value": 0.45,
        "se": 0.044,
        "ci": (0.363, 0.537),
    },
    # test_brennan_prediger.py::test_bp_cont4x4diagnosis_linear_weights
    ("cont4x4diagnosis", "brennan_prediger", "linear"): {
        "value": 0.347,
        "se": 0.06,
        "ci": (0.229, 0.465),
    },
    # test_brennan_prediger.py::test_bp_cont4x4diagnosis_ordinal_weights
    ("cont4x4diagnosis", "brennan_prediger", "ordinal"): {
        "value": 0.273,
        "se": 0.076,
        "ci": (0.123, 0.422),
    },
    # test_brennan_prediger.py::test_bp_cont4x4diagnosis_quadratic_weights
    ("cont4x4diagnosis", "brennan_prediger", "quadratic"): {
        "value": 0.236,
        "se": 0.085,
        "ci": (0.069, 0.403),
    },
    # test_brennan_prediger.py::test_bp_cont4x4diagnosis_radical_weights
    ("cont4x4diagnosis", "brennan_prediger", "radical"): {
        "value": 0.401,
        "se": 0.05,
        "ci": (0.303, 0.5),
    },
    # test_brennan_prediger.py::test_bp_cont4x4diagnosis_ratio_weights
    ("cont4x4diagnosis", "brennan_prediger", "ratio"): {
        "value": 0.31,
        "se": 0.077,
        "ci": (0.158, 0.462),
    },
    # test_cohen.py::test_cohen_cont4x4diagnosis_bipolar_weights
    ("cont4x4diagnosis", "cohen", "bipolar"): {"value": 0.387, "se": 0.061, "ci": (0.267, 0.507)},
    # test_cohen.py::test_cohen_cont4x4diagnosis_circular_weights
    ("cont4x4diagnosis", "cohen", "circular"): {"value": 0.446, "se": 0.049, "ci": (0.35, 0.542)},
    # test_cohen.py::test_cohen_cont4x4diagnosis
    ("cont4x4diagnosis", "cohen", "identity"): {"value": 0.432, "se": 0.046, "ci": (0.341, 0.522)},
    # test_cohen.py::test_cohen_cont4x4diagnosis_linear_weights
    ("cont4x4diagnosis", "cohen", "linear"): {"value": 0.407, "se": 0.053, "ci": (0.302, 0.512)},
    # test_cohen.py::test_cohen_cont4x4diagnosis_ordinal_weights
    ("cont4x4diagnosis", "cohen", "ordinal"): {"value": 0.39, "se": 0.062, "ci": (0.269, 0.512)},
    # test_cohen.py::test_cohen_cont4x4diagnosis_quadratic_weights
    ("cont4x4diagnosis", "cohen", "quadratic"): {
        "value": 0.383,
        "se": 0.066,
        "ci": (0.254, 0.513),
    },
    # test_cohen.py::test_cohen_cont4x4diagnosis_radical_weights
    ("cont4x4diagnosis", "cohen", "radical"): {"value": 0.419, "se": 0.048, "ci": (0.324, 0.515)},
    # test_cohen.py::test_cohen_cont4x4diagnosis_ratio_weights
    ("cont4x4diagnosis", "cohen", "ratio"): {"value": 0.413, "se": 0.063, "ci": (0.288, 0.538)},
    # test_gwet.py::test_gwet_cont4x4diagnosis_bipolar_weights
    ("cont4x4diagnosis", "gwet", "bipolar"): {"value": 0.315, "se": 0.068, "ci": (0.181, 0.45)},
    # test_gwet.py::test_gwet_cont4x4diagnosis_circular_weights
    ("cont4x4diagnosis", "gwet", "circular"): {"value": 0.488, "se": 0.045, "ci": (0.399, 0.578)},
    # test_gwet.py::test_gwet_cont4x4diagnosis
    ("cont4x4diagnosis", "gwet", "identity"): {"value": 0.456, "se": 0.043, "ci": (0.371, 0.542)},
    # test_gwet.py::test_gwet_cont4x4diagnosis_linear_weights
    ("cont4x4diagnosis", "gwet", "linear"): {"value": 0.377, "se": 0.056, "ci": (0.267, 0.488)},
    # test_gwet.py::test_gwet_cont4x4diagnosis_ordinal_weights
    ("cont4x4diagnosis", "gwet", "ordinal"): {"value": 0.324, "se": 0.069, "ci": (0.189, 0.459)},
    # test_gwet.py::test_gwet_cont4x4diagnosis_quadratic_weights
    ("cont4x4diagnosis", "gwet", "quadratic"): {"value": 0.299, "se": 0.075, "ci": (0.15, 0.447)},
    # test_gwet.py::test_gwet_cont4x4diagnosis_radical_weights
    ("cont4x4diagnosis", "gwet", "radical"): {"value": 0.418, "se": 0.048, "ci": (0.323, 0.513)},
    # test_gwet.py::test_gwet_cont4x4diagnosis_ratio_weights
    ("cont4x4diagnosis", "gwet", "ratio"): {"value": 0.359, "se": 0.07, "ci": (0.221, 0.496)},
    # test_pa.py::test_pa2_cont4x4diagnosis_bipolar_weights
    ("cont4x4diagnosis", "percent_agreement", "bipolar"): {
        "value": 0.769,
        "se": 0.024,
        "ci": (0.722, 0.816),
    },
    # test_pa.py::test_pa2_cont4x4diagnosis_circular_weights
    ("cont4x4diagnosis", "percent_agreement", "circular"): {
        "value": 0.735,
        "se": 0.023,
        "ci": (0.69, 0.781),
    },
    # test_pa.py::test_pa2_cont4x4diagnosis
    ("cont4x4diagnosis", "percent_agreement", "identity"): {
        "value": 0.587,
        "se": 0.033,
        "ci": (0.522, 0.652),
    },
    # test_pa.py::test_pa2_cont4x4diagnosis_linear_weights
    ("cont4x4diagnosis", "percent_agreement", "linear"): {
        "value": 0.728,
        "se": 0.025,
        "ci": (0.679, 0.777),
    },
    # test_pa.py::test_pa2_cont4x4diagnosis_ordinal_weights
    ("cont4x4diagnosis", "percent_agreement", "ordinal"): {
        "value": 0.773,
        "se": 0.024,
        "ci": (0.726, 0.82),
    },
    # test_pa.py::test_pa2_cont4x4diagnosis_quadratic_weights
    ("cont4x4diagnosis", "percent_agreement", "quadratic"): {
        "value": 0.788,
        "se": 0.024,
        "ci": (0.741, 0.834),
    },
    # test_pa.py::test_pa2_cont4x4diagnosis_radical_weights
    ("cont4x4diagnosis", "percent_agreement", "radical"): {
        "value": 0.673,
        "se": 0.027,
        "ci": (0.62, 0.727),
    },
    # test_pa.py::test_pa2_cont4x4diagnosis_ratio_weights
    ("cont4x4diagnosis", "percent_agreement", "ratio"): {
        "value": 0.786,
        "se": 0.024,
        "ci": (0.739, 0.833),
    },
    # test_scott.py::test_scott_cont4x4diagnosis_bipolar_weights
    ("cont4x4diagnosis", "scott", "bipolar"): {"value": 0.386, "se": 0.061, "ci": (0.265, 0.506)},
    # test_scott.py::test_scott_cont4x4diagnosis_circular_weights
    ("cont4x4diagnosis", "scott", "circular"): {"value": 0.444, "se": 0.049, "ci": (0.347, 0.541)},
    # test_scott.py::test_scott_cont4x4diagnosis
    ("cont4x4diagnosis", "scott", "identity"): {"value": 0.43, "se": 0.046, "ci": (0.339, 0.521)},
    # test_scott.py::test_scott_cont4x4diagnosis_linear_weights
    ("cont4x4diagnosis", "scott", "linear"): {"value": 0.406, "se": 0.054, "ci": (0.3, 0.511)},
    # test_scott.py::test_scott_cont4x4diagnosis_ordinal_weights
    ("cont4x4diagnosis", "scott", "ordinal"): {"value": 0.389, "se": 0.062, "ci": (0.267, 0.511)},
    # test_scott.py::test_scott_cont4x4diagnosis_quadratic_weights
    ("cont4x4diagnosis", "scott", "quadratic"): {
        "value": 0.382,
        "se": 0.066,
        "ci": (0.252, 0.512),
    },
    # test_scott.py::test_scott_cont4x4diagnosis_radical_weights
    ("cont4x4diagnosis", "scott", "radical"): {"value": 0.418, "se": 0.049, "ci": (0.322, 0.514)},
    # test_scott.py::test_scott_cont4x4diagnosis_ratio_weights
    ("cont4x4diagnosis", "scott", "ratio"): {"value": 0.412, "se": 0.063, "ci": (0.287, 0.538)},
}

# -- 1d. Benchmarking (Gwet 2014, ch. 6): cumulative membership probabilities ---------
# Source: irrCAC vignette "irrCAC-benchmarking", rendered inst/doc/benchmarking.html
# (irrCAC 1.2, last changed in git commit 1b5c575): landis.koch.bf / altman.bf /
# fleiss.bf applied to gwet.ac1.raw(cac.raw4raters): coeff 0.77544, se 0.14295.
# Keys are the printed interval lower bounds; values are "CumProb" (probability
# that the true coefficient lies in this band or a better one), printed to 5
# decimals.
IRRCAC_BENCHMARK_INPUT = {"value": 0.77544, "se": 0.14295}  # benchmarking.html
IRRCAC_BENCHMARK_EXPECTED = {
    "landis_koch": {  # benchmarking.html, landis.koch.bf(0.77544, 0.14295)
        0.8: ("Almost Perfect", 0.39674),
        0.6: ("Substantial", 0.88336),
        0.4: ("Moderate", 0.99542),
        0.2: ("Fair", 0.99997),
        0.0: ("Slight", 1.0),
        -1.0: ("Poor", 1.0),
    },
    "altman": {  # benchmarking.html, altman.bf(0.77544, 0.14295)
        0.8: ("Very Good", 0.39674),
        0.6: ("Good", 0.88336),
        0.4: ("Moderate", 0.99542),
        0.2: ("Fair", 0.99997),
        -1.0: ("Poor", 1.0),
    },
    "fleiss": {  # benchmarking.html, fleiss.bf(0.77544, 0.14295)
        0.75: ("Excellent", 0.54414),
        0.4: ("Intermediate to Good", 0.99542),
        -1.0: ("Poor", 1.0),
    },
}

# =====================================================================================
# 2. Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability"
#    (K. Krippendorff, Univ. of Pennsylvania, ScholarlyCommons, Departmental Papers
#    (ASC) no. 43, version of 2011-01-25; repository.upenn.edu/asc_papers/43)
# =====================================================================================

# Sections C-F: 4 observers (A-D) x 12 units, values 1..5, nan = not coded.
# Data as in the krippendorff package 0.9.0 docstring of ``alpha`` ("extracted from
# ... fulltext.pdf, page 8") and the Stata kalpha help file (ssc/kalpha/kalpha.sthlp,
# Example); dict key = observer, list position = unit 1..12.
KRIPPENDORFF_2011_UNITS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
KRIPPENDORFF_2011_RELIABILITY_DATA = {
    "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    "C": [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
}
KRIPPENDORFF_2011_ALPHA = {
    "nominal": 0.743,  # Krippendorff (2011) sect. C; krippendorff 0.9.0 docstring
    "ordinal": 0.815,  # Krippendorff (2011) sect. D; krippendorff 0.9.0 docstring
    "interval": 0.849,  # Krippendorff (2011) sect. E
    "ratio": 0.797,  # Krippendorff (2011) sect. F; krippendorff 0.9.0 docstring
}
# Section C (nominal): n = 40 pairable values and value marginals n_c of the
# coincidence matrix, values 1..5. Recomputed here (throwaway script) and quoted as
# "the published marginals" by a public test suite; the document itself was not
# readable here.
KRIPPENDORFF_2011_N_PAIRABLE = 40
KRIPPENDORFF_2011_NOMINAL_MARGINALS = {1: 9, 2: 13, 3: 10, 4: 5, 5: 3}

# Differential check, NOT a publication: krippendorff 0.9.0
# ``alpha(reliability_data=<rows A-D>, level_of_measurement=...)`` on the data above,
# full precision (rounds to the published values).
KRIPPENDORFF_PACKAGE_0_9_0_ALPHA = {
    "nominal": 0.743421052631579,
    "ordinal": 0.8153875037548814,
    "interval": 0.8491071428571428,
    "ratio": 0.7974027747116121,
}

# Section A: binary data, two observers, no missing data, 10 units; alpha = 0.095.
# CAUTION: transcribed from the document as remembered; no stored copy of the PDF was
# available to check it against. It reproduces the published alpha exactly
# (1 - 19 * 4 / (14 * 6) = 0.0952), and unit order does not affect alpha.
KRIPPENDORFF_2011_BINARY = {
    "Ben": [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
    "Gerry": [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
}
KRIPPENDORFF_2011_BINARY_ALPHA = 0.095  # Krippendorff (2011) sect. A

# Section B: nominal data, two observers, no missing data, 12 units; alpha = 0.692.
# CAUTION: transcribed as remembered (see above); reproduces alpha = 0.6920 exactly.
# Corroboration: irrCAC's cac.ben.gerry (inst/extdata/cac.ben.gerry.csv) has the same
# Ben/Gerry values except that Gerry's rating of unit 10 is missing there.
KRIPPENDORFF_2011_NOMINAL_2OBS = {
    "Ben": ["a", "a", "b", "b", "d", "c", "c", "c", "e", "d", "d", "a"],
    "Gerry": ["b", "a", "b", "b", "b", "c", "c", "c", "e", "d", "d", "d"],
}
KRIPPENDORFF_2011_NOMINAL_2OBS_ALPHA = 0.692  # Krippendorff (2011) sect. B

# =====================================================================================
# 3. SAS/STAT PROC FREQ, AGREE option
# =====================================================================================

# "Getting Started: Agreement Study" (SAS/STAT User's Guide, The FREQ Procedure;
# SAS 9.4, e.g. Table 3.2 / 35.2 / 38.2 / 40.2 "Skin Condition Data" depending on the
# edition; sample program FREQGS2). Rows = Dermatologist 1 (Derm1), columns =
# Dermatologist 2 (Derm2), run with ORDER=DATA, WEIGHT Count, TEST KAPPA.
SAS_SKIN_CONDITION_CATEGORIES = ["terrible", "poor", "marginal", "clear"]
SAS_SKIN_CONDITION_TABLE = [
    [10, 4, 1, 0],
    [5, 10, 12, 2],
    [2, 4, 12, 5],
    [0, 2, 6, 13],
]
SAS_SKIN_CONDITION_EXPECTED = {
    "simple_kappa": {
        "value": 0.3449,  # SAS doc text: "The kappa coefficient has the value 0.3449"
        "ci": (0.2030, 0.4868),  # SAS doc text: "confidence interval of (0.2030, 0.4868)"
        # Printed in the doc's "Kappa Statistics" output table, which our stored copies
        # of the page cut off; the number is confirmed by statsmodels 0.15.0
        # cohens_kappa(...).std_kappa = 0.072397 (ASE under H0 0.0612, Z 5.6366).
        "ase": 0.0724,
    },
    # The doc says: "The AGREE option also produces Bowker's symmetry test and the
    # weighted kappa coefficient, but that output is not shown here." -> no weighted
    # kappa for this example.
}

# A SAS printout kept in statsmodels 0.15.0, statsmodels/stats/tests/test_inter_rater.py
# (``table10``, classes TestUnweightedCohens and TestWeightedCohens, "comparison to
# printout of a SAS example"; the SAS source of the example is not named there).
# Weighted kappa uses column scores 0, 1, 2 = Cicchetti-Allison (linear) weights.
SAS_STATSMODELS_TABLE10 = [
    [0, 4, 1],
    [0, 8, 0],
    [0, 1, 5],
]
SAS_STATSMODELS_TABLE10_EXPECTED = {
    "simple_kappa": {  # test_inter_rater.py, res10_sas / res10_sash0
        "value": 0.4842,
        "ase": 0.1380,
        "ci": (0.2137, 0.7547),
        "ase_h0": 0.1484,
        "z": 3.2626,
        "p_one_sided": 0.0006,
        "p_two_sided": 0.0011,
    },
    "weighted_kappa_cicchetti_allison": {  # res10w_sas / res10w_sash0
        "value": 0.4701,
        "ase": 0.1457,
        "ci": (0.1845, 0.7558),
        "ase_h0": 0.1426,
        "z": 3.2971,
        "p_one_sided": 0.0005,
        "p_two_sided": 0.0010,
    },
}

# SAS PROC FREQ's TEST KAPPA / TEST WTKAP output for this printout (the "ase_h0" and "z" of
# SAS_STATSMODELS_TABLE10_EXPECTED): the asymptotic standard error under H0 (Fleiss, Cohen &
# Everitt 1969) and Z = kappa / ASE under H0.

# =====================================================================================
# 3b. R package irr (M. Gamer et al.), version 0.84.1 (github.com/cran/irr, commit
#     3229aa5): kappa2() and kappam.fleiss() print z, the kappa over its standard error
#     under H0 (Fleiss, Cohen & Everitt 1969 for kappa2; Fleiss, Nee & Landis 1979 for
#     kappam.fleiss), and a two-sided normal p-value.
# =====================================================================================

# irr's ``anxiety`` data (data/anxiety.rda, 20 subjects x 3 raters, scores 1..6), as read
# from the .rda with the ``rdata`` package; the same array is in statsmodels 0.15.0,
# statsmodels/stats/tests/test_inter_rater.py (``anxiety``).
IRR_ANXIETY = {
    "rater1": [3, 3, 3, 4, 5, 5, 2, 3, 5, 2, 2, 6, 1, 5, 2, 2, 1, 2, 4, 3],
    "rater2": [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4],
    "rater3": [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2],
}

# kappa2(anxiety[, pair], weight): R output kept with full precision (cat_items of the
# irrlist) in statsmodels 0.15.0 test_inter_rater.py, test_cohens_kappa_irr (ck_w1..ck_w4,
# the R call in the comment above each). irr's weights: a vector v over the distances
# 0, 1, ... between the positions of the factor levels (the levels present in either
# column, sorted), w = 1 - (v - min v) / (max v - min v); "equal" is v = 0..q-1, "squared"
# v = (0..q-1)^2. Rater 2 and rater 3 use the levels 1, 2, 3, 4, 6 (5 positions); raters 1
# and 2 use 1..6. p is two-sided.
IRR_KAPPA2_ANXIETY = [
    # > kappa2(anxiety[,1:2], c(0,0,0,1,1,1))
    {
        "raters": ("rater1", "rater2"),
        "v": [0, 0, 0, 1, 1, 1],
        "value": 0.1891892,
        "z": 0.5079002,
        "p": 0.6115233,
    },
    # > kappa2(anxiety[,1:2], c(0,0,1,1,2,2))
    {
        "raters": ("rater1", "rater2"),
        "v": [0, 0, 1, 1, 2, 2],
        "value": 0.2820513,
        "z": 1.257410,
        "p": 0.2086053,
    },
    # > kappa2(anxiety[,2:3])
    {
        "raters": ("rater2", "rater3"),
        "v": None,
        "value": -0.006289308,
        "z": -0.0604067,
        "p": 0.9518317,
    },
    # > kappa2(anxiety[,2:3], "equal")
    {
        "raters": ("rater2", "rater3"),
        "v": [0, 1, 2, 3, 4],
        "value": 0.1459075,
        "z": 1.282472,
        "p": 0.1996772,
    },
    # > kappa2(anxiety[,2:3], "squared")
    {
        "raters": ("rater2", "rater3"),
        "v": [0, 1, 4, 9, 16],
        "value": 0.2520325,
        "z": 1.437451,
        "p": 0.1505898,
    },
    # > kappa2(anxiety[,2:3], c(0,0,1,1,2))
    {
        "raters": ("rater2", "rater3"),
        "v": [0, 0, 1, 1, 2],
        "value": 0.2391304,
        "z": 1.223734,
        "p": 0.2210526,
    },
]

# > kappam.fleiss(diagnoses): Fleiss' kappa of the 30 x 6 diagnoses (= Fleiss 1971, section
# 4), z from the variance under H0 of Fleiss, Nee & Landis (1979). Full precision as kept in
# statsmodels 0.15.0 test_inter_rater.py, test_fleiss_kappa_irr (R printed "z = 17.7",
# "p-value = 0").
IRR_KAPPAM_FLEISS_DIAGNOSES = {"value": 0.4302445, "z": 17.65183, "p": 0.0}

# =====================================================================================
# 4. Fleiss (1971), "Measuring nominal scale agreement among many raters",
#    Psychological Bulletin 76(5), 378-382.
# =====================================================================================

# Table 1: 30 patients, each diagnosed by 6 psychiatrists (not the same 6 for every
# patient); cell = number of psychiatrists assigning the patient to the category.
# Published only as counts. This table = statsmodels' ``diagnoses`` (statsmodels 0.15.0
# test_inter_rater.py, "Fleiss 1971, Fleiss has only the transformed table") aggregated
# with ``aggregate_raters``; rows 1-15 = irrCAC's distrib.6raters.
FLEISS_1971_CATEGORIES = [
    "Depression",
    "Personality disorder",
    "Schizophrenia",
    "Neurosis",
    "Other",
]
FLEISS_1971_N_RATERS = 6
FLEISS_1971_COUNTS = [
    [0, 0, 0, 6, 0],
    [0, 3, 0, 0, 3],
    [0, 1, 4, 0, 1],
    [0, 0, 0, 0, 6],
    [0, 3, 0, 3, 0],
    [2, 0, 4, 0, 0],
    [0, 0, 4, 0, 2],
    [2, 0, 3, 1, 0],
    [2, 0, 0, 4, 0],
    [0, 0, 0, 0, 6],
    [1, 0, 0, 5, 0],
    [1, 1, 0, 4, 0],
    [0, 3, 3, 0, 0],
    [1, 0, 0, 5, 0],
    [0, 2, 0, 3, 1],
    [0, 0, 5, 0, 1],
    [3, 0, 0, 1, 2],
    [5, 1, 0, 0, 0],
    [0, 2, 0, 4, 0],
    [1, 0, 2, 0, 3],
    [0, 0, 0, 0, 6],
    [0, 1, 0, 5, 0],
    [0, 2, 0, 1, 3],
    [2, 0, 0, 4, 0],
    [1, 0, 0, 4, 1],
    [0, 5, 0, 1, 0],
    [4, 0, 0, 0, 2],
    [0, 2, 0, 4, 0],
    [1, 0, 5, 0, 0],
    [0, 0, 0, 0, 6],
]
# Raw-ratings reconstruction used by statsmodels (and R irr's ``diagnoses``): NOT
# published by Fleiss; which psychiatrist is "rater1" is arbitrary, so only
# rater-exchangeable statistics (Fleiss kappa, alpha, ...) may be compared with Fleiss.
# Categories coded 1..5 in FLEISS_1971_CATEGORIES order; one list per patient.
FLEISS_1971_RAW_STATSMODELS = [
    [4, 4, 4, 4, 4, 4],
    [2, 2, 2, 5, 5, 5],
    [2, 3, 3, 3, 3, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4],
    [1, 1, 3, 3, 3, 3],
    [3, 3, 3, 3, 5, 5],
    [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4],
    [5, 5, 5, 5, 5, 5],
    [1, 4, 4, 4, 4, 4],
    [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3],
    [1, 4, 4, 4, 4, 4],
    [2, 2, 4, 4, 4, 5],
    [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5],
    [1, 1, 1, 1, 1, 2],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 4, 4, 4, 4, 4],
    [2, 2, 4, 5, 5, 5],
    [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5],
    [2, 2, 2, 2, 2, 4],
    [1, 1, 1, 1, 5, 5],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3],
    [5, 5, 5, 5, 5, 5],
]
FLEISS_1971_KAPPA = 0.430  # Fleiss (1971), worked example (overall kappa)
# Overall observed and chance agreement of the worked example (P-bar, P-bar_e).
# CAUTION: quoted from memory of the paper (not readable here); equal to the values
# recomputed from the table (0.5556, 0.2199) at the 3 printed decimals.
FLEISS_1971_P_BAR = 0.556  # Fleiss (1971), worked example
FLEISS_1971_P_E = 0.220  # Fleiss (1971), worked example
# Category proportions p_j and category-specific kappas kappa_j (Fleiss 1971, table of
# the worked example). CAUTION: quoted from memory of the paper (not readable here);
# every value equals the one recomputed from FLEISS_1971_COUNTS at 3 decimals
# (p_j = .1444 .1444 .1667 .3056 .2389; kappa_j = .2448 .2448 .5200 .4711 .5661).
FLEISS_1971_CATEGORY = {
    "Depression": {"p_j": 0.144, "kappa_j": 0.245},  # Fleiss (1971)
    "Personality disorder": {"p_j": 0.144, "kappa_j": 0.245},  # Fleiss (1971)
    "Schizophrenia": {"p_j": 0.167, "kappa_j": 0.520},  # Fleiss (1971)
    "Neurosis": {"p_j": 0.306, "kappa_j": 0.471},  # Fleiss (1971)
    "Other": {"p_j": 0.239, "kappa_j": 0.566},  # Fleiss (1971)
}
# Not recorded: Fleiss's (1971) variance/standard-error values for this example (not
# found in any readable source here; the 1971 null variance was later corrected by
# Fleiss, Nee & Landis 1979).

# =====================================================================================
# 5. Interpretation bands
# =====================================================================================
# Each band: (lower, upper, label) with the bounds as printed by the source; None =
# open end. The original publications print closed ranges at 2 decimals (0.21-0.40);
# irrCAC's data sets encode them as contiguous [lb, ub] intervals.
# CAUTION: page numbers are those commonly cited; the books/papers were not readable
# here. The irrCAC encodings below them were read from the irrCAC repository.

LANDIS_KOCH_1977 = [  # Landis & Koch (1977), Biometrics 33(1), 159-174, p. 165
    (None, 0.00, "Poor"),  # "< 0.00"
    (0.00, 0.20, "Slight"),
    (0.21, 0.40, "Fair"),
    (0.41, 0.60, "Moderate"),
    (0.61, 0.80, "Substantial"),
    (0.81, 1.00, "Almost Perfect"),
]
ALTMAN_1991 = [  # Altman (1991), Practical Statistics for Medical Research, p. 404
    (None, 0.20, "Poor"),  # "< 0.20"
    (0.21, 0.40, "Fair"),
    (0.41, 0.60, "Moderate"),
    (0.61, 0.80, "Good"),
    (0.81, 1.00, "Very good"),
]
FLEISS_1981 = [  # Fleiss (1981), Statistical Methods for Rates and Proportions, p. 218
    (None, 0.40, "Poor"),  # "below 0.40"
    (0.40, 0.75, "Fair to good"),
    (0.75, None, "Excellent"),  # "above 0.75"
]
# Krippendorff (2004), Content Analysis, 2nd ed., p. 241: rely on variables with
# alpha >= .800; consider variables with .667 <= alpha < .800 only for tentative
# conclusions.
KRIPPENDORFF_2004_THRESHOLDS = {"reliable": 0.800, "tentative": 0.667}

# irrCAC encodings (lb, ub, label): inst/extdata/landis.koch.csv, altman.csv,
# fleiss.csv (= data/*.RData), printed in benchmarking.html (irrCAC 1.2). man pages
# cite Landis & Koch (1977), Altman (1991), Fleiss (1981). Note irrCAC's Fleiss label
# "Intermediate to Good" where Fleiss (1981) writes "fair to good".
IRRCAC_LANDIS_KOCH = [  # irrCAC landis.koch
    (0.8, 1.0, "Almost Perfect"),
    (0.6, 0.8, "Substantial"),
    (0.4, 0.6, "Moderate"),
    (0.2, 0.4, "Fair"),
    (0.0, 0.2, "Slight"),
    (-1.0, 0.0, "Poor"),
]
IRRCAC_ALTMAN = [  # irrCAC altman
    (0.8, 1.0, "Very Good"),
    (0.6, 0.8, "Good"),
    (0.4, 0.6, "Moderate"),
    (0.2, 0.4, "Fair"),
    (-1.0, 0.2, "Poor"),
]
IRRCAC_FLEISS = [  # irrCAC fleiss
    (0.75, 1.0, "Excellent"),
    (0.4, 0.75, "Intermediate to Good"),
    (-1.0, 0.4, "Poor"),
]
