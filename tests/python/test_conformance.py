"""Every conformance suite of tests/data through the installed Python package, with the checks of
the npm package's runners (tests/js/conformance.test.mjs, records.test.mjs,
ai-preferences.test.mjs, ai-use.test.mjs) and of the Rust runners they mirror; every failure is
reported, not only the first."""

from __future__ import annotations

import json
from typing import Any, Iterator

import pytest
from conftest import DIALECTS, ai_use_case, as_text, field, load, report, robots_of

from robots_eval import Robots, parse_content_usage


def questions() -> Iterator[dict[str, Any]]:
    """Every verdict question of every suite, as tests/js/conformance.test.mjs builds them."""
    g = load("google-robotstxt.json")
    diffs = {d["name"]: d["rfc9309"] for d in load("rfc9309-differences.json")["differences"]}
    for v in g["vectors"]:
        base = {
            "name": v["name"],
            "robots": field(v, "robots"),
            "agent": as_text(field(v, "agent")),
            "url": as_text(field(v, "url")),
        }
        yield {**base, "suite": "google vectors (google)", "dialect": "google", "allowed": v["allowed"], "line": v["oracle_matching_line"]}
        yield {**base, "suite": "google vectors (rfc9309)", "dialect": "rfc9309", "allowed": diffs.get(v["name"], v["allowed"])}
    for file, suite in (("dialects.json", "dialect cases"), ("seeds.json", "seed cases"), ("peer-kinds.json", "peer kinds")):
        for c in load(file)["cases"]:
            for dialect, allowed in c["expect"].items():
                yield {
                    "suite": suite,
                    "name": f"{c['name']} [{dialect}]",
                    "robots": field(c, "robots"),
                    "dialect": dialect,
                    "agent": c["agent"],
                    "url": c["url"],
                    "allowed": allowed,
                    "line": (c.get("line") or {}).get(dialect),
                    "reason": (c.get("reason") or {}).get(dialect),
                    "sitemaps": c.get("sitemaps"),
                }


ALL = list(questions())
SUITES = sorted({q["suite"] for q in ALL})


@pytest.mark.parametrize("suite", SUITES)
def test_verdicts_lines_and_reasons(suite: str) -> None:
    failures: list[str] = []
    checked = 0
    for q in ALL:
        if q["suite"] != suite:
            continue
        checked += 1
        robots = Robots.parse(q["robots"], dialect=q["dialect"])
        e = robots.explain(q["url"], q["agent"])
        t = robots.table([q["url"]], [q["agent"]])
        cell = {"allowed": t.allowed[0][0], "line": t.lines[0][0], "reason": t.reasons[0][0]}
        for how, got in (("explain", {"allowed": e.allowed, "line": e.line, "reason": e.reason}), ("table", cell)):
            if got["allowed"] != q["allowed"]:
                failures.append(f"{q['name']}: {how}: allowed {got['allowed']}, expected {q['allowed']}")
            if q.get("line") is not None and got["line"] != q["line"]:
                failures.append(f"{q['name']}: {how}: line {got['line']}, expected {q['line']}")
            if q.get("reason") is not None and got["reason"] != q["reason"]:
                failures.append(f"{q['name']}: {how}: reason {got['reason']}, expected {q['reason']}")
        fast = robots.is_allowed(q["url"], q["agent"])
        if fast != q["allowed"]:
            failures.append(f"{q['name']}: is_allowed {fast}, expected {q['allowed']}")
        if q.get("sitemaps") is not None and robots.sitemaps != q["sitemaps"]:
            failures.append(f"{q['name']}: sitemaps {robots.sitemaps}, expected {q['sitemaps']}")
    report(failures, checked, suite)


