"""Scrapy: robots-eval as Scrapy's robots.txt parser, in one setting.

    # settings.py
    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robots_eval.scrapy.RobotParser"
    ROBOTS_EVAL_DIALECT = "rfc9309"   # or google, draft1996, original1994, revisited

Scrapy's RobotsTxtMiddleware fetches each site's /robots.txt and hands its body (bytes, whatever
the encoding) to :meth:`RobotParser.from_crawler`; the core parses those bytes as they are, so
garbage, a BOM or Latin-1 bytes get the core's documented answer, not a decoding error.

What Scrapy does not hand a parser is the response's status: it parses the body of a 404 or a
503 like any other. An error page is rarely robots.txt, so it usually allows everything, where
RFC 9309 says a 5xx means "disallow all" (§2.3.1.4). See python/README.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.robotstxt import RobotParser as _ScrapyRobotParser

import robots_eval

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


def _text(value: str | bytes) -> str:
    # Scrapy passes the User-Agent header as it is stored, bytes; headers and URLs it builds are
    # ASCII or UTF-8.
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", errors="replace")
    return value
