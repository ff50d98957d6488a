#!/usr/bin/env bash
# Runs platcheck for the composite action: annotations on stdout, SARIF to a
# file, the Markdown step summary, and the `findings` / `sarif-file` outputs.
# Inputs arrive only through the environment (see action.yml).
#
# The path inputs may come from a pull request (changed files): they are split
# into an array with globbing off and passed after `--`, and every option's
# value is bound with `=`, so no input can become a flag or a file glob
# (a file named `--output=gcc=platcheck.yaml` is checked, never obeyed).
set -euo pipefail
set -f

sarif="${PLATCHECK_SARIF:-platcheck.sarif}"
json="$(mktemp)"
trap 'rm -f -- "$json"' EXIT

args=(check --format=github "--fail-on=${PLATCHECK_FAIL_ON:-error}")
args+=("--output=sarif=$sarif" "--output=json=$json")
[ -n "${PLATCHECK_CONFIG:-}" ] && args+=("--config=$PLATCHECK_CONFIG")
[ -n "${PLATCHECK_BASE:-}" ] && args+=("--changed-since=$PLATCHECK_BASE")
# Whitespace- or newline-separated lists. `args` is the workflow author's own
# list of options, never a pull request's.
extra=()
paths=()
IFS=$' \t\n' read -r -d '' -a extra <<< "${PLATCHECK_ARGS:-}" || true
IFS=$' \t\n' read -r -d '' -a paths <<< "${PLATCHECK_PATHS:-}" || true

set +e
# ${a[@]+"${a[@]}"}: an empty array under `set -u` in the bash 3.2 of macOS.
platcheck "${args[@]}" ${extra[@]+"${extra[@]}"} -- ${paths[@]+"${paths[@]}"}
status=$?
set -e

# The launch-checklist report goes to the step summary after the check's
# own summary; it never changes the step's result.
case "${PLATCHECK_REPORT:-false}" in
  true)
    report=(report --compact --format=markdown)
    [ -n "${PLATCHECK_CONFIG:-}" ] && report+=("--config=$PLATCHECK_CONFIG")
    if [ -n "${GITHUB_SERVER_URL:-}" ] && [ -n "${GITHUB_REPOSITORY:-}" ] && [ -n "${GITHUB_SHA:-}" ]; then
      report+=("--links=$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/")
    fi
    if ! platcheck "${report[@]}" -- ${paths[@]+"${paths[@]}"} >> "${GITHUB_STEP_SUMMARY:-/dev/null}"; then
      echo "::warning title=platcheck::the launch-checklist report could not be written"
    fi
    ;;
  false | "") ;;
  *) echo "::warning title=platcheck::report must be true or false, not ${PLATCHECK_REPORT}; no report written" ;;
esac

findings=0
if [ -s "$json" ]; then
  # One `"rule":` key per finding in platcheck's JSON output (output.md).
  findings=$(grep -c '^      "rule": ' "$json" || true)
fi
{
  echo "findings=$findings"
  echo "sarif-file=$sarif"
} >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
exit "$status"
