"""robots_eval.duckdb: the batch functions called from SQL, answers equal to the in-process API."""

from __future__ import annotations

import duckdb
import pyarrow as pa
import pytest

import robots_eval
import robots_eval.duckdb as rd

BODIES = [
    b"User-agent: *\nDisallow: /private/\nAllow: /private/open\n",
    b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: ai-train=no, search=yes\nAllow: /\n",
    b"User-agent: *\nDisallow: /caf\xe9/\n",  # Latin-1: only a BLOB keeps these bytes
    b"GIF89a\xd3\x00\xfe\x00\xa2",
]
URLS = ["http://h.test/", "http://h.test/private/x", "http://h.test/private/open", "http://h.test/caf%E9/"]
AGENTS = ["GPTBot", "Googlebot", "ExampleBot/1.0 (+http://h.test/bot)"]


def answers(ai_use) -> tuple[str, str, str]:
    """The in-process AI-use answer per purpose: train-ai, ai-use, search."""
    return (ai_use.train_ai.answer, ai_use.ai_use.answer, ai_use.search.answer)


@pytest.fixture()
def con():
    c = duckdb.connect()
    assert rd.register(c) == ["robots_allowed", "robots_verdict", "robots_ai_use"]
    rows = [(b, u, a) for b in BODIES for u in URLS for a in AGENTS]
    rows += [(None, URLS[0], "a"), (BODIES[0], None, "a"), (BODIES[0], URLS[0], None)]
    pages = pa.table(
        {
            "body": pa.array([r[0] for r in rows], pa.binary()),
            "url": [r[1] for r in rows],
            "agent": [r[2] for r in rows],
        }
    )
    c.register("pages", pages)
    return c


def test_sql_verdicts_equal_the_in_process_api(con) -> None:
    got = con.sql(
        "SELECT body, url, agent, robots_allowed(body, url, agent) AS allowed, "
        "robots_verdict(body, url, agent) AS v FROM pages"
    ).fetchall()
    assert len(got) == len(BODIES) * len(URLS) * len(AGENTS) + 3
    for body, url, agent, allowed, v in got:
        if body is None or url is None or agent is None:
            assert allowed is None and v is None
            continue
        ex = robots_eval.Robots.parse(body).explain(url, agent)
        assert allowed is ex.allowed
        assert (v["allowed"], v["reason"], v["line"]) == (ex.allowed, ex.reason, ex.line)
        assert v["pattern"] == (ex.rule.pattern if ex.rule is not None else None)


def test_sql_text_bodies_and_ai_use(con) -> None:
    # VARCHAR bodies under the same names as BLOB ones.
    got = con.sql(
        "SELECT b, robots_ai_use(b, 'http://h.test/', 'GPTBot'), "
        "robots_allowed(b, 'http://h.test/private/x', 'Googlebot') "
        "FROM (VALUES ('User-agent: *' || chr(10) || 'Disallow: /private/'), "
        "('User-agent: GPTBot' || chr(10) || 'Disallow: /')) t(b)"
    ).fetchall()
    assert len(got) == 2
    for text, ai, ok in got:
        robots = robots_eval.Robots.parse(text)
        assert ok is robots.is_allowed("http://h.test/private/x", "Googlebot")
        want = robots.ai_use("http://h.test/", "GPTBot")
        assert ai == dict(zip(("train-ai", "ai-use", "search"), answers(want)))


def test_dialects_under_their_own_prefix() -> None:
    c = duckdb.connect()
    rd.register(c, dialect="google", prefix="google_")
    rd.register(c)
    body = "user-agent FooBot\ndisallow /\n"  # no colons: google reads them, RFC 9309 does not
    g, r = c.execute(
        "SELECT google_allowed($1, 'http://foo.bar/x', 'FooBot'), robots_allowed($1, 'http://foo.bar/x', 'FooBot')",
        [body],
    ).fetchone()
    assert (g, r) == (False, True)
    with pytest.raises(ValueError, match="rfc9309"):
        rd.register(c, dialect="nonsense", prefix="x_")
