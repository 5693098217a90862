"""A small threaded HTTP server on 127.0.0.1 for the integration tests (Scrapy's crawl, the Common
Crawl job's http:// input): it serves fixed responses and keeps an access log."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Site:
    """Serves ``pages`` ({path: (status, content_type, body_bytes)}) on 127.0.0.1, any free port;
    for a 3xx, the body is the Location.
    A path not in ``pages`` is a 404. ``log`` lists (path, user_agent) of every request, in the
    order they arrived."""

    def __init__(self, pages: dict[str, tuple[int, str, bytes]]):
        self.pages = pages
        self.log: list[tuple[str, str]] = []
        lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                with lock:
                    site.log.append((self.path, self.headers.get("User-Agent", "")))
                status, ctype, body = site.pages.get(
                    self.path, (404, "text/html", b"<html><body>Not found</body></html>")
                )
                self.send_response(status)
                if 300 <= status < 400:
                    # A redirect's body names its target.
                    self.send_header("Location", body.decode())
                    body = b""
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass  # the access log is `site.log`; stderr stays quiet

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Site:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)
