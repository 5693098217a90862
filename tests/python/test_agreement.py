"""The npm package and the Python package agree on every case of every suite in tests/data: the
same questions go to both (npm through tests/python/npm_answers.mjs, on the package built in
pkg/), and every field of every answer is compared (Python's to_dict() is the npm JSON shape)."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any, Union

import pytest
from conftest import DIALECTS, REPO, ai_use_case, load, report, robots_of
from test_conformance import ALL

from robots_eval import Robots

def body_json(body: Union[str, bytes]) -> Any:
    return body if isinstance(body, str) else {"hex": body.hex()}


def questions() -> list[dict[str, Any]]:
    qs: list[dict[str, Any]] = []
    for q in ALL:
        qs.append({"op": "verdict", "name": q["name"], "robots": q["robots"], "dialect": q["dialect"], "url": q["url"], "agent": q["agent"]})
    files: list[tuple[str, Union[str, bytes], list[str]]] = []
    for c in load("records.json")["cases"]:
        # Agents as the case asks them: product tokens or lists of them (most specific first).
        agents = [json.loads(a) for a in sorted({json.dumps(a) for a, _ in c.get("crawl_delay", []) + c.get("request_rate", [])} | {'"x"'})]
        for dialect in c.get("dialects") or DIALECTS:
            files.append((f"{c['name']} [{dialect}]", robots_of(c), agents))
            qs.append({"op": "file", "name": f"{c['name']} [{dialect}]", "robots": robots_of(c), "dialect": dialect, "agents": agents})
            for url, agent, _ in c.get("allowed", []):
                qs.append({"op": "verdict", "name": f"{c['name']} [{dialect}] {url}", "robots": robots_of(c), "dialect": dialect, "url": url, "agent": agent})
    seen = set()
    for q in ALL:
        key = (q["robots"], q["dialect"])
        if key not in seen:
            seen.add(key)
            qs.append({"op": "file", "name": q["name"], "robots": q["robots"], "dialect": q["dialect"], "agents": [q["agent"], "x"]})
    for file in ("ai-preferences.json", "ai-preferences-project.json"):
        for c in load(file)["cases"]:
            if c.get("robots") is None:
                continue
            qs.append({"op": "ai_preferences", "name": c["name"], "robots": c["robots"], "dialect": c.get("dialect", "rfc9309"),
                       "url": c["url"], "agent": c["agent"], "header": c.get("header")})
    for file in ("ai-use-examples.json", "ai-use-project.json"):
        for c in load(file)["cases"]:
            body, status, kwargs = ai_use_case(c)
            qs.append({"op": "ai_use", "name": f"{file}: {c['name']}", "robots": c.get("robots") or "", "body": body,
                       "dialect": c.get("dialect", "rfc9309"), "url": c["url"], "agent": c["agent"], "status": status,
                       "kwargs": kwargs, **{k: v for k, v in kwargs.items() if k != "robots_status"}})
    return qs


def key(agent: Any) -> str:
    """An agent as an object key, as JavaScript writes one (a list joined by commas)."""
    return agent if isinstance(agent, str) else ",".join(agent)


def python_answer(q: dict[str, Any]) -> Any:
    robots = Robots.parse(q.get("body", q["robots"]), dialect=q["dialect"])
    try:
        if q["op"] == "verdict":
            t = robots.table([q["url"]], [q["agent"]])
            return {
                "explain": robots.explain(q["url"], q["agent"]).to_dict(),
                "isAllowed": robots.is_allowed(q["url"], q["agent"]),
                "isExplicitlyDisallowed": robots.is_explicitly_disallowed(q["url"], q["agent"]),
                "table": {"allowed": t.allowed[0][0], "line": t.lines[0][0], "reason": t.reasons[0][0]},
            }
        if q["op"] == "file":
            rates = {key(a): robots.request_rate(a) for a in q["agents"]}
            return {
                "records": [r.to_dict() for r in robots.records],
                "diagnostics": [d.to_dict() for d in robots.diagnostics],
                "sitemaps": robots.sitemaps,
                "host": robots.host,
                "truncated": robots.truncated,
                "crawlDelay": {key(a): robots.crawl_delay(a) for a in q["agents"]},
                "requestRate": {k: None if r is None else r.to_dict() for k, r in rates.items()},
            }
        if q["op"] == "ai_preferences":
            return robots.ai_preferences(q["url"], q["agent"], header=q["header"]).to_dict()
        return robots.ai_use(q["url"], q["agent"], **q["kwargs"]).to_dict()
    except (TypeError, ValueError) as e:
        return {"error": f"{type(e).__name__}: {e}"}


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Field by field; numbers compared as JSON does (3 == 3.0)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: {'missing in Python' if k not in a else 'missing in npm'}")
            else:
                out += differences(a[k], b[k], f"{path}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items in Python, {len(b)} in npm: {json.dumps(a)[:300]} vs {json.dumps(b)[:300]}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    if a != b or isinstance(a, bool) != isinstance(b, bool):
        return [f"{path}: Python {json.dumps(a)[:200]}, npm {json.dumps(b)[:200]}"]
    return []


def test_npm_and_python_agree_on_every_case() -> None:
    node = shutil.which("node")
    if node is None or not (REPO / "pkg" / "node.js").exists():
        pytest.fail(
            "the npm package is not built (pkg/node.js) or node is missing: run `npm run build` "
            "(scripts/test-all.sh builds it before the Python tests)"
        )
    qs = questions()
    wire = [{k: v for k, v in q.items() if k not in ("body", "kwargs")} | {"robots": body_json(q["robots"])} for q in qs]
    r = subprocess.run([node, str(REPO / "tests" / "python" / "npm_answers.mjs")], input=json.dumps(wire),
                       capture_output=True, text=True, cwd=REPO, check=False)
    assert r.returncode == 0, r.stderr
    npm = json.loads(r.stdout)
    assert len(npm) == len(qs)
    failures: list[str] = []
    for q, theirs in zip(qs, npm):
        for d in differences(python_answer(q), theirs):
            failures.append(f"{q['op']} {q['name']}: {d}")
    ops = {op: sum(1 for q in qs if q["op"] == op) for op in ("verdict", "file", "ai_preferences", "ai_use")}
    print(f"questions per kind: {ops}")
    report(failures, len(qs), "npm vs Python")
