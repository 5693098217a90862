"""The core's fetch policy and operator table, as the audit reads them: the one place that knows
how the Python package exposes them.

STOP-GAP (marked): the Python package does not expose the core's fetch policy
(`lifecycle::fetch::decide`) yet; it was requested in PYTHON-API-CHANGES.md. Until it does,
`fetch_policy` below answers the first-fetch rows of RFC 9309's table (docs/fetch-policy.md) and
refuses other dialects. Everything else here is the core's, through robots_eval.
"""

from __future__ import annotations

from typing import NamedTuple

import robots_eval

# What a crawler obeys after "allow all" / "disallow all": no rules, and a complete disallow.
# The same texts as the npm package's fetchRobots (js/fetch.js).
ALLOW_ALL_RULES = b""
DISALLOW_ALL_RULES = b"User-agent: *\nDisallow: /\n"


class Decision(NamedTuple):
    policy: str
    reason: str


def fetch_policy(status: int | None, *, dialect: str, redirects: int) -> Decision:
    """The core's decision for a first fetch of robots.txt that ended with `status` (None: no
    usable response) after `redirects` redirects."""
    core = getattr(robots_eval, "fetch_policy", None)
    if core is not None:
        d = core(status, dialect=dialect, redirects=redirects)
        return Decision(d.policy, d.reason)
    # ---- STOP-GAP: RFC 9309 only, until robots_eval.fetch_policy exists -------------------
    if robots_eval.Robots.parse("", dialect=dialect).dialect != "rfc9309":
        raise NotImplementedError(
            f"dialect {dialect!r}: this robots_eval has no fetch_policy yet; only rfc9309"
        )
    if status is None:
        return Decision("disallow-all", "unreachable")  # §2.3.1.4
    if 200 <= status <= 299:
        return Decision("parse", "ok")  # §2.3.1.1
    if 300 <= status <= 399:
        if redirects >= redirect_limit(dialect):
            return Decision("allow-all", "too-many-redirects")  # §2.3.1.2
        return Decision("follow-redirect", "redirect")
    if 400 <= status <= 499:
        return Decision("allow-all", "unavailable")  # §2.3.1.3
    return Decision("disallow-all", "unreachable")  # §2.3.1.4: 5xx, and any other status
    # ---- end of STOP-GAP ----------------------------------------------------------------------


def redirect_limit(dialect: str) -> int:
    core = getattr(robots_eval, "redirect_limit", None)
    if core is not None:
        return int(core(dialect))
    return 5  # STOP-GAP: RFC 9309 §2.3.1.2, "at least five consecutive redirects"


class Operator(NamedTuple):
    token: str
    operator: str
    kind: str


def operators() -> list[Operator]:
    """Every operator token the core's table knows (aipref::operators::OPERATORS)."""
    table = getattr(robots_eval, "operators", None)
    if table is None:
        raise RuntimeError(
            "this robots_eval does not expose the core's operator table (robots_eval.operators); "
            "the audit takes its crawler tokens from the core only"
        )
    return [Operator(o.token, o.operator, o.kind) for o in table()]
