#!/usr/bin/env bash
# A private MySQL server from Debian's own packages, to run the database tests on MySQL as well
# as MariaDB (issue 17.8). Debian 12 ships no MySQL; Debian unstable ships MySQL 9.7 (the LTS
# after the compose file's 8.4). Its packages are downloaded with apt from deb.debian.org (no
# other host), unpacked into .cache/mysql without installing anything system-wide, and mysqld
# runs through the unpacked glibc loader, since it needs a newer glibc than Debian 12's.
#
#   bash scripts/mysql-from-debian.sh            # download (once) and start on 127.0.0.1:33806
#   TEST_DATABASE_URL=mysql://root@127.0.0.1:33806/ pnpm test services/member
#   bash scripts/mysql-from-debian.sh stop
#
# The last line printed is always `listening on 127.0.0.1:<port>` (pnpm test reads it). Without
# MYSQL_TEST_PORT the port is 33806, or the next free one when something else holds it (another
# checkout's server left running); with MYSQL_TEST_PORT it is that port or a clear failure.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)/.cache/mysql"
LIB="$ROOT/root/usr/lib/x86_64-linux-gnu"
MYSQLD=("$LIB/ld-linux-x86-64.so.2" --library-path "$LIB" "$ROOT/root/usr/sbin/mysqld")

running() { [ -f "$ROOT/run/mysqld.pid" ] && kill -0 "$(cat "$ROOT/run/mysqld.pid")" 2>/dev/null; }

if [ "${1:-}" = stop ]; then
  if running; then
    kill "$(cat "$ROOT/run/mysqld.pid")"
    for _ in $(seq 1 60); do running || break; sleep 1; done
    echo "stopped"
  fi
  exit 0
fi
if running; then
  echo "already running (pid $(cat "$ROOT/run/mysqld.pid"))"
  if [ -n "${MYSQL_TEST_PORT:-}" ] && [ "$MYSQL_TEST_PORT" != "$(cat "$ROOT/run/port")" ]; then
    echo "it listens on $(cat "$ROOT/run/port"), not MYSQL_TEST_PORT=$MYSQL_TEST_PORT; stop it first" >&2
    exit 1
  fi
  echo "listening on 127.0.0.1:$(cat "$ROOT/run/port")"
  exit 0
fi

# Something accepts connections on the port (bash's /dev/tcp connects or fails at once on loopback).
taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
holder() { ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'users:.*' || echo "a process ss cannot name"; }
if [ -n "${MYSQL_TEST_PORT:-}" ]; then
  PORT="$MYSQL_TEST_PORT"
  if taken "$PORT"; then
    echo "port $PORT (MYSQL_TEST_PORT) is in use by $(holder "$PORT"); stop that server or choose another port" >&2
    exit 1
  fi
else
  PORT=33806
  while taken "$PORT"; do
    echo "port $PORT is in use by $(holder "$PORT") (another checkout's server?); trying $((PORT + 1))"
    PORT=$((PORT + 1))
    [ "$PORT" -lt 33906 ] || { echo "no free port in 33806-33905" >&2; exit 1; }
  done
fi

if [ ! -x "$ROOT/root/usr/sbin/mysqld" ]; then
  mkdir -p "$ROOT/apt/lists/partial" "$ROOT/apt/cache/archives/partial" "$ROOT/debs" "$ROOT/root"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main" >"$ROOT/apt/sources.list"
  : >"$ROOT/apt/status"
  APT=(-o Dir::Etc::sourcelist="$ROOT/apt/sources.list" -o Dir::Etc::sourceparts=- -o Dir::State::Lists="$ROOT/apt/lists"
    -o Dir::Cache="$ROOT/apt/cache" -o Dir::State::status="$ROOT/apt/status" -o Debug::NoLocking=1)
  apt-get "${APT[@]}" update -qq
  # mysql-server-core and every library it needs, resolved against an empty system (perl is not needed by mysqld).
  PKGS=$(apt-get "${APT[@]}" -s install --no-install-recommends mysql-server-core | awk '/^Inst/ {print $2}' | grep -vE '^(perl|libperl)')
  (cd "$ROOT/debs" && apt-get "${APT[@]}" download $PKGS)
  for deb in "$ROOT"/debs/*.deb; do dpkg-deb -x "$deb" "$ROOT/root"; done
fi

mkdir -p "$ROOT/run"
echo "$PORT" >"$ROOT/run/port"
if [ ! -d "$ROOT/data/mysql" ]; then
  "${MYSQLD[@]}" --no-defaults --initialize-insecure --datadir="$ROOT/data" --basedir="$ROOT/root/usr" \
    --lc-messages-dir="$ROOT/root/usr/share/mysql" --user="$(id -un)" >"$ROOT/run/init.log" 2>&1
fi
"${MYSQLD[@]}" --no-defaults --datadir="$ROOT/data" --basedir="$ROOT/root/usr" --lc-messages-dir="$ROOT/root/usr/share/mysql" \
  --user="$(id -un)" --port="$PORT" --bind-address=127.0.0.1 --socket="$ROOT/run/mysqld.sock" --mysqlx=OFF \
  --secure-file-priv= --pid-file="$ROOT/run/mysqld.pid" --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
  >"$ROOT/run/mysqld.log" 2>&1 &
for _ in $(seq 1 60); do
  grep -q "ready for connections" "$ROOT/run/mysqld.log" 2>/dev/null && { "${MYSQLD[@]}" --version; echo "listening on 127.0.0.1:$PORT"; exit 0; }
  sleep 1
done
echo "mysqld did not start; see $ROOT/run/mysqld.log" >&2
exit 1
