"""Verdicts for whole Arrow columns, for engines (Spark's ``mapInArrow``, DuckDB, polars).

Each row carries its robots.txt body (``robots``: a binary or string array, as a joined row
does), its URL (``urls``: a string array) and its agent (``agents``: a string array, or one
``str`` for every row). Any Arrow producer is taken through the PyCapsule interface (pyarrow,
polars, DuckDB, arro3, nanoarrow), every layout (binary/string, large, view), a single-chunk
column without a copy. Each distinct body is parsed once per call, and the GIL is released while
the batch runs. A null in any input row gives a null output row; columns of different lengths are
a ``ValueError``.

The result implements ``__arrow_c_array__``: ``pyarrow.array(result)`` and
``polars.Series(result)`` take it without a copy.
"""

from ._core import arrow_ai_use as ai_use
from ._core import arrow_allowed as allowed
from ._core import arrow_verdicts as verdicts

__all__ = ["allowed", "verdicts", "ai_use"]
