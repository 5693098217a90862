#!/usr/bin/env bash
# End-to-end tests of the playground (www/) in headless Chromium: builds pkg/ if needed (npm run build),
# copies it into www/vendor/, serves www/ on a free 127.0.0.1 port, and drives Debian's chromium with
# playwright-core. Screenshots go to tests/artifacts/. Prints the measured re-render time.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1 && [ -z "${CHROMIUM:-}" ]; then
  echo "test-e2e: chromium not found (apt-get install chromium, or set CHROMIUM=/path/to/chromium)" >&2
  exit 1
fi
if [ ! -d node_modules/playwright-core ]; then
  npm ci --no-audit --no-fund
fi
node scripts/serve.mjs --build-only --quiet
exec node --test --test-reporter=spec tests/e2e/
