"""The real-world corpus (../shared/corpus; skipped with a message when it is absent): the google
dialect agrees with google/robotstxt on all 70,885 verdicts of expected-google.jsonl and on the
matching line (as tests/corpus.rs), per call and through the Arrow batch."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
from conftest import report

from robots_eval import Robots, arrow


def test_corpus_google_verdicts_and_lines(shared: Path) -> None:
    corpus = shared / "corpus"
    expected = [json.loads(line) for line in (corpus / "expected-google.jsonl").read_text().splitlines()]
    bodies = {name: (corpus / "files" / name).read_bytes() for name in {e["file"] for e in expected}}
    parsed = {name: Robots.parse(b, dialect="google") for name, b in bodies.items()}
    failures: list[str] = []
    for e in expected:
        r = parsed[e["file"]]
        if r.is_allowed(e["url"], e["agent"]) != e["allowed"]:
            failures.append(f"{e['file']} {e['url']} {e['agent']}: is_allowed, expected {e['allowed']}")
    # The batch, each row with its file's body (the corpus as a joined table).
    got = pa.array(
        arrow.verdicts(
            pa.array([bodies[e["file"]] for e in expected], pa.large_binary()),
            pa.array([e["url"] for e in expected]),
            pa.array([e["agent"] for e in expected]),
            dialect="google",
        )
    ).to_pylist()
    for e, v in zip(expected, got):
        if v["allowed"] != e["allowed"] or v["line"] != e["line"]:
            failures.append(f"{e['file']} {e['url']} {e['agent']}: batch {v}, expected {e['allowed']} line {e['line']}")
    assert len(expected) == 70885, f"expected the whole corpus, read {len(expected)}"
    report(failures, len(expected) * 2, "corpus (google dialect)")