def test_records_json() -> None:
    """tests/data/records.json in every dialect it lists (tests/js/records.test.mjs)."""
    failures: list[str] = []
    checked = 0

    def check(ok: bool, what: str) -> None:
        nonlocal checked
        checked += 1
        if not ok:
            failures.append(what)

    for c in load("records.json")["cases"]:
        for dialect in c.get("dialects") or DIALECTS:
            name = f"{c['name']} [{dialect}]"
            robots = Robots.parse(robots_of(c), dialect=dialect)
            for agent, want in c.get("crawl_delay", []):
                got = robots.crawl_delay(agent)
                check(got == want, f"{name}: crawl_delay({agent!r}) = {got}, expected {want}")
            for agent, want in c.get("request_rate", []):
                rate = robots.request_rate(agent)
                got_rate = None if rate is None else rate.to_dict()
                check(got_rate == want, f"{name}: request_rate({agent!r}) = {got_rate}, expected {want}")
            for url, agent, want in c.get("allowed", []):
                got = robots.is_allowed(url, agent)
                check(got == want, f"{name}: is_allowed({url!r}, {agent!r}) = {got}")
                e = robots.explain(url, agent)
                check(e.allowed == want, f"{name}: explain({url!r}, {agent!r}).allowed = {e.allowed}")
                cell = robots.table([url], [agent]).allowed[0][0]
                check(cell == want, f"{name}: table([{url!r}], [{agent!r}]) = {cell}")
            for url, agent, want in c.get("explicitly_disallowed", []):
                got = robots.is_explicitly_disallowed(url, agent)
                check(got == want, f"{name}: is_explicitly_disallowed({url!r}, {agent!r}) = {got}")
            if "host" in c:
                check(robots.host == c["host"], f"{name}: host = {robots.host!r}, expected {c['host']!r}")
            if "records" in c:
                got_records = [r.to_dict() for r in robots.records]
                check(got_records == c["records"], f"{name}: records = {got_records}, expected {c['records']}")
            found = [f"{d.code}@{d.line}" for d in robots.diagnostics]
            for code, line in c.get("diagnostics", []):
                check(f"{code}@{line}" in found, f"{name}: no diagnostic {code} on line {line}; found {found}")
            for code in c.get("not_diagnostics", []):
                check(not any(f.startswith(f"{code}@") for f in found), f"{name}: unexpected diagnostic {code}; found {found}")
    assert checked > 300, f"only {checked} checks ran"
    report(failures, checked, "records.json")


def ai_preferences_differences(c: dict[str, Any]) -> list[str]:
    """tests/js/ai-preferences.test.mjs's `differences`, on to_dict() (the npm shape)."""
    out: list[str] = []
    robots = Robots.parse(c["robots"], dialect=c.get("dialect", "rfc9309"))
    got = robots.ai_preferences(c["url"], c["agent"], header=c.get("header")).to_dict()
    e = c["expected"]

    def same(what: str, a: Any, b: Any) -> None:
        if json.dumps(a) != json.dumps(b):
            out.append(f"{c['name']}: {what} {json.dumps(a)}, expected {json.dumps(b)}")

    same("allowed", got["allowed"], e["allowed"])
    for name, key in (("content_usage", "contentUsage"), ("header_usage", "headerUsage"), ("combined", "combined")):
        for label, value in (e.get(name) or {}).items():
            same(f"{name} {label}", (got.get(key) or {}).get(label), value)
    for label, text in (e.get("why") or {}).items():
        same(f"why {label}", got["why"]["contentUsage"][label]["text"], text)
    for label, text in (e.get("combined_why") or {}).items():
        same(f"combined why {label}", got["why"]["combined"][label]["text"], text)
    if "content_signal" in e:
        want = e["content_signal"]
        have = got["contentSignal"]
        picked = have if have is None or want is None else {k: have.get(k) for k in want}
        same("content_signal", picked, want)
    for key, line in (e.get("signal_lines") or {}).items():
        same(f"signal line {key}", got["why"]["contentSignal"][key], line)
    for line, key, value in e.get("extras", []):
        same(f"extra {key}", [got["contentSignal"].get(key), got["why"]["contentSignal"].get(key)], [value, line])
    return out


@pytest.mark.parametrize("file", ["ai-preferences.json", "ai-preferences-project.json"])
def test_ai_preferences(file: str) -> None:
    cases = [c for c in load(file)["cases"] if c.get("robots") is not None]
    failures = [f for c in cases for f in ai_preferences_differences(c)]
    report(failures, len(cases), file)


def test_ai_preferences_header_cases() -> None:
    failures: list[str] = []
    cases = [c for c in load("ai-preferences.json")["cases"] if c.get("header") is not None]
    for c in cases:
        got = parse_content_usage(c["header"])
        for label, value in c["expected"]["content_usage"].items():
            if got.get(label) != value:
                failures.append(f"{c['name']}: {label} {got.get(label)}, expected {value}")
    report(failures, len(cases), "header cases")


# ---- AI use (tests/js/ai-use.test.mjs, tests/ai_use.rs) ----------------------------------------


