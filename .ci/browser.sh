#!/usr/bin/env bash
# The HTML report test (tests/report_html.rs) renders the page in headless
# Chromium and fails without it: install Debian's chromium when absent.
set -euo pipefail
if [ "${PLATCHECK_BROWSER_TESTS:-1}" = "0" ]; then
  echo "PLATCHECK_BROWSER_TESTS=0: not installing chromium"
  exit 0
fi
if command -v chromium >/dev/null 2>&1 || [ -n "${PLATCHECK_CHROMIUM:-}" ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" != "0" ]; then
  sudo="sudo"
fi
echo "-- installing chromium (apt-get)"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
command -v chromium
