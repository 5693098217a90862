"""Scrapy: robots-eval as Scrapy's robots.txt parser, in one setting, and RFC 9309's fetch rules in
a second.

    # settings.py
    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robots_eval.scrapy.RobotParser"
    ROBOTS_EVAL_DIALECT = "rfc9309"   # or google, draft1996, original1994, revisited
    DOWNLOADER_MIDDLEWARES = {"robots_eval.scrapy.FetchPolicyMiddleware": 90}

Scrapy's RobotsTxtMiddleware fetches each site's /robots.txt and hands its body (bytes, whatever
the encoding) to :meth:`RobotParser.from_crawler`; the core parses those bytes as they are, so
garbage, a BOM or Latin-1 bytes get the core's documented answer, not a decoding error.

What Scrapy does not hand a parser is the response's status: it parses the body of a 404 or a
503 like any other, and a site it cannot reach gets no rules at all, where RFC 9309 says a 5xx or
an unreachable server means "disallow all" (§2.3.1.4). :class:`FetchPolicyMiddleware` sees the
robots.txt response (or failure) first and hands Scrapy's middleware the file the core's fetch
policy says to obey, whichever ROBOTSTXT_PARSER parses it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy.exceptions import IgnoreRequest
from scrapy.http import Request, Response
from scrapy.http.request import NO_CALLBACK
from scrapy.robotstxt import RobotParser as _ScrapyRobotParser

import robots_eval

# What a timed-out download raises: Scrapy's own exception (2.15+), Twisted's before it.
_TIMEOUTS: tuple[type[BaseException], ...] = (TimeoutError,)
try:
    from scrapy.exceptions import DownloadTimeoutError

    _TIMEOUTS += (DownloadTimeoutError,)
except ImportError:
    pass
try:
    from twisted.internet.error import TimeoutError as _TwistedTimeoutError

    _TIMEOUTS += (_TwistedTimeoutError,)
except ImportError:
    pass

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

#: The Scrapy setting naming the dialect (robots_eval.DIALECTS); default "rfc9309".
DIALECT_SETTING = "ROBOTS_EVAL_DIALECT"


class RobotParser(_ScrapyRobotParser):
    """A parsed robots.txt, answering Scrapy's questions through the core."""

    def __init__(self, robotstxt_body: bytes, spider: Any = None, *, dialect: str = "rfc9309"):
        self.spider = spider
        self.robots = robots_eval.Robots.parse(robotstxt_body, dialect=dialect)

    @classmethod
    def from_crawler(cls, crawler: Crawler | None, robotstxt_body: bytes) -> RobotParser:
        # Scrapy's own backends accept crawler=None (its tests call them so).
        if crawler is None:
            return cls(robotstxt_body)
        dialect = crawler.settings.get(DIALECT_SETTING) or "rfc9309"
        return cls(robotstxt_body, crawler.spider, dialect=dialect)

    def allowed(self, url: str | bytes, user_agent: str | bytes) -> bool:
        return self.robots.is_allowed(_text(url), _text(user_agent))

    def crawl_delay(self, user_agent: str | bytes) -> float | None:
        return self.robots.crawl_delay(_text(user_agent))


