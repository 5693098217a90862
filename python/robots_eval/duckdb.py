"""DuckDB: the batch functions of :mod:`robots_eval.arrow` as SQL functions.

    import duckdb, robots_eval.duckdb
    con = duckdb.connect()
    robots_eval.duckdb.register(con)
    con.sql("SELECT robots_allowed(body, url, 'GPTBot') FROM pages")

Each function is an Arrow UDF (``create_function(..., type="arrow")``): DuckDB hands it a whole
vector of rows, which goes to the core in one call that parses each distinct body once.

- ``robots_allowed(robots, url, agent) -> BOOLEAN``
- ``robots_verdict(robots, url, agent) -> STRUCT(allowed BOOLEAN, reason VARCHAR, line UINTEGER,
  pattern VARCHAR)``
- ``robots_ai_use(robots, url, agent) -> STRUCT("train-ai" VARCHAR, "ai-use" VARCHAR,
  search VARCHAR)``, each "allow", "deny" or "unknown"

``robots`` is the robots.txt body, VARCHAR or BLOB (a BLOB is read as bytes, so a body that is
not UTF-8 keeps its bytes); ``url`` and ``agent`` are VARCHAR. A NULL argument gives NULL.
"""

from __future__ import annotations

from typing import Any, Callable

import robots_eval
from robots_eval import arrow as _arrow

#: The SQL names :func:`register` creates, without the prefix.
FUNCTIONS = ("allowed", "verdict", "ai_use")


def register(con: Any, *, dialect: str = "rfc9309", prefix: str = "robots_") -> list[str]:
    """Create ``{prefix}allowed``, ``{prefix}verdict`` and ``{prefix}ai_use`` in the DuckDB
    connection ``con``, answering in ``dialect``; return the names created.

    To have several dialects in one connection, register each under its own prefix
    (``register(con, dialect="google", prefix="google_")``). Raises ValueError for an unknown
    dialect (before anything is created).
    """
    import duckdb
    import duckdb.sqltypes as t

    # Unknown dialects are refused by the core, before anything is registered.
    robots_eval.Robots.parse("", dialect=dialect)

    # VARCHAR and BLOB bodies under one name: DuckDB casts either member type implicitly to
    # the union (and has no overloading of Python functions).
    body = duckdb.union_type({"text": t.VARCHAR, "bytes": t.BLOB})
    params = [body, t.VARCHAR, t.VARCHAR]
    returns = {
        "allowed": t.BOOLEAN,
        "verdict": duckdb.struct_type(
            {"allowed": t.BOOLEAN, "reason": t.VARCHAR, "line": t.UINTEGER, "pattern": t.VARCHAR}
        ),
        "ai_use": duckdb.struct_type(
            {"train-ai": t.VARCHAR, "ai-use": t.VARCHAR, "search": t.VARCHAR}
        ),
    }
    batch = {"allowed": _arrow.allowed, "verdict": _arrow.verdicts, "ai_use": _arrow.ai_use}
    names = []
    for fn in FUNCTIONS:
        name = prefix + fn
        con.create_function(
            name,
            _udf(batch[fn], dialect),
            params,
            returns[fn],
            type="arrow",
            # NULLs reach the core, which answers NULL for such a row.
            null_handling="special",
            side_effects=False,
        )
        names.append(name)
    return names


def _udf(batch: Callable[..., Any], dialect: str) -> Callable[..., Any]:
    def udf(robots: Any, urls: Any, agents: Any) -> Any:
        import pyarrow as pa

        return pa.array(
            batch(_bodies(robots), _one(urls), _one(agents), dialect=dialect)
        )

    return udf


def _one(column: Any) -> Any:
    """DuckDB passes chunked arrays; the core takes one array per argument."""
    return column.combine_chunks() if hasattr(column, "combine_chunks") else column


def _bodies(column: Any) -> Any:
    """The union of VARCHAR and BLOB as one binary array (a string's bytes are its UTF-8)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    column = _one(column)
    if not pa.types.is_union(column.type):
        return column
    # DuckDB sends a sparse union: every child has every row; type_codes says which is meant.
    codes = {f.name: column.type.type_codes[i] for i, f in enumerate(column.type)}
    text = column.field(list(codes).index("text")).cast(pa.binary())
    raw = column.field(list(codes).index("bytes"))
    return pc.if_else(pc.equal(column.type_codes, codes["text"]), text, raw)
