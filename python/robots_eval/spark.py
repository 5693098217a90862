"""Apache Spark: robots.txt verdicts as DataFrame columns, computed by the core in each executor.

    from robots_eval.spark import with_verdicts
    checked = with_verdicts(df, robots="body", url="url", agent="agent")

One ``mapInArrow`` over the DataFrame: every Arrow batch Spark hands the Python worker goes to
:func:`robots_eval.arrow.verdicts` as it is (no per-row Python), which parses each distinct
robots.txt body of the batch once. Works with PySpark 3.5 and 4.x (``mapInArrow`` exists in
both); executors need the ``robots-eval`` wheel installed, as any native Python package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator, Union

import robots_eval

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql import Column, DataFrame

#: The columns :func:`with_verdicts` adds, in this order.
VERDICT_COLUMNS = ("allowed", "reason", "line")
#: The columns :func:`with_ai_use` adds, one per purpose (train-ai, ai-use, search).
AI_USE_COLUMNS = ("train_ai", "ai_use", "search")

ColumnLike = Union[str, "Column"]


def with_verdicts(
    df: DataFrame,
    robots: ColumnLike = "robots",
    url: ColumnLike = "url",
    agent: ColumnLike = "agent",
    *,
    dialect: str = "rfc9309",
) -> DataFrame:
    """Return ``df`` with three more columns: ``allowed`` (boolean), ``reason`` (string, the
    core's reason code) and ``line`` (int, the deciding line of the robots.txt, 0 for none).

    ``robots``, ``url`` and ``agent`` are column names or Column expressions: ``robots`` holds
    each row's robots.txt body (binary, as a WARC payload is, or string), ``url`` the URL asked
    about, ``agent`` the crawler (a product token or a User-Agent header). To ask for one crawler
    on every row, pass ``agent=pyspark.sql.functions.lit("GPTBot")``.

    A null in any of the three gives null in all three new columns for that row.
    Raises ValueError for an unknown column or dialect, or when ``df`` already has one of the
    new columns' names; TypeError for a column of the wrong type.
    """
    import pyspark.sql.types as T

    added = [
        T.StructField("allowed", T.BooleanType(), True),
        T.StructField("reason", T.StringType(), True),
        T.StructField("line", T.IntegerType(), True),
    ]
    return _with(df, robots, url, agent, dialect, added, "verdicts")


def with_ai_use(
    df: DataFrame,
    robots: ColumnLike = "robots",
    url: ColumnLike = "url",
    agent: ColumnLike = "agent",
    *,
    dialect: str = "rfc9309",
) -> DataFrame:
    """Return ``df`` with ``train_ai``, ``ai_use`` and ``search`` columns: the core's AI-use answer
    from the robots.txt alone ("allow", "deny" or "unknown") for each purpose (train-ai, ai-use,
    search), as :func:`robots_eval.arrow.ai_use`. Arguments, nulls and errors as
    :func:`with_verdicts`."""
    import pyspark.sql.types as T

    added = [T.StructField(c, T.StringType(), True) for c in AI_USE_COLUMNS]
    return _with(df, robots, url, agent, dialect, added, "ai_use")


def _with(
    df: DataFrame,
    robots: ColumnLike,
    url: ColumnLike,
    agent: ColumnLike,
    dialect: str,
    added: list[Any],
    kind: str,
) -> DataFrame:
    import pyspark.sql.types as T

    # Unknown dialects are refused here, on the driver, by the core itself.
    robots_eval.Robots.parse("", dialect=dialect)

    names = [f.name for f in added]
    clash = [c for c in names if c in df.columns]
    if clash:
        raise ValueError(
            f"the DataFrame already has column(s) {clash}; rename them first (this adds {names})"
        )

    kept = list(df.columns)
    inputs: list[str] = []
    for role, spec in (("robots", robots), ("url", url), ("agent", agent)):
        if isinstance(spec, str):
            if spec not in kept:
                raise ValueError(f"{role}={spec!r}: no such column; the DataFrame has {kept}")
            inputs.append(spec)
        else:
            # An expression (such as lit("GPTBot")): computed into a column of its own, which
            # the output leaves out again.
            name = f"__robots_eval_{role}"
            df = df.withColumn(name, spec)
            inputs.append(name)

    fields = {f.name: f.dataType for f in df.schema.fields}
    wanted = {
        "robots": (T.BinaryType, T.StringType),
        "url": (T.StringType,),
        "agent": (T.StringType,),
    }
    for role, name in zip(("robots", "url", "agent"), inputs):
        if not isinstance(fields[name], wanted[role]):
            kinds = " or ".join(t.__name__.replace("Type", "").lower() for t in wanted[role])
            raise TypeError(
                f"{role} column {name!r} is {fields[name].simpleString()}; it must be {kinds}"
            )

    out = T.StructType([f for f in df.schema.fields if f.name in kept] + added)
    robots_col, url_col, agent_col = inputs

    def batches(it: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        return _batches(it, kept, robots_col, url_col, agent_col, dialect, kind)

    return df.mapInArrow(batches, out)


def _batches(
    batches: Iterable[Any],
    kept: list[str],
    robots_col: str,
    url_col: str,
    agent_col: str,
    dialect: str,
    kind: str,
) -> Iterator[Any]:
    """Runs in the Python worker: one call into the core per Arrow batch."""
    import pyarrow as pa

    from robots_eval import arrow as ra

    for batch in batches:
        urls = batch.column(url_col)
        call = ra.verdicts if kind == "verdicts" else ra.ai_use
        struct = pa.array(
            call(batch.column(robots_col), urls, batch.column(agent_col), dialect=dialect)
        )
        # flatten() applies the struct's own nulls (a null input row) to every field.
        by_name = dict(zip((f.name for f in struct.type), struct.flatten()))
        # Spark reads strings back as the type it sent them in (large_string when
        # spark.sql.execution.arrow.useLargeVarTypes is on): the URL column tells which.
        text = urls.type if _is_string(urls.type) else pa.string()
        if kind == "verdicts":
            added = [by_name["allowed"], by_name["reason"].cast(text), by_name["line"].cast(pa.int32())]
            names = list(VERDICT_COLUMNS)
        else:
            added = [by_name[p].cast(text) for p in ("train-ai", "ai-use", "search")]
            names = list(AI_USE_COLUMNS)
        yield pa.RecordBatch.from_arrays(
            [batch.column(c) for c in kept] + added, names=kept + names
        )


def _is_string(t: Any) -> bool:
    import pyarrow as pa

    return pa.types.is_string(t) or pa.types.is_large_string(t)
