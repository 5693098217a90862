"""A local Spark job over a million (robots.txt, URL, agent) rows, with and without the verdicts.

    nice -n 10 python bench/python/spark_bench.py [--agents 50] [--runs 1]

Rows: every probe URL of ../shared/corpus/urls.txt (20,175) for each of the first `--agents`
product tokens of ../shared/corpus/agents.txt (50 -> 1,008,750 rows), each row carrying its whole
robots.txt body (../shared/corpus/files, 25 KB on average per row), joined in Spark as a real job
joins captures to URLs. The same job runs twice: once through robots_eval.spark.with_verdicts,
once through a mapInArrow that hands every batch back with constant verdict columns (the no-op:
the same Arrow transfer both ways, no answers). Each ends in an aggregation, so every row goes
through the Python worker and back. Prints rows/s of each and what the verdicts add.

Needs a JRE (17+ for PySpark 4), pyspark, pyarrow and robots-eval installed; not run by CI.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpus"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", type=int, default=50, help="agents per probe URL (default 50)")
    ap.add_argument("--runs", type=int, default=1, help="timed runs of each job (default 1)")
    ap.add_argument("--batch", type=int, default=2000, help="Arrow rows per batch (default 2000)")
    ap.add_argument("--dialect", default="rfc9309")
    args = ap.parse_args()
    if not SHARED.is_dir():
        sys.exit(f"spark_bench: {SHARED} not found (the corpus lives in ../shared)")

    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    import robots_eval
    from robots_eval.spark import with_verdicts

    spark = (
        SparkSession.builder.master("local[2]")
        .appName("robots-eval-spark-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.memory", "4g")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", str(args.batch))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")

    files = sorted((SHARED / "files").iterdir())
    bodies = spark.createDataFrame(
        [(f.name, bytearray(f.read_bytes())) for f in files], "file string, robots binary"
    )
    probes = spark.createDataFrame(
        [
            (p["file"], p["url"])
            for p in map(json.loads, (SHARED / "urls.txt").read_text().splitlines())
        ],
        "file string, url string",
    ).repartition(8)
    agent_list = (SHARED / "agents.txt").read_text().split()[: args.agents]

    def rows_for(names: list[str]):
        agents = spark.createDataFrame([(a,) for a in names], "agent string")
        # The rows a job sees after joining captures to the URLs it asks about: each carries its
        # body.
        return probes.crossJoin(F.broadcast(agents)).join(F.broadcast(bodies), "file")

    rows = rows_for(agent_list)
    n = rows.count()

    def verdicts(rows):
        return with_verdicts(rows, dialect=args.dialect)

    def noop(rows):
        import pyarrow as pa

        out = T.StructType(
            rows.schema.fields
            + [
                T.StructField("allowed", T.BooleanType()),
                T.StructField("reason", T.StringType()),
                T.StructField("line", T.IntegerType()),
            ]
        )

        def same(batches):
            for b in batches:
                k = b.num_rows
                yield pa.RecordBatch.from_arrays(
                    list(b.columns)
                    + [
                        pa.nulls(k, pa.bool_()),
                        pa.nulls(k, pa.string()),
                        pa.nulls(k, pa.int32()),
                    ],
                    names=b.schema.names + ["allowed", "reason", "line"],
                )

        return rows.mapInArrow(same, out)

    def run(job, rows) -> list:
        return (
            job(rows)
            .agg(
                F.count("*").alias("rows"),
                F.sum(F.col("allowed").cast("int")).alias("allowed"),
                F.sum(F.length("robots")).alias("body_bytes"),
            )
            .collect()
        )

    # Warm-up (the JVM's JIT, the Python workers, the module imports): both jobs on one agent.
    for job in (noop, verdicts):
        run(job, rows_for(agent_list[:1]))

    def timed(job) -> tuple[float, list]:
        best, result = float("inf"), None
        for _ in range(args.runs):
            t = time.perf_counter()
            result = run(job, rows)
            best = min(best, time.perf_counter() - t)
        return best, result

    t_noop, r_noop = timed(noop)
    t_verd, r_verd = timed(verdicts)
    assert r_noop[0]["rows"] == r_verd[0]["rows"] == n, (r_noop, r_verd, n)
    mb = r_verd[0]["body_bytes"] / 1e6
    print(f"spark {spark.version}, pyarrow {__import__('pyarrow').__version__}, "
          f"robots-eval {robots_eval.__version__}, local[2], {args.batch} rows per Arrow batch")
    print(f"rows: {n:,} ({len(agent_list)} agents x {n // len(agent_list):,} probe URLs), "
          f"bodies carried: {mb:,.0f} MB, allowed: {r_verd[0]['allowed']:,}")
    print(f"no-op mapInArrow : {t_noop:7.1f} s  {n / t_noop:12,.0f} rows/s")
    print(f"with_verdicts    : {t_verd:7.1f} s  {n / t_verd:12,.0f} rows/s")
    added = t_verd - t_noop
    print(f"verdicts add     : {added:7.1f} s  ({added / n * 1e6:.2f} us/row, "
          f"{added / t_noop * 100:+.0f}% over the no-op job)")
    spark.stop()


if __name__ == "__main__":
    main()
