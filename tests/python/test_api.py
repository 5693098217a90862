"""The Python API of the contract (python/README.md): answers, result objects, argument errors,
bad input, and one Robots shared by threads."""

from __future__ import annotations

import gc
import sys
import threading

import pytest

import robots_eval
from robots_eval import (
    DEFAULT_MAX_BYTES,
    DIALECTS,
    DecisionTable,
    Diagnostic,
    Explanation,
    Group,
    Record,
    RequestRate,
    Robots,
    Rule,
)

TEXT = "User-agent: FooBot\nCrawl-delay: 3\nDisallow: /a\n\nUser-agent: BarBot\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\nSitemap: https://example.com/s.xml\n"


def test_module_constants() -> None:
    assert DIALECTS == ("rfc9309", "google", "draft1996", "original1994", "revisited")
    assert DEFAULT_MAX_BYTES == 512000
    assert isinstance(robots_eval.__version__, str) and robots_eval.__version__


def test_parse_and_ask() -> None:
    robots = Robots.parse(TEXT)
    assert robots.dialect == "rfc9309"
    assert not robots.truncated
    assert robots.is_allowed("https://example.com/x", "FooBot")
    assert not robots.is_allowed("https://example.com/a/x", "FooBot")
    assert not robots.is_allowed("/c", "OtherBot")
    assert robots.crawl_delay("FooBot") == 3.0
    assert robots.crawl_delay("OtherBot") is None
    assert robots.sitemaps == ["https://example.com/s.xml"]
    assert robots.host is None
    assert robots.is_explicitly_disallowed("/a", "FooBot")
    assert not robots.is_explicitly_disallowed("/c", "OtherBot")  # the * group's, not its own
    assert "rfc9309" in repr(robots)


def test_bytes_and_every_buffer_type_parse_alike() -> None:
    raw = TEXT.encode()
    for body in (raw, bytearray(raw), memoryview(raw), TEXT):
        robots = Robots.parse(body)
        assert not robots.is_allowed("/b", "BarBot"), type(body)
    # A memoryview of a slice, not contiguous from its base.
    assert not Robots.parse(memoryview(b"xx" + raw)[2:]).is_allowed("/b", "BarBot")


def test_explain_and_its_shape() -> None:
    robots = Robots.parse(TEXT)
    e = robots.explain("/b", ["QuxBot", "BarBot", "FooBot"])
    why = "“BarBot” equals the group's product token, ignoring case (RFC 9309 §2.2.1)."
    decides = (
        "It decides because the most specific rule (the longest matching path) wins; on a tie, "
        "Allow wins (RFC 9309 §2.2.2)."
    )
    group = Group((5,), ("BarBot",), (6,), "token", "BarBot", why)
    assert e == Explanation(False, "rule", 6, Rule(6, "disallow", "/b"), group, "/b", "a rule decides", decides)
    assert e.to_dict() == {
        "allowed": False,
        "reason": "rule",
        "line": 6,
        "rule": {"line": 6, "kind": "disallow", "pattern": "/b"},
        "group": {"lines": [5], "agents": ["BarBot"], "ends": [6], "by": "token", "token": "BarBot", "why": why},
        "path": "/b",
        "because": "a rule decides",
        "why": decides,
    }
    none = Robots.parse("").explain("/x", "a")
    assert none.to_dict() == {
        "allowed": True,
        "reason": "no-group",
        "line": 0,
        "rule": None,
        "group": None,
        "path": "/x",
        "because": "no group applies",
        "why": "No group names “a” and there is no User-agent: * group, so nothing in this file restricts it: "
        "every URL is allowed.",
    }
    # The span of a group runs to its last line; a Sitemap line is the file's, not the group's.
    star = robots.explain("/c", "Other").group
    assert star is not None and (star.lines, star.ends, star.by, star.token) == ((8,), (9,), "global", "*")
    assert "Explanation(" in repr(e)
    with pytest.raises(AttributeError):
        e.allowed = True  # type: ignore[misc]


def test_table() -> None:
    robots = Robots.parse(TEXT)
    t = robots.table(["/a", "/b"], ["FooBot", ["BarBot", "FooBot"], ["QuxBot"]])
    assert isinstance(t, DecisionTable)
    assert t.allowed == ((False, True, True), (True, False, True))
    assert t.reasons == (("rule", "no-match", "no-match"), ("no-match", "rule", "no-match"))
    assert t.lines == ((3, 0, 0), (0, 6, 0))
    assert t.to_dict()["agents"] == ["FooBot", ["BarBot", "FooBot"], ["QuxBot"]]
    assert robots.table([], ["a"]).allowed == ()


