"""A local Spark job over a million (robots.txt, URL, agent) rows, with and without the verdicts.

    nice -n 10 python bench/python/spark_bench.py [--rows 1000000] [--max-kb 16] [--runs 3]

Rows: the probe URLs of ../shared/corpus/urls.txt whose file is at most `--max-kb` KB (16: 14,917
probes over 1,121 of the 1,248 real files, 3.9 KB a row on average; the 14 files over 100 KB would
make the average 25 KB), each asked for as many product tokens of ../shared/corpus/agents.txt as it
takes to reach `--rows` (68 -> 1,014,356 rows). Each row carries its whole robots.txt body, joined
in Spark as a real job joins captures to the URLs it asks about. The same job runs through
robots_eval.spark.with_verdicts and through a mapInArrow that hands every batch back with null
verdict columns (the no-op: the same Arrow transfer both ways, no answers), alternately, `--runs`
times each after a warm-up. Each ends in an aggregation, so every row goes through the Python
worker and back. Prints rows/s of each (best run) and what the verdicts add.

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
    ap.add_argument("--rows", type=int, default=1_000_000, help="at least this many rows")
    ap.add_argument("--max-kb", type=float, default=16, help="largest body, KB (default 16)")
    ap.add_argument("--runs", type=int, default=3, help="timed runs of each job (default 3)")
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

    files = [
        f for f in sorted((SHARED / "files").iterdir()) if f.stat().st_size <= args.max_kb * 1024
    ]
    kept = {f.name for f in files}
    bodies = spark.createDataFrame(
        [(f.name, bytearray(f.read_bytes())) for f in files], "file string, robots binary"
    )
    probe_rows = [
        (p["file"], p["url"])
        for p in map(json.loads, (SHARED / "urls.txt").read_text().splitlines())
        if p["file"] in kept
    ]
    probes = spark.createDataFrame(probe_rows, "file string, url string").repartition(8)
    all_agents = (SHARED / "agents.txt").read_text().split()
    agent_list = all_agents[: -(-args.rows // len(probe_rows))]
    if len(agent_list) * len(probe_rows) < args.rows:
        sys.exit(f"spark_bench: {len(probe_rows)} probes x {len(all_agents)} agents < {args.rows}")

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

    # The two jobs alternate, so a burst of load on the machine falls on both.
    times: dict[str, list[float]] = {"noop": [], "verdicts": []}
    results = {}
    for _ in range(args.runs):
        for name, job in (("noop", noop), ("verdicts", verdicts)):
            t = time.perf_counter()
            results[name] = run(job, rows)
            times[name].append(time.perf_counter() - t)
    t_noop, r_noop = min(times["noop"]), results["noop"]
    t_verd, r_verd = min(times["verdicts"]), results["verdicts"]
    assert r_noop[0]["rows"] == r_verd[0]["rows"] == n, (r_noop, r_verd, n)
    mb = r_verd[0]["body_bytes"] / 1e6
    print(f"spark {spark.version}, pyarrow {__import__('pyarrow').__version__}, "
          f"robots-eval {robots_eval.__version__}, local[2], {args.batch} rows per Arrow batch, "
          f"bodies up to {args.max_kb:g} KB ({len(files)} files)")
    print(f"rows: {n:,} ({len(agent_list)} agents x {n // len(agent_list):,} probe URLs), "
          f"bodies carried: {mb:,.0f} MB, allowed: {r_verd[0]['allowed']:,}")
    runs = lambda ts: ", ".join(f"{t:.1f}" for t in ts)  # noqa: E731
    print(f"no-op mapInArrow : {t_noop:7.1f} s  {n / t_noop:12,.0f} rows/s  (runs: {runs(times['noop'])} s)")
    print(f"with_verdicts    : {t_verd:7.1f} s  {n / t_verd:12,.0f} rows/s  (runs: {runs(times['verdicts'])} s)")
    added = t_verd - t_noop
    print(f"verdicts add     : {added:7.1f} s  ({added / n * 1e6:.2f} us/row, "
          f"{added / t_noop * 100:+.0f}% over the no-op job; best run of each)")
    if added <= 0:
        print("                   (no more than the runs' spread: the transfer dominates)")
    spark.stop()


if __name__ == "__main__":
    main()
