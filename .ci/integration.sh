#!/usr/bin/env bash
# Integration checks with the real tools our users run, installed from PyPI
# into a venv under target/ by this script:
#   - the PyPI wheel: built with maturin, installed into a fresh venv (and run
#     by uvx), the examples run through it; the sdist's contents;
#   - every workflow, the action and the documented workflow: check-jsonschema,
#     actionlint (action.yml as a workflow, see action_as_workflow.py), zizmor;
#     and every script through ShellCheck;
#   - the launch report's JSON against schemas/report.schema.json;
#   - pre-commit: the platcheck hook (the wheel, no Rust toolchain) from a tagged
#     clone, and the platcheck-system hook;
#   - cargo publish --dry-run.
set -euo pipefail
cd "$(dirname "$0")/.."
project="$PWD"
version="$(sed -n 's/^version = "\([^"]*\)"$/\1/p' Cargo.toml | head -n 1)"

venv="${PLATCHECK_CI_VENV:-$project/target/ci-venv}"
stamp="$venv/.requirements.sha256"
want="$(sha256sum .ci/requirements.txt | cut -d ' ' -f 1)"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
  rm -rf -- "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r .ci/requirements.txt
  echo "$want" > "$stamp"
fi
tools="$venv/bin"

work="$(mktemp -d)"
trap 'rm -rf -- "$work"' EXIT

fail() {
  echo "integration: $*" >&2
  exit 1
}

echo "-- shellcheck: the action's, the release's and CI's scripts"
"$tools/shellcheck" -x -S warning ci/action/*.sh ci/release/*.sh .ci/run .ci/*.sh

echo "-- check-jsonschema: action.yml, the workflows, the documented workflow"
awk '/^```yaml$/{n++; if (n==1) {inside=1; next}} /^```$/{inside=0} inside' docs/github-action.md > "$work/platcheck.yml"
"$tools/check-jsonschema" --builtin-schema vendor.github-actions action.yml
"$tools/check-jsonschema" --builtin-schema vendor.github-workflows .github/workflows/*.yml "$work/platcheck.yml"

echo "-- actionlint: the workflows, the documented workflow, action.yml's steps"
mkdir -p "$work/lint/.github/workflows"
git -C "$work/lint" init -q # actionlint looks for the repository root
cp .github/workflows/*.yml "$work/lint/.github/workflows/"
cp "$work/platcheck.yml" "$work/lint/.github/workflows/documented.yml"
"$tools/python" .ci/action_as_workflow.py action.yml > "$work/lint/.github/workflows/action-yml.yml"
# actionlint resolves `uses: ./` against the repository it lints.
cp action.yml "$work/lint/action.yml"
(cd "$work/lint" && PATH="$tools:$PATH" "$tools/actionlint" -no-color)

echo "-- zizmor: the workflows, action.yml, the documented workflow"
"$tools/zizmor" --offline --no-progress --config .github/zizmor.yml \
  .github/workflows/*.yml action.yml "$work/platcheck.yml"

echo "-- check-jsonschema: the launch report's JSON against schemas/report.schema.json"
cargo build --quiet
target/debug/platcheck report examples/violations --format json > "$work/report.json"
"$tools/check-jsonschema" --schemafile schemas/report.schema.json "$work/report.json"

echo "-- wheel: maturin build (bindings = bin)"
wheels="$project/target/wheels"
rm -rf -- "$wheels"
# The dev profile reuses cargo test's build; --strip keeps debug info out.
PLATCHECK_PROFILE=dev MATURIN="$tools/maturin" bash ci/release/wheel.sh host "$wheels" --quiet --strip
wheel="$(find "$wheels" -name "platcheck-$version-py3-none-*.whl" | head -n 1)"
[ -n "$wheel" ] || fail "maturin wrote no platcheck-$version wheel into $wheels"
echo "built ${wheel##*/}"

echo "-- wheel: installed into a fresh venv, the examples run through it"
fresh="$work/fresh-venv"
python3 -m venv "$fresh"
"$fresh/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
[ "$("$fresh/bin/platcheck" --version)" = "platcheck $version" ] || fail "the wheel's platcheck is not $version"
"$fresh/bin/platcheck" check --quiet examples/clean
set +e
"$fresh/bin/platcheck" check --format=json examples/violations > "$work/wheel.json"
status=$?
set -e
[ "$status" = 1 ] || fail "examples/violations through the wheel exited $status, not 1"
target/debug/platcheck check --format=json examples/violations > "$work/cargo.json" || true
cmp -s "$work/wheel.json" "$work/cargo.json" || fail "the wheel's findings on examples/violations differ from the cargo build's"
echo "examples/violations: $(grep -c '^      "rule": ' "$work/wheel.json") findings, as cargo's build reports"
"$fresh/bin/platcheck" rule MG001 | grep -q "^## What it flags" || fail "platcheck rule MG001 printed no doc"
(cd "$work" && mkdir init && cd init && "$fresh/bin/platcheck" init >/dev/null && "$fresh/bin/platcheck" check --quiet)

echo "-- wheel: uvx runs it (offline, from the built wheel)"
UV_CACHE_DIR="$work/uv-cache" UV_TOOL_DIR="$work/uv-tools" "$tools/uvx" --offline --no-index \
  --find-links "$wheels" --from "platcheck==$version" platcheck check --quiet examples/clean

echo "-- sdist: what it carries"
PLATCHECK_PROFILE=dev MATURIN="$tools/maturin" bash ci/release/wheel.sh sdist "$work/sdist"
sdist="$work/sdist/platcheck-$version.tar.gz"
tar -tzf "$sdist" > "$work/sdist.txt"
for need in Cargo.toml Cargo.lock pyproject.toml build.rs README.md LICENSE-MIT LICENSE-APACHE src/main.rs rules/mg/MG001.md schemas/cluster.schema.json; do
  grep -qx "platcheck-$version/$need" "$work/sdist.txt" || fail "the sdist has no $need"
done
! grep -q "^platcheck-$version/tests/" "$work/sdist.txt" || fail "the sdist carries tests/"

echo "-- pre-commit: the platcheck hook from a tagged clone, without a Rust toolchain"
hook_repo="$work/hook-repo"
# The working tree as committed plus any uncommitted edits (CI: a clean clone).
git clone --quiet --no-local "$project" "$hook_repo"
git ls-files -z --cached --others --exclude-standard \
  | tar --null -T - -cf - | tar -xf - -C "$hook_repo"
git -C "$hook_repo" add -A
git -C "$hook_repo" -c user.name=ci -c user.email=ci@localhost -c commit.gpgsign=false \
  commit --quiet --allow-empty -m "working tree"
git -C "$hook_repo" -c tag.gpgsign=false tag "v$version"
# pip resolves the hook's pins from a local directory only: the wheel built
# above, and setuptools for the root shim's build.
pip_wheels="$project/target/ci-pip-wheels"
if ! ls "$pip_wheels"/setuptools-80.9.0-*.whl >/dev/null 2>&1; then
  "$venv/bin/pip" download --quiet --disable-pip-version-check --only-binary=:all: \
    --dest "$pip_wheels" setuptools==80.9.0
fi
cp "$wheel" "$pip_wheels/"
user_repo="$work/user-repo"
mkdir -p "$user_repo"
git -C "$user_repo" init -q
cat > "$user_repo/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $hook_repo
    rev: v$version
    hooks:
      - id: platcheck
YAML
cp tests/fixtures/pc/PC004/bad.yaml "$user_repo/bad.yaml"
# The init template's example cluster, its placeholders filled in the way
# `platcheck init` fills them (today's date, a migrations path and tool).
good_contract() {
  sed -e "s/@TODAY@/$(date -u +%F)/g" -e "s|@SCHEMAS@|https://example.invalid/schemas|" \
    -e "s|@MIGRATIONS@|migrations/example-db|" -e "s/^@TOOL@/    tool: alembic\n/" \
    src/init/example-db.yaml > "$1"
}
good_contract "$user_repo/good.yaml"
git -C "$user_repo" add -A
no_rust_path="$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -e cargo -e rustup | paste -sd ':' -)"
! PATH="$no_rust_path" command -v cargo >/dev/null || fail "cargo is still on the hook's PATH"
run_hook() {
  (cd "$user_repo" && env PATH="$no_rust_path" PRE_COMMIT_HOME="$work/pre-commit-home" \
    PIP_NO_INDEX=1 PIP_FIND_LINKS="$pip_wheels" "$tools/pre-commit" run platcheck --files "$@")
}
if run_hook bad.yaml > "$work/bad.log" 2>&1; then
  cat "$work/bad.log"
  fail "the platcheck hook passed on a violating contract"
fi
grep -q "PC004" "$work/bad.log" || { cat "$work/bad.log"; fail "no PC004 in the platcheck hook's output"; }
run_hook good.yaml > "$work/good.log" 2>&1 || { cat "$work/good.log"; fail "the platcheck hook failed on a clean contract"; }
hook_bin="$(find "$work/pre-commit-home" -path '*/bin/platcheck' | head -n 1)"
[ -n "$hook_bin" ] && [ "$("$hook_bin" --version)" = "platcheck $version" ] \
  || fail "the hook's environment has no platcheck $version"
echo "platcheck hook (rev: v$version, wheel $version): fails on bad.yaml, passes on good.yaml"

echo "-- pre-commit try-repo: the platcheck-system hook"
export PATH="$project/target/debug:$PATH"
system_repo="$work/system-repo"
mkdir -p "$system_repo"
git -C "$system_repo" init -q
cp tests/fixtures/pc/PC004/bad.yaml "$system_repo/bad.yaml"
good_contract "$system_repo/good.yaml"
git -C "$system_repo" add -A
export PRE_COMMIT_HOME="$work/pre-commit-home"
if (cd "$system_repo" && "$tools/pre-commit" try-repo "$project" platcheck-system --files bad.yaml >"$work/sys-bad.log" 2>&1); then
  cat "$work/sys-bad.log"
  fail "pre-commit passed on a violating contract"
fi
grep -q "PC004" "$work/sys-bad.log" || { cat "$work/sys-bad.log"; fail "no PC004 in the hook output"; }
(cd "$system_repo" && "$tools/pre-commit" try-repo "$project" platcheck-system --files good.yaml) >"$work/sys-good.log" 2>&1 \
  || { cat "$work/sys-good.log"; fail "pre-commit failed on a clean contract"; }
echo "platcheck-system hook: fails on bad.yaml, passes on good.yaml"

echo "-- cargo publish --dry-run"
dirty=()
if [ -n "$(git status --porcelain)" ]; then
  echo "(uncommitted changes: --allow-dirty)"
  dirty=(--allow-dirty)
fi
if ! cargo publish --dry-run --locked ${dirty[@]+"${dirty[@]}"} > "$work/publish.log" 2>&1; then
  cat "$work/publish.log"
  fail "cargo publish --dry-run failed"
fi
# Tests are left out of the crate on purpose (Cargo.toml include): say so once.
grep -v -e '^warning: ignoring test `' "$work/publish.log" || true
echo "integration: ok"
