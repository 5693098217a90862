"""Type stubs of the compiled bindings (python/src/lib.rs, python/src/arrow.rs)."""

from typing import Any, Literal, Mapping, Optional, Sequence, Tuple, Union, final

from ._results import (
    AiPreferences,
    AiUse,
    DecisionTable,
    Diagnostic,
    FetchDecision,
    Operator,
    Explanation,
    Record,
    RequestRate,
)

Body = Union[bytes, bytearray, memoryview, str]
Agent = Union[str, Sequence[str]]
Headers = Union[Mapping[str, Union[str, Sequence[str]]], Sequence[Tuple[str, str]]]

DIALECTS: Tuple[str, ...]
DEFAULT_MAX_BYTES: int
__version__: str

@final
class Robots:
    """A parsed robots.txt: immutable, shareable between threads."""

    @staticmethod
    def parse(
        body: Body,
        *,
        dialect: str = "rfc9309",
        url: Optional[str] = None,
        max_bytes: int = 512000,
    ) -> Robots: ...
    @staticmethod
    def for_policy(policy: str, *, dialect: str = "rfc9309") -> Robots: ...
    def is_allowed(self, url: str, agent: Agent) -> bool: ...
    def explain(self, url: str, agent: Agent) -> Explanation: ...
    def is_explicitly_disallowed(self, url: str, agent: Agent) -> bool: ...
    def table(self, urls: Sequence[str], agents: Sequence[Agent]) -> DecisionTable: ...
    def crawl_delay(self, agent: Agent) -> Optional[float]: ...
    def request_rate(self, agent: Agent) -> Optional[RequestRate]: ...
    @property
    def sitemaps(self) -> list[str]: ...
    @property
    def host(self) -> Optional[str]: ...
    @property
    def records(self) -> list[Record]: ...
    @property
    def diagnostics(self) -> list[Diagnostic]: ...
    @property
    def dialect(self) -> str: ...
    @property
    def truncated(self) -> bool: ...
    def ai_preferences(self, url: str, agent: Agent, *, header: Optional[Union[str, Sequence[str]]] = None) -> AiPreferences: ...
    def ai_use(
        self,
        url: str,
        agent: Agent,
        *,
        headers: Optional[Headers] = None,
        html: Optional[Body] = None,
        tdmrep: Optional[Body] = None,
        purposes: Optional[Union[str, Sequence[str]]] = None,
        policy_tokens: Optional[Sequence[str]] = None,
        robots_status: Optional[int] = None,
    ) -> AiUse: ...
    def _noop(self, url: str, agent: Agent) -> bool: ...

def parse_content_usage(header: Union[str, Sequence[str]]) -> dict[str, Optional[str]]: ...

def fetch_policy(
    status: Optional[int],
    *,
    dialect: str = "rfc9309",
    redirects: int = 0,
    failure: Optional[Literal["network-error", "timeout", "too-many-redirects"]] = None,
) -> FetchDecision: ...
def redirect_limit(dialect: str = "rfc9309") -> int: ...
def operators() -> Tuple[Operator, ...]: ...

class _ArrowArray:
    """An Arrow array (arro3's Array): pass it to pyarrow.array(), polars.Series(), ..."""

    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...
    def __len__(self) -> int: ...

def arrow_allowed(robots: Any, urls: Any, agents: Union[str, Any], *, dialect: str = "rfc9309") -> _ArrowArray: ...
def arrow_verdicts(robots: Any, urls: Any, agents: Union[str, Any], *, dialect: str = "rfc9309") -> _ArrowArray: ...
def arrow_ai_use(robots: Any, urls: Any, agents: Union[str, Any], *, dialect: str = "rfc9309") -> _ArrowArray: ...
def _arrow_noop(robots: Any, urls: Any, agents: Union[str, Any], *, dialect: str = "rfc9309") -> _ArrowArray: ...
