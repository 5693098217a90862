"""Shared helpers of the Python suite. It runs on the INSTALLED wheel (scripts/test-python.sh
installs ./python into a fresh virtual environment): importing robots_eval from the source tree
instead would test files that are not what users get, so that is refused here."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Optional, Union

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
SHARED = Path(os.environ.get("ROBOTS_EVAL_SHARED", REPO.parent / "shared"))

import robots_eval  # noqa: E402

if Path(robots_eval.__file__).resolve().is_relative_to(REPO / "python"):
    raise RuntimeError(
        f"robots_eval was imported from the source tree ({robots_eval.__file__}); "
        "the suite tests the installed wheel: run bash scripts/test-python.sh"
    )

DIALECTS = ("rfc9309", "google", "draft1996", "original1994", "revisited")


def load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def field(record: dict[str, Any], name: str) -> Union[str, bytes]:
    """A JSON field given as NAME (UTF-8 text) or NAME_hex (the exact bytes)."""
    if isinstance(record.get(name), str):
        return record[name]
    return bytes.fromhex(record[f"{name}_hex"])


def as_text(value: Union[str, bytes]) -> str:
    return value if isinstance(value, str) else value.decode("utf-8", errors="replace")


def robots_of(case: dict[str, Any]) -> Union[str, bytes]:
    return case["robots"] if isinstance(case.get("robots"), str) else bytes.fromhex(case["robots_hex"])


DISALLOW_ALL = "User-agent: *\nDisallow: /\n"


def ai_use_case(c: dict[str, Any]) -> tuple[Union[str, bytes], Optional[int], dict[str, Any]]:
    """An ai-use case's robots.txt, its fetch status and the keyword arguments of Robots.ai_use,
    as tests/ai_use.rs builds its AiUseInputs and RobotsFetch (a case without a file is a 404).
    The body is what the npm package's fetchRobots parses for that status: the file for a 2xx,
    nothing for a 4xx, a complete disallow for a failure."""
    status = c.get("robots_status")
    if status is None and c.get("robots") is None:
        status = 404
    body: Union[str, bytes] = c.get("robots") or ""
    if status is not None and not 200 <= status < 300:
        body = "" if 400 <= status < 500 else DISALLOW_ALL
    html = c.get("html")
    if c.get("html_repeat"):
        html = (html or "") * c["html_repeat"]
    tdmrep = c.get("tdmrep")
    if c.get("tdmrep_pad") is not None:
        b = tdmrep if tdmrep is not None else "[]"
        tdmrep = b[0] + " " * c["tdmrep_pad"] + b[1:]
    kwargs = {
        "headers": [tuple(h) for h in c.get("headers", [])],
        "html": html,
        "tdmrep": tdmrep,
        "purposes": c.get("purposes"),
        "policy_tokens": c.get("policy_tokens"),
        "robots_status": status,
    }
    return body, status, kwargs


def report(failures: list[str], checked: int, what: str) -> None:
    """Every failure listed, never only the first; and a suite that checked nothing fails."""
    print(f"{what}: {checked} checked, {len(failures)} failed")
    assert checked > 0, f"{what}: nothing was checked"
    assert not failures, f"{len(failures)} of {checked} failed:\n" + "\n".join(failures[:200])


@pytest.fixture(scope="session")
def shared() -> Path:
    if not (SHARED / "corpus" / "expected-google.jsonl").exists():
        pytest.skip(f"SKIPPED: the corpus is not at {SHARED / 'corpus'} (../shared is absent); the other suites ran")
    return SHARED


@pytest.fixture(scope="session")
def spark():
    """One local Spark session for every Spark test (a JVM start costs seconds): two worker
    threads, so a job really runs in two partitions at once, and no web UI."""
    import sys

    from pyspark.sql import SparkSession

    # The Python workers must be this interpreter, the one robots_eval is installed in.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("robots-eval-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
