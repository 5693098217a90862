"""robots_eval.scrapy.RobotParser: Scrapy's own backend tests (tests/data/scrapy-robotstxt-interface.json)
and a real Scrapy crawl of sites on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import deque
from pathlib import Path
from urllib.parse import urljoin

import pytest

pytest.importorskip("scrapy")

from scrapy.robotstxt import RobotParser as ScrapyRobotParser  # noqa: E402
from scrapy.utils.test import get_crawler  # noqa: E402

import robots_eval  # noqa: E402
from robots_eval.scrapy import RobotParser  # noqa: E402

from loopback_server import Site  # noqa: E402

HERE = Path(__file__).parent
DATA = json.loads((HERE.parent / "data" / "scrapy-robotstxt-interface.json").read_text("utf-8"))


def body_of(case: dict) -> bytes:
    return bytes.fromhex(case["robots_hex"]) if "robots_hex" in case else case["robots"].encode()


def parser(body: bytes, dialect: str | None) -> RobotParser:
    """As Scrapy's middleware builds it: from_crawler(crawler, body), the dialect a setting."""
    if dialect is None:
        return RobotParser.from_crawler(None, body)  # as Scrapy's own tests call backends
    crawler = get_crawler(settings_dict={"ROBOTS_EVAL_DIALECT": dialect})
    return RobotParser.from_crawler(crawler, body)


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: c["name"])
def test_scrapy_backend_case(case: dict) -> None:
    body = body_of(case)
    for dialect, allowed in case["expect"].items():
        rp = parser(body, dialect)
        assert isinstance(rp, ScrapyRobotParser)
        assert rp.allowed(case["url"], case["agent"]) is allowed, dialect
        # Scrapy's middleware passes the User-Agent header as bytes, and may pass the URL so.
        assert rp.allowed(case["url"].encode(), case["agent"].encode()) is allowed, dialect
    # The few deliberate differences (each with its why) must still be differences.
    for dialect, allowed in case.get("differs", {}).items():
        if dialect != "why":
            assert parser(body, dialect).allowed(case["url"], case["agent"]) is allowed, dialect
    if "rfc9309" in case["expect"]:
        # As Scrapy's own tests call a backend: no crawler, so the default dialect.
        assert parser(body, None).allowed(case["url"], case["agent"]) is case["expect"]["rfc9309"]


def test_scrapy_cases_cover_the_default_dialect() -> None:
    # Only the documented differences leave rfc9309 out of a case's expectations.
    for case in DATA["cases"]:
        assert "rfc9309" in case["expect"] or "rfc9309" in case["differs"], case["name"]
        if "differs" in case:
            assert case["differs"]["why"], case["name"]


@pytest.mark.parametrize("case", DATA["crawl_delay_cases"], ids=lambda c: c["name"])
def test_scrapy_crawl_delay(case: dict) -> None:
    rp = parser(body_of(case), "rfc9309")
    assert rp.crawl_delay(case["agent"]) == case["expect"]
    assert rp.crawl_delay(case["agent"].encode()) == case["expect"]


def test_excluded_cases_say_why() -> None:
    names = {e["name"] for e in DATA["excluded"]}
    assert "BaseRobotParserTest.test_order_based_precedence" in names
    assert all(e["why"] for e in DATA["excluded"])


def test_dialect_comes_from_the_setting() -> None:
    # A line without its colon: google/robotstxt reads it, RFC 9309's ABNF does not
    # (tests/data/rfc9309-differences.json, ID_LineSyntax_Line#3).
    body = b"user-agent FooBot\ndisallow /\n"
    url = "http://foo.bar/x/y"
    assert parser(body, "rfc9309").allowed(url, "FooBot") is True
    assert parser(body, "google").allowed(url, "FooBot") is False
    assert parser(body, "GOOGLE").allowed(url, "FooBot") is False
    with pytest.raises(ValueError, match="rfc9309"):
        parser(body, "no-such-dialect")


def test_non_utf8_and_huge_bodies_do_not_raise() -> None:
    # Latin-1 bytes, a NUL, a UTF-16 file: the core reads bytes as they are.
    for body in (
        b"User-agent: *\nDisallow: /caf\xe9/\n",
        b"User-agent: *\x00\nDisallow: /a\n",
        "User-agent: *\nDisallow: /\n".encode("utf-16"),
        b"User-agent: *\nDisallow: /" + b"a" * 2_000_000 + b"\n",
    ):
        rp = parser(body, "rfc9309")
        expected = robots_eval.Robots.parse(body).is_allowed("http://h.test/x", "ExampleBot")
        assert rp.allowed("http://h.test/x", "ExampleBot") is expected


# ---- a real crawl ---------------------------------------------------------------------------

UA = "ExampleBot/2.0 (+http://127.0.0.1/bot.html)"

