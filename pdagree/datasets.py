"""Example data sets: published worked examples and a synthetic sparse crowd.

Each data set is a fresh :class:`pandas.DataFrame` in one of pdagree's three layouts, so
that ``load(name).agree`` (wide) or ``load(name).agree(item=..., rater=..., label=...)``
(long) works as is. :func:`describe` gives the source, the layout and the values the
source publishes, so every example doubles as a check.

The published examples are stored as small CSV files in ``pdagree/data/``; the synthetic
``crowd_sparse`` frame is generated on the fly by :func:`make_crowd_sparse`.

Examples
--------
>>> from pdagree.datasets import describe, load, names
>>> "fleiss1971" in names()
True
>>> load("fleiss1971").shape
(30, 6)
>>> load("artstein_poesio2005").head(3)
     Alice Bill
item
1        Y    Y
2        Y    Y
3        N    N
>>> describe("fleiss1971").startswith("Psychiatric diagnoses")
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from importlib.resources import files

import numpy as np
import pandas as pd

from ._validation import check_seed
from .encoding import plain

__all__ = ["EMAIL_LABELS", "describe", "load", "make_crowd_sparse", "make_emails", "names"]


@dataclass(frozen=True)
class _Dataset:
    """A bundled data set: how to build it and what to say about it."""

    build: Callable[[], pd.DataFrame]
    description: str


def _read_csv(filename: str) -> pd.DataFrame:
    """Read ``pdagree/data/<filename>``; the first column becomes the index.

    Only empty cells are missing values, so labels such as ``"N"`` or ``"NA"`` stay labels.
    """
    resource = files("pdagree").joinpath("data").joinpath(filename)
    with resource.open("r", encoding="utf-8") as handle:
        return pd.read_csv(handle, index_col=0, keep_default_na=False, na_values=[""])


def _qgstec_simulated() -> pd.DataFrame:
    """The judges' scores as nullable integers (a missing cell is ``<NA>``)."""
    frame = _read_csv("qgstec_simulated.csv")
    return frame.astype(dict.fromkeys(["J1", "J2", "J3"], "Int64"))


def _artstein_poesio_copies(n_pairs: int) -> pd.DataFrame:
    """Alice and Bill plus ``n_pairs - 1`` further coders copying them in turn."""
    two = _read_csv("artstein_poesio2005.csv")
    copies = {"Claire": "Alice", "Dave": "Bill", "Eve": "Alice", "Frank": "Bill"}
    extra = list(copies)[: 2 * (n_pairs - 1)]
    return two.assign(**{name: two[copies[name]] for name in extra})


