#!/usr/bin/env bash
# The language-server client test (tests/lsp_nvim.rs) drives `platcheck lsp`
# from headless Neovim and fails without it: install Debian's neovim when
# absent.
set -euo pipefail
if [ "${PLATCHECK_EDITOR_TESTS:-1}" = "0" ]; then
  echo "PLATCHECK_EDITOR_TESTS=0: not installing neovim"
  exit 0
fi
if command -v nvim >/dev/null 2>&1 || [ -n "${PLATCHECK_NVIM:-}" ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" != "0" ]; then
  sudo="sudo"
fi
echo "-- installing neovim (apt-get)"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends neovim >/dev/null
command -v nvim
