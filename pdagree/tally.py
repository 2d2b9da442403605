""":class:`Tally`: agreement kept up to date as batches of annotations arrive.

A tally holds the count tensors of every batch added so far (see
:mod:`pdagree.counting.state`), not the annotations: adding a batch costs what reading that
batch costs, two tallies of the same arguments add (``a + b``: parallel workers, shards), and
:meth:`Tally.save` writes the counts to a versioned ``.npz`` file that :meth:`Tally.load`
reads back without pickle. Every coefficient and breakdown that counts give is a method, with
the results of the pandas path on the concatenated batches (Gwet's analytic standard errors
included); what needs the annotations themselves raises
:class:`~pdagree.tensors.count_data.AnnotationsNeeded`, a ``ValueError`` that says so.

>>> import pandas as pd
>>> import pdagree
>>> monday = pd.DataFrame({"item": [1, 1, 2, 2], "coder": list("abab"),
...                        "tag": ["x", "x", "y", "x"]})
>>> tuesday = pd.DataFrame({"item": [2, 3, 3], "coder": ["c", "a", "b"],
...                         "tag": ["y", "y", "y"]})
>>> tally = pdagree.Tally(item="item", rater="coder", label="tag")
>>> tally.add(monday).add(tuesday)
Tally(3 items, 3 raters, 2 labels; 7 annotations in 2 batches)
>>> round(float(tally.fleiss()), 6) == round(float(
...     pd.concat([monday, tuesday]).agree(item="item", rater="coder", label="tag").fleiss()), 6)
True
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from ._forwarding import forward, public_members
from ._warnings import PdagreeWarning, warn
from .count_ratings import CountRatings
from .counting import check_labels, read_counts, write_counts
from .counting.state import Counts
from .encoding import LayoutSpec, mixed_kinds_hint
from .result_tables import html_table
from .tensors.count_data import check_declared, count_data

__all__ = ["FORWARDED", "Tally"]

#: The methods (and properties) of :class:`~pdagree.count_ratings.CountRatings` that a tally
#: offers (every public one; ``tally.<name>(...)`` is ``tally.ratings.<name>(...)``), those
#: that need the annotations included: they raise ``AnnotationsNeeded``, saying so.
FORWARDED = public_members(CountRatings)


def _ratings(tally: Tally) -> CountRatings:
    return tally.ratings


if TYPE_CHECKING:  # the forwarded methods, as type checkers see them (not a base at run time)
    _Forwarded = CountRatings
else:
    _Forwarded = object


@forward(CountRatings, FORWARDED, via=_ratings)
class Tally(_Forwarded):
    """Count tensors of the annotation batches added so far, with the count-based methods of
    :class:`pdagree.Ratings`.

    Parameters
    ----------
    item, rater, label, raters, categories, by, layout
        The accessor's keyword arguments (``df.agree(...)``), fixed once for every batch: a
        long frame's columns, or a wide frame's ``raters``; ``categories`` declares the scale
        (a batch with another label is refused, naming it), else the labels may grow with
        later batches.
    check_duplicates : bool, default True
        Refuse an (item, rater) pair counted in an earlier batch, as one frame refuses a
        repeated pair. With ``False`` the tally keeps no pairs (less memory) and a pair
        repeated *across* batches is counted twice, unchecked; within a batch it is always
        refused.

    Notes
    -----
    An item may straddle batches: its counts add. Memory grows with the non-zero
    (item, category) cells, the raters x categories counts, the distinct items, and (with
    ``check_duplicates``) the (item, rater) pairs: 8 bytes each, not the annotations.

    A batch (or a tally added) that would break the label rules of the pandas path (an int
    label after text labels, ``1`` after ``'1'``, a label outside an ordered Categorical of
    earlier batches, a long frame added to a wide tally) is refused, and the tally is left
    exactly as it was. An unordered Categorical's categories order the labels counted with
    them, as in one frame: after a batch whose labels are ``Categorical(["a"])``, a later
    batch's ``1`` is counted (after ``"a"``), while a tally of that later batch alone refuses
    it (text and numbers cannot be put in order); declare ``categories=`` to make every
    split of the batches count the same.

    :meth:`save` replaces the file in one step (a temporary file in the same folder, flushed
    to the disk, then ``os.replace``): a failed save leaves the previous file. The file is
    sealed by a checksum of its members: it detects accidental damage (a flipped byte, a
    truncated copy), not a deliberate edit, since anyone can compute it again. So
    :meth:`load` also checks what it reads (only the known members, each one's size against
    the header before reading it; keys sorted, distinct and within the registries; counts
    whole and positive; registries without repeats; counters equal to the arrays; the label
    rules) and refuses anything else as "not a readable pdagree tally". These checks
    guarantee internal consistency only: a file that passes gives the pandas path's results
    on *some* annotations, not necessarily those that were counted.
    """

    __slots__ = ("_counts", "_ratings")

    def __init__(
        self,
        *,
        item: Hashable | None = None,
        rater: Hashable | None = None,
        label: Hashable | None = None,
        raters: Sequence[Hashable] | None = None,
        categories: Sequence[Hashable] | None = None,
        by: Hashable | Sequence[Hashable] | None = None,
        layout: str | None = None,
        check_duplicates: bool = True,
    ) -> None:
        spec = LayoutSpec.of(
            item=item, rater=rater, label=label, raters=raters, categories=categories, by=by,
            layout=layout, check_duplicates=check_duplicates,
        )  # fmt: skip
        self._counts = Counts(spec)
        self._ratings: CountRatings | None = None

    @classmethod
    def _of(cls, counts: Counts) -> Tally:
        out = cls.__new__(cls)
        out._counts = counts
        out._ratings = None
        return out

    @classmethod  # not CountRatings.from_frame, the type checkers' base (a constructor)
    def from_frame(cls, frame: Any, **arguments: Any) -> Tally:  # type: ignore[override]
        """A tally of one frame: ``Tally(**arguments).add(frame)``.

        Parameters
        ----------
        frame : DataFrame
            The first batch.
        **arguments
            The keyword arguments of :class:`Tally` (``item``, ``rater``, ``label``,
            ``raters``, ``categories``, ``by``, ``layout``, ``check_duplicates``).

        Returns
        -------
        Tally
            The new tally, holding ``frame``'s counts.
        """
        return cls(**arguments).add(frame)

    def add(self, batch: Any) -> Tally:
        """Add a batch (a pandas DataFrame read by the tally's arguments).

        The batch is checked as the pandas path checks a frame (columns, missing items and
        raters, repeated (item, rater) pairs, within the batch and against earlier ones),
        and the tally is left as it was when the batch is refused.

        Parameters
        ----------
        batch : DataFrame
            Annotations in the layout the tally's arguments describe.

        Returns
        -------
        Tally
            The tally itself, so calls chain.
        """
        trial = Counts.of_frame(batch, self._counts.spec)
        message = trial.missing_by_message()
        columns = list(trial.raters.index()) if trial.spec.layout == "wide" else []
        self._counts = self._checked(self._counts.plus(trial), "batch", batch, columns)
        self._ratings = None
        if message:
            warn(message, PdagreeWarning)
        return self

    def _checked(
        self, state: Counts, what: str, batch: Any = None, columns: Sequence[Hashable] = ()
    ) -> Counts:
        """``state``, the would-be counts with the ``what`` added, when the pandas path's
        label rules hold on it; else the rules' error, saying that the ``what`` is refused
        (and, for labels of different kinds, which of the wide ``batch``'s rater ``columns``
        hold which)."""
        before = self._counts
        if state.spec.categories is not None and len(state.labels) != len(before.labels):
            check_declared(state)  # the message counts the ratings of the labels left out
        if len(state.labels) == len(before.labels) and state.from_dtype is before.from_dtype:
            return state  # the labels are those already checked
        try:
            check_labels(state)
        except (TypeError, ValueError) as exc:
            hint = ""
            if columns and isinstance(exc, TypeError):
                cause = mixed_kinds_hint(pd.DataFrame(batch[list(columns)]))
                hint = f" {cause[0].upper()}{cause[1:]}" if cause else ""
            refused = f"the {what} is refused and the tally left as it was: "
            raise type(exc)(f"{refused}{exc}{hint}") from None
        return state

    def __add__(self, other: object) -> Tally:
        if not isinstance(other, Tally):
            return NotImplemented
        return Tally._of(self._checked(self._counts.plus(other._counts), "tally added"))

    # ----------------------------------------------------------------------- reading

    @property
    def ratings(self) -> CountRatings:
        """The counts as :class:`~pdagree.count_ratings.CountRatings` (what the methods run
        on), built once per state."""
        if self._ratings is None:
            self._ratings = CountRatings(count_data(self._counts))
        return self._ratings

    @property
    def arguments(self) -> dict[str, Any]:
        """The keyword arguments the tally was made with."""
        return self._counts.spec.arguments()

    @property
    def n_batches(self) -> int:
        return self._counts.n_batches

    @property
    def n_annotations(self) -> int:
        return self._counts.n_annotations

    def __repr__(self) -> str:
        return f"Tally({self._counts.describe()})"

    def _repr_html_(self) -> str:
        """What the tally holds, as a table (notebooks)."""
        counts = self._counts
        arguments = {k: v for k, v in self.arguments.items() if v is not None}
        rows = {
            "arguments": ", ".join(f"{k}={v!r}" for k, v in arguments.items()),
            "items": f"{len(counts.items):,}",
            "raters": f"{len(counts.raters):,}",
            "labels": f"{len(counts.labels):,}",
            "annotations": f"{counts.n_annotations:,}",
            "batches": f"{counts.n_batches:,}",
        }
        if counts.spec.by:
            rows["groups"] = f"{len(counts.groups):,}"
        return html_table("Tally", rows)

    # ----------------------------------------------------------------------- files

    def save(self, path: str | os.PathLike[str], *, compress: bool = False) -> None:
        """Write the tally to ``path`` (a ``.npz`` file: arrays and a JSON header, no pickle;
        format version 1, see :mod:`pdagree.counting._store`).

        Parameters
        ----------
        path : str or os.PathLike
            The file, replaced in one step if it exists.
        compress : bool, default False
            Deflate the arrays (``np.savez_compressed``): a file several times smaller,
            written about ten times slower.
        """
        write_counts(self._counts, path, compress)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Tally:
        """The tally :meth:`save` wrote to ``path``.

        Parameters
        ----------
        path : str or os.PathLike
            A file written by :meth:`save`.

        Returns
        -------
        Tally
            The tally, ready for more batches.

        Raises
        ------
        ValueError
            A file of another format version, or a damaged one (the message says which).
        """
        return cls._of(read_counts(path))
