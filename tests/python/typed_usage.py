"""A small program written against the package's types: test_typing.py runs mypy --strict on it,
so a member missing from the stubs (python/robots_eval/_core.pyi) or a wrong type fails."""

from __future__ import annotations

from typing import Optional

import pyarrow as pa

import robots_eval
from robots_eval import (
    AiPreferences,
    AiUse,
    DecisionTable,
    Diagnostic,
    Explanation,
    Record,
    RequestRate,
    Robots,
    arrow,
)


def audit(body: bytes, url: str) -> list[str]:
    robots: Robots = Robots.parse(body, dialect="google", url="https://example.com/", max_bytes=robots_eval.DEFAULT_MAX_BYTES)
    allowed: bool = robots.is_allowed(url, "GPTBot") and robots.is_allowed(url, ["Googlebot-News", "Googlebot"])
    e: Explanation = robots.explain(url, "GPTBot")
    line: int = e.line
    pattern: Optional[str] = None if e.rule is None else e.rule.pattern
    agents: tuple[str, ...] = () if e.group is None else e.group.agents
    ends: tuple[int, ...] = () if e.group is None else e.group.ends
    words: str = e.why + e.because + e.path + ("" if e.group is None else e.group.why + e.group.token + e.group.by)
    t: DecisionTable = robots.table([url], ["GPTBot", ["a", "b"]])
    first: bool = t.allowed[0][0]
    delay: Optional[float] = robots.crawl_delay("GPTBot")
    rate: Optional[RequestRate] = robots.request_rate("GPTBot")
    records: list[Record] = robots.records
    diagnostics: list[Diagnostic] = robots.diagnostics
    sitemaps: list[str] = robots.sitemaps
    host: Optional[str] = robots.host
    dialect: str = robots.dialect
    truncated: bool = robots.truncated
    prefs: AiPreferences = robots.ai_preferences(url, "GPTBot", header="train-ai=n")
    use: AiUse = robots.ai_use(url, "GPTBot", headers={"X-Robots-Tag": "noai"}, html=b"<html>", tdmrep="[]", robots_status=200)
    answer: str = use.train_ai.answer
    explicit: bool = robots.is_explicitly_disallowed(url, "GPTBot")
    usage: dict[str, Optional[str]] = robots_eval.parse_content_usage("train-ai=n")
    dialects: tuple[str, ...] = robots_eval.DIALECTS
    version: str = robots_eval.__version__
    column = pa.array(arrow.allowed(pa.array([body]), pa.array([url]), "GPTBot"))
    verdicts = arrow.verdicts(pa.array([body]), pa.array([url]), pa.array(["GPTBot"]), dialect="rfc9309")
    ai = arrow.ai_use(pa.array([body]), pa.array([url]), "GPTBot")
    decision: robots_eval.FetchDecision = robots_eval.fetch_policy(503, dialect="google", redirects=0)
    fallback: Robots = decision.robots()
    rules: Optional[bytes] = decision.rules
    crawlers: list[str] = [o.token for o in robots_eval.operators() if o.kind == "crawler" and "train-ai" in o.purposes]
    limit: int = robots_eval.redirect_limit("rfc9309")
    empty: Robots = Robots.for_policy("allow-all", dialect="google")
    return [
        str(x)
        for x in (allowed, line, pattern, agents, first, delay, rate, records, diagnostics, sitemaps, host, dialect,
                  truncated, prefs.to_dict(), answer, explicit, usage, dialects, version, column, len(verdicts), len(ai),
                  e.to_dict(), t.to_dict(), decision.policy, fallback, rules, crawlers, limit, empty)
    ]