# Site A: a group for ExampleBot (longest match, `$`, percent-encoded paths) and everyone else
# shut out, so a parser that misses the group fetches nothing past robots.txt.
ROBOTS_A = b"""# rules for the crawl test
User-agent: *
Disallow: /

User-agent: ExampleBot
Disallow: /private/
Allow: /private/open.html
Disallow: /*.pdf$
Disallow: /caf\xc3\xa9/
"""
# Site B: Latin-1 bytes, a BOM-less file with CRLF line ends.
ROBOTS_B = b"User-agent: *\r\nDisallow: /tmp/\r\nDisallow: /caf\xe9/\r\n"


def html(*links: str) -> tuple[int, str, bytes]:
    anchors = "".join(f'<a href="{href}">{href}</a>\n' for href in links)
    return 200, "text/html; charset=utf-8", f"<html><body>{anchors}</body></html>".encode()


def build_sites() -> tuple[Site, Site, Site]:
    a, b, c = Site({}), Site({}), Site({})
    a.pages.update(
        {
            "/robots.txt": (200, "text/plain", ROBOTS_A),
            "/": html(
                "/page2.html",
                "/private/open.html",
                "/private/secret.html",
                "/docs/a.pdf",
                "/docs/a.pdf?download=1",
                "/caf%C3%A9/menu.html",
                b.origin + "/",
                c.origin + "/",
            ),
            "/page2.html": html("/", "/private/", "/deep/1.html"),
            "/private/open.html": html("/private/inner.html"),
            "/private/secret.html": html("/never-linked-elsewhere.html"),
            "/deep/1.html": html("/deep/2.html"),
            "/deep/2.html": html(),
            "/docs/a.pdf?download=1": (200, "application/pdf", b"%PDF-1.4\n"),
            "/docs/a.pdf": (200, "application/pdf", b"%PDF-1.4\n"),
        }
    )
    b.pages.update(
        {
            "/robots.txt": (200, "text/plain; charset=iso-8859-1", ROBOTS_B),
            "/": html("/tmp/x.html", "/caf%E9/", "/ok.html", a.origin + "/page2.html"),
            "/ok.html": html("/tmp/y.html"),
        }
    )
    # Site C has no robots.txt (a 404 with an HTML body): everything may be fetched.
    c.pages.update({"/": html("/one.html"), "/one.html": html("/two.html"), "/two.html": html()})
    return a, b, c


def expected_fetches(sites: tuple[Site, ...], start: list[str]) -> tuple[set[str], set[str]]:
    """Walk the link graph as the spider does, asking the in-process API (not the Scrapy
    backend) about each URL: returns (URLs it may fetch, URLs it may not)."""
    rules = {}
    for s in sites:
        status, _, body = s.pages.get("/robots.txt", (404, "", b"<html><body>Not found</body></html>"))
        # Scrapy parses whatever body /robots.txt answered with, whatever its status.
        rules[s.origin] = robots_eval.Robots.parse(body)
    pages = {s.origin + p: v for s in sites for p, v in s.pages.items()}
    allowed, refused, queue = set(), set(), deque(start)
    while queue:
        url = queue.popleft()
        if url in allowed or url in refused:
            continue
        origin = url.split("/", 3)
        origin = "/".join(origin[:3])
        if not rules[origin].is_allowed(url, UA):
            refused.add(url)
            continue
        allowed.add(url)
        status, ctype, body = pages.get(url, (404, "text/html", b""))
        if status == 200 and ctype.startswith("text/html"):
            for href in body.decode().split('href="')[1:]:
                queue.append(urljoin(url, href.split('"', 1)[0]))
    return allowed, refused