def make_crowd_sparse(
    n_items: int = 500,
    n_annotators: int = 40,
    categories: Sequence[Hashable] = ("neg", "neu", "pos"),
    seed: int | None = 2011,
    *,
    prevalence: Sequence[float] | None = None,
) -> pd.DataFrame:
    """Simulate sparse crowdsourced labels as a long frame.

    Every item has a true class; a few randomly chosen annotators label it, each right
    with their own fixed probability. Many items get only one to three labels and some
    exactly one, as in real crowdsourcing, which makes the frame a test bed for
    incomplete designs (Fleiss' kappa and Krippendorff's alpha with missing ratings,
    Sparse Probability of Agreement).

    Parameters
    ----------
    n_items : int, default 500
        Number of items, at least 1.
    n_annotators : int, default 40
        Size of the annotator pool, at least 1.
    categories : sequence of hashable, default ("neg", "neu", "pos")
        The K >= 2 distinct categories, used as the labels.
    seed : int or None, default 2011
        Seed of :func:`numpy.random.default_rng`; the same seed gives the same frame.
    prevalence : sequence of float, optional
        Prevalence of each category among the true classes, in the order of
        `categories`; normalised to sum to 1. The default is proportional to
        K, K - 1, ..., 1 (for the default categories 1/2, 1/3, 1/6).

    Returns
    -------
    pandas.DataFrame
        One row per annotation, sorted by item then annotator, with columns ``item``
        (int, 1 to `n_items`), ``annotator`` (str, ``"a01"``, ``"a02"``, ...), ``label``
        (one of `categories`) and ``batch`` (int 1, 2 or 3: the items split into three
        consecutive blocks of near-equal size, for ``by=`` demonstrations).

    Raises
    ------
    ValueError
        If `n_items` or `n_annotators` is below 1, `categories` has fewer than two
        distinct values or duplicates, or `prevalence` does not give one non-negative
        weight per category with a positive sum.

    Notes
    -----
    The process, with every draw from one ``numpy.random.default_rng(seed)`` stream in
    this order:

    1. each annotator a gets an accuracy q_a ~ Beta(8, 2) (mean 0.8);
    2. each item i gets a true class t_i drawn with probabilities `prevalence`;
    3. each item gets m_i = min(1 + Poisson(2), `n_annotators`) labels, so about
       e^-2 ~ 13.5 % of the items have exactly one label;
    4. the m_i annotators of item i are drawn without replacement: every (item,
       annotator) pair gets a uniform random key and item i keeps the m_i annotators
       with the smallest keys;
    5. annotator a labels item i with t_i with probability q_a, and otherwise with one
       of the other K - 1 categories chosen uniformly.

    Everything is vectorised over items and annotations; the random keys of step 4 take
    O(`n_items` x `n_annotators`) memory.

    Examples
    --------
    >>> df = make_crowd_sparse(n_items=6, n_annotators=4, seed=0)
    >>> list(df.columns)
    ['item', 'annotator', 'label', 'batch']
    >>> bool(df.duplicated(["item", "annotator"]).any())
    False
    >>> make_crowd_sparse(seed=0).equals(make_crowd_sparse(seed=0))
    True
    """
    if isinstance(n_items, bool) or not isinstance(n_items, int | np.integer) or n_items < 1:
        raise ValueError(f"`n_items` must be an integer >= 1; got {plain(n_items)!r}.")
    if (
        isinstance(n_annotators, bool)
        or not isinstance(n_annotators, int | np.integer)
        or n_annotators < 1
    ):
        raise ValueError(f"`n_annotators` must be an integer >= 1; got {plain(n_annotators)!r}.")
    labels = pd.Index(list(categories))
    if labels.has_duplicates:
        duplicated = labels[labels.duplicated()].unique().tolist()
        raise ValueError(
            f"`categories` must not repeat a category; got {plain(duplicated)!r} more than once. "
            "Pass each category once."
        )
    n_categories = len(labels)
    if n_categories < 2:
        raise ValueError(
            f"`categories` must hold at least 2 categories; got {list(categories)!r}. "
            "Add the categories annotators choose between."
        )
    if prevalence is None:
        weights = np.arange(n_categories, 0, -1, dtype=np.float64)
    else:
        weights = np.asarray(prevalence, dtype=np.float64)
        if (
            weights.shape != (n_categories,)
            or not np.isfinite(weights).all()
            or (weights < 0).any()
            or weights.sum() <= 0
        ):
            raise ValueError(
                f"`prevalence` must give one non-negative weight per category "
                f"({n_categories}) with a positive sum; got {list(prevalence)!r}."
            )
    probabilities = weights / weights.sum()

    rng = np.random.default_rng(check_seed(seed, "seed"))
    accuracy = rng.beta(8.0, 2.0, size=n_annotators)
    truth = rng.choice(n_categories, size=n_items, p=probabilities)
    n_labels = np.minimum(1 + rng.poisson(2.0, size=n_items), n_annotators)
    # Without replacement, per item: rank each item's annotators by a random key.
    ranked = np.argsort(rng.random((n_items, n_annotators)), axis=1)
    chosen = np.arange(n_annotators) < n_labels[:, np.newaxis]
    item_code = np.repeat(np.arange(n_items), n_labels)
    annotator_code = ranked[chosen]
    true_code = truth[item_code]
    correct = rng.random(item_code.size) < accuracy[annotator_code]
    other_code = (true_code + rng.integers(1, n_categories, size=item_code.size)) % n_categories
    label_code = np.where(correct, true_code, other_code)

    order = np.lexsort((annotator_code, item_code))
    item_code, annotator_code, label_code = (
        item_code[order],
        annotator_code[order],
        label_code[order],
    )
    width = len(str(n_annotators))
    annotator_names = np.array([f"a{j + 1:0{width}d}" for j in range(n_annotators)])
    return pd.DataFrame(
        {
            "item": item_code.astype(np.int64) + 1,
            "annotator": annotator_names[annotator_code],
            "label": labels.take(label_code).to_numpy(),
            "batch": (item_code.astype(np.int64) * 3) // n_items + 1,
        }
    )