def test_records_diagnostics_request_rate() -> None:
    robots = Robots.parse("Host: example.com\nUser-agent: a\nRequest-rate: 3/1m\nX-Note: hi # comment\nDisalow: /x\n")
    assert robots.records[:3] == [
        Record("Host", "example.com", 1, None),
        Record("Request-rate", "3/1m", 3, ("a",)),
        Record("X-Note", "hi", 4, ("a",)),
    ]
    assert robots.host == "example.com"
    assert robots.request_rate("a") == RequestRate(3, 60.0)
    assert robots.request_rate("b") is None
    d = robots.diagnostics
    assert d and all(isinstance(x, Diagnostic) for x in d)
    assert any(x.line == 5 for x in d), d


def test_dialects() -> None:
    text = "User-agent: *\nAllow: /a\nDisallow: /\n"
    assert Robots.parse(text).is_allowed("/a", "x")
    old = Robots.parse(text, dialect="ORIGINAL1994")
    assert old.dialect == "original1994"
    assert not old.is_allowed("/a", "x")  # the 1994 standard has no Allow
    for d in DIALECTS:
        assert Robots.parse(text, dialect=d).dialect == d


def test_size_cap() -> None:
    body = b"User-agent: *\n" + b"#" * 600_000 + b"\nDisallow: /\n"
    robots = Robots.parse(body)
    assert robots.truncated and robots.is_allowed("/x", "a")
    whole = Robots.parse(body, max_bytes=1 << 20)
    assert not whole.truncated and not whole.is_allowed("/x", "a")
    assert Robots.parse(b"User-agent: *\nDisallow: /\n", max_bytes=0).truncated
    # A huge int is no cap, not an overflow.
    assert not Robots.parse(body, max_bytes=10**30).truncated
    # bytearray and str are cut before the copy, with the same answers.
    assert Robots.parse(bytearray(body)).truncated
    assert Robots.parse(body.decode()).truncated


def test_non_utf8_and_nul_bodies() -> None:
    robots = Robots.parse(b"User-agent: *\nDisallow: /\xff\xfe\n\x00\x00Disallow: /b\n")
    assert robots.is_allowed("/a", "x")
    assert not robots.is_allowed("/b", "x") or robots.is_allowed("/b", "x")  # answered, no crash
    assert Robots.parse(b"\x00" * 10_000).is_allowed("/", "x")
    assert Robots.parse("\ufeffUser-agent: *\nDisallow: /\n").is_allowed("/", "x") is False


def test_url_option_refuses_other_sites() -> None:
    robots = Robots.parse("User-agent: *\nDisallow: /p\n", url="https://example.com/robots.txt")
    assert not robots.is_allowed("https://example.com/p", "a")
    assert not robots.is_allowed("/p", "a")
    assert not robots.is_allowed("HTTPS://EXAMPLE.com:443/p", "a")  # the same origin, written otherwise
    assert robots.is_allowed("//example.com/q", "a")
    for other in ("https://other.example/p", "http://example.com/p", "https://example.com:8443/p", "//other.example/p"):
        with pytest.raises(ValueError, match="is not on https://example.com"):
            robots.is_allowed(other, "a")
        with pytest.raises(ValueError):
            robots.explain(other, "a")
    with pytest.raises(ValueError, match=r"urls\[1\]"):
        robots.table(["/p", "https://other.example/"], ["a"])
    with pytest.raises(ValueError, match="absolute http: or https: URL"):
        Robots.parse("", url="ftp://example.com/")
    with pytest.raises(ValueError, match="absolute http: or https: URL"):
        Robots.parse("", url="/robots.txt")


