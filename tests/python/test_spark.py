"""robots_eval.spark in a real local Spark session (local[2], two partitions at least): every
answer equal to the in-process API's, row for row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pyspark.sql import functions as F
from pyspark.sql import types as T

import robots_eval
from robots_eval.spark import with_ai_use, with_verdicts

DATA = Path(__file__).resolve().parents[1] / "data"


def answers(ai_use) -> tuple[str, str, str]:
    """The in-process AI-use answer per purpose: train-ai, ai-use, search."""
    return (ai_use.train_ai.answer, ai_use.ai_use.answer, ai_use.search.answer)


def case_rows() -> list[tuple[bytes, str, str]]:
    """(body, url, agent) of every case of google/robotstxt's vectors, the seeds and our dialect
    and peer-kind suites, plus non-UTF-8 bodies: a few hundred real-looking questions."""
    rows = []
    for name, key in (
        ("google-robotstxt.json", "vectors"),
        ("dialects.json", "cases"),
        ("peer-kinds.json", "cases"),
        ("seeds.json", "cases"),
    ):
        for c in json.loads((DATA / name).read_text("utf-8"))[key]:
            body = bytes.fromhex(c["robots_hex"]) if "robots_hex" in c else c["robots"].encode()
            url = bytes.fromhex(c["url_hex"]).decode("utf-8", "replace") if "url_hex" in c else c["url"]
            agent = c["agent"] if isinstance(c["agent"], str) else c["agent"][0]
            rows.append((body, url, agent))
    rows += [
        (b"User-agent: *\nDisallow: /caf\xe9\n", "http://h.test/caf%E9", "ExampleBot"),
        (b"\xff\xfeU\x00s\x00e\x00r\x00", "http://h.test/", "ExampleBot"),
        (b"User-agent: *\x00\nDisallow: /\n", "http://h.test/x", "ExampleBot"),
    ]
    return rows


SCHEMA = T.StructType(
    [
        T.StructField("id", T.IntegerType()),
        T.StructField("robots", T.BinaryType()),
        T.StructField("url", T.StringType()),
        T.StructField("agent", T.StringType()),
    ]
)


@pytest.fixture(scope="module")
def frame(spark):
    rows = [(i, bytearray(b), u, a) for i, (b, u, a) in enumerate(case_rows())]
    n = len(rows)
    # Nulls in each input column.
    rows += [(n, None, "http://h.test/", "a"), (n + 1, bytearray(b""), None, "a"), (n + 2, bytearray(b""), "http://h.test/", None)]
    df = spark.createDataFrame(rows, SCHEMA).repartition(3, "id").cache()
    assert df.rdd.getNumPartitions() >= 2
    return df


def expected(body, url, agent, dialect="rfc9309"):
    if body is None or url is None or agent is None:
        return (None, None, None)
    ex = robots_eval.Robots.parse(bytes(body), dialect=dialect).explain(url, agent)
    return (ex.allowed, ex.reason, ex.line)


@pytest.mark.parametrize("dialect", ["rfc9309", "google"])
def test_verdicts_equal_the_in_process_api(frame, dialect) -> None:
    out = with_verdicts(frame, dialect=dialect)
    assert out.columns == ["id", "robots", "url", "agent", "allowed", "reason", "line"]
    got = out.withColumn("partition", F.spark_partition_id()).collect()
    assert len({r.partition for r in got}) >= 2  # the work was split
    assert len(got) == frame.count()
    for r in got:
        assert (r.allowed, r.reason, r.line) == expected(r.robots, r.url, r.agent, dialect), r.id
    assert {r.allowed for r in got} == {True, False, None}


def test_string_bodies_and_one_agent(spark) -> None:
    rows = [(i, b.decode("utf-8", "replace"), u) for i, (b, u, _) in enumerate(case_rows())]
    text = spark.createDataFrame(rows + [(len(rows), None, "http://h.test/")], "id int, robots string, url string")
    out = with_verdicts(text.repartition(2, "id"), agent=F.lit("Googlebot")).collect()
    assert len(out) == len(rows) + 1
    for r in out:
        want = expected(r.robots.encode() if r.robots is not None else None, r.url, "Googlebot")
        assert (r.allowed, r.reason, r.line) == want, r.id
    # The agent expression's own column is not in the output.
    assert "__robots_eval_agent" not in out[0].asDict()


def test_ai_use_equals_the_in_process_api(frame) -> None:
    out = with_ai_use(frame.limit(60), agent=F.lit("GPTBot")).collect()
    for r in out:
        if r.robots is None or r.url is None:
            assert (r.train_ai, r.ai_use, r.search) == (None, None, None)
            continue
        want = robots_eval.Robots.parse(bytes(r.robots)).ai_use(r.url, "GPTBot")
        assert (r.train_ai, r.ai_use, r.search) == answers(want), r.id


def test_bad_arguments(frame) -> None:
    with pytest.raises(ValueError, match="no such column"):
        with_verdicts(frame, url="nope")
    with pytest.raises(TypeError, match="url column 'id' is int"):
        with_verdicts(frame, url="id")
    with pytest.raises(ValueError, match="rfc9309"):
        with_verdicts(frame, dialect="nonsense")
    with pytest.raises(ValueError, match="already has"):
        with_verdicts(with_verdicts(frame))
