"""The result objects of robots_eval: frozen, compared by value, and ``to_dict()`` giving exactly
the npm package's JSON shape (camelCase keys where npm has them), so the two packages can be
compared case by case.

The bindings (``robots_eval._core``) build each answer in the core (``robots_eval::report``,
``Robots::ai_use``) and hand it here as a dict in that shape; this module only wraps it: nothing
is decided here.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from ._core import Robots

__all__ = [
    "Explanation",
    "Rule",
    "Group",
    "Diagnostic",
    "Record",
    "RequestRate",
    "DecisionTable",
    "AiPreferences",
    "AiUse",
    "PurposeAnswer",
    "FetchDecision",
    "Operator",
]


def _freeze(value: Any) -> Any:
    """A JSON-shaped value, read-only: dicts as mappings, lists as tuples."""
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    """The JSON shape again: mappings as dicts, tuples as lists, result objects by to_dict()."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class Rule:
    """The deciding rule, as written."""

    line: int
    kind: str
    """``allow`` or ``disallow``."""
    pattern: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "kind": self.kind, "pattern": self.pattern}


@dataclass(frozen=True)
class Group:
    """The groups an agent obeys: the first line of each and their user-agent values as written;
    ``ends`` the last line of each (``lines[i]`` to ``ends[i]`` is group i's span); what selected
    them (``by``: token, header-word, record or global; ``token``: the agent, the word of its
    header or the record's value that named them, ``*`` for global) and ``why``, in the dialect's
    words."""

    lines: Tuple[int, ...]
    agents: Tuple[str, ...]
    ends: Tuple[int, ...]
    by: str
    token: str
    why: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "lines": list(self.lines),
            "agents": list(self.agents),
            "ends": list(self.ends),
            "by": self.by,
            "token": self.token,
            "why": self.why,
        }


@dataclass(frozen=True)
class Explanation:
    """A verdict and why: ``reason`` is one of robots-txt, rule, empty-rule, no-match, no-group;
    ``line`` the deciding rule's line (0 when no rule decided); ``path`` the part of the URL the
    rules were matched against, as the dialect reads it; ``because`` the reason in a few words and
    ``why`` the verdict in the dialect's words."""

    allowed: bool
    reason: str
    line: int
    rule: Optional[Rule]
    group: Optional[Group]
    path: str
    because: str
    why: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "allowed": self.allowed,
            "reason": self.reason,
            "line": self.line,
            "rule": None if self.rule is None else self.rule.to_dict(),
            "group": None if self.group is None else self.group.to_dict(),
            "path": self.path,
            "because": self.because,
            "why": self.why,
        }


@dataclass(frozen=True)
class Diagnostic:
    """A finding of the parser: its line, severity (error, warning, info), stable code and
    message."""

    line: int
    severity: str
    code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "severity": self.severity, "code": self.code, "message": self.message}


@dataclass(frozen=True)
class Record:
    """A line that is not a user-agent, rule or Sitemap line; ``agents``: the user-agent lines
    it applies to (None outside any group)."""

    key: str
    value: str
    line: int
    agents: Optional[Tuple[str, ...]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "value": self.value,
            "line": self.line,
            "agents": None if self.agents is None else list(self.agents),
        }


@dataclass(frozen=True)
class RequestRate:
    """``requests`` per ``seconds``."""

    requests: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"requests": self.requests, "seconds": self.seconds}


@dataclass(frozen=True)
class DecisionTable:
    """Every URL against every agent: rows are URLs, columns agents."""

    urls: Tuple[str, ...]
    agents: Tuple[Any, ...]
    allowed: Tuple[Tuple[bool, ...], ...]
    lines: Tuple[Tuple[int, ...], ...]
    reasons: Tuple[Tuple[str, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "urls": list(self.urls),
            "agents": [a if isinstance(a, str) else list(a) for a in self.agents],
            "allowed": [list(r) for r in self.allowed],
            "lines": [list(r) for r in self.lines],
            "reasons": [list(r) for r in self.reasons],
        }


@dataclass(frozen=True)
class AiPreferences:
    """The AI usage preferences for a URL and an agent (docs/ai-preferences.md): the crawl
    verdict, each Content-Usage category's value (``y``, ``n`` or None), the Content-Signal
    values, the header's and the combined values when a header was given, and why each is
    what it is."""

    allowed: bool
    reason: str
    line: int
    content_usage: Mapping[str, Optional[str]]
    content_signal: Optional[Mapping[str, Optional[str]]]
    header_usage: Optional[Mapping[str, Optional[str]]]
    combined: Optional[Mapping[str, Optional[str]]]
    why: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "allowed": self.allowed,
            "reason": self.reason,
            "line": self.line,
            "contentUsage": _thaw(self.content_usage),
            "contentSignal": _thaw(self.content_signal),
        }
        if self.header_usage is not None:
            d["headerUsage"] = _thaw(self.header_usage)
        if self.combined is not None:
            d["combined"] = _thaw(self.combined)
        d["why"] = _thaw(self.why)
        return d


