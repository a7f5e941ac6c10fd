#!/usr/bin/env bash
# npm test: every test Vigil has, ending with one line "N passed, N failed".
#   1. type-check (tsc --noEmit)            counts as one test
#   2. build the UI, the executable and the agents for every release target: counts as one test
#   3. unit and API tests (bun test) on SQLite
#   4. the tests that touch the database again on PostgreSQL (a throwaway server: scripts/test-postgres.sh)
#   5. browser tests (Playwright + Debian Chromium) against dist/vigil
# They run side by side in streams once the executable is built (CI has two cores; the time is the sum of CPU
# seconds, not of the phases one after another):
#   B  bun test on SQLite and bun test on PostgreSQL, two processes at once (each mostly one core)
#   C  the tests that mostly wait on real timers: real-clock tests on SQLite, the failover test, escalation on two nodes,
#      real-clock on PostgreSQL
#   D  at low priority (no test waits on them for its timing): the type-check, the agents' cross-compiles and xz, then
#      the build's own test
#   A  once B is done: the browser tests, three workers (a test waits on the server's timers and the page about half
#      its time, so three keep two cores busy), the agents' pages included (dist/agents is complete by then)
# Each stream writes its log to test-logs/; they are printed in that order at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
mkdir -p test-logs
rm -f test-logs/*.log test-logs/*.rc
started=$SECONDS

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
# Runs a command into test-logs/<name>.log, its exit code into test-logs/<name>.rc.
logged() { # name command...
  local name=$1; shift
  "$@" >"test-logs/$name.log" 2>&1
  echo $? >"test-logs/$name.rc"
}
rc_of() { cat "test-logs/$1.rc" 2>/dev/null || echo 1; }
# Adds a Playwright JSON report's counts (and a failure when Playwright exited non-zero without a failing test).
add_e2e() { # report rc name
  local p=0 f=0
  if [ -f "$1" ]; then
    read -r p f < <(node -e '
      const s = require(process.argv[1]).stats;
      console.log((s.expected + s.flaky) + " " + s.unexpected);' "$PWD/$1")
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); echo "FAILED: $3 exited $2"; fi
}

echo "== build (UI and executable)"
bun scripts/build.ts --no-agents
build=$?

# What the build made: checked once the agents are built.
after_build=(scripts/build.test.ts)
# Stream D. The agents' build writes dist/agents while the other streams run: only the tests that read it wait for it
# (scripts/build.test.ts here; stream A starts once it is done).
(
  # The agents first: the browser tests wait for them (their xz takes minutes of CPU in the gaps the other streams
  # leave); the type-check waits for nobody.
  logged agents nice -n 10 bun scripts/build-agents.ts
  logged typecheck nice -n 10 tsc --noEmit
  # Its from-source runs start both programs; beside the other streams that can pass bun's 5 s default.
  logged build-test bun test --timeout 30000 "${after_build[@]}"
) &
stream_d=$!

source scripts/test-postgres.sh
trap stop_test_postgres EXIT
pg_url=""
if start_test_postgres; then pg_url=$VIGIL_TEST_DATABASE_URL; unset VIGIL_TEST_DATABASE_URL; fi

# The streams share two cores: a test that takes 2 s alone may take 4-6 s beside the light ones. bun's default per-test
# limit (5 s) would then fail tests for the machine's sake, not theirs; tests that set their own limit keep it.
test_timeout=30000

# Real-clock tests spend their minutes waiting on timers (windows, retries, presence, escalation steps): they run beside
# the others, in stream C. A real-clock test file is named *-clock.test.ts (or is one of the first three) to run there.
mapfile -t clock_files < <(find server agent -name '*-clock.test.ts' | sort)
waiting=(server/clocks-a.test.ts server/clocks-b.test.ts server/maintenance/windows-live.test.ts "${clock_files[@]}")
is_in() { local x=$1 w; shift; for w in "$@"; do [ "$x" = "$w" ] && return 0; done; return 1; }
mapfile -t all_files < <(find server agent ui scripts -name '*.test.ts' -o -name '*.test.tsx' | sort)
rest=()
for f in "${all_files[@]}"; do is_in "$f" "${waiting[@]}" "${after_build[@]}" || rest+=("$f"); done
# Every test file that opens a database (directly or through the test app) runs again on PostgreSQL. The tests of
# real nodes on one database (the 3-node failover, ~3 minutes; escalation on two nodes, ~1.5) mostly wait on their
# nodes' timers: they run in stream C.
nodes_tests=(server/cluster/failover.test.ts server/escalation/two-nodes.test.ts)
mapfile -t pg_db_files < <(grep -rlE "testApp\(|testDb\(|testSchema\(|createServices\(|openDatabase\(|escalationInstance\(" server agent --include='*.test.ts' | sort)
# A file that opens only SQLite files (backups, the data dir) says "SQLite only (npm test)" and runs once.
mapfile -t sqlite_only < <(grep -lF "SQLite only (npm test)" "${pg_db_files[@]}")
pg_files=()
for f in "${pg_db_files[@]}"; do is_in "$f" "${waiting[@]}" "${nodes_tests[@]}" "${sqlite_only[@]}" || pg_files+=("$f"); done

# Stream C.
(
  logged waiting bun test "${waiting[@]}"
  if [ -n "$pg_url" ]; then
    VIGIL_TEST_DATABASE_URL=$pg_url logged failover bun test server/cluster/failover.test.ts
    VIGIL_TEST_DATABASE_URL=$pg_url logged escalation-nodes bun test server/escalation/two-nodes.test.ts
    VIGIL_TEST_DATABASE_URL=$pg_url logged waiting-postgres bun test "${waiting[@]}"
  fi
) &
stream_c=$!

# Stream B, in the foreground: both engines at once.
if [ -n "$pg_url" ]; then VIGIL_TEST_DATABASE_URL=$pg_url logged unit-postgres bun test --timeout "$test_timeout" "${pg_files[@]}" & fi
stream_b_pg=$!
logged unit bun test --timeout "$test_timeout" "${rest[@]}"
[ -n "$pg_url" ] && wait "$stream_b_pg"

# Stream A, after B: the browser tests (three servers, three Chromiums) would starve the bun tests of CPU beside them
# (their timing tests and 100 ms render budgets failed at a load of 14); the timer-bound streams C and D are light
# enough to share the machine with either. The agents' pages need dist/agents, which stream D has built by now.
if [ "$build" -eq 0 ]; then
  while [ ! -f test-logs/agents.rc ]; do sleep 2; done
  VIGIL_E2E_WORKERS=${VIGIL_E2E_WORKERS:-3} logged e2e playwright test
fi

wait "$stream_c"
wait "$stream_d"
stop_test_postgres

echo "== type-check"
cat test-logs/typecheck.log
count "$(rc_of typecheck)" "type-check"
echo "== build of the agents"
cat test-logs/agents.log
[ "$build" -eq 0 ] && [ "$(rc_of agents)" -eq 0 ]
count $? "build"
echo "== unit and API tests"
cat test-logs/unit.log test-logs/build-test.log
add_counts test-logs/unit.log "$(rc_of unit)" "bun test"
add_counts test-logs/build-test.log "$(rc_of build-test)" "the build's test"
cat test-logs/waiting.log
add_counts test-logs/waiting.log "$(rc_of waiting)" "the real-clock tests"
echo "== API tests on PostgreSQL"
if [ -n "$pg_url" ]; then
  for part in unit-postgres failover escalation-nodes waiting-postgres; do
    cat "test-logs/$part.log"
    add_counts "test-logs/$part.log" "$(rc_of "$part")" "bun test ($part)"
  done
elif [ -n "${CI:-}" ]; then
  failed=$((failed + 1)); echo "FAILED: no PostgreSQL server installed (apt-get install postgresql)"
else
  echo "SKIPPED: no PostgreSQL installed here (apt-get install postgresql); CI runs these tests on it"
fi
echo "== browser tests"
if [ "$build" -ne 0 ]; then
  failed=$((failed + 1)); echo "FAILED: browser tests skipped, no executable"
else
  cat test-logs/e2e.log
  add_e2e test-results/e2e.json "$(rc_of e2e)" "playwright"
fi

echo "took $((SECONDS - started)) s; CPU seconds (user, system) of this script, then of everything it ran:"
times
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
