"""Span agreement (#29): the measures against direct loop-over-sets oracles on random span
sets (hypothesis), the character labels against the labels frame read the usual way, the
consensus spans against a count per character, and the checks of the input."""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import pdagree  # noqa: F401  (the accessor)

LABELS = ["PER", "ORG", "LOC"]


def random_spans(
    seed: int, n_docs: int, n_raters: int, n_labels: int, holes: bool
) -> pd.DataFrame:
    """Per (document, annotator): spans of each label that do not overlap each other (other
    labels may); some annotators skip documents, some mark nothing in one."""
    rng = np.random.default_rng(seed)
    rows = []
    for doc in range(n_docs):
        for rater in range(n_raters):
            if holes and rng.random() < 0.2:
                continue  # did not see the document
            marked = False
            for label in LABELS[:n_labels]:
                cuts = np.sort(rng.choice(40, size=2 * int(rng.integers(0, 4)), replace=False))
                for start, end in zip(cuts[::2], cuts[1::2], strict=True):
                    rows.append((f"d{doc}", f"r{rater}", int(start), int(end), label))
                    marked = True
            if not marked:
                rows.append((f"d{doc}", f"r{rater}", None, None, None))
    frame = pd.DataFrame(rows, columns=["doc", "who", "start", "end", "tag"])
    return frame.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def spans_of(frame: pd.DataFrame) -> dict[tuple[str, str], list[tuple[int, int, str]]]:
    out: dict[tuple[str, str], list[tuple[int, int, str]]] = defaultdict(list)
    for doc, who, start, end, tag in frame.itertuples(index=False):
        out[(doc, who)]  # annotated, perhaps with nothing
        if pd.notna(start):
            out[(doc, who)].append((int(start), int(end), tag))
    return out


def oracle(frame: pd.DataFrame, match: str) -> dict[tuple[str, str], tuple[int, int, int]]:
    """(n_a, n_b, n_matched) per pair of annotators, by loops over sets."""
    marked = spans_of(frame)
    raters = sorted({who for _, who in marked})
    docs = sorted({doc for doc, _ in marked})
    out = {}
    for a, b in itertools.combinations(raters, 2):
        n_a = n_b = n_m = 0
        shared = [d for d in docs if (d, a) in marked and (d, b) in marked]
        if not shared:
            continue
        for d in shared:
            sa, sb = marked[(d, a)], marked[(d, b)]
            n_a, n_b = n_a + len(sa), n_b + len(sb)
            if match == "exact":
                n_m += len(set(sa) & set(sb))
                continue
            edges = [
                (-(min(x[1], y[1]) - max(x[0], y[0])), x[0], y[0], i, j)
                for i, x in enumerate(sa)
                for j, y in enumerate(sb)
                if x[2] == y[2] and min(x[1], y[1]) > max(x[0], y[0])
            ]
            used_a, used_b = set(), set()
            for _, _, _, i, j in sorted(edges):
                if i not in used_a and j not in used_b:
                    used_a.add(i)
                    used_b.add(j)
                    n_m += 1
        out[(a, b)] = (n_a, n_b, n_m)
    return out


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(1, 5),
    st.integers(2, 4),
    st.integers(1, 3),
    st.booleans(),
    st.sampled_from(["exact", "overlap"]),
)
def test_pairwise_f1_equals_a_loop_over_sets(
    seed: int, n_docs: int, n_raters: int, n_labels: int, holes: bool, match: str
) -> None:
    frame = random_spans(seed, n_docs, n_raters, n_labels, holes)
    assume(len(frame) > 0)
    spans = frame.agree.spans(item="doc", rater="who", start="start", end="end", label="tag")
    table = spans.pairwise_f1(match)  # type: ignore[arg-type]
    expected = oracle(frame, match)
    got = {
        (a, b): (int(r.n_a), int(r.n_b), int(r.n_matched))
        for (a, b), r in zip(table.index, table.itertuples(), strict=True)
    }
    assert got == expected
    for (a, b), (n_a, n_b, n_m) in expected.items():
        f1 = 1.0 if n_a + n_b == 0 else 2 * n_m / (n_a + n_b)
        assert table.loc[(a, b), "f1"] == pytest.approx(f1)
    if expected:
        mean = np.mean([table.loc[k, "f1"] for k in expected])
        assert spans.f1(match) == pytest.approx(mean)  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 4), st.integers(2, 3))