#: The ten labels of Rosenberg & Binkowski (2004)'s email corpus, in the paper's order.
EMAIL_LABELS = (
    "question",
    "answer",
    "broadcast",
    "attachment transmission",
    "planning-meeting scheduling",
    "planning scheduling",
    "planning",
    "action item",
    "technical discussion",
    "social chat",
)
_EMAIL_PREVALENCE = (0.20, 0.15, 0.12, 0.05, 0.08, 0.08, 0.10, 0.07, 0.10, 0.05)
_EMAIL_KINDS = ("clear", "unclear", "general/specific", "concurrent")


def make_emails(n_items: int = 380, seed: int | None = 2004) -> pd.DataFrame:
    """Simulate emails labelled by three annotators with a primary and an optional
    secondary label, in the shape of Rosenberg & Binkowski (2004)'s corpus.

    Parameters
    ----------
    n_items : int, default 380
        Number of emails, at least 1 (the paper's corpus has 380).
    seed : int or None, default 2004
        Seed of :func:`numpy.random.default_rng`; the same seed gives the same frame.

    Returns
    -------
    pandas.DataFrame
        A long frame, one row per label, sorted by email, annotator and rank: ``email`` (1
        to `n_items`), ``annotator`` ("A", "B", "C"), ``label`` (one of
        :data:`EMAIL_LABELS`), ``rank`` (1 = primary, 2 = secondary) and ``kind`` (how the
        email was generated, below; real data have no such column).

    Raises
    ------
    ValueError
        If `n_items` is below 1.

    Notes
    -----
    Every draw comes from one ``numpy.random.default_rng(seed)`` stream, in this order, each
    vectorised over emails (and annotators). Labels are drawn with the prevalence
    0.20, 0.15, 0.12, 0.05, 0.08, 0.08, 0.10, 0.07, 0.10, 0.05 (in :data:`EMAIL_LABELS`
    order); "another label" is such a draw, replaced by one of the other nine labels
    uniformly when it hits the label it must differ from.

    1. Each email gets a kind: "clear" (probability 0.27), "unclear" (0.48),
       "general/specific" (0.14) or "concurrent" (0.11).
    2. Each email gets a label ``t1`` and another label ``t2``.
    3. Each annotator (A, B, C) gives each email a primary label: ``t1`` with probability
       0.93, else a random label ("clear" and "general/specific" emails); a random label
       ("unclear"); ``t1`` or ``t2`` with probability 1/2 each ("concurrent").
    4. Secondary labels: none for "clear" emails; for "unclear" ones, another label with
       probability 0.15, 0.25 and 0.35 for annotators A, B and C; for "general/specific"
       ones, with probability 0.5, ``t2`` or another label (1/2 each), an annotator's
       inconsistent use of a secondary label; for "concurrent" ones, with probability 0.85,
       the one of ``t1``, ``t2`` that is not the primary, so annotators switch primary and
       secondary (the paper's ``{ab, ba}``).

    The kinds are meant to produce the paper's four item classes (constant high, constant
    low, higher at p = 1, higher at p = 0.5). The probabilities were chosen so that the
    summary resembles the paper's (its mean kappa was 0.299 at p = 1 and 0.281 at p = 0.5,
    its classes 92 / 183 / 58 / 47 of 380); the data reproduce none of its numbers.

    Examples
    --------
    >>> emails = make_emails(n_items=5, seed=0)
    >>> list(emails.columns)
    ['email', 'annotator', 'label', 'rank', 'kind']
    >>> sorted(emails["rank"].unique().tolist())
    [1, 2]
    """
    if isinstance(n_items, bool) or not isinstance(n_items, int | np.integer) or n_items < 1:
        raise ValueError(f"`n_items` must be an integer >= 1; got {plain(n_items)!r}.")
    rng = np.random.default_rng(check_seed(seed, "seed"))
    n_labels, annotators = len(EMAIL_LABELS), np.array(["A", "B", "C"])
    prevalence = np.asarray(_EMAIL_PREVALENCE) / np.sum(_EMAIL_PREVALENCE)
    shape = (n_items, len(annotators))

    def another(than: np.ndarray) -> np.ndarray:
        drawn = rng.choice(n_labels, size=than.shape, p=prevalence)
        shifted = (than + rng.integers(1, n_labels, size=than.shape)) % n_labels
        return np.where(drawn == than, shifted, drawn)

    kind = rng.choice(4, size=n_items, p=[0.27, 0.48, 0.14, 0.11])[:, None]
    t1 = rng.choice(n_labels, size=n_items, p=prevalence)
    t1, t2 = np.broadcast_to(t1[:, None], shape), np.broadcast_to(another(t1)[:, None], shape)
    drawn = rng.choice(n_labels, size=shape, p=prevalence)
    first = rng.random(shape) < 0.5
    primary = np.where(rng.random(shape) < 0.93, t1, drawn)
    primary = np.where(kind == 1, drawn, np.where(kind == 3, np.where(first, t1, t2), primary))
    use = rng.random(shape)
    other = another(primary)
    specific = np.where(rng.random(shape) < 0.5, t2, other)
    specific = np.where(specific == primary, other, specific)
    secondary = np.select(
        [
            (kind == 1) & (use < np.array([0.15, 0.25, 0.35])),
            (kind == 2) & (use < 0.5),
            (kind == 3) & (use < 0.85),
        ],
        [other, specific, np.where(first, t2, t1)],
        default=-1,
    )
    email, annotator = np.indices(shape)
    has = secondary >= 0
    frame = pd.DataFrame(
        {
            "email": np.concatenate([email.ravel(), email[has]]) + 1,
            "annotator": annotators[np.concatenate([annotator.ravel(), annotator[has]])],
            "label": np.asarray(EMAIL_LABELS)[np.concatenate([primary.ravel(), secondary[has]])],
            "rank": np.repeat([1, 2], [primary.size, int(has.sum())]),
        }
    )
    frame["kind"] = np.asarray(_EMAIL_KINDS)[kind[frame["email"].to_numpy() - 1, 0]]
    frame = frame.sort_values(["email", "annotator", "rank"], kind="stable")
    return frame.reset_index(drop=True)