def ai_use_of(c: dict[str, Any]) -> dict[str, Any]:
    """The case's answer as the npm package gives it (to_dict())."""
    body, _, kwargs = ai_use_case(c)
    robots = Robots.parse(body, dialect=c.get("dialect", "rfc9309"))
    return robots.ai_use(c["url"], c["agent"], **kwargs).to_dict()


def subset(pattern: Any, v: Any) -> bool:
    """tests/ai_use.rs's `subset`: every key of the pattern, recursively (a null matches absent)."""
    if isinstance(pattern, dict):
        if not isinstance(v, dict):
            return False
        return all(subset(pv, v[k]) if k in v else pv is None for k, pv in pattern.items())
    return json.dumps(pattern) == json.dumps(v)


def ai_use_failures(file: str, c: dict[str, Any]) -> list[str]:
    out: list[str] = []
    name = f"{file}: {c['name']}"
    got = ai_use_of(c)

    def fail(msg: str, full: bool = False) -> None:
        out.append(f"{name}: {msg}" + (f"\n{json.dumps(got, indent=1)}" if full else ""))

    for purpose, want in c["expected"].items():
        answer, by = got[purpose]["answer"], got[purpose]["by"]
        if answer != want:
            fail(f"{purpose} = {answer}, expected {want}", True)
        if (len(by) == 0) != (answer == "unknown"):
            fail(f"{purpose}: {len(by)} deciding entries for {answer}")
        if not all(e in got["trace"] for e in by):
            fail(f"{purpose}: a deciding entry that is not in the trace")
        signals = (c.get("decided_by") or {}).get(purpose)
        if signals is not None:
            have = sorted({e["signal"] for e in by})
            if have != sorted(set(signals)):
                fail(f"{purpose} decided by {have}, expected {sorted(set(signals))}", True)
    if c.get("conditions") is not None:
        have_conditions = sorted(x["condition"] for x in got["conditions"])
        if have_conditions != sorted(c["conditions"]):
            fail(f"conditions {have_conditions}, expected {sorted(c['conditions'])}", True)
    for condition, want in (c.get("condition_values") or {}).items():
        value = next((x.get("value") for x in got["conditions"] if x["condition"] == condition), None)
        if json.dumps(value) != json.dumps(want):
            fail(f"condition {condition} = {value}, expected {want}")
    if c.get("crawlable") is not None and got["crawlable"] != c["crawlable"]:
        fail(f"crawlable = {got['crawlable']}, expected {c['crawlable']}")
    for pattern in c.get("trace_has", []):
        if not any(subset(pattern, e) for e in got["trace"]):
            fail(f"no trace entry like {json.dumps(pattern)}", True)
    for signal in c.get("error_signals", []):
        if not any(e["signal"] == signal and isinstance(e.get("error"), str) for e in got["trace"]):
            fail(f"no {signal} entry with an error", True)
    for part in c.get("trace_notes", []):
        if not any(isinstance(e.get("note"), str) and part in e["note"] for e in got["trace"]):
            fail(f"no trace note with {json.dumps(part)}", True)
    for e in got["trace"]:
        if not isinstance(e.get("signal"), str) or not isinstance(e.get("where"), dict):
            fail(f"a trace entry without signal or where: {json.dumps(e)}")
    return out


@pytest.mark.parametrize("file,minimum", [("ai-use-examples.json", 53), ("ai-use-project.json", 90)])
def test_ai_use(file: str, minimum: int) -> None:
    cases = load(file)["cases"]
    assert len(cases) >= minimum, f"{file}: {len(cases)} cases"
    failures = [f for c in cases for f in ai_use_failures(file, c)]
    report(failures, len(cases), file)


def test_ai_use_shape() -> None:
    """The answer in full is the Rust serialisation (ai-use-shape.json), with `by` as the deciding
    entries themselves (tests/js/ai-use.test.mjs)."""
    robots = Robots.parse(
        "User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /private/\n"
    )
    tdmrep = '[{"location": "/", "tdm-reservation": 1, "tdm-policy": "https://example.com/policy.json"}]'
    got = robots.ai_use(
        "https://example.com/a",
        "GPTBot",
        headers={"Content-Usage": "train-ai=n", "X-Robots-Tag": "noai"},
        tdmrep=tdmrep,
    )
    d = got.to_dict()
    for p in ("train-ai", "ai-use", "search"):
        assert all(e in d["trace"] for e in d[p]["by"])
        d[p]["by"] = [d["trace"].index(e) for e in d[p]["by"]]
    assert d == load("ai-use-shape.json")
    assert got.train_ai.answer == d["train-ai"]["answer"]
