#!/usr/bin/env bash
# The verify oracle (tests/verify_oracle.rs) needs PostgreSQL and MariaDB.
# Machines of this kind start both before the session; if one is down,
# start the installed service. Should that fail too, the test harness
# starts a throwaway instance from the installed binaries itself.
set -uo pipefail

# verify's throwaway servers (and the ephemeral-server tests) need the server
# binaries even where no service runs: install them on a Debian machine that
# lacks them.
need=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v mariadb-install-db >/dev/null 2>&1 || need+=(mariadb-server)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]} for verify's throwaway servers"
    sudo_=""
    [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo_="sudo"
    $sudo_ apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq "${need[@]}" \
        || echo "could not install ${need[*]}: the database tests will say what is missing"
fi
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    echo "PostgreSQL is not answering on 5432: starting the service"
    # This machine kind starts it with pg_ctlcluster (no systemd); `service`
    # covers ordinary Debian hosts.
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start 2>/dev/null \
        || service postgresql start || true
fi
if ! mariadb-admin --protocol=tcp -h 127.0.0.1 -P 3306 -uroot ping >/dev/null 2>&1; then
    echo "MariaDB is not answering on 3306: starting the service"
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd 2>/dev/null \
        || service mariadb start || true
    for _ in $(seq 1 30); do
        mariadb-admin --protocol=tcp -h 127.0.0.1 -P 3306 -uroot ping >/dev/null 2>&1 && break
        sleep 1
    done
fi
exit 0
