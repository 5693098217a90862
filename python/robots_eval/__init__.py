"""robots-eval: a robots.txt evaluator that speaks every dialect and explains every verdict.

Parse once, answer many::

    from robots_eval import Robots
    robots = Robots.parse(b"User-agent: *\\nDisallow: /private\\n")
    robots.is_allowed("https://example.com/private/x", "ExampleBot")  # False
    robots.explain("/private/x", "ExampleBot").line                     # 2

The answers come from the Rust core the npm package runs on, the same answers in every case.
``robots_eval.arrow`` answers whole Arrow columns for engines (Spark, DuckDB, polars).
"""

from ._core import (
    DEFAULT_MAX_BYTES,
    DIALECTS,
    Robots,
    __version__,
    fetch_policy,
    operators,
    parse_content_usage,
    redirect_limit,
)
from ._results import (
    AiPreferences,
    AiUse,
    DecisionTable,
    FetchDecision,
    Operator,
    Diagnostic,
    Explanation,
    Group,
    PurposeAnswer,
    Record,
    RequestRate,
    Rule,
)

__all__ = [
    "Robots",
    "DIALECTS",
    "DEFAULT_MAX_BYTES",
    "__version__",
    "parse_content_usage",
    "fetch_policy",
    "redirect_limit",
    "operators",
    "FetchDecision",
    "Operator",
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
]
