#!/usr/bin/env bash
# Writes DIR/SHA256SUMS for every release file in DIR (archives, wheels, the
# sdist), one `<sha256>  <name>` line each, sorted by name: what
# `sha256sum --check` reads and what ci/action/install.sh verifies against.
#
# usage: ci/release/sums.sh DIR
set -euo pipefail
# shellcheck source=ci/release/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

dir="${1:?usage: sums.sh DIR}"
cd -- "$dir"
names=()
while IFS= read -r name; do
  names+=("$name")
done < <(find . -maxdepth 1 -type f -name 'platcheck*' ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort)
[ "${#names[@]}" -gt 0 ] || { echo "sums.sh: no release files in $dir" >&2; exit 1; }
: > SHA256SUMS.tmp
for name in "${names[@]}"; do
  printf '%s  %s\n' "$(sha256 "$name")" "$name" >> SHA256SUMS.tmp
done
mv SHA256SUMS.tmp SHA256SUMS
echo "wrote $dir/SHA256SUMS (${#names[@]} files)"