@dataclass(frozen=True)
class PurposeAnswer:
    """One purpose's answer (``allow``, ``deny`` or ``unknown``) and the trace entries that
    decided it."""

    answer: str
    by: Tuple[Mapping[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"answer": self.answer, "by": _thaw(self.by)}


@dataclass(frozen=True)
class AiUse:
    """May this crawler use this page for AI? Per purpose (``train_ai``, ``ai_use``,
    ``search``), from every signal given, with the trace of each signal read
    (docs/ai-use.md)."""

    train_ai: PurposeAnswer
    ai_use: PurposeAnswer
    search: PurposeAnswer
    trace: Tuple[Mapping[str, Any], ...]
    conditions: Tuple[Mapping[str, Any], ...]
    crawler: Mapping[str, Any]
    crawlable: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "train-ai": self.train_ai.to_dict(),
            "ai-use": self.ai_use.to_dict(),
            "search": self.search.to_dict(),
            "trace": _thaw(self.trace),
            "conditions": _thaw(self.conditions),
            "crawler": _thaw(self.crawler),
            "crawlable": self.crawlable,
        }


@dataclass(frozen=True)
class FetchDecision:
    """What a robots.txt fetch's outcome means (``robots_eval.fetch_policy``): ``policy`` is one
    of parse, follow-redirect, allow-all, disallow-all, defer, use-cached; ``reason`` a stable
    code; ``message`` a sentence; ``source`` the standard's section (or "our choice: ...")."""

    policy: str
    reason: str
    message: str
    source: str
    dialect: str
    rules: Optional[bytes]
    """The robots.txt to obey when the policy gives no file: ``b""`` for allow-all, a complete
    disallow for disallow-all and defer; None when the policy obeys a file (parse,
    follow-redirect, use-cached)."""

    def robots(self) -> "Robots":
        """The robots.txt to obey under this policy when it gives no file
        (``Robots.for_policy``); a ValueError for a policy that obeys a file."""
        from ._core import Robots as _Robots

        return _Robots.for_policy(self.policy, dialect=self.dialect)

    def to_dict(self) -> dict[str, Any]:
        return {"policy": self.policy, "reason": self.reason, "message": self.message, "source": self.source}


@dataclass(frozen=True)
class Operator:
    """A row of the core's AI operator table (``robots_eval.operators()``): a product token, its
    operator, its kind (crawler, control-token, user-fetcher, link-previews), the purposes the
    operator documents (train-ai, ai-use, search), whether it is dedicated to them, the crawler
    that fetches for a control token, what the operator says about robots.txt, its source."""

    token: str
    operator: str
    kind: str
    purposes: Tuple[str, ...]
    dedicated: bool
    fetched_by: Optional[str]
    robots_txt: Optional[str]
    source: str


# ---- What robots_eval._core calls (one per result type) ----------------------------------------


def _explanation(d: dict[str, Any]) -> Explanation:
    rule = d["rule"]
    group = d["group"]
    return Explanation(
        d["allowed"],
        d["reason"],
        d["line"],
        None if rule is None else Rule(rule["line"], rule["kind"], rule["pattern"]),
        None
        if group is None
        else Group(
            tuple(group["lines"]),
            tuple(group["agents"]),
            tuple(group["ends"]),
            group["by"],
            group["token"],
            group["why"],
        ),
        d["path"],
        d["because"],
        d["why"],
    )


def _diagnostics(items: Sequence[dict[str, Any]]) -> list[Diagnostic]:
    return [Diagnostic(d["line"], d["severity"], d["code"], d["message"]) for d in items]


def _records(items: Sequence[dict[str, Any]]) -> list[Record]:
    return [
        Record(r["key"], r["value"], r["line"], None if r["agents"] is None else tuple(r["agents"]))
        for r in items
    ]


def _request_rate(d: dict[str, Any]) -> RequestRate:
    return RequestRate(d["requests"], d["seconds"])


def _table(d: dict[str, Any]) -> DecisionTable:
    return DecisionTable(
        tuple(d["urls"]),
        tuple(a if isinstance(a, str) else tuple(a) for a in d["agents"]),
        tuple(d["allowed"]),
        tuple(d["lines"]),
        tuple(d["reasons"]),
    )


def _ai_preferences(d: dict[str, Any]) -> AiPreferences:
    return AiPreferences(
        d["allowed"],
        d["reason"],
        d["line"],
        _freeze(d["contentUsage"]),
        _freeze(d["contentSignal"]),
        _freeze(d.get("headerUsage")),
        _freeze(d.get("combined")),
        _freeze(d["why"]),
    )


def _ai_use(d: dict[str, Any]) -> AiUse:
    trace = _freeze(d["trace"])

    def purpose(p: dict[str, Any]) -> PurposeAnswer:
        # `by` holds trace indices in the core's answer; the contract gives the entries.
        return PurposeAnswer(p["answer"], tuple(trace[i] for i in p["by"]))

    return AiUse(
        purpose(d["train-ai"]),
        purpose(d["ai-use"]),
        purpose(d["search"]),
        trace,
        _freeze(d["conditions"]),
        _freeze(d["crawler"]),
        d["crawlable"],
    )


def _fetch_decision(d: dict[str, Any]) -> FetchDecision:
    return FetchDecision(d["policy"], d["reason"], d["message"], d["source"], d["dialect"], d["rules"])


def _operator(d: dict[str, Any]) -> Operator:
    return Operator(
        d["token"], d["operator"], d["kind"], tuple(d["purposes"]), d["dedicated"], d["fetched_by"], d["robots_txt"], d["source"]
    )
