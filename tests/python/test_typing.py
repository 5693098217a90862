"""mypy --strict sees every member of the installed package (py.typed, _core.pyi): a typed
program passes, and a wrong one fails (so the check can fail)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(HERE / "mypy.ini"), *args],
        capture_output=True,
        text=True,
        cwd=HERE,
    )


def test_typed_usage_passes_mypy_strict() -> None:
    r = mypy(str(HERE / "typed_usage.py"))
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_wrong_use_fails_mypy() -> None:
    r = mypy("-c", "from robots_eval import Robots\nx: str = Robots.parse(b'').is_allowed('/', 'a')\nRobots.parse(b'').no_such_member()\n")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "no_such_member" in r.stdout and "bool" in r.stdout, r.stdout