def test_row_order_and_renaming_do_not_matter(seed: int, n_docs: int, n_raters: int) -> None:
    frame = random_spans(seed, n_docs, n_raters, 2, True)
    assume(len(frame) > 0)
    args = {"item": "doc", "rater": "who", "start": "start", "end": "end", "label": "tag"}
    base = frame.agree.spans(**args).pairwise_f1("overlap")["f1"].to_numpy()
    shuffled = frame.sample(frac=1.0, random_state=seed + 1)
    again = shuffled.agree.spans(**args).pairwise_f1("overlap")["f1"].to_numpy()
    np.testing.assert_allclose(again, base)
    renamed = frame.assign(tag=frame["tag"].map({"PER": "x", "ORG": "y"}))
    np.testing.assert_allclose(renamed.agree.spans(**args).pairwise_f1("overlap")["f1"], base)


def test_by_equals_a_loop() -> None:
    frame = pd.concat(
        [random_spans(s, 4, 3, 2, True).assign(batch=s) for s in range(3)], ignore_index=True
    )
    args = {"item": "doc", "rater": "who", "start": "start", "end": "end", "label": "tag"}
    table = frame.agree.spans(**args, by="batch").pairwise_f1("overlap")
    means = frame.agree.spans(**args, by="batch").f1("overlap")
    for batch, part in frame.groupby("batch"):
        one = part.agree.spans(**args).pairwise_f1("overlap")
        np.testing.assert_allclose(table.loc[batch].to_numpy(), one.to_numpy())
        assert means.loc[batch] == pytest.approx(part.agree.spans(**args).f1("overlap"))


def test_token_agreement_equals_the_labels_frame() -> None:
    frame = random_spans(7, 5, 3, 2, False)
    spans = frame.agree.spans(item="doc", rater="who", start="start", end="end", label="tag")
    ratings = spans.token_agreement()
    marked = spans_of(frame)
    rows = []
    for (doc, who), items in marked.items():
        length = max([e for (d, _), s in marked.items() if d == doc for _, e, _ in s] or [0])
        labels = ["O"] * length
        for start, end, tag in sorted(items, key=lambda x: x[0] - x[1]):  # longest first
            labels[start:end] = [tag] * (end - start)
        rows += [(doc, c, who, tag) for c, tag in enumerate(labels)]
    chars = pd.DataFrame(rows, columns=["doc", "char", "who", "tag"])
    chars["item"] = chars["doc"] + ":" + chars["char"].astype(str)
    expected = chars.agree(item="item", rater="who", label="tag", categories=["O", "ORG", "PER"])
    assert ratings.n_items == expected.n_items
    for name in ("fleiss", "observed"):
        assert float(getattr(ratings, name)()) == pytest.approx(float(getattr(expected, name)()))
    assert float(ratings.alpha()) == pytest.approx(float(expected.alpha()))