_FLEISS_CATEGORIES = "'Depression', 'Personality Disorder', 'Schizophrenia', 'Neurosis', 'Other'"

_FORT = (
    "Fort, K. (2011), Inter-Annotator Agreements, course slides (Corpus Linguistics, "
    "15 December 2011, after Artstein & Poesio 2008)"
)

_ARTSTEIN_POESIO = (
    "Artstein, R. & Poesio, M. (2005), Bias decreases in proportion to the number of "
    "annotators, Proceedings of FG-MoL 2005, CSLI Publications"
)

_DATASETS: dict[str, _Dataset] = {
    "fleiss1971": _Dataset(
        lambda: _read_csv("fleiss1971.csv"),
        "Psychiatric diagnoses of 30 patients, each diagnosed by 6 psychiatrists, into 5 "
        f"categories ({_FLEISS_CATEGORIES}, in Fleiss' order). Source: Fleiss, J. L. "
        "(1971), Measuring nominal scale agreement among many raters, Psychological "
        "Bulletin 76(5), 378-382, which prints the per-patient category counts n_ik; the "
        "raw layout is the one distributed as the `diagnoses` data set of R's irr "
        "package, which lists each patient's 6 diagnoses in Fleiss' category order, so "
        "rater1..rater6 are slots, not the same six people across patients (Fleiss' "
        "raters differed from patient to patient). Published value: kappa = 0.430 (the "
        "data give a mean observed agreement of 0.556 and a chance agreement of 0.220). "
        "Layout: wide, index `patient` (1-30), columns rater1..rater6, cells the "
        "category names: "
        "`load('fleiss1971').agree.fleiss()`, or with `categories=[...]` in Fleiss' "
        "order for breakdowns in that order. Coefficients that need rater identity "
        "(Cohen, Conger, bias) are not meaningful on this design.",
    ),
    "artstein_poesio2005": _Dataset(
        lambda: _read_csv("artstein_poesio2005.csv"),
        "Two coders, Alice and Bill, label 10 items yes ('Y') or no ('N'): the example of "
        f"section 13.2 of {_ARTSTEIN_POESIO}. Bill's labels are as printed (Y Y N N Y Y Y "
        "N Y Y); Alice's reached us with one label lost (Y Y N Y N Y N Y Y), and the "
        "paper's numbers fix her 6 Y and 4 N and her agreement with Bill on 7 items; of "
        "the one-label completions that satisfy them, the bundled Y Y N Y N Y N N Y Y "
        "keeps the longest printed prefix. Every such completion gives the published "
        "values: A_o = 0.7; A_e = 0.545 for pi (pooled P(Y) = 0.65), pi ~ 0.341; "
        "A_e = 0.54 for kappa (P(Y|Alice) = 0.6, P(Y|Bill) = 0.7), kappa ~ 0.348; bias "
        "B = A_e(pi) - A_e(kappa) = 0.005. Layout: wide, index `item` (1-10), columns "
        "Alice and Bill: `load('artstein_poesio2005').agree.scott()`, `.cohen()`, "
        "`.bias()`.",
    ),
    "artstein_poesio2005_four": _Dataset(
        lambda: _artstein_poesio_copies(2),
        "Four coders: Alice and Bill of `artstein_poesio2005` plus Claire, who labels "
        "exactly as Alice, and Dave, who labels exactly as Bill: the example of section "
        f"13.4 of {_ARTSTEIN_POESIO}. Published values: A_e = 0.545 for multi-pi (as for "
        "two coders) and A_e = 0.54333... for multi-kappa, so the bias falls to "
        "0.005 / 3. Layout: wide, index `item` (1-10), columns Alice, Bill, Claire, "
        "Dave, labels 'Y'/'N': `load('artstein_poesio2005_four').agree.conger()`, "
        "`.fleiss()`, `.bias()`.",
    ),
    "artstein_poesio2005_six": _Dataset(
        lambda: _artstein_poesio_copies(3),
        "Six coders: the four of `artstein_poesio2005_four` plus Eve, who labels exactly "
        "as Alice, and Frank, who labels exactly as Bill: the last example of section "
        f"13.4 of {_ARTSTEIN_POESIO}. Published values: A_e = 0.545 for multi-pi and "
        "A_e = 0.544 for multi-kappa, so the bias falls to 0.005 / 5. Layout: wide, "
        "index `item` (1-10), columns Alice, Bill, Claire, Dave, Eve, Frank, labels "
        "'Y'/'N': `load('artstein_poesio2005_six').agree.conger()`, `.bias()`.",
    ),
    "fort2011_observed": _Dataset(
        lambda: _read_csv("fort2011_observed.csv"),
        "Two annotators, A and B, label 10 items 'Yes' or 'No': the contingency table of "
        f"slide 14 ('Contingency Table and Observed Agreement') of {_FORT}. Cells: both "
        "Yes 4, A No and B Yes 2, A Yes and B No 2, both No 2; one row per item, rows in "
        "that cell order (the slide gives no item order). Published value: A_o = "
        "(4 + 2) / 10 = 0.6. Not on the slide but implied by the table (both annotators "
        "say Yes 6 times): S = 0.2, pi = kappa = 1/6. Layout: wide, index `item` (1-10), "
        "columns A and B: `load('fort2011_observed').agree.observed()`.",
    ),
    "fort2011_balanced": _Dataset(
        lambda: _read_csv("fort2011_balanced.csv"),
        "Two annotators, A (table rows) and B (table columns), label 50 items 'Yes' or "
        "'No' with equal marginals: both Yes 20, A Yes and B No 5, A No and B Yes 5, both "
        f"No 20; the table of slides 19, 21 and 23 of {_FORT}. Published values: A_o = "
        "0.8; S = 0.6 over the two used categories, but S = 0.73 (A_e = 1/4, exactly "
        "0.7333) when the scheme declares two further categories C and D that nobody "
        "used: `load('fort2011_balanced').agree(categories=['Yes', 'No', 'C', "
        "'D']).bennett()`; pi = 0.6 and kappa = 0.6 (A_e = 0.5) whatever categories are "
        "declared. Layout: wide, index `item` (1-50), columns A and B, one row per item "
        "in table-cell order: `load('fort2011_balanced').agree.bennett()`.",
    ),
    "fort2011_skewed": _Dataset(
        lambda: _read_csv("fort2011_skewed.csv"),
        "Two annotators, A (table rows) and B (table columns), label 70 items 'Yes' or "
        "'No' with different marginals: both Yes 24, A Yes and B No 8, A No and B Yes "
        f"14, both No 24 (A says Yes 32 times, B 38 times); the second table of slide 23 "
        f"of {_FORT}. Published values, computed from intermediates rounded to two "
        "decimals: A_o = 0.68, A_e = 0.5 and pi = 0.36, A_e = 0.49 and kappa = 0.37. "
        "Exact values: A_o = 48/70 ~ 0.6857, A_e(pi) = 0.5, pi ~ 0.3714, A_e(kappa) = "
        "2432/4900 ~ 0.4963, kappa ~ 0.3760 (the slide's figures are (0.68 - 0.5) / 0.5 "
        "and (0.68 - 0.49) / 0.51). Layout: wide, index `item` (1-70), columns A and B, "
        "one row per item in table-cell order: `load('fort2011_skewed').agree.scott()`, "
        "`.cohen()`.",
    ),
    "fort2011_trains": _Dataset(
        lambda: _read_csv("fort2011_trains.csv"),
        "Four annotators, Annot1..Annot4, label 7 items (a-g) as 'Boxcar', 'Tanker', "
        f"'Engine1' or 'Engine2': the table of slide 28 ('Multiple annotators') of {_FORT}. "
        "Published values: the proportion of agreeing annotator pairs per item, 2/6, "
        "3/6, 6/6, 1/6, 0/6, 6/6, 6/6 for items a to g, so A_o = 24/42 ~ 0.5714. Not on "
        "the slide: A_e = 0.3189 for multi-pi (Fleiss' kappa), which is ~ 0.3708. "
        "Layout: wide, index `item` (a-g), columns Annot1..Annot4: "
        "`load('fort2011_trains').agree.observed()`, `.fleiss()`.",
    ),
    "emails_multilabel": _Dataset(
        lambda: _read_csv("emails_multilabel.csv").reset_index(),
        "Synthetic emails with a primary and an optional secondary label: 380 emails, three "
        "annotators (A, B, C) and the ten labels of Rosenberg & Binkowski (2004)'s corpus "
        "(question, answer, broadcast, ...), generated by `make_emails()` with its defaults "
        "(seed 2004; see its docstring for the process). Each email is one of four kinds "
        "(clear, unclear, general/specific, concurrent) meant to produce the paper's four item "
        "classes; about a fifth of the labels are secondary. No published values: the paper's "
        "data are not public, and these only resemble its summary. Layout: long, columns "
        "`email`, `annotator`, `label`, `rank` (1 primary, 2 secondary) and `kind`: "
        "`load('emails_multilabel').agree(item='email', rater='annotator', label='label', "
        "rank='rank').multilabel(p=0.75)`.",
    ),
    "qgstec_simulated": _Dataset(
        _qgstec_simulated,
        "Synthetic ordinal ratings in the shape of the QG-STEC evaluation data that Amidei, "
        "Piwek & Willis (2020, Identifying annotator bias: a new IRT-based method for bias "
        "identification, COLING) analyse: 200 generated questions, each scored by three "
        "judges J1-J3 on four criteria, ambiguity and variety on a scale of 1-3, fluency and "
        "relevance on 1-4 (1 is the best score). Simulated from the graded response model by "
        "`pdagree.irt.simulate` with one `numpy.random.default_rng(2020)` stream, criterion "
        "by criterion: a common discrimination per criterion (1.3, 5.0, 1.8, 2.0), Judge 1's "
        "and Judge 3's extremities for ambiguity (0.601, 1.717 and 0.173, 1.993) and variety "
        "(-1.183, -0.990 and -1.150, -0.944) as the paper reports them, Judge 1 never using "
        "relevance score 4 (as in the paper's Table 1), and 5% of the cells missing at random "
        "(tests/test_irt_dataset.py holds every parameter and regenerates the file). No "
        "published values: it exercises `irt()`, `frequencies()` and `conger(weights="
        "'ordinal')`. Layout: wide, index `question` (1-200, repeated per criterion), a "
        "`criterion` column and columns J1, J2, J3 (nullable integers): `load("
        "'qgstec_simulated').agree(by='criterion').conger(weights='ordinal')`, or one "
        "criterion's rows without the `criterion` column for `.agree.irt()`.",
    ),
    "crowd_sparse": _Dataset(
        make_crowd_sparse,
        "Synthetic sparse crowdsourcing annotations: 500 items, a pool of 40 annotators, "
        "categories 'neg', 'neu' and 'pos', generated by `make_crowd_sparse()` with its "
        "defaults (seed 2011; see its docstring for the process). Each item has 1 + "
        "Poisson(2) labels from annotators drawn without replacement, whose accuracies "
        "follow Beta(8, 2); many items have 1 to 3 labels and some exactly one. No "
        "published values: it exercises incomplete designs. Layout: long, columns `item`, "
        "`annotator`, `label` and `batch` (1-3): `load('crowd_sparse').agree(item='item', "
        "rater='annotator', label='label').spa()`, or with `by='batch'` for one row per "
        "batch.",
    ),
}


