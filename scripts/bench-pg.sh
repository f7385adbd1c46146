#!/usr/bin/env bash
# A private PostgreSQL server for `npm run bench` (BENCH_DATABASE_URL): default durability (fsync on),
# shared_buffers 1GB, max_connections 200, on 127.0.0.1:55434, data in /tmp/benchpg (kept on stop).
#   scripts/bench-pg.sh start   → prints BENCH_DATABASE_URL / BENCH_REPORTS_DATABASE_URL to export
#   scripts/bench-pg.sh stop
set -euo pipefail
PGBIN="${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}"
PGDATA="${BENCH_PGDATA:-/tmp/benchpg}"
PORT="${BENCH_PGPORT:-55434}"
as_pg() { if [ "$(id -u)" = 0 ]; then su postgres -c "$*"; else bash -c "$*"; fi; }
case "${1:-start}" in
  start)
    if [ ! -f "$PGDATA/PG_VERSION" ]; then
      mkdir -p "$PGDATA"; [ "$(id -u)" = 0 ] && chown postgres "$PGDATA"
      as_pg "$PGBIN/initdb -D $PGDATA -A trust -U postgres >/dev/null"
    fi
    as_pg "$PGBIN/pg_ctl -D $PGDATA -o '-c listen_addresses=127.0.0.1 -p $PORT -c max_connections=200 -c shared_buffers=1GB' -l $PGDATA/log -w start >/dev/null"
    for db in bench bench_reports; do
      as_pg "$PGBIN/psql -h 127.0.0.1 -p $PORT -U postgres -tAc \"select 1 from pg_database where datname = '$db'\"" | grep -q 1 ||
        as_pg "$PGBIN/psql -h 127.0.0.1 -p $PORT -U postgres -c 'create database $db' >/dev/null"
    done
    echo "export BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:$PORT/bench"
    echo "export BENCH_REPORTS_DATABASE_URL=postgres://postgres@127.0.0.1:$PORT/bench_reports"
    ;;
  stop) as_pg "$PGBIN/pg_ctl -D $PGDATA -m fast -w stop" ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
