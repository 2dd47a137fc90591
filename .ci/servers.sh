#!/usr/bin/env bash
# Installs (only when missing) and starts PostgreSQL and MariaDB from Debian's packages on
# loopback, creates the test role "nl2sqlbench" on both, and prints on stdout the export
# lines that point the server tests at them:
#
#     eval "$(bash .ci/servers.sh)"     # sets NL2SQLBENCH_PG_DSN and NL2SQLBENCH_MYSQL_DSN
#
# Idempotent: on a machine that already has the servers (running or not) it only starts
# what is down and re-applies the role. Needs root (CI runs as root). The tests themselves
# load the databases (the contract fixture, the embedded demo, BIRD's superhero when
# ../shared is present) from SQLite files, one PostgreSQL schema / MariaDB database per
# db_id, so this script stays quick. The role's password is generated once and kept in
# $NL2SQLBENCH_SERVERS_ENV (mode 600); it never appears on a command line.
# NL2SQLBENCH_SKIP_SERVERS=1 skips everything (the server tests then skip with a message).
set -euo pipefail

log() { echo "servers: $*" >&2; }

if [ "${NL2SQLBENCH_SKIP_SERVERS:-}" = 1 ]; then
  log "NL2SQLBENCH_SKIP_SERVERS=1: not starting database servers"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  log "not root: cannot install or start servers; the server tests will skip"
  exit 0
fi

need=()
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 && command -v pg_ctlcluster >/dev/null || need+=(postgresql)
command -v mariadbd >/dev/null || need+=(mariadb-server)
if [ "${#need[@]}" -gt 0 ]; then
  log "installing ${need[*]}"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi

envfile="${NL2SQLBENCH_SERVERS_ENV:-${HOME:-/root}/.config/nl2sqlbench/servers.env}"
mkdir -p "$(dirname "$envfile")"
if [ ! -s "$envfile" ]; then
  (umask 077; printf 'PW=%s\n' "$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')" >"$envfile")
fi
# shellcheck disable=SC1090
. "$envfile"

# --- PostgreSQL: the Debian cluster (created if the package made none), on localhost.
ver="$(ls /usr/lib/postgresql | sort -n | tail -1)"
if ! pg_lsclusters -h | awk '{print $1, $2}' | grep -x "$ver main" >/dev/null; then
  log "creating PostgreSQL $ver cluster"
  pg_createcluster "$ver" main >&2
fi
if ! pg_lsclusters -h | awk -v v="$ver" '$1 == v && $2 == "main" {print $4}' | grep online >/dev/null; then
  log "starting PostgreSQL $ver"
  pg_ctlcluster "$ver" main start >&2
fi
pgport="$(pg_lsclusters -h | awk -v v="$ver" '$1 == v && $2 == "main" {print $3}')"
runuser -u postgres -- psql -q -p "$pgport" -v ON_ERROR_STOP=1 >&2 <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'nl2sqlbench') THEN CREATE ROLE nl2sqlbench LOGIN; END IF;
END \$\$;
ALTER ROLE nl2sqlbench PASSWORD '$PW';
-- CREATEDB: task databases (internal/taskdb) are a template plus one CREATE DATABASE ... TEMPLATE copy per task.
ALTER ROLE nl2sqlbench CREATEDB;
SELECT 'CREATE DATABASE nl2sqlbench OWNER nl2sqlbench' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'nl2sqlbench')
\gexec
SQL

# --- MariaDB: the Debian service, bound to 127.0.0.1 by its default configuration.
# TLS with a self-signed certificate made here, so the engine's row bound is tested over
# TLS too (internal/engine, TestMySQLRowBounded/tls); plain connections stay as they were.
tlsdir=/etc/mysql/nl2sqlbench-tls tlscnf=/etc/mysql/mariadb.conf.d/99-nl2sqlbench-tls.cnf
if [ ! -s "$tlscnf" ] && command -v openssl >/dev/null && [ -d "$(dirname "$tlscnf")" ]; then
  log "giving MariaDB a self-signed TLS certificate"
  mkdir -p "$tlsdir"
  openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=127.0.0.1 \
    -keyout "$tlsdir/key.pem" -out "$tlsdir/cert.pem" 2>/dev/null
  chown -R mysql:mysql "$tlsdir" 2>/dev/null || true
  chmod 600 "$tlsdir/key.pem"
  printf '[mariadb]\nssl_cert = %s/cert.pem\nssl_key = %s/key.pem\n' "$tlsdir" "$tlsdir" >"$tlscnf"
  if mariadb-admin ping >/dev/null 2>&1; then
    service mariadb restart >&2
  fi
fi
if ! mariadb-admin ping >/dev/null 2>&1; then
  log "starting MariaDB"
  service mariadb start >&2
fi
mariadb >&2 <<SQL
CREATE USER IF NOT EXISTS 'nl2sqlbench'@'127.0.0.1';
ALTER USER 'nl2sqlbench'@'127.0.0.1' IDENTIFIED BY '$PW';
GRANT SELECT, INSERT, CREATE, DROP, INDEX, ALTER, EXECUTE ON *.* TO 'nl2sqlbench'@'127.0.0.1';
-- Task databases (internal/taskdb: nl2sb_t_ templates, nl2sb_c_ copies, nl2sb_b_ builds) are
-- written by the tasks: every privilege there, and only there.
GRANT ALL PRIVILEGES ON \`nl2sb\\_%\`.* TO 'nl2sqlbench'@'127.0.0.1';
SQL

log "PostgreSQL $ver on 127.0.0.1:$pgport and MariaDB on 127.0.0.1:3306 are up"
echo "export NL2SQLBENCH_PG_DSN='postgres://nl2sqlbench:$PW@127.0.0.1:$pgport/nl2sqlbench?search_path={db}'"
echo "export NL2SQLBENCH_MYSQL_DSN='nl2sqlbench:$PW@tcp(127.0.0.1:3306)/{db}'"