def run_crawl(tmp_path: Path, start: list[str], settings: dict) -> dict:
    config = {"start_urls": start, "stats": str(tmp_path / "stats.json"), "settings": {"USER_AGENT": UA, **settings}}
    (tmp_path / "config.json").write_text(json.dumps(config))
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    run = subprocess.run(
        [sys.executable, str(HERE / "scrapy_crawl.py"), str(tmp_path / "config.json")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    return json.loads((tmp_path / "stats.json").read_text())


def test_a_real_scrapy_crawl_fetches_exactly_what_the_verdicts_allow(tmp_path: Path) -> None:
    a, b, c = build_sites()
    with a, b, c:
        start = [a.origin + "/"]
        allowed, refused = expected_fetches((a, b, c), start)
        # The expectations do not rest on the core alone: these follow from RFC 9309's text.
        assert a.origin + "/private/open.html" in allowed  # the longer Allow wins (§2.2.2)
        assert a.origin + "/private/secret.html" in refused
        assert a.origin + "/docs/a.pdf" in refused  # `$` ends the pattern
        assert a.origin + "/docs/a.pdf?download=1" in allowed
        assert a.origin + "/caf%C3%A9/menu.html" in refused  # UTF-8 path, %-encoded URL (§2.2.2)
        assert b.origin + "/tmp/x.html" in refused
        assert c.origin + "/two.html" in allowed

        stats = run_crawl(tmp_path, start, {"ROBOTS_EVAL_DIALECT": "rfc9309"})

    requested = [s.origin + path for s in (a, b, c) for path, _ in s.log]
    fetched = {u for u in requested if not u.endswith("/robots.txt")}
    assert fetched == allowed
    assert not fetched & refused
    # Every request carried the crawler's User-Agent, and each site's robots.txt was asked once.
    assert {ua for s in (a, b, c) for _, ua in s.log} == {UA}
    assert sorted(u for u in requested if u.endswith("/robots.txt")) == sorted(
        s.origin + "/robots.txt" for s in (a, b, c)
    )
    # Scrapy's own count of the requests robots.txt stopped; a URL linked twice counts once.
    assert stats["robotstxt/forbidden"] == len(refused)


# ---- RFC 9309's fetch rules: robots_eval.scrapy.FetchPolicyMiddleware ------------------------


def status_sites() -> dict[str, Site]:
    """One site per robots.txt outcome; each links "/" to /a.html and /private/b.html."""
    pages = {"/": html("/a.html", "/private/b.html"), "/a.html": html(), "/private/b.html": html()}
    sites = {name: Site(dict(pages)) for name in ("503", "404", "chain6", "chain2")}
    sites["503"].pages["/robots.txt"] = (503, "text/html", b"<html><body>Service Unavailable</body></html>")
    # "404": no /robots.txt at all.
    # Six redirects, one past RFC 9309's limit of five, to a file that would shut everything out.
    chain = sites["chain6"]
    for i in range(6):
        chain.pages["/robots.txt" if i == 0 else f"/r{i}"] = (301, "text/plain", f"/r{i + 1}".encode())
    chain.pages["/r6"] = (200, "text/plain", b"User-agent: *\nDisallow: /\n")
    # Two redirects to a file that is obeyed.
    two = sites["chain2"]
    two.pages["/robots.txt"] = (302, "text/plain", b"/r1")
    two.pages["/r1"] = (302, "text/plain", b"/rules.txt")
    two.pages["/rules.txt"] = (200, "text/plain", b"User-agent: *\nDisallow: /private/\n")
    return sites


def closed_port_origin() -> str:
    """An origin on 127.0.0.1 where nothing listens (connections are refused)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


@pytest.mark.parametrize("middleware", [True, False], ids=["FetchPolicyMiddleware", "Scrapy alone"])
def test_a_real_crawl_obeys_the_fetch_policy(tmp_path: Path, middleware: bool) -> None:
    sites = status_sites()
    down = closed_port_origin()
    settings: dict = {"ROBOTSTXT_PARSER": "robots_eval.scrapy.RobotParser"}
    if middleware:
        settings["DOWNLOADER_MIDDLEWARES"] = {"robots_eval.scrapy.FetchPolicyMiddleware": 90}
    with sites["503"], sites["404"], sites["chain6"], sites["chain2"]:
        start = [s.origin + "/" for s in sites.values()] + [down + "/"]
        stats = run_crawl(tmp_path, start, settings)
    fetched = {name: {p for p, _ in s.log if p == "/" or p.endswith(".html")} for name, s in sites.items()}
    everything = {"/", "/a.html", "/private/b.html"}
    # Every site's robots.txt was asked for, once (and each redirect hop once).
    assert all(s.log and s.log[0][0] == "/robots.txt" for s in sites.values())
    assert [p for p, _ in sites["503"].log].count("/robots.txt") == 1
    # The same in both: 404 allows everything (§2.3.1.3); a two-hop redirect is followed (§2.3.1.2).
    assert fetched["404"] == everything
    assert fetched["chain2"] == {"/", "/a.html"}
    if middleware:
        # RFC 9309 §2.3.1.4: a 5xx means complete disallow; so does a server not reached.
        assert fetched["503"] == set()
        # §2.3.1.2: past five redirects robots.txt counts as unavailable: no rules.
        assert fetched["chain6"] == everything
        assert [p for p, _ in sites["chain6"].log].count("/r6") == 1
        # The core's reasons, counted: the 503 and the refused connection are both "unreachable".
        assert stats["robots_eval/fetch_policy/unreachable"] == 2
        assert stats["robots_eval/fetch_policy/too-many-redirects"] == 1
        assert stats["robots_eval/fetch_policy/unavailable"] == 1
        assert stats["robots_eval/fetch_policy/success"] == 1
        # Refused: "/" of the 503 site and of the unreachable server (never attempted), and
        # chain2's /private/b.html.
        assert stats["robotstxt/forbidden"] == 3
    else:
        # Scrapy alone parses the 503 page as robots.txt (no rules), obeys the file past six
        # redirects, and has no rules for a server it could not reach.
        assert fetched["503"] == everything
        assert fetched["chain6"] == set()
        # Refused: "/" of chain6 and chain2's /private/b.html; the unreachable server's "/" was
        # attempted (and failed).
        assert stats["robotstxt/forbidden"] == 2
