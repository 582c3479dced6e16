#!/usr/bin/env bash
# Installs (if needed) and starts Debian's PostgreSQL on 127.0.0.1:5432 with a test role and
# database. Used by CI and by developers who want to run the PostgreSQL variants of the tests.
set -euo pipefail
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$version main"; then pg_createcluster "$version" main; fi
# Loopback only: nothing outside this machine can reach the test database.
sed -i "s/^#\?listen_addresses.*/listen_addresses = '127.0.0.1'/" "/etc/postgresql/$version/main/postgresql.conf"
pg_ctlcluster "$version" main start 2>/dev/null || pg_ctlcluster "$version" main status >/dev/null
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 && break; sleep 0.5; done
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='collectibles'\"" | grep -q 1 ||
  su postgres -c "psql -qc \"CREATE ROLE collectibles LOGIN SUPERUSER PASSWORD 'collectibles'\""
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='collectibles_test'\"" | grep -q 1 ||
  su postgres -c "createdb -O collectibles collectibles_test"
echo "PostgreSQL $version ready on 127.0.0.1:5432 (database collectibles_test)"
