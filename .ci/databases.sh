#!/usr/bin/env bash
# The verify oracle (tests/verify_oracle.rs) needs PostgreSQL and MariaDB.
# Machines of this kind start both before the session; if one is down,
# start the installed service. Should that fail too, the test harness
# starts a throwaway instance from the installed binaries itself.
set -uo pipefail
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    echo "PostgreSQL is not answering on 5432: starting the service"
    service postgresql start || true
fi
if ! mariadb-admin --protocol=tcp -h 127.0.0.1 -P 3306 -uroot ping >/dev/null 2>&1; then
    echo "MariaDB is not answering on 3306: starting the service"
    service mariadb start || true
fi
exit 0
