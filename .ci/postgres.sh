# A throwaway PostgreSQL cluster for the tests, sourced by .ci/run (or by hand:
# `. .ci/postgres.sh && pg_start`). pg_start makes one in a temporary folder (as the
# `postgres` user when run as root: the server refuses root), listening on 127.0.0.1 on
# a free port with trust authentication, and exports TERMDOKU_TEST_POSTGRES; it is
# stopped and removed at exit. Where PostgreSQL is missing or does not start, it says so
# and the tests run on SQLite only.

pg_notice() {
  echo "ci: NOTICE: $1; the PostgreSQL tests are skipped (SQLite only)"
}

pg_start() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    pg_notice "PostgreSQL is not installed"
    return 0
  fi
  local as=()
  if [ "$(id -u)" = 0 ]; then
    if ! id -u postgres >/dev/null 2>&1; then
      pg_notice "there is no postgres user to run the server as"
      return 0
    fi
    as=(runuser -u postgres --)
  fi
  PG_TMP=$(mktemp -d /tmp/termdoku-pg.XXXXXX)
  [ ${#as[@]} -eq 0 ] || chown postgres "$PG_TMP"
  # A port nothing listens on (bash's /dev/tcp connects where something does).
  local port=55432
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    port=$((port + 1))
    if [ "$port" -gt 55999 ]; then
      pg_notice "no free port in 55432-55999"
      return 0
    fi
  done
  # The C locale: lower() then folds ASCII only, as SQLite's NOCASE does.
  if ! "${as[@]}" "$bin/initdb" -D "$PG_TMP/data" -U postgres -A trust -E UTF8 --locale=C \
      --no-sync >"$PG_TMP/initdb.log" 2>&1; then
    cat "$PG_TMP/initdb.log"
    pg_notice "initdb failed"
    rm -rf "$PG_TMP"
    return 0
  fi
  trap pg_stop EXIT
  # fsync off: a throwaway cluster need not survive the machine crashing.
  if ! "${as[@]}" "$bin/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $PG_TMP -c fsync=off -c max_connections=300" \
      start >/dev/null; then
    cat "$PG_TMP/server.log" 2>/dev/null
    pg_notice "the server did not start"
    return 0
  fi
  PG_BIN=$bin
  PG_AS=("${as[@]}")
  export TERMDOKU_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/postgres"
  echo "ci: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port for the tests"
}

pg_stop() {
  if [ -n "${PG_TMP:-}" ]; then
    if [ -n "${PG_BIN:-}" ]; then
      "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$PG_TMP"
    PG_TMP=
  fi
}
