#!/usr/bin/env bash
# Installs Debian's PACKAGE when COMMAND is not on the PATH (the tests that
# drive it fail loudly without it). Usage: apt-tool.sh PACKAGE COMMAND
set -euo pipefail
package="$1" command="$2"
if command -v "$command" >/dev/null 2>&1; then
  exit 0
fi
sudo=""
if [ "$(id -u)" != "0" ]; then
  sudo="sudo"
fi
echo "-- installing $package (apt-get)"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$package" >/dev/null
command -v "$command"
