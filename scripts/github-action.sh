#!/usr/bin/env bash
# The logic of Parley's GitHub Action (action.yml at the repository root), one subcommand per step:
#
#   install   installs parley-eval unless the project already has it: `npm ci` when package.json
#             lists it, else `npm install --no-save parley-eval@<version>` (input `version`, else
#             the version of this Action's release)
#   run       `parley run` with the inputs (suite, mode, shard, baseline, budget, args); the report
#             folder, exit code, status and artifact name go to $GITHUB_OUTPUT
#   merge     `parley merge-reports` over the shard reports downloaded to .parley/shards/
#   link      after the report folder was uploaded: a link to the artifact in the step summary,
#             saying how to open its report.html
#   gate      fails the step with parley's exit code (unless input `fail` is false), after the
#             report was uploaded
#
# `parley run` and `merge-reports` append summary.md to $GITHUB_STEP_SUMMARY themselves; when parley
# stops before writing a report (exit 2: a configuration error), this script writes the summary.
# Inputs come as INPUT_* variables (set by action.yml); PARLEY_NPM replaces `npm` (tests).
set -euo pipefail

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
npm_command="${PARLEY_NPM:-npm}"

output() { printf '%s=%s\n' "$1" "$2" >> "${GITHUB_OUTPUT:-/dev/null}"; }
summary() { printf '%s\n' "$@" >> "${GITHUB_STEP_SUMMARY:-/dev/null}"; }

install() {
  if [ -x node_modules/.bin/parley ]; then
    echo "parley-eval is installed in node_modules"
  elif [ -f package.json ] && node -e 'const p = require("./package.json"); process.exit(p.dependencies?.["parley-eval"] || p.devDependencies?.["parley-eval"] ? 0 : 1)'; then
    if [ -f package-lock.json ] || [ -f npm-shrinkwrap.json ]; then "$npm_command" ci --no-audit --no-fund; else "$npm_command" install --no-audit --no-fund; fi
  else
    local version="${INPUT_VERSION:-}"
    if [ -z "$version" ]; then version="$(node -p 'require(process.argv[1]).version' "$action_path/apps/cli/package.json")"; fi
    "$npm_command" install --no-save --no-audit --no-fund "parley-eval@$version"
  fi
}

# Runs parley with the given arguments, keeping its stderr for the summary; sets `code`.
run_parley() {
  local errors
  errors="$(mktemp)"
  set +e
  npx --no-install parley "$@" 2> "$errors"
  code=$?
  set -e
  cat "$errors" >&2
  stderr_tail="$(tail -n 20 "$errors")"
  rm -f "$errors"
}

# Writes the outputs of a finished run or merge whose report went to $1.
finish() {
  local out="$1" name="$2" status="error"
  if [ -f "$out/report.json" ]; then
    status="$(node -p 'require(process.argv[1]).status' "$(cd "$out" && pwd)/report.json")"
  else
    summary "### Parley: \`parley $3\` stopped with exit $code before writing a report" '' '```' "$stderr_tail" '```'
  fi
  output exit-code "$code"
  output status "$status"
  output artifact-name "$name"
  if [ -d "$out" ]; then output report-dir "$(cd "$out" && pwd)"; fi
  echo "parley $3: exit $code, status $status"
}

run() {
  local suite="${INPUT_SUITE:-.}" shard="${INPUT_SHARD:-}" name="parley-report"
  if [ -n "$shard" ]; then
    if ! [[ "$shard" =~ ^([0-9]+)/([0-9]+)$ ]]; then
      echo "::error::shard must look like 1/4, got '$shard'"
      code=2 stderr_tail="shard must look like 1/4, got '$shard'"
      finish ".parley/action/none" "$name" run
      return
    fi
    name="parley-shard-${BASH_REMATCH[1]}"
  fi
  local out=".parley/action/$name"
  rm -rf "$out"
  local args=(run "$suite" --mode "${INPUT_MODE:-replay}" --out "$out")
  if [ -n "$shard" ]; then args+=(--shard "$shard"); fi
  if [ -n "${INPUT_BASELINE:-}" ]; then args+=(--baseline "$INPUT_BASELINE"); fi
  if [ -n "${INPUT_BUDGET:-}" ]; then args+=(--budget "$INPUT_BUDGET"); fi
  local extra=()
  if [ -n "${INPUT_ARGS:-}" ]; then read -r -a extra <<< "$INPUT_ARGS"; fi
  run_parley "${args[@]}" "${extra[@]}"
  finish "$out" "$name" run
}

merge() {
  local shards="${INPUT_SHARDS_DIR:-.parley/shards}" out=".parley/action/parley-report"
  rm -rf "$out"
  local reports=()
  for report in "$shards"/*/report.json; do
    if [ -f "$report" ]; then reports+=("$(dirname "$report")"); fi
  done
  local extra=()
  if [ -n "${INPUT_ARGS:-}" ]; then read -r -a extra <<< "$INPUT_ARGS"; fi
  if [ "${#reports[@]}" -eq 0 ]; then
    echo "::error::no shard reports in $shards (upload them as parley-shard-* artifacts)"
    code=2 stderr_tail="no shard reports in $shards"
  else
    run_parley merge-reports "${reports[@]}" --out "$out" "${extra[@]}"
  fi
  finish "$out" parley-report merge-reports
}

link() {
  local dir="${PARLEY_REPORT_DIR:-}" name="${PARLEY_ARTIFACT_NAME:-parley-report}" url="${PARLEY_ARTIFACT_URL:-}"
  if [ -z "$dir" ] || [ ! -f "$dir/report.html" ]; then
    echo "no report.html to link"
    return 0
  fi
  local artifact="\`$name\`"
  if [ -n "$url" ]; then artifact="[$name]($url)"; fi
  summary '' "**HTML report**: the artifact $artifact holds \`report.html\`, the run as one page (failures first, each conversation with its judges' reasons): download it, unzip, open \`report.html\` in a browser, or run \`npx parley show-report .\` in the unzipped folder."
}

gate() {
  local code="${PARLEY_EXIT_CODE:-}"
  if [ -z "$code" ]; then
    echo "::error::parley did not run (see the steps above)"
    exit 2
  fi
  if [ "$code" != 0 ] && [ "${INPUT_FAIL:-true}" != false ]; then
    echo "::error::parley exited with $code (0 pass, 1 a blocking scenario failed or errored, 2 configuration error)"
    exit "$code"
  fi
  echo "parley exit code $code"
}

case "${1:-}" in
  install | run | merge | link | gate) "$1" ;;
  *) echo "usage: $0 install|run|merge|link|gate" >&2; exit 2 ;;
esac
