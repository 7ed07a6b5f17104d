#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster from the Debian packages (apt-get install postgresql) on a
# local port, as the `postgres` user, and prints the connection URL on stdout:
#   export PARLEY_TEST_DATABASE_URL="$(examples/booking-service/scripts/start-postgres.sh)"
# Usage: start-postgres.sh [DATA_DIR] [PORT]   (defaults: /tmp/parley-postgres, 55432)
# Stop it with: su postgres -c "pg_ctl -D DATA_DIR stop" (or run as that user).
set -euo pipefail
data_dir="${1:-/tmp/parley-postgres}"
port="${2:-55432}"
bin_dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [ -z "$bin_dir" ]; then
  echo "start-postgres.sh: no PostgreSQL server found; install it with: apt-get install -y postgresql" >&2
  exit 1
fi
as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"; else su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; fi
}
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$data_dir"
  chown postgres:postgres "$data_dir"
  chmod 700 "$data_dir"
fi
if [ ! -f "$data_dir/PG_VERSION" ]; then
  as_postgres "$bin_dir/initdb" -D "$data_dir" -U postgres -A trust --no-sync >&2
fi
if ! as_postgres "$bin_dir/pg_ctl" -D "$data_dir" status >/dev/null 2>&1; then
  as_postgres "$bin_dir/pg_ctl" -D "$data_dir" -w -l "$data_dir/server.log" \
    -o "-p $port -k $data_dir -c listen_addresses=127.0.0.1 -c fsync=off" start >&2
fi
echo "postgres://postgres@127.0.0.1:$port/postgres"
