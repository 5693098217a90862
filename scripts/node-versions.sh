#!/usr/bin/env bash
# Which Node versions run the package: each version given (default: both sides of the `engines`
# bounds in package.json) runs the smoke check (tests/js/smoke.mjs) through the Node entry, ESM
# and CommonJS, on pkg/ (imported by name from the repository). Node versions come from the npm
# registry's `node` package (`npx -y node@VERSION`), a download of about 30 MB each on first use.
#   bash scripts/node-versions.sh [VERSION...]
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f pkg/robots_eval_bg.wasm ] || npm run --silent build
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(20.15.1 20.16.0 21.7.3 22.2.0 22.3.0 24.0.0)
esm="import * as pkg from 'robots-eval'; import { smoke } from './tests/js/smoke.mjs'; const f = smoke(pkg); if (f.length) { console.log(f.join('\n')); process.exit(1); }"
cjs="const pkg = require('robots-eval'); import('./tests/js/smoke.mjs').then(({ smoke }) => { const f = smoke(pkg); if (f.length) { console.log(f.join('\n')); process.exit(1); } });"
for v in "${versions[@]}"; do
  for kind in module commonjs; do
    code=$esm; [ $kind = commonjs ] && code=$cjs
    if out=$(npx -y "node@$v" --input-type=$kind -e "$code" 2>&1); then
      echo "node $v ($kind): works"
    else
      echo "node $v ($kind): fails: $(printf '%s\n' "$out" | grep -m1 -E '^[A-Za-z]*Error' || printf '%s\n' "$out" | tail -1)"
    fi
  done
done