def test_consensus_spans_by_counting_characters() -> None:
    frame = random_spans(3, 4, 3, 2, True)
    spans = frame.agree.spans(item="doc", rater="who", start="start", end="end", label="tag")
    table = spans.consensus()
    marked = spans_of(frame)
    expected = []
    for doc in sorted({d for d, _ in marked}):
        mine = {who: s for (d, who), s in marked.items() if d == doc}
        need = len(mine) // 2 + 1
        for tag in ("ORG", "PER"):
            votes = np.zeros(41, dtype=int)
            for items in mine.values():
                for start, end, t in items:
                    if t == tag:
                        votes[start:end] += 1
            ok = votes >= need
            c = 0
            while c < len(ok):
                if ok[c]:
                    e = c
                    while e < len(ok) and ok[e]:
                        e += 1
                    expected.append((doc, c, e, tag, int(votes[c:e].min()), len(mine)))
                    c = e
                else:
                    c += 1
    got = sorted(
        (doc, int(r.start), int(r.end), r.label, int(r.votes), int(r.n_raters))
        for doc, r in zip(table.index, table.itertuples(), strict=True)
    )
    assert got == sorted(expected)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([("d", "a", 5, 5, "X")], "end at or before their start"),
        ([("d", "a", -1, 5, "X")], "negative offset"),
        ([("d", "a", 0, 5, "X"), ("d", "a", 3, 8, "X")], "overlap another span of the same"),
        ([("d", "a", 0, None, "X")], "one of `start` and `end` without the other"),
        ([("d", "a", 0.5, 3, "X")], "whole character offsets"),
        ([("d", "a", 0, 3, None)], "have a span but no label"),
    ],
)
def test_bad_spans_are_refused_naming_rows(rows: list[tuple[object, ...]], message: str) -> None:
    frame = pd.DataFrame([*rows, ("d", "b", 0, 3, "X")], columns=["doc", "who", "s", "e", "tag"])
    with pytest.raises(ValueError, match=message):
        frame.agree.spans(item="doc", rater="who", start="s", end="e", label="tag")


def test_text_lengths_and_missing_columns() -> None:
    frame = pd.DataFrame({"doc": [1, 1], "who": ["a", "b"], "s": [0, 2], "e": [4, 9]})
    with pytest.raises(ValueError, match="end beyond their document's text"):
        frame.agree.spans(
            item="doc", rater="who", start="s", end="e", text=pd.Series({1: "abcdefgh"})
        )
    spans = frame.agree.spans(item="doc", rater="who", start="s", end="e", text=pd.Series({1: 12}))
    assert spans.token_agreement().n_items == 12
    with pytest.raises(ValueError, match="are not in the frame"):
        frame.agree.spans(item="doc", rater="who", start="s", end="stop")
    unlabelled = frame.agree.spans(item="doc", rater="who", start="s", end="e")
    assert unlabelled.f1("overlap") == 1.0 and unlabelled.f1() == 0.0


def _runs(spans: list[list[tuple[int, int, str]]], need: int) -> list[tuple[int, int, str]]:
    """Consensus spans by counting votes per character (the oracle)."""
    out = []
    for tag in LABELS:
        votes = np.zeros(42, dtype=int)
        for items in spans:
            for start, end, t in items:
                if t == tag:
                    votes[start:end] += 1
        ok = np.r_[votes >= need, False]
        c = 0
        while c < len(votes):
            if ok[c]:
                e = c
                while ok[e]:
                    e += 1
                out.append((c, e, tag))
                c = e
            else:
                c += 1
    return out


