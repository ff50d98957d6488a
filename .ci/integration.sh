#!/usr/bin/env bash
# Integration checks with the real tools our users run: check-jsonschema and
# zizmor on the GitHub Action (and its documented example workflow),
# check-jsonschema on the launch report's JSON, and pre-commit try-repo on
# the hooks. Installs its tools into a venv itself.
set -euo pipefail
cd "$(dirname "$0")/.."
project="$PWD"

venv="${PLATCHECK_CI_VENV:-$project/target/ci-venv}"
if [ ! -x "$venv/bin/pre-commit" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check \
    check-jsonschema==0.39.0 zizmor==1.32.0 pre-commit==4.7.0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "-- check-jsonschema: action.yml against the GitHub action schema"
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-actions action.yml

echo "-- check-jsonschema: the example workflow in docs/github-action.md"
awk '/^```yaml$/{n++; if (n==1) {inside=1; next}} /^```$/{inside=0} inside' docs/github-action.md > "$work/platcheck.yml"
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "$work/platcheck.yml"

echo "-- zizmor: action.yml and the example workflow"
"$venv/bin/zizmor" --offline --no-progress action.yml "$work/platcheck.yml"

cargo build --quiet
export PATH="$project/target/debug:$PATH"

echo "-- check-jsonschema: the launch report's JSON against schemas/report.schema.json"
platcheck report examples/violations --format json > "$work/report.json"
"$venv/bin/check-jsonschema" --schemafile schemas/report.schema.json "$work/report.json"

echo "-- pre-commit try-repo: platcheck-system hook"
repo="$work/repo"
mkdir -p "$repo"
git -C "$repo" init -q
cp "$project/tests/fixtures/pc/PC004/bad.yaml" "$repo/bad.yaml"
cp "$project/src/init/example-db.yaml" "$repo/good.yaml"
git -C "$repo" add -A
export PRE_COMMIT_HOME="$work/pre-commit-home"
if (cd "$repo" && "$venv/bin/pre-commit" try-repo "$project" platcheck-system --files bad.yaml >"$work/bad.log" 2>&1); then
  cat "$work/bad.log"
  echo "pre-commit passed on a violating contract" >&2
  exit 1
fi
grep -q "PC004" "$work/bad.log" || { cat "$work/bad.log"; echo "no PC004 in the hook output" >&2; exit 1; }
(cd "$repo" && "$venv/bin/pre-commit" try-repo "$project" platcheck-system --files good.yaml) >"$work/good.log" 2>&1 \
  || { cat "$work/good.log"; echo "pre-commit failed on a clean contract" >&2; exit 1; }
echo "pre-commit: fails on bad.yaml, passes on good.yaml"
