#!/usr/bin/env bash
# For tests/fix_sqitch.rs, which drives the real sqitch (deploy, verify, revert of the
# changes `platcheck fix` writes) on the local PostgreSQL: install Debian's
# sqitch and its PostgreSQL driver (DBD::Pg, which the sqitch package only
# suggests) when absent. Quick when both are there.
set -euo pipefail
if [ "${PLATCHECK_DB_TESTS:-1}" = "0" ]; then
  echo "PLATCHECK_DB_TESTS=0: not installing sqitch"
  exit 0
fi
bash "$(dirname "$0")/apt-tool.sh" sqitch sqitch
if perl -MDBD::Pg -e 1 >/dev/null 2>&1; then
  exit 0
fi
sudo=""
if [ "$(id -u)" != "0" ]; then
  sudo="sudo"
fi
echo "-- installing libdbd-pg-perl (apt-get)"
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends libdbd-pg-perl >/dev/null \
  || { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends libdbd-pg-perl >/dev/null; }
perl -MDBD::Pg -e 1
