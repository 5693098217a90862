"""The README's Python example runs as written against the installed wheel (its asserts are the
output it promises)."""

from __future__ import annotations

import re

from conftest import REPO


def test_readme_python_example_runs() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "README.md has no ```python example"
    for block in blocks:
        assert "assert" in block, "the README's Python example states no result to check"
        exec(compile(block, "README.md (python)", "exec"), {"__name__": "readme"})
