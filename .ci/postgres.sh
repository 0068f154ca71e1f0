#!/usr/bin/env bash
# A throwaway PostgreSQL for the history tests (tests/headless/history_postgres.rs):
# `.ci/postgres.sh start DIR` installs Debian's postgresql when missing (as root or via
# sudo), makes a cluster in DIR owned by the postgres user, starts it on 127.0.0.1:54329
# with trust authentication (fsync off: a throwaway cluster) and prints the URL of an empty database for the tests to
# create theirs from; `.ci/postgres.sh stop DIR` stops it and removes DIR.
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?DIR}
port=54329
if [ "$(id -u)" -eq 0 ]; then as_root=(); else as_root=(sudo -n); fi
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
as_pg() { ${as_root[@]+"${as_root[@]}"} su postgres -s /bin/sh -c "$1"; }
case "$cmd" in
start)
    if [ -z "$bin" ]; then
        ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null >&2
        ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -q --no-install-recommends postgresql </dev/null >&2
        bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    fi
    ${as_root[@]+"${as_root[@]}"} rm -rf "$dir"
    ${as_root[@]+"${as_root[@]}"} mkdir -p "$dir"
    ${as_root[@]+"${as_root[@]}"} chown postgres "$dir"
    as_pg "'$bin/initdb' -D '$dir/data' -A trust -U postgres" >/dev/null
    as_pg "'$bin/pg_ctl' -D '$dir/data' -o \"-k '$dir' -p $port -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off -c full_page_writes=off\" -l '$dir/log' -w start" >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
stop)
    if [ -n "$bin" ] && [ -d "$dir/data" ]; then
        as_pg "'$bin/pg_ctl' -D '$dir/data' -m fast -w stop" >/dev/null || true
    fi
    ${as_root[@]+"${as_root[@]}"} rm -rf "$dir"
    ;;
esac