def names() -> list[str]:
    """Names of the bundled data sets, sorted.

    Returns
    -------
    list of str
        The names :func:`load` and :func:`describe` accept.

    Examples
    --------
    >>> names()[:3]
    ['artstein_poesio2005', 'artstein_poesio2005_four', 'artstein_poesio2005_six']
    """
    return sorted(_DATASETS)


def _lookup(name: str) -> _Dataset:
    """The registry entry of `name`, with the error message users see."""
    if not isinstance(name, str):
        raise TypeError(f"`name` must be a str; got {type(name).__name__}.")
    try:
        return _DATASETS[name]
    except KeyError:
        choices = ", ".join(repr(known) for known in names())
        raise ValueError(f"`name` must be one of {choices}; got {name!r}.") from None


def load(name: str) -> pd.DataFrame:
    """Load a bundled data set as a new DataFrame.

    Parameters
    ----------
    name : str
        One of :func:`names`.

    Returns
    -------
    pandas.DataFrame
        A fresh frame on every call: modifying it does not change later loads. Its
        layout (wide, long) is given by :func:`describe`.

    Raises
    ------
    ValueError
        If `name` is not a bundled data set.
    TypeError
        If `name` is not a str.

    Examples
    --------
    >>> load("fort2011_trains")
           Annot1   Annot2   Annot3   Annot4
    item
    a      Boxcar   Tanker   Boxcar   Tanker
    b      Tanker   Boxcar   Boxcar   Boxcar
    c      Boxcar   Boxcar   Boxcar   Boxcar
    d      Tanker  Engine2   Boxcar   Tanker
    e     Engine2   Tanker   Boxcar  Engine1
    f      Tanker   Tanker   Tanker   Tanker
    g     Engine1  Engine1  Engine1  Engine1
    """
    return _lookup(name).build()


def describe(name: str) -> str:
    """Describe a bundled data set: source, layout and published values.

    Parameters
    ----------
    name : str
        One of :func:`names`.

    Returns
    -------
    str
        One paragraph: what the data are, where they come from, the values the source
        reports, and how to call ``.agree`` on the frame.

    Raises
    ------
    ValueError
        If `name` is not a bundled data set.
    TypeError
        If `name` is not a str.

    Examples
    --------
    >>> print(describe("fort2011_observed"))  # doctest: +ELLIPSIS
    Two annotators, A and B, label 10 items 'Yes' or 'No': ...
    """
    return _lookup(name).description
