"""A real Scrapy crawl, run by test_scrapy.py in a process of its own (Twisted's reactor starts
once per process): `python scrapy_crawl.py CONFIG.json`. The config gives the start URLs and the
settings; the spider follows every link of every HTML page it gets, and Scrapy's
RobotsTxtMiddleware decides through ROBOTSTXT_PARSER what may be requested. Writes the crawl's
stats to config["stats"]."""

import json
import sys

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.http import TextResponse


class FollowAll(scrapy.Spider):
    name = "follow-all"

    def parse(self, response):
        if isinstance(response, TextResponse):
            for href in response.css("a::attr(href)").getall():
                yield response.follow(href, callback=self.parse)


def main() -> None:
    config = json.load(open(sys.argv[1]))
    process = CrawlerProcess(
        settings={
            "ROBOTSTXT_OBEY": True,
            "ROBOTSTXT_PARSER": "robots_eval.scrapy.RobotParser",
            "LOG_LEVEL": "WARNING",
            "TELNETCONSOLE_ENABLED": False,
            "RETRY_ENABLED": False,
            "DOWNLOAD_TIMEOUT": 20,
            **config["settings"],
        }
    )
    crawler = process.create_crawler(FollowAll)
    process.crawl(crawler, start_urls=config["start_urls"])
    process.start()
    json.dump(
        {k: v for k, v in crawler.stats.get_stats().items() if isinstance(v, (int, float, str))},
        open(config["stats"], "w"),
    )


if __name__ == "__main__":
    main()
