#!/usr/bin/env bash
# The HTML report test (tests/report_html.rs) renders the page in headless
# Chromium and fails without it: install Debian's chromium when absent.
set -euo pipefail
if [ "${PLATCHECK_BROWSER_TESTS:-1}" = "0" ]; then
  echo "PLATCHECK_BROWSER_TESTS=0: not installing chromium"
  exit 0
fi
if [ -n "${PLATCHECK_CHROMIUM:-}" ]; then
  exit 0
fi
exec bash "$(dirname "$0")/apt-tool.sh" chromium chromium
