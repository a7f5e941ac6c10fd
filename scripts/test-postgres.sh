# Sourced by scripts/ci-test.sh: a throwaway PostgreSQL server for the tests, on 127.0.0.1 and a socket in a temp
# dir, run as the `postgres` user when we are root (initdb refuses root). Durability is off: it lives for one run.
#   start_test_postgres  → exports VIGIL_TEST_DATABASE_URL, or returns 1 when no PostgreSQL is installed
#   stop_test_postgres   → stops it and removes its files
PG_TMP=""
PG_AS=()

start_test_postgres() {
  local bindir
  bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$bindir" ] && [ -x "$bindir/initdb" ] || return 1
  PG_TMP=$(mktemp -d /tmp/vigil-test-pg.XXXXXX)
  chmod 755 "$PG_TMP"
  if [ "$(id -u)" = 0 ]; then chown postgres "$PG_TMP"; PG_AS=(runuser -u postgres --); fi
  local port
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  "${PG_AS[@]}" "$bindir/initdb" -D "$PG_TMP/data" -A trust -U postgres --no-sync >"$PG_TMP/initdb.log" 2>&1 || { cat "$PG_TMP/initdb.log"; return 1; }
  "${PG_AS[@]}" "$bindir/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w -o \
    "-p $port -k $PG_TMP -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null || { cat "$PG_TMP/server.log"; return 1; }
  PG_BIN="$bindir"
  export VIGIL_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "PostgreSQL $("$bindir/postgres" --version | grep -oE '[0-9]+(\.[0-9]+)?' | head -1) for the tests at $VIGIL_TEST_DATABASE_URL"
}

stop_test_postgres() {
  [ -n "$PG_TMP" ] || return 0
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m immediate stop >/dev/null 2>&1
  rm -rf "$PG_TMP"
  PG_TMP=""
}