def _matched(sa: list[tuple[int, int, str]], sb: list[tuple[int, int, str]], match: str) -> int:
    if match == "exact":
        return len(set(sa) & set(sb))
    edges = sorted(
        (-(min(x[1], y[1]) - max(x[0], y[0])), x[0], y[0], i, j)
        for i, x in enumerate(sa)
        for j, y in enumerate(sb)
        if x[2] == y[2] and min(x[1], y[1]) > max(x[0], y[0])
    )
    used_a, used_b, n = set(), set(), 0
    for *_, i, j in edges:
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
            n += 1
    return n


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(1, 4),
    st.integers(2, 5),
    st.sampled_from(["exact", "overlap"]),
)
def test_per_rater_equals_a_loop(seed: int, n_docs: int, n_raters: int, match: str) -> None:
    frame = random_spans(seed, n_docs, n_raters, 2, True)
    assume(len(frame) > 0)
    spans = frame.agree.spans(item="doc", rater="who", start="start", end="end", label="tag")
    table = spans.per_rater(match)  # type: ignore[arg-type]
    marked = spans_of(frame)
    expected = {}
    for who in sorted({w for _, w in marked}):
        n_items = n_a = n_b = n_m = 0
        for doc in sorted({d for d, _ in marked}):
            if (doc, who) not in marked:
                continue
            others = [s for (d, w), s in marked.items() if d == doc and w != who]
            if not others:
                continue
            reference = _runs(others, len(others) // 2 + 1)
            mine = marked[(doc, who)]
            n_items, n_a, n_b = n_items + 1, n_a + len(mine), n_b + len(reference)
            n_m += _matched(mine, reference, match)
        if n_items:
            expected[who] = (n_items, n_a, n_b, n_m)
    got = {
        who: (int(r.n_items), int(r.n_spans), int(r.n_reference), int(r.n_matched))
        for who, r in zip(table.index, table.itertuples(), strict=True)
    }
    assert got == expected


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10_000),
    st.integers(1, 4),
    st.integers(2, 4),
    st.sampled_from(["exact", "overlap"]),
)
def test_items_equals_a_loop(seed: int, n_docs: int, n_raters: int, match: str) -> None:
    frame = random_spans(seed, n_docs, n_raters, 2, True)
    assume(len(frame) > 0)
    spans = frame.agree.spans(item="doc", rater="who", start="start", end="end", label="tag")
    table = spans.items(match)  # type: ignore[arg-type]
    marked = spans_of(frame)
    for doc in sorted({d for d, _ in marked}):
        mine = {w: s for (d, w), s in marked.items() if d == doc}
        row = table.loc[doc]
        assert row["n_raters"] == len(mine)
        assert row["n_spans"] == sum(map(len, mine.values()))
        assert (row["min_spans"], row["max_spans"]) == (
            min(map(len, mine.values())),
            max(map(len, mine.values())),
        )
        every = set.intersection(*(set(s) for s in mine.values()))
        union = set.union(*(set(s) for s in mine.values()))
        assert row["n_disputed"] == len(union - every)
        if len(mine) < 2:
            assert np.isnan(row["f1"])
            continue
        f1s = []
        for a, b in itertools.combinations(sorted(mine), 2):
            sa, sb = mine[a], mine[b]
            n = _matched(sa, sb, match)
            f1s.append(1.0 if not sa and not sb else 2 * n / (len(sa) + len(sb)))
        assert row["f1"] == pytest.approx(np.mean(f1s))


# --------------------------------------------------------------------------- alpha_u


def _study(units: list[tuple[int, int, int, str]], begin: int, length: int) -> object:
    """DKPro's (offset, length, rater, category) units as a frame of spans, the continuum
    read as one document of ``length`` characters starting at ``begin``."""
    frame = pd.DataFrame(
        [(1, f"r{r}", o - begin, o - begin + n, c) for o, n, r, c in units],
        columns=["doc", "who", "s", "e", "tag"],
    )
    return frame.agree.spans(
        item="doc", rater="who", start="s", end="e", label="tag", text=pd.Series({1: length})
    )


def test_alpha_u_krippendorff_2004() -> None:
    # Krippendorff (2004), Content Analysis, 2nd ed., p. 254: two observers on a continuum of
    # 300 (from 150); the published (and DKPro Agreement's) values: alpha_u 0.8591 (+-0.0005),
    # c: D_o 0.0144, D_e 0.0532, alpha 0.7286; k: D_o 0, D_e 0.0490, alpha 1.
    from pdagree.spans._unitizing import disagreements

    units = [
        (225, 70, 0, "c"), (370, 30, 0, "c"), (220, 80, 1, "c"), (355, 20, 1, "c"),
        (400, 20, 1, "c"), (180, 60, 0, "k"), (300, 50, 0, "k"), (180, 60, 1, "k"),
        (300, 50, 1, "k"),
    ]  # fmt: skip
    spans = _study(units, 150, 300)
    assert spans.alpha_u() == pytest.approx(0.8591, abs=0.0005)
    per_label = spans.alpha_u(by_label=True)
    assert per_label["c"] == pytest.approx(0.7286, abs=0.0001)
    assert per_label["k"] == pytest.approx(1.0, abs=0.0001)
    d_o, d_e, _ = disagreements(spans._data)
    labels = list(spans.labels)
    c, k = labels.index("c"), labels.index("k")
    assert d_o[0, c] == pytest.approx(0.0144, abs=0.0001)
    assert d_e[0, c] == pytest.approx(0.0532, abs=0.0001)
    assert d_o[0, k] == pytest.approx(0.0, abs=0.0001)
    assert d_e[0, k] == pytest.approx(0.0490, abs=0.0001)


