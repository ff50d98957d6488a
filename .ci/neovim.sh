#!/usr/bin/env bash
# The language-server client test (tests/lsp_nvim.rs) drives `platcheck lsp`
# from headless Neovim and fails without it: install Debian's neovim when
# absent.
set -euo pipefail
if [ "${PLATCHECK_EDITOR_TESTS:-1}" = "0" ]; then
  echo "PLATCHECK_EDITOR_TESTS=0: not installing neovim"
  exit 0
fi
if [ -n "${PLATCHECK_NVIM:-}" ]; then
  exit 0
fi
exec bash "$(dirname "$0")/apt-tool.sh" neovim nvim