def test_wrong_types_are_type_errors_naming_the_call() -> None:
    robots = Robots.parse(TEXT)
    for bad in (42, None, [], ["a", 7], b"a", {"a": 1}):
        for call, f in (
            ("is_allowed", lambda a: robots.is_allowed("/a", a)),
            ("explain", lambda a: robots.explain("/a", a)),
            ("crawl_delay", lambda a: robots.crawl_delay(a)),
            ("request_rate", lambda a: robots.request_rate(a)),
            ("is_explicitly_disallowed", lambda a: robots.is_explicitly_disallowed("/a", a)),
        ):
            with pytest.raises(TypeError, match=call):
                f(bad)
    for bad_url in (42, None, b"/a", ["/a"]):
        with pytest.raises(TypeError, match="url must be a str"):
            robots.is_allowed(bad_url, "a")  # type: ignore[arg-type]
    for bad_body in (42, None, ["x"], object()):
        with pytest.raises(TypeError, match="body must be bytes, bytearray, memoryview or str"):
            Robots.parse(bad_body)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Robots.parse("", dialect=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_bytes must be an int"):
        Robots.parse("", max_bytes="5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_bytes must be an int"):
        Robots.parse("", max_bytes=True)
    with pytest.raises(TypeError):
        robots.table("/a", ["a"])
    with pytest.raises(TypeError):
        robots.table(["/a"], [["FooBot", 1]])
    with pytest.raises(TypeError):
        robots.table(["/a"], [[]])
    with pytest.raises(TypeError):
        Robots()  # type: ignore[call-arg]


def test_bad_values_are_value_errors() -> None:
    with pytest.raises(ValueError, match='unknown dialect "rfc9310"; the dialects are rfc9309, google, draft1996, original1994, revisited'):
        Robots.parse("", dialect="rfc9310")
    with pytest.raises(ValueError, match="max_bytes must not be negative"):
        Robots.parse("", max_bytes=-1)
    with pytest.raises(ValueError, match="lone surrogate"):
        Robots.parse("User-agent: \ud800\n")
    robots = Robots.parse(TEXT)
    with pytest.raises(ValueError, match="lone surrogate"):
        robots.is_allowed("/\udc00", "a")
    with pytest.raises(ValueError, match="unknown purpose"):
        robots.ai_use("/a", "GPTBot", purposes=["training"])
    with pytest.raises(ValueError):
        robots.ai_use("/a", "GPTBot", robots_status=70000)


def test_ai_preferences_and_ai_use() -> None:
    robots = Robots.parse("User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n")
    p = robots.ai_preferences("https://example.com/x", "AnyBot")
    assert p.content_usage["train-ai"] == "n"
    assert p.to_dict()["contentUsage"]["train-ai"] == "n"
    with pytest.raises(TypeError):
        p.content_usage["train-ai"] = "y"  # type: ignore[index]
    h = robots.ai_preferences("/x", "AnyBot", header="search=y")
    assert h.header_usage is not None and h.header_usage["search"] == "y"
    a = robots.ai_use("/x", "GPTBot", headers={"X-Robots-Tag": ["otherbot: noindex", "GPTBot: noai"]})
    assert a.train_ai.answer == "deny"
    assert all(e in a.trace for e in a.train_ai.by)
    assert a.to_dict()["train-ai"]["answer"] == "deny"
    for status, answer in ((503, "deny"), (404, "unknown")):
        got = robots.ai_use("/a", "GPTBot", robots_status=status)
        assert got.train_ai.answer == answer, status
        assert f"HTTP {status}" in got.trace[0]["raw"]
    for bad in ({"html": 5}, {"tdmrep": 0}, {"headers": "Content-Usage: x"}, {"headers": [("a",)]}, {"purposes": 5}, {"policy_tokens": 5}):
        with pytest.raises(TypeError):
            robots.ai_use("/a", "GPTBot", **bad)  # type: ignore[arg-type]
    # Malformed content is a trace entry, never an exception.
    for options in ({"tdmrep": "{{"}, {"tdmrep": b"\xff\xfe\x00"}, {"tdmrep": "[" * 100_000}, {"html": b"<" * (600 * 1024)}):
        got = robots.ai_use("/a", "GPTBot", **options)  # type: ignore[arg-type]
        assert got.train_ai.answer in ("allow", "deny", "unknown") and got.trace


def test_parse_content_usage() -> None:
    assert robots_eval.parse_content_usage("train-ai=n, search=y") == {"train-ai": "n", "ai-use": None, "search": "y"}


def test_threads_share_one_robots() -> None:
    """One parsed file answers from many threads at once (its rule sets compiled by whichever
    thread asks first), the same answers as one thread."""
    lines = ["User-agent: *"] + [f"Disallow: /d{i}/*x$" for i in range(300)] + ["User-agent: a", "Allow: /d1"]
    robots = Robots.parse("\n".join(lines))
    urls = [f"/d{i}/yx" for i in range(300)] + [f"/d{i}/y" for i in range(300)]
    want = [robots.is_allowed(u, "zz") for u in urls]
    fresh = Robots.parse("\n".join(lines))
    results: list[list[bool]] = []
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def work() -> None:
        try:
            start.wait()
            results.append([fresh.is_allowed(u, "zz") for u in urls])
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == [want] * 8


def test_objects_are_freed() -> None:
    """A Robots goes with its last reference (no registry to leak into)."""
    import weakref

    robots = Robots.parse(TEXT)
    try:
        ref = weakref.ref(robots)
    except TypeError:
        pytest.skip("Robots takes no weak references")
    del robots
    gc.collect()
    assert ref() is None


def test_refcounts_do_not_grow() -> None:
    robots = Robots.parse(TEXT)
    url, agent = "/a", "FooBot"
    before = (sys.getrefcount(url), sys.getrefcount(agent), sys.getrefcount(robots))
    for _ in range(1000):
        robots.is_allowed(url, agent)
        robots.explain(url, agent)
    assert (sys.getrefcount(url), sys.getrefcount(agent), sys.getrefcount(robots)) == before


def test_a_foreign_object_as_self_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        Robots.is_allowed(object(), "/", "a")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Robots.explain("not a Robots", "/", "a")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(Robots.parse(TEXT))


def test_fetch_policy_operators_and_for_policy() -> None:
    """The core's fetch policy and AI operator table, converted (B2's audit needs them)."""
    assert robots_eval.fetch_policy(200).policy == "parse"
    assert robots_eval.fetch_policy(404).policy == "allow-all"
    assert robots_eval.fetch_policy(503).policy == "disallow-all"
    assert robots_eval.fetch_policy(None).policy == "disallow-all"
    assert robots_eval.fetch_policy(301).policy == "follow-redirect"
    assert robots_eval.fetch_policy(301, redirects=robots_eval.redirect_limit()).policy != "follow-redirect"
    assert robots_eval.redirect_limit("draft1996") == 20
    d = robots_eval.fetch_policy(503, dialect="google")
    assert d.reason and d.message and d.source and d.dialect == "google"
    assert not d.robots().is_allowed("/x", "a")
    assert robots_eval.fetch_policy(404).robots().is_allowed("/x", "a")
    assert robots_eval.fetch_policy(404).rules == b""
    assert d.rules is not None and not Robots.parse(d.rules).is_allowed("/x", "a")
    assert robots_eval.fetch_policy(200).rules is None
    with pytest.raises(ValueError, match="parse that with Robots.parse"):
        robots_eval.fetch_policy(200).robots()
    with pytest.raises(ValueError, match="unknown policy"):
        Robots.for_policy("nope")
    with pytest.raises(TypeError):
        robots_eval.fetch_policy("200")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        robots_eval.fetch_policy(70000)
    with pytest.raises(ValueError):
        robots_eval.fetch_policy(200, redirects=-1)
    # No response, and why: the core's outcomes (RFC 9309 §2.3.1.4: unreachable means complete
    # disallow; §2.3.1.2: a chain past the limit counts as unavailable).
    assert robots_eval.fetch_policy(None, failure="network-error") == robots_eval.fetch_policy(None)
    assert robots_eval.fetch_policy(None, failure="timeout").policy == "disallow-all"
    past = robots_eval.fetch_policy(None, failure="too-many-redirects")
    assert past == robots_eval.fetch_policy(301, redirects=robots_eval.redirect_limit())
    assert past.policy == "allow-all"
    with pytest.raises(ValueError, match="not both"):
        robots_eval.fetch_policy(503, failure="timeout")
    with pytest.raises(ValueError, match="the failures are network-error, timeout, too-many-redirects"):
        robots_eval.fetch_policy(None, failure="dns")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        robots_eval.fetch_policy(None, failure=1)  # type: ignore[arg-type]
    ops = robots_eval.operators()
    gpt = next(o for o in ops if o.token == "GPTBot")
    assert gpt.kind == "crawler" and "train-ai" in gpt.purposes and gpt.operator == "OpenAI"
    assert {o.kind for o in ops} <= {"crawler", "control-token", "user-fetcher", "link-previews"}
    assert any(o.kind == "control-token" and o.fetched_by for o in ops)
