"""examples/common-crawl: the audit job over WARC files written here with warcio (real-looking
robots.txt captures: redirects, 404, 5xx, non-UTF-8 and gzip-encoded bodies), read from disk
and over HTTP from 127.0.0.1, run in the local Spark session; the Parquet table is checked
against the in-process API and against what RFC 9309 says."""

from __future__ import annotations

import gzip
import io
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import robots_eval

from loopback_server import Site

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "common-crawl"
sys.path.insert(0, str(EXAMPLE))
from robotstxt_audit import RobotsTxtAuditJob  # noqa: E402

REASONS = {200: "OK", 301: "Moved Permanently", 302: "Found", 404: "Not Found", 503: "Service Unavailable"}


def answers(ai_use) -> tuple[str, str, str]:
    """The in-process AI-use answer per purpose: train-ai, ai-use, search."""
    return (ai_use.train_ai.answer, ai_use.ai_use.answer, ai_use.search.answer)


def capture(w: WARCWriter, url: str, status: int, body: bytes, date: str, headers=()) -> None:
    """A request and its response record, as Common Crawl's robotstxt WARC files hold them."""
    req = StatusAndHeaders(
        "GET /" + url.split("/", 3)[3] + " HTTP/1.1",
        [("Host", url.split("/")[2]), ("User-Agent", "CCBot/2.0 (https://commoncrawl.org/faq/)")],
        is_http_request=True,
    )
    w.write_record(
        w.create_warc_record(url, "request", http_headers=req, warc_headers_dict={"WARC-Date": date})
    )
    http = StatusAndHeaders(
        f"{status} {REASONS[status]}",
        [("Content-Type", "text/plain"), *headers, ("Content-Length", str(len(body)))],
        protocol="HTTP/1.1",
    )
    w.write_record(
        w.create_warc_record(
            url,
            "response",
            payload=io.BytesIO(body),
            http_headers=http,
            warc_headers_dict={"WARC-Date": date},
        )
    )


LATIN1 = b"# Caf\xe9 de la Gare\nUser-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nDisallow: /r\xe9serv\xe9/\n"


