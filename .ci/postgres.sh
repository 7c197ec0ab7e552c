#!/usr/bin/env bash
# Throwaway PostgreSQL 15 + PostGIS 3 clusters for the storefinder's PostGIS
# tests: a primary and a streaming-replication hot standby, both listening on
# 127.0.0.1 only and run by an unprivileged user (PostgreSQL refuses root).
#
#   eval "$(bash .ci/postgres.sh start)"   # prints export lines on stdout
#   bash .ci/postgres.sh stop              # stops the clusters of $UCPGEN_POSTGRES_DIR
#
# start exports:
#   UCPGEN_POSTGRES_DSN          the primary (database ucpgen, postgis and
#                                btree_gin created in public)
#   UCPGEN_POSTGRES_STANDBY_DSN  the hot standby of the primary
#   UCPGEN_POSTGRES_DIR          the folder holding both clusters
# Everything else goes to stderr, so the output can be eval'ed.
set -euo pipefail

PGBIN="${UCPGEN_POSTGRES_BIN:-/usr/lib/postgresql/15/bin}"
PGUSER_OS="${UCPGEN_POSTGRES_OSUSER:-ucpgenpg}"

log() { echo "postgres.sh: $*" >&2; }

# install brings PostgreSQL 15 and PostGIS 3 from the distribution when
# either is missing.
install() {
  if [ -x "$PGBIN/postgres" ] && ls /usr/share/postgresql/15/extension/postgis.control >/dev/null 2>&1; then
    return 0
  fi
  log "installing postgresql-15 and postgresql-15-postgis-3 with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends postgresql-15 postgresql-15-postgis-3 >&2
}

# as_pg runs a command as the unprivileged cluster owner (or as ourselves
# when we are not root).
as_pg() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u "$PGUSER_OS" -- "$@"
  else
    "$@"
  fi
}

# free_port prints the first port from $1 upward that nothing on 127.0.0.1
# accepts connections on.
free_port() {
  local p=$1
  while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do
    p=$((p + 1))
  done
  echo "$p"
}

# start_cluster starts the cluster in $1 (log $2) on the first port from $3
# upward that it can bind, and prints that port. A port nobody listens on
# can still refuse a bind for a while after a previous server on it stopped,
# so a failed start moves on to the next port instead of failing the run.
start_cluster() {
  local d=$1 l=$2 p
  p="$(free_port "$3")"
  for _ in $(seq 1 20); do
    if as_pg "$PGBIN/pg_ctl" -D "$d" -l "$l" -o "-p $p" -w start >&2; then
      echo "$p"
      return 0
    fi
    log "could not start on port $p; trying the next one"
    p="$(free_port $((p + 1)))"
  done
  cat "$l" >&2
  return 1
}

start() {
  install
  if [ "$(id -u)" = 0 ] && ! id "$PGUSER_OS" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$PGUSER_OS"
  fi
  local dir
  dir="$(mktemp -d /tmp/ucpgen-pg.XXXXXX)"
  chmod 755 "$dir"
  [ "$(id -u)" = 0 ] && chown "$PGUSER_OS" "$dir"
  local port sport

  log "initdb primary in $dir/primary"
  as_pg "$PGBIN/initdb" -D "$dir/primary" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  cat >>"$dir/primary/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
wal_level = replica
max_wal_senders = 4
hot_standby = on
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
  echo "host replication postgres 127.0.0.1/32 trust" >>"$dir/primary/pg_hba.conf"
  port="$(start_cluster "$dir/primary" "$dir/primary.log" 55432)" || exit 1
  log "primary listening on 127.0.0.1:$port"
  as_pg "$PGBIN/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
    -c "CREATE DATABASE ucpgen" >&2
  as_pg "$PGBIN/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d ucpgen -v ON_ERROR_STOP=1 \
    -c "CREATE EXTENSION IF NOT EXISTS postgis" -c "CREATE EXTENSION IF NOT EXISTS btree_gin" >&2

  log "pg_basebackup standby in $dir/standby"
  as_pg "$PGBIN/pg_basebackup" -h 127.0.0.1 -p "$port" -U postgres -D "$dir/standby" -R -X stream -c fast >&2
  sport="$(start_cluster "$dir/standby" "$dir/standby.log" $((port + 1)))" || exit 1
  log "standby listening on 127.0.0.1:$sport"

  echo "export UCPGEN_POSTGRES_DIR='$dir'"
  echo "export UCPGEN_POSTGRES_DSN='postgres://postgres@127.0.0.1:$port/ucpgen?sslmode=disable'"
  echo "export UCPGEN_POSTGRES_STANDBY_DSN='postgres://postgres@127.0.0.1:$sport/ucpgen?sslmode=disable'"
}

stop() {
  local dir="${UCPGEN_POSTGRES_DIR:-}"
  [ -n "$dir" ] && [ -d "$dir" ] || { log "no cluster folder to stop"; return 0; }
  for c in standby primary; do
    if [ -f "$dir/$c/postmaster.pid" ]; then
      as_pg "$PGBIN/pg_ctl" -D "$dir/$c" -m fast -w stop >&2 || true
    fi
  done
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  install) install ;;
  *) echo "usage: $0 start|stop|install" >&2; exit 2 ;;
esac
