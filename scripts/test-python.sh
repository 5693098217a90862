#!/usr/bin/env bash
# The Python package's tests, on the installed wheel: a fresh virtual environment (.venv-test/,
# git-ignored; ROBOTS_EVAL_VENV names another), `pip install ./python` exactly as a user builds it
# from a clone, the pinned test dependencies (tests/python/requirements.txt), then pytest on
# tests/python from outside the source tree (so `import robots_eval` is the installed package).
#   scripts/test-python.sh              every test
#   scripts/test-python.sh -k arrow     pytest's own arguments pass through
# The agreement test (test_agreement.py) compares with the npm package in pkg/, which
# scripts/test-js.sh builds (test-all.sh runs it first); without a built pkg/ it fails, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
venv=${ROBOTS_EVAL_VENV:-$repo/.venv-test}
python=${PYTHON:-python3}

started=$SECONDS
rm -rf "$venv"
"$python" -m venv "$venv"
# --no-compile: no bytecode for pandas, scrapy and the rest up front (tens of seconds on 2 cores);
# Python compiles what the tests import.
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-compile -r tests/python/requirements.txt
echo "== test dependencies installed ($((SECONDS - started)) s)"
"$venv/bin/pip" install --quiet --disable-pip-version-check ./python
echo "== pip install ./python ($((SECONDS - started)) s)"

# pytest exits 5 when it collected no test: a renamed folder or a broken conftest must fail the
# run, so only 0 passes (and at least one test must have run: --strict-markers guards typos).
cd "$repo/tests/python"
set +e
"$venv/bin/python" -m pytest -p no:cacheprovider --strict-markers -ra "$@" .
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "test-python.sh: pytest collected no tests; that is a failure" >&2
  exit 1
fi
echo "== Python tests: exit $status ($((SECONDS - started)) s)"
exit "$status"
