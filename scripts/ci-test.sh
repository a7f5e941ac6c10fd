#!/usr/bin/env bash
# npm test: every test Vigil has, ending with one line "N passed, N failed".
#   1. type-check (tsc --noEmit)            counts as one test
#   2. build the UI and the executable      counts as one test
#   3. unit and API tests (bun test)
#   4. browser tests (Playwright + Debian Chromium) against dist/vigil
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
mkdir -p test-results

passed=0
failed=0
count() { if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $2"; fi; }

echo "== type-check"
tsc --noEmit
count $? "type-check"

echo "== build"
bun scripts/build.ts
build=$?
count $build "build"

echo "== unit and API tests"
bun test 2>&1 | tee test-results/unit.log
unit=${PIPESTATUS[0]}
# bun prints " N pass" and " N fail" summary lines; a file that fails to import shows up only in the exit code.
unit_pass=$(grep -E '^ *[0-9]+ pass$' test-results/unit.log | tail -1 | grep -oE '[0-9]+' || echo 0)
unit_fail=$(grep -E '^ *[0-9]+ fail$' test-results/unit.log | tail -1 | grep -oE '[0-9]+' || echo 0)
passed=$((passed + ${unit_pass:-0}))
failed=$((failed + ${unit_fail:-0}))
if [ "$unit" -ne 0 ] && [ "${unit_fail:-0}" -eq 0 ]; then failed=$((failed + 1)); echo "FAILED: bun test exited $unit"; fi

echo "== browser tests"
if [ "$build" -ne 0 ]; then
  failed=$((failed + 1)); echo "FAILED: browser tests skipped, no executable"
else
  rm -f test-results/e2e.json
  playwright test
  e2e=$?
  if [ -f test-results/e2e.json ]; then
    read -r e2e_pass e2e_fail < <(node -e '
      const s = require("./test-results/e2e.json").stats;
      console.log((s.expected + s.flaky) + " " + s.unexpected);')
  else
    e2e_pass=0; e2e_fail=0
  fi
  passed=$((passed + e2e_pass))
  failed=$((failed + e2e_fail))
  if [ "$e2e" -ne 0 ] && [ "$e2e_fail" -eq 0 ]; then failed=$((failed + 1)); echo "FAILED: playwright exited $e2e"; fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