def test_alpha_u_dkpro_example() -> None:
    # DKPro Agreement's unitizing test study: r0 -11111111-, r1 --1-1-1--- on 10 characters:
    # D_o 0.9100, D_e 0.5351, alpha -0.7003.
    from pdagree.spans._unitizing import disagreements

    spans = _study([(1, 8, 0, "A"), (2, 1, 1, "A"), (4, 1, 1, "A"), (6, 1, 1, "A")], 0, 10)
    d_o, d_e, _ = disagreements(spans._data)
    assert d_o[0, 0] == pytest.approx(0.9100, abs=0.0001)
    assert d_e[0, 0] == pytest.approx(0.5351, abs=0.0001)
    assert spans.alpha_u() == pytest.approx(-0.7003, abs=0.0001)


def test_alpha_u_by_equals_a_loop_and_documents_end_to_end() -> None:
    frame = pd.concat(
        [random_spans(s, 3, 3, 2, False).assign(batch=s) for s in range(3)], ignore_index=True
    )
    args = {"item": "doc", "rater": "who", "start": "start", "end": "end", "label": "tag"}
    table = frame.agree.spans(**args, by="batch").alpha_u()
    for batch, part in frame.groupby("batch"):
        assert table.loc[batch] == pytest.approx(part.agree.spans(**args).alpha_u())
    # two documents laid end to end equal one document holding both, shifted
    one = random_spans(5, 2, 2, 1, False)
    lengths = one.groupby("doc")["end"].max()
    shift = one["doc"].map({"d0": 0, "d1": int(lengths["d0"])})
    joined = one.assign(doc="all", start=one["start"] + shift, end=one["end"] + shift)
    assert one.agree.spans(**args).alpha_u() == pytest.approx(joined.agree.spans(**args).alpha_u())


def _alpha_u_oracle(marked: dict[str, list[tuple[int, int, str]]], length: int) -> float:
    """Krippendorff's (2004) definitions written out: sections, distances, sums."""
    m = len(marked)
    d_o_all, d_e_all = [], []
    for c in sorted({t for s in marked.values() for *_, t in s}):
        sections = {}
        for who, items in marked.items():
            units = sorted((b, e) for b, e, t in items if t == c)
            out, pos = [], 0
            for b, e in units:
                if b > pos:
                    out.append((pos, b, False))
                out.append((b, e, True))
                pos = e
            if pos < length:
                out.append((pos, length, False))
            sections[who] = out
        total = 0.0
        for a, b in itertools.combinations(sorted(marked), 2):
            for b1, e1, u1 in sections[a]:
                for b2, e2, u2 in sections[b]:
                    if min(e1, e2) <= max(b1, b2):
                        continue
                    if u1 and u2:
                        total += (b1 - b2) ** 2 + (e1 - e2) ** 2
                    elif u1 and b2 <= b1 and e1 <= e2:
                        total += (e1 - b1) ** 2
                    elif u2 and b1 <= b2 and e2 <= e1:
                        total += (e2 - b2) ** 2
        d_o = 2 * total / (m * (m - 1) * length**2)
        lens = [e - b for s in sections.values() for b, e, u in s if u]
        gaps = [e - b for s in sections.values() for b, e, u in s if not u]
        n_c = len(lens)
        num = sum(
            (n_c - 1) * (2 * n**3 - 3 * n**2 + n) / 3
            + n * n * sum(g - n + 1 for g in gaps if g >= n)
            for n in lens
        )
        d_e = (2 / length) * num / (m * length * (m * length - 1) - sum(n * (n - 1) for n in lens))
        d_o_all.append(d_o)
        d_e_all.append(d_e)
    d_o, d_e = np.mean(d_o_all), np.mean(d_e_all)
    return 0.0 if d_o == d_e else 1 - d_o / d_e


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4), st.integers(1, 3))
def test_alpha_u_equals_the_definitions(seed: int, n_raters: int, n_labels: int) -> None:
    frame = random_spans(seed, 1, n_raters, n_labels, False)
    assume(frame["start"].notna().any())
    spans = frame.agree.spans(
        item="doc", rater="who", start="start", end="end", label="tag", text=pd.Series({"d0": 41})
    )
    marked = {who: s for (_, who), s in spans_of(frame).items()}
    assert spans.alpha_u() == pytest.approx(_alpha_u_oracle(marked, 41), rel=1e-9, abs=1e-12)


