"""Which AI crawlers may fetch each site, and what it says about AI use: an audit of Common Crawl's
robots.txt captures, in the style of Common Crawl's cc-pyspark jobs.

Input: a text file listing WARC files, one a line (Common Crawl's `robotstxt.paths.gz`: paths
relative to --input_base_url; or local paths, file://, http(s):// or s3:// URLs). One
mapPartitions reads the WARC files (warcio, streaming) and emits each robots.txt response
capture; the fetch outcome (status, redirects) is turned into the core's fetch policy; each site is
crossed with every operator token the core knows; the verdicts and AI-use answers come from the
core in Arrow batches (robots_eval.spark). Output: Parquet, one row per site and token.

    spark-submit robotstxt_audit.py [options] INPUT_LIST OUTPUT_DIR
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import urllib.request
from typing import IO, Iterator
from urllib.parse import urljoin, urlsplit

from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql import types as T
from warcio.archiveiterator import ArchiveIterator

import robots_eval
from robots_eval.spark import with_ai_use, with_verdicts

LOG = logging.getLogger("robotstxt_audit")


class RobotsTxtAuditJob:
    """cc-pyspark's shape: arguments, accumulators, one pass over the WARC files per partition,
    then DataFrame work and one Parquet write."""

    name = "RobotsTxtAudit"

    capture_schema = T.StructType(
        [
            T.StructField("robots_url", T.StringType(), False),
            T.StructField("host", T.StringType(), True),
            T.StructField("site", T.StringType(), True),
            T.StructField("fetched_at", T.StringType(), True),
            T.StructField("status", T.IntegerType(), True),
            T.StructField("location", T.StringType(), True),
            T.StructField("body", T.BinaryType(), True),
            T.StructField("warc_file", T.StringType(), True),
        ]
    )

    def parse_arguments(self, argv: list[str] | None = None) -> argparse.Namespace:
        p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
        p.add_argument("input", help="file listing the WARC files, one a line (may be .gz)")
        p.add_argument("output", help="directory to write the Parquet table to")
        p.add_argument(
            "--input_base_url",
            default=None,
            help="prefix for relative paths in the input list, e.g. s3://commoncrawl/ or "
            "https://data.commoncrawl.org/",
        )
        p.add_argument("--num_input_partitions", type=int, default=400)
        p.add_argument("--num_output_partitions", type=int, default=10)
        p.add_argument("--output_compression", default="zstd")
        p.add_argument("--dialect", default="rfc9309", help=f"one of {robots_eval.DIALECTS}")
        p.add_argument("--log_level", default="WARN")
        args = p.parse_args(argv)
        robots_eval.Robots.parse("", dialect=args.dialect)  # the core refuses unknown dialects
        return args

    def init_accumulators(self, sc) -> None:
        self.warc_input_processed = sc.accumulator(0)
        self.warc_input_failed = sc.accumulator(0)
        self.records_processed = sc.accumulator(0)
        self.robots_captures = sc.accumulator(0)

    def log_accumulators(self) -> None:
        for name in ("warc_input_processed", "warc_input_failed", "records_processed", "robots_captures"):
            LOG.warning("%s: %d", name, getattr(self, name).value)

    # ---- reading WARC files (runs on the executors) ----------------------------------------

    @contextlib.contextmanager
    def open_warc(self, uri: str, base_url: str | None) -> Iterator[IO[bytes]]:
        if base_url and "://" not in uri and not uri.startswith("/"):
            uri = base_url + uri
        scheme = urlsplit(uri).scheme
        if scheme in ("http", "https"):
            with urllib.request.urlopen(uri, timeout=120) as stream:
                yield stream
        elif scheme == "s3":
            import boto3  # only a cluster reading s3:// needs it

            parts = urlsplit(uri)
            body = boto3.client("s3").get_object(Bucket=parts.netloc, Key=parts.path.lstrip("/"))
            with contextlib.closing(body["Body"]) as stream:
                yield stream
        else:
            path = uri[len("file://") :] if scheme == "file" else uri
            with open(path, "rb") as stream:
                yield stream

    def process_warcs(self, uris: Iterator[str], base_url: str | None) -> Iterator[tuple]:
        for uri in uris:
            uri = uri.strip()
            if not uri:
                continue
            try:
                with self.open_warc(uri, base_url) as stream:
                    for record in ArchiveIterator(stream):
                        self.records_processed.add(1)
                        row = self.process_record(record, uri)
                        if row is not None:
                            self.robots_captures.add(1)
                            yield row
                self.warc_input_processed.add(1)
            except Exception as e:  # one unreadable file must not stop the job (as in cc-pyspark)
                LOG.error("failed to read %s: %s", uri, e)
                self.warc_input_failed.add(1)

    @staticmethod
    def process_record(record, warc_file: str) -> tuple | None:
        """A robots.txt response capture -> a row of `capture_schema`; anything else (requests, metadata, warcinfo) -> None."""
        if record.rec_type != "response" or record.http_headers is None:
            return None
        url = record.rec_headers.get_header("WARC-Target-URI")
        if not url:
            return None
        status = record.http_headers.get_statuscode()
        location = record.http_headers.get_header("Location")
        parts = urlsplit(url)
        return (
            url,
            parts.hostname,
            f"{parts.scheme}://{parts.netloc}",
            record.rec_headers.get_header("WARC-Date"),
            int(status) if status and status.isdigit() else None,
            urljoin(url, location.strip()) if location and location.strip() else None,
            # The payload as it was sent (warcio undoes chunking and gzip content encoding):
            # bytes, whatever the charset, for the core to read.
            record.content_stream().read(),
            warc_file,
        )

    # ---- the audit (DataFrames) -------------------------------------------------------------

    def run(self, argv: list[str] | None = None) -> None:
        args = self.parse_arguments(argv)
        logging.basicConfig(level=args.log_level)
        session = SparkSession.builder.appName(self.name).getOrCreate()
        session.sparkContext.setLogLevel(args.log_level)
        self.run_job(session, args)
        session.stop()

    def run_job(self, session: SparkSession, args: argparse.Namespace) -> None:
        sc = session.sparkContext
        self.init_accumulators(sc)
        base_url = args.input_base_url
        uris = sc.textFile(args.input, minPartitions=args.num_input_partitions)
        captures = session.createDataFrame(
            uris.mapPartitions(lambda part: self.process_warcs(part, base_url)),
            self.capture_schema,
        )
        table = self.audit(session, captures, args.dialect)
        (
            table.coalesce(args.num_output_partitions)
            .write.mode("overwrite")
            .option("compression", args.output_compression)
            .parquet(args.output)
        )
        self.log_accumulators()

    def audit(self, session: SparkSession, captures: DataFrame, dialect: str) -> DataFrame:
        # The latest capture of each robots.txt URL.
        latest = Window.partitionBy("robots_url").orderBy(F.col("fetched_at").desc())
        captures = (
            captures.withColumn("n", F.row_number().over(latest)).where("n = 1").drop("n").cache()
        )
        sites = self.follow_redirects(captures, robots_eval.redirect_limit(dialect))
        sites = self.apply_fetch_policy(session, sites, dialect).join(
            captures.select("robots_url", "host", "site"), "robots_url"
        )

        crawlers = session.createDataFrame(
            [(o.token, o.operator, o.kind) for o in robots_eval.operators()],
            "crawler string, operator string, kind string",
        )
        rows = (
            sites.crossJoin(F.broadcast(crawlers))
            .withColumn("root_url", F.concat(F.col("site"), F.lit("/")))
        )
        rows = with_verdicts(rows, robots="rules", url="root_url", agent="crawler", dialect=dialect)
        rows = with_ai_use(rows, robots="rules", url="root_url", agent="crawler", dialect=dialect)
        return rows.select(
            "host",
            "site",
            "robots_url",
            "final_url",
            "fetched_at",
            "status",
            "redirects",
            "fetch_policy",
            "fetch_reason",
            "crawler",
            "operator",
            "kind",
            F.col("allowed").alias("may_fetch_root"),
            "reason",
            "line",
            "train_ai",
            "ai_use",
            "search",
        )

    @staticmethod
    def follow_redirects(captures: DataFrame, limit: int) -> DataFrame:
        """Each robots.txt URL with the capture its redirects lead to (RFC 9309 §2.3.1.2: the
        file found is obeyed for the original authority), hop by hop through the captures of the
        crawl, at most `limit` hops. `lost`: the chain leads to a URL the crawl has no capture of."""
        sites = captures.select(
            "robots_url",
            F.col("robots_url").alias("final_url"),
            "fetched_at",
            "status",
            "location",
            F.lit(0).alias("redirects"),
            F.lit(False).alias("lost"),
        )
        # The chains are walked without the bodies; the body of where each one ends is joined
        # once, at the end.
        targets = captures.select(
            F.col("robots_url").alias("t_url"),
            F.col("status").alias("t_status"),
            F.col("location").alias("t_location"),
        )
        for _ in range(limit):
            # One left join a hop, each row of `sites` read once (a split and a union would
            # double the plan at every hop).
            hops = (
                ~F.col("lost")
                & F.col("status").between(300, 399)
                & F.col("location").isNotNull()
            )
            found = F.col("t_url").isNotNull()
            sites = sites.join(targets, hops & (F.col("location") == F.col("t_url")), "left").select(
                "robots_url",
                F.when(found, F.col("t_url")).otherwise(F.col("final_url")).alias("final_url"),
                "fetched_at",
                F.when(found, F.col("t_status")).otherwise(F.col("status")).alias("status"),
                F.when(found, F.col("t_location")).otherwise(F.col("location")).alias("location"),
                F.when(found, F.col("redirects") + 1).otherwise(F.col("redirects")).alias("redirects"),
                (F.col("lost") | (hops & ~found)).alias("lost"),
            )
        bodies = captures.select(F.col("robots_url").alias("final_url"), "body")
        return sites.join(bodies, "final_url")

    @staticmethod
    def apply_fetch_policy(session: SparkSession, sites: DataFrame, dialect: str) -> DataFrame:
        """The core's fetch policy for each site's final outcome, and the rules it leads to."""
        # What the core is asked: the final status, or None for no usable response (a status
        # line warcio could not read, or a 3xx without a Location: fetch.rs says to report those
        # as a network error); -1 marks a chain that left the crawl.
        outcome = (
            F.when(F.col("lost"), F.lit(-1))
            .when(F.col("status").between(300, 399) & F.col("location").isNull(), F.lit(None))
            .otherwise(F.col("status"))
        )
        sites = sites.withColumn("outcome", outcome)
        table = []
        for r in sites.select("outcome", "redirects").distinct().collect():
            if r.outcome == -1:
                table.append((r.outcome, r.redirects, "unknown", "redirect-target-not-captured", None))
                continue
            decision = robots_eval.fetch_policy(r.outcome, dialect=dialect, redirects=r.redirects)
            # The rules obeyed when the policy gives no file (the core's Policy::rules: none for
            # allow-all, a complete disallow for disallow-all and defer); None: obey the file.
            rules = decision.rules
            table.append(
                (
                    r.outcome,
                    r.redirects,
                    decision.policy,
                    decision.reason,
                    None if rules is None else bytearray(rules),
                )
            )
        # A handful of rows (statuses x hop counts): decided on the driver, joined by broadcast.
        policies = session.createDataFrame(
            table,
            "p_outcome int, p_redirects int, fetch_policy string, fetch_reason string, "
            "p_rules binary",
        )
        sites = sites.join(
            F.broadcast(policies),
            F.col("outcome").eqNullSafe(F.col("p_outcome"))
            & (F.col("redirects") == F.col("p_redirects")),
            "left",
        ).drop("p_outcome", "p_redirects", "outcome")
        # What the crawler obeys: the file it got, or the rules the policy gives instead (none,
        # or a complete disallow); null (no answer) when the chain left the crawl.
        rules = F.when(F.col("fetch_policy") == "parse", F.col("body")).otherwise(F.col("p_rules"))
        return sites.withColumn("rules", rules).drop("p_rules")


if __name__ == "__main__":
    RobotsTxtAuditJob().run()