def write_warcs(tmp: Path) -> list[Path]:
    one, two = tmp / "robotstxt-00000.warc.gz", tmp / "robotstxt-00001.warc.gz"
    with open(one, "wb") as f:
        w = WARCWriter(f, gzip=True)
        w.write_record(w.create_warcinfo_record(one.name, {"software": "robots-eval test"}))
        d = "2026-08-01T10:00:00Z"
        # An older capture of a.test, replaced by the later one in the other file.
        capture(w, "https://a.test/robots.txt", 200, b"User-agent: *\nDisallow: /\n", "2026-07-01T00:00:00Z")
        capture(w, "http://b.test/robots.txt", 301, b"", d, [("Location", "https://b.test/robots.txt")])
        capture(w, "http://c.test/robots.txt", 404, b"<html><title>404</title></html>", d)
        capture(w, "https://d.test/robots.txt", 503, b"<html>down for maintenance</html>", d)
        capture(w, "https://e.test/robots.txt", 200, LATIN1, d, [("Content-Type", "text/plain; charset=iso-8859-1")])
        capture(w, "http://f.test/robots.txt", 302, b"", d, [("Location", "https://elsewhere.test/robots.txt")])
        # g.test redirects six times in a row, one hop more than RFC 9309's five.
        for i in range(6):
            nxt = f"https://g.test/r{i + 1}/robots.txt"
            src = "https://g.test/robots.txt" if i == 0 else f"https://g.test/r{i}/robots.txt"
            capture(w, src, 301, b"", d, [("Location", nxt)])
        capture(w, "https://g.test/r6/robots.txt", 200, b"User-agent: *\nDisallow: /\n", d)
    with open(two, "wb") as f:
        w = WARCWriter(f, gzip=True)
        d = "2026-08-02T10:00:00Z"
        capture(w, "https://a.test/robots.txt", 200, b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n", d)
        capture(w, "https://b.test/robots.txt", 200, b"User-agent: CCBot\r\nDisallow: /\r\n", d)
        capture(
            w,
            "https://h.test/robots.txt",
            200,
            gzip.compress(b"User-agent: *\nDisallow: /\n"),
            d,
            [("Content-Encoding", "gzip")],
        )
        capture(
            w,
            "https://i.test/robots.txt",
            200,
            b"\xef\xbb\xbfUser-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n",
            d,
        )
    return [one, two]


def run_audit(spark, tmp_path: Path, inputs: list[str], base_url: str | None = None):
    # The job's modules reach the Python workers as spark-submit's --py-files would ship them.
    spark.sparkContext.addPyFile(str(EXAMPLE / "robotstxt_audit.py"))
    listing = tmp_path / "robotstxt.paths"
    listing.write_text("".join(p + "\n" for p in inputs))
    out = tmp_path / "audit.parquet"
    argv = [str(listing), str(out), "--num_input_partitions", "2", "--num_output_partitions", "1"]
    if base_url:
        argv += ["--input_base_url", base_url]
    job = RobotsTxtAuditJob()
    job.run_job(spark, job.parse_arguments(argv))
    return job, pq.read_table(out).to_pylist()


def test_audit_table(spark, tmp_path: Path) -> None:
    warcs = write_warcs(tmp_path)
    job, rows = run_audit(spark, tmp_path, [str(p) for p in warcs])
    assert job.warc_input_processed.value == 2
    assert job.warc_input_failed.value == 0

    tokens = [o.token for o in robots_eval.operators()]
    assert "GPTBot" in tokens and "CCBot" in tokens and "ClaudeBot" in tokens
    sites = {r["robots_url"] for r in rows}
    # g.test's hops are robots.txt URLs of their own too; b.test's https target likewise.
    assert {"https://a.test/robots.txt", "http://b.test/robots.txt", "https://i.test/robots.txt"} <= sites
    assert len(rows) == len(sites) * len(tokens)
    by = {(r["robots_url"], r["crawler"]): r for r in rows}

    # Against the in-process API, row for row, where the fetch policy gives the rules (the
    # sites with a file are checked against their bodies below).
    checked = 0
    for r in rows:
        if r["fetch_policy"] in ("allow-all", "disallow-all"):
            robots = robots_eval.Robots.for_policy(r["fetch_policy"])
            ex = robots.explain(r["site"] + "/", r["crawler"])
            assert (r["may_fetch_root"], r["reason"], r["line"]) == (ex.allowed, ex.reason, ex.line)
            assert (r["train_ai"], r["ai_use"], r["search"]) == answers(
                robots.ai_use(r["site"] + "/", r["crawler"])
            )
            checked += 1
        elif r["fetch_policy"] != "parse":
            assert (r["may_fetch_root"], r["reason"], r["train_ai"]) == (None, None, None)
    assert checked >= 3 * len(tokens)  # c.test, d.test, g.test

    def at(url: str, token: str) -> dict:
        return by[(url, token)]

    def same_as(url: str, body: bytes) -> None:
        robots = robots_eval.Robots.parse(body)
        for token in tokens:
            r, ex = at(url, token), robots.explain(url.rsplit("/", 1)[0] + "/", token)
            assert r["fetch_policy"] == "parse", url
            assert (r["may_fetch_root"], r["reason"], r["line"]) == (ex.allowed, ex.reason, ex.line), (url, token)

    # The latest capture wins; GPTBot is shut out, Googlebot is not.
    same_as("https://a.test/robots.txt", b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n")
    assert at("https://a.test/robots.txt", "GPTBot")["may_fetch_root"] is False
    assert at("https://a.test/robots.txt", "Googlebot")["may_fetch_root"] is True
    assert at("https://a.test/robots.txt", "GPTBot")["fetched_at"].startswith("2026-08-02")

    # A redirect is followed to the capture in the other WARC file; its rules hold for b.test.
    b = at("http://b.test/robots.txt", "CCBot")
    assert (b["redirects"], b["final_url"], b["status"]) == (1, "https://b.test/robots.txt", 200)
    assert b["may_fetch_root"] is False
    assert at("http://b.test/robots.txt", "GPTBot")["may_fetch_root"] is True

    # 404: no restrictions (RFC 9309 §2.3.1.3); 503: complete disallow (§2.3.1.4).
    for token in tokens:
        c, d = at("http://c.test/robots.txt", token), at("https://d.test/robots.txt", token)
        assert (c["fetch_policy"], c["may_fetch_root"]) == ("allow-all", True)
        assert (d["fetch_policy"], d["may_fetch_root"]) == ("disallow-all", False)

    # Latin-1 bytes are read as they are.
    same_as("https://e.test/robots.txt", LATIN1)
    assert at("https://e.test/robots.txt", "ClaudeBot")["may_fetch_root"] is False
    assert at("https://e.test/robots.txt", "GPTBot")["may_fetch_root"] is True

    # A redirect to a robots.txt the crawl did not capture: no answer, and why.
    f = at("http://f.test/robots.txt", "GPTBot")
    assert (f["fetch_policy"], f["fetch_reason"], f["may_fetch_root"]) == (
        "unknown",
        "redirect-target-not-captured",
        None,
    )

    # Six redirects: more than five is "unavailable", so allow all (§2.3.1.2, §2.3.1.3).
    g = at("https://g.test/robots.txt", "GPTBot")
    assert (g["redirects"], g["fetch_policy"], g["may_fetch_root"]) == (5, "allow-all", True)

    # gzip content encoding undone by warcio before the core reads the body.
    same_as("https://h.test/robots.txt", b"User-agent: *\nDisallow: /\n")
    assert at("https://h.test/robots.txt", "GPTBot")["may_fetch_root"] is False

    # AI use from the robots.txt, as the in-process API answers it.
    for url, body in (
        ("https://i.test/robots.txt", b"\xef\xbb\xbfUser-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n"),
        ("https://a.test/robots.txt", b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"),
    ):
        robots = robots_eval.Robots.parse(body)
        for token in tokens:
            want = robots.ai_use(url.rsplit("/", 1)[0] + "/", token)
            r = at(url, token)
            assert (r["train_ai"], r["ai_use"], r["search"]) == answers(want), (url, token)


def test_audit_reads_over_http_and_counts_unreadable_files(spark, tmp_path: Path) -> None:
    """The second WARC file over HTTP from 127.0.0.1 (relative paths + --input_base_url, as
    Common Crawl's lists are), beside one the server does not have: counted, skipped."""
    warcs = write_warcs(tmp_path)
    site = Site({"/crawl-data/" + warcs[1].name: (200, "application/octet-stream", warcs[1].read_bytes())})
    with site:
        job, rows = run_audit(
            spark,
            tmp_path,
            ["crawl-data/" + warcs[1].name, "crawl-data/missing.warc.gz"],
            base_url=site.origin + "/",
        )
    assert sorted(p for p, _ in site.log) == ["/crawl-data/missing.warc.gz", "/crawl-data/" + warcs[1].name]
    assert (job.warc_input_processed.value, job.warc_input_failed.value) == (1, 1)
    assert {r["robots_url"] for r in rows} == {
        "https://a.test/robots.txt",
        "https://b.test/robots.txt",
        "https://h.test/robots.txt",
        "https://i.test/robots.txt",
    }
    # The same answers as from the local file.
    a = [r for r in rows if r["robots_url"] == "https://a.test/robots.txt" and r["crawler"] == "GPTBot"]
    assert [r["may_fetch_root"] for r in a] == [False]


def test_unknown_dialect_is_refused() -> None:
    with pytest.raises(ValueError, match="rfc9309"):
        RobotsTxtAuditJob().parse_arguments(["in", "out", "--dialect", "nonsense"])