def test_span_plots(tmp_path: object) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pdagree import plotting

    frame = random_spans(11, 4, 3, 3, False)
    spans = frame.agree.spans(item="doc", rater="who", start="start", end="end", label="tag")
    ax = plotting.span_labels(spans, "overlap")
    assert len(ax.patches) == len(spans.per_label("overlap"))
    table = spans.pairwise_f1("overlap")
    ax = plotting.span_pairs(spans, "overlap")
    image = ax.images[0].get_array()
    raters = list(spans.raters)
    for (a, b), f1 in table["f1"].items():
        assert image[raters.index(a), raters.index(b)] == pytest.approx(f1)
    ax.figure.savefig(f"{tmp_path}/pairs.png")
    plt.close("all")


def test_token_agreement_by_whitespace_tokens() -> None:
    texts = {"d0": "Ada Lovelace met Alan  Turing in London", "d1": "nothing\tto see here"}
    rows = [
        ("d0", "a", 0, 12, "PER"), ("d0", "a", 17, 29, "PER"), ("d0", "a", 33, 39, "LOC"),
        ("d0", "b", 0, 3, "PER"), ("d0", "b", 33, 39, "ORG"),
        ("d1", "a", None, None, None), ("d1", "b", 8, 10, "LOC"),
    ]  # fmt: skip
    frame = pd.DataFrame(rows, columns=["doc", "who", "s", "e", "tag"])
    spans = frame.agree.spans(
        item="doc", rater="who", start="s", end="e", label="tag", text=pd.Series(texts)
    )
    tokens = spans.token_agreement(unit="token")
    expected = []
    for doc, text in texts.items():
        position = 0
        for word in text.split():
            start = text.index(word, position)
            position = start + len(word)
            for who in ("a", "b"):
                votes: dict[str, int] = {}
                for d, w, s, e, tag in rows:
                    if d == doc and w == who and s is not None:
                        shared = max(0, min(e, position) - max(s, start))
                        votes[tag] = votes.get(tag, 0) + shared
                best = max(sorted(votes), key=lambda t: votes[t], default=None)
                expected.append((doc, start, who, best if best and votes[best] else "O"))
    reference = pd.DataFrame(expected, columns=["doc", "start", "who", "tag"])
    reference["item"] = reference["doc"] + ":" + reference["start"].astype(str)
    want = reference.agree(
        item="item", rater="who", label="tag", categories=["O", "LOC", "ORG", "PER"]
    )
    assert tokens.n_items == want.n_items == 11  # 7 + 4 tokens (a tab separates too)
    assert float(tokens.observed()) == pytest.approx(float(want.observed()))
    assert float(tokens.cohen()) == pytest.approx(float(want.cohen()))
    with pytest.raises(ValueError, match="`unit='token'` splits the documents' texts"):
        frame.agree.spans(item="doc", rater="who", start="s", end="e").token_agreement("token")