class FetchPolicyMiddleware:
    """A downloader middleware that applies the core's fetch policy (``robots_eval.fetch_policy``,
    docs/fetch-policy.md) to the robots.txt requests of Scrapy's RobotsTxtMiddleware: the body it
    then parses is the file the policy says to obey.

    - a 2xx: the body, as fetched;
    - in RFC 9309 (``ROBOTS_EVAL_DIALECT``; each dialect has its table), a 4xx: no rules (allow
      all); a 5xx, a timeout or a server not reached (after Scrapy's retries): complete disallow;
    - redirects: Scrapy's RedirectMiddleware follows them; a chain longer than the dialect's
      limit (``robots_eval.redirect_limit``, 5 in RFC 9309) counts as unavailable (allow all), as
      does a chain Scrapy gives up on; a 3xx Scrapy does not follow is no usable response.

    Place it below RedirectMiddleware (600) and RetryMiddleware (550), so it sees what they leave:
    ``DOWNLOADER_MIDDLEWARES = {"robots_eval.scrapy.FetchPolicyMiddleware": 90}``. Only the
    requests RobotsTxtMiddleware makes are touched (no callback, ``dont_obey_robotstxt``, first
    URL ``/robots.txt``); a spider's own request for /robots.txt has a callback and passes as is.
    Each decision is logged and counted in the stats (``robots_eval/fetch_policy/<reason>``).
    """

    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.dialect = crawler.settings.get(DIALECT_SETTING) or "rfc9309"
        # A wrong dialect fails when the crawl starts, not at its first robots.txt.
        self.limit = robots_eval.redirect_limit(self.dialect)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> FetchPolicyMiddleware:
        return cls(crawler)

    def process_response(self, request: Request, response: Response, spider: Any = None) -> Response:
        if not _is_robots_request(request) or _FLAG in response.flags:
            return response
        hops = int(request.meta.get("redirect_times", 0))
        if hops > self.limit:
            # Followed past the limit: the crawler should have stopped at the 3xx after `limit`
            # hops (Scrapy records each hop's status in redirect_reasons).
            reasons = request.meta.get("redirect_reasons") or []
            status = reasons[self.limit] if len(reasons) > self.limit and isinstance(reasons[self.limit], int) else 301
            decision = robots_eval.fetch_policy(status, dialect=self.dialect, redirects=self.limit)
        elif 300 <= response.status < 400:
            # A redirect Scrapy did not follow (no Location, or redirects switched off): as the
            # core reads it, no usable response.
            decision = robots_eval.fetch_policy(None, dialect=self.dialect)
        else:
            decision = robots_eval.fetch_policy(response.status, dialect=self.dialect, redirects=hops)
        return self._obey(request, decision, response)

    def process_exception(self, request: Request, exception: Exception, spider: Any = None) -> Response | None:
        if not _is_robots_request(request):
            return None
        # IgnoreRequest is another middleware's choice (or RedirectMiddleware's "max redirections
        # reached"): Scrapy then obeys no rules, which is also what a chain past the limit means.
        if isinstance(exception, IgnoreRequest):
            return None
        timeout = isinstance(exception, _TIMEOUTS)
        decision = robots_eval.fetch_policy(None, dialect=self.dialect, failure="timeout" if timeout else "network-error")
        return self._obey(request, decision, None)

    def _obey(self, request: Request, decision: robots_eval.FetchDecision, response: Response | None) -> Response:
        stats = self.crawler.stats
        if stats is not None:
            stats.inc_value(f"robots_eval/fetch_policy/{decision.reason}")
        if decision.rules is None and response is not None:
            return response  # parse (the body) or follow-redirect (handled above)
        _logger.info("robots.txt %s: %s (%s)", request.url, decision.message, decision.source)
        rules = decision.rules if decision.rules is not None else b""
        if response is None:
            # No response came: one with no status (0) carries the file to obey.
            return Response(request.url, status=0, body=rules, request=request, flags=[_FLAG])
        return response.replace(body=rules, flags=[*response.flags, _FLAG])


_FLAG = "robots_eval: fetch policy applied"
_logger = logging.getLogger(__name__)


def _is_robots_request(request: Request) -> bool:
    """A request Scrapy's RobotsTxtMiddleware made: no callback, not obeying robots.txt itself,
    and first sent to /robots.txt (redirects keep the meta; redirect_urls holds the first URL)."""
    if request.callback is not NO_CALLBACK or not request.meta.get("dont_obey_robotstxt"):
        return False
    first = (request.meta.get("redirect_urls") or [request.url])[0]
    return urlsplit(first).path == "/robots.txt"


def _text(value: str | bytes) -> str:
    # Scrapy passes the User-Agent header as it is stored, bytes; headers and URLs it builds are
    # ASCII or UTF-8.
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", errors="replace")
    return value
