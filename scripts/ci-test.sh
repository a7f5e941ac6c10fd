#!/usr/bin/env bash
# npm test: every test Vigil has, ending with one line "N passed, N failed".
#   1. type-check (tsc --noEmit)            counts as one test
#   2. build the UI and the executable      counts as one test
#   3. unit and API tests (bun test) on SQLite
#   4. the tests that touch the database again on PostgreSQL (a throwaway server: scripts/test-postgres.sh)
#   5. browser tests (Playwright + Debian Chromium) against dist/vigil
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
# Logs of the bun test runs (Playwright clears test-results/ when it starts).
mkdir -p test-results test-logs

passed=0
failed=0
# Adds a bun test log's pass/fail counts (and a failure when bun exited non-zero without a failing test).
add_counts() { # log rc name
  local p f
  p=$(grep -aE '^ *[0-9]+ pass$' "$1" | tail -1 | grep -oE '[0-9]+' || echo 0)
  f=$(grep -aE '^ *[0-9]+ fail$' "$1" | tail -1 | grep -oE '[0-9]+' || echo 0)
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  if [ "$2" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then failed=$((failed + 1)); echo "FAILED: $3 exited $2"; fi
}
count() { if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $2"; fi; }

echo "== type-check"
tsc --noEmit
count $? "type-check"

echo "== build"
bun scripts/build.ts
build=$?
count $build "build"

# Real-clock tests spend their minutes waiting on timers (windows, retries, presence): they run beside the others.
waiting=(server/clocks-a.test.ts server/clocks-b.test.ts server/maintenance/windows-live.test.ts)
is_waiting() { local w; for w in "${waiting[@]}"; do [ "$1" = "$w" ] && return 0; done; return 1; }
mapfile -t all_files < <(find server agent ui scripts -name '*.test.ts' -o -name '*.test.tsx' | sort)
rest=()
for f in "${all_files[@]}"; do is_waiting "$f" || rest+=("$f"); done

echo "== unit and API tests"
( bun test "${waiting[@]}" >test-logs/waiting.log 2>&1; echo $? >test-logs/waiting.rc ) &
waiting_pid=$!
bun test "${rest[@]}" 2>&1 | tee test-logs/unit.log
unit=${PIPESTATUS[0]}
wait "$waiting_pid"
cat test-logs/waiting.log
# bun prints " N pass" and " N fail" summary lines; a file that fails to import shows up only in the exit code.
unit_pass=$(grep -aE '^ *[0-9]+ pass$' test-logs/unit.log | tail -1 | grep -oE '[0-9]+' || echo 0)
unit_fail=$(grep -aE '^ *[0-9]+ fail$' test-logs/unit.log | tail -1 | grep -oE '[0-9]+' || echo 0)
passed=$((passed + ${unit_pass:-0}))
failed=$((failed + ${unit_fail:-0}))
if [ "$unit" -ne 0 ] && [ "${unit_fail:-0}" -eq 0 ]; then failed=$((failed + 1)); echo "FAILED: bun test exited $unit"; fi
add_counts test-logs/waiting.log "$(cat test-logs/waiting.rc 2>/dev/null || echo 1)" "the real-clock tests"

echo "== API tests on PostgreSQL"
source scripts/test-postgres.sh
trap stop_test_postgres EXIT
if start_test_postgres; then
  # Every test file that opens a database (directly or through the test app) runs again on PostgreSQL. The 3-node
  # failover test spends its ~3 minutes mostly waiting on its nodes' timers: it runs beside the others.
  mapfile -t pg_db_files < <(grep -rlE "testApp\(|testDb\(|testSchema\(|createServices\(|openDatabase\(" server agent --include='*.test.ts' | grep -v failover.test.ts | sort)
  pg_files=()
  for f in "${pg_db_files[@]}"; do is_waiting "$f" || pg_files+=("$f"); done
  ( bun test server/cluster/failover.test.ts >test-logs/failover.log 2>&1; echo $? >test-logs/failover.rc ) &
  failover_pid=$!
  ( bun test "${waiting[@]}" >test-logs/waiting-postgres.log 2>&1; echo $? >test-logs/waiting-postgres.rc ) &
  waiting_pg_pid=$!
  bun test "${pg_files[@]}" 2>&1 | tee test-logs/unit-postgres.log
  add_counts test-logs/unit-postgres.log "${PIPESTATUS[0]}" "bun test on PostgreSQL"
  wait "$failover_pid"
  cat test-logs/failover.log
  add_counts test-logs/failover.log "$(cat test-logs/failover.rc 2>/dev/null || echo 1)" "the failover test"
  wait "$waiting_pg_pid"
  cat test-logs/waiting-postgres.log
  add_counts test-logs/waiting-postgres.log "$(cat test-logs/waiting-postgres.rc 2>/dev/null || echo 1)" "the real-clock tests on PostgreSQL"
  stop_test_postgres
  unset VIGIL_TEST_DATABASE_URL
elif [ -n "${CI:-}" ]; then
  failed=$((failed + 1)); echo "FAILED: no PostgreSQL server installed (apt-get install postgresql)"
else
  echo "SKIPPED: no PostgreSQL installed here (apt-get install postgresql); CI runs these tests on it"
fi

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