def test_groups_with_annotators_of_their_own_equal_a_loop_within_bounded_memory() -> None:
    # per_rater, items and token_agreement kept tables over every document x annotator
    # (and group x annotator): 10,000 groups of 2 documents and 3 annotators of their own
    # asked for 4.5 GiB (items, token_agreement) and failed with a MemoryError (per_rater).
    import tracemalloc

    args = {"item": "doc", "rater": "who", "start": "start", "end": "end", "label": "tag"}
    parts = []
    for s in range(4):  # each batch's annotators and documents are its own
        part = random_spans(s, 3, 3, 2, True)
        parts.append(part.assign(batch=s, doc=part["doc"] + f"b{s}", who=part["who"] + f"b{s}"))
    frame = pd.concat(parts, ignore_index=True)
    spans = frame.agree.spans(**args, by="batch")
    per_rater, items = spans.per_rater("overlap"), spans.items("overlap")
    tokens = spans.token_agreement()
    for batch, part in frame.groupby("batch"):
        one = part.drop(columns="batch").agree.spans(**args)
        pd.testing.assert_frame_equal(per_rater.loc[batch], one.per_rater("overlap"))
        pd.testing.assert_frame_equal(
            items.loc[batch], one.items("overlap"), check_names=False, check_index_type=False
        )
        assert float(tokens.fleiss().loc[batch, "value"]) == pytest.approx(
            float(one.token_agreement().fleiss()), rel=1e-12
        )
    n = 10_000
    g = np.repeat(np.arange(n), 6)
    big = pd.DataFrame(
        {
            "batch": g,
            "doc": g * 2 + np.tile(np.repeat([0, 1], 3), n),
            "who": g * 3 + np.tile([0, 1, 2], 2 * n),
            "start": 5,
            "end": np.tile([9, 9, 10], 2 * n),
            "tag": "PER",
        }
    )
    many = big.agree.spans(**args, by="batch")
    tracemalloc.start()
    try:
        assert len(many.per_rater()) == 3 * n
        assert len(many.items()) == 2 * n
        assert len(many.token_agreement().fleiss()) == n
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 256 * 2**20, peak


@pytest.mark.parametrize("match", ["exact", "overlap"])
def test_pair_counts_keys_do_not_overflow_with_many_groups_and_annotators(match: str) -> None:
    # (group, a, b, label) were packed as ((g R + a) R + b) L + l: past 2**63 with millions of
    # groups and annotators (e.g. 2,000,000 groups x 3,000,000,000^2) the keys wrapped
    # silently. Two annotators (the last codes) on two documents of the last group.
    from pdagree.spans._data import SpanData
    from pdagree.spans._match import pair_counts

    n_groups, n_raters = 2_000_000, 3_000_000_000
    a, b = n_raters - 2, n_raters - 1
    data = SpanData(
        doc=np.array([0, 0, 1, 1]),
        rater=np.array([a, b, a, b]),
        span_doc=np.array([0, 0, 1, 1]),
        span_rater=np.array([a, b, a, b]),
        start=np.array([0, 0, 2, 3]),
        end=np.array([5, 5, 8, 8]),
        label=np.zeros(4, dtype=np.int64),
        group=np.full(2, n_groups - 1),
        docs=pd.Index(["d0", "d1"]),
        raters=pd.RangeIndex(n_raters),
        labels=pd.Index(["PER"]),
        groups=pd.RangeIndex(n_groups),
        length=np.array([10, 10]),
        labelled=True,
    )
    counts = pair_counts(data, match)
    assert counts.group.tolist() == [n_groups - 1]
    assert (counts.a.tolist(), counts.b.tolist(), counts.label.tolist()) == ([a], [b], [0])
    matched = 1 if match == "exact" else 2  # the second pair of spans overlaps
    assert (counts.n_a.tolist(), counts.n_b.tolist(), counts.n_matched.tolist()) == (
        [2],
        [2],
        [matched],
    )
