"""Reading what labelling tools export, as the long frames ``df.agree`` reads.

:func:`read_label_studio` reads Label Studio's JSON export and :func:`read_prodigy` Prodigy's
JSONL (``prodigy db-out``); both return one row per answer with the columns ``item``,
``rater`` and ``label`` (and ``rank`` for several choices in one answer), plus the tool's own
ids and timestamps. Neither tool is needed: the readers follow the formats the tools document.
:func:`read_table` reads any file of ratings (CSV, TSV, Parquet, Excel or one of these
exports), checked, as the ``pdagree`` command does.

>>> import pdagree
>>> tasks = [{"id": 1, "annotations": [
...     {"completed_by": 7, "result": [{"from_name": "sentiment", "type": "choices",
...                                     "value": {"choices": ["pos"]}}]},
...     {"completed_by": 8, "result": [{"from_name": "sentiment", "type": "choices",
...                                     "value": {"choices": ["pos"]}}]}]}]
>>> frame = pdagree.io.read_label_studio(tasks)
>>> frame[["item", "rater", "label"]]
   item  rater label
0     1      7   pos
1     1      8   pos
"""

from ._label_studio import read_label_studio
from ._prodigy import read_prodigy
from ._table import FORMATS as FORMATS
from ._table import TOOLS as TOOLS
from ._table import format_of as format_of
from ._table import read_table

__all__ = ["read_label_studio", "read_prodigy", "read_table"]
