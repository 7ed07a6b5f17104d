#!/usr/bin/env bash
# The real consumer test: packs parley-eval (apps/cli) with `npm pack`, installs the tarball with a
# plain `npm install <tarball>` into an empty project in a temporary folder outside this checkout,
# and uses it from there as a team would: `parley init --yes`, `parley validate .`, the booking
# example replayed offline (network refused), `parley tui --help`, and the programmatic API from
# TypeScript (type-checked against the shipped .d.ts) and JavaScript.
#
#   scripts/consumer-test.sh            # Node 22 and 24
#   scripts/consumer-test.sh 24         # one runtime
#   scripts/consumer-test.sh --tarball parley-eval-0.1.0.tgz 22   # a tarball packed already (the release workflow's)
#
# Needs the registry for the package's dependencies (as any `npm install` does); nothing else.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
given_tarball=""
if [ "${1:-}" = "--tarball" ]; then given_tarball="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2; fi
majors=("${@:-22 24}")
# shellcheck disable=SC2206
majors=(${majors[*]})

work="$(mktemp -d "${TMPDIR:-/tmp}/parley-consumer.XXXXXX")"
trap 'rm -rf "$work"' EXIT
case "$work/" in "$repo"/*) echo "consumer-test: $work is inside the checkout; set TMPDIR elsewhere" >&2; exit 2 ;; esac

step() { printf '\n== %s\n' "$*"; }

if [ -n "$given_tarball" ]; then
  cp "$given_tarball" "$work/"
else
  step "npm pack (apps/cli → parley-eval)"
  (cd "$repo/apps/cli" && PATH="$("$repo/scripts/fetch-node.sh" 22):$PATH" npm pack --silent --pack-destination "$work" >/dev/null)
fi
tarball="$(ls "$work"/parley-eval-*.tgz)"
echo "$(basename "$tarball"): $(du -k "$tarball" | cut -f1) KiB"

for major in "${majors[@]}"; do
  node_bin="$("$repo/scripts/fetch-node.sh" "$major")"
  project="$work/project-node$major"
  mkdir -p "$project"
  (
    export PATH="$node_bin:$PATH"
    cd "$project"
    step "node $(node --version): npm install <tarball> in an empty project ($project)"
    npm init -y >/dev/null
    npm install --no-audit --no-fund "$tarball"
    test ! -e node_modules/better-sqlite3/build   # prebuilt binary: nothing was compiled

    step "npx parley init --yes && npx parley validate ."
    npx parley init --yes
    npx parley validate .
    grep -q '^# yaml-language-server: \$schema=node_modules/parley-eval/schemas/suite.schema.json$' parley.yaml
    test -f node_modules/parley-eval/schemas/suite.schema.json

    step "a scaffolded module agent in a sub-folder, run live (the agent is the scaffold's own)"
    npx parley init module-suite --agent-kind module
    npx parley run module-suite --mode record --out reports/module-suite

    step "npx parley run booking (the example, replayed with the network refused)"
    cp -r "$repo/examples/booking" booking
    rm -rf booking/.parley
    PARLEY_NETWORK_LOG="$project/network.log" NODE_OPTIONS="--require $repo/apps/cli/src/test-support/no-network.cjs" \
      npx parley run booking --out reports/booking
    test ! -s network.log
    test -f reports/booking/report.json

    step "npx parley tui --help"
    npx parley tui --help | head -3

    step "programmatic API: TypeScript against the shipped .d.ts, then JavaScript"
    cat > api-check.mts <<'TS'
import { defineAgent, loadSuite, runSuite, type AgentTurn, type RunReport } from 'parley-eval';

export const respond = defineAgent(async (turn: AgentTurn) => ({ reply: `You said: ${turn.message}`, state: 'echo' }));
const suite = await loadSuite('booking');
const scenarioCount: number = suite.scenarios.length;
const outcome = await runSuite({ suitePath: 'booking', mode: 'replay', outDir: 'reports/api' });
const report: RunReport = outcome.report;
console.log(`${scenarioCount} scenarios, status ${report.status}, exit ${outcome.exit_code}`);
TS
    cat > tsconfig.json <<JSON
{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext", "target": "ES2023", "lib": ["ES2023"],
  "strict": true, "noEmit": true, "skipLibCheck": false, "types": ["node"], "typeRoots": ["$repo/node_modules/@types"] },
  "files": ["api-check.mts"] }
JSON
    node "$repo/node_modules/typescript/bin/tsc" -p tsconfig.json
    cat > api-check.mjs <<'JS'
import { loadSuite, runSuite } from 'parley-eval';
const suite = await loadSuite('booking');
const outcome = await runSuite({ suitePath: 'booking', mode: 'replay', outDir: 'reports/api' });
console.log(`${suite.scenarios.length} scenarios, status ${outcome.report.status}, exit ${outcome.exit_code}`);
if (outcome.exit_code !== 0) process.exit(1);
JS
    node api-check.mjs
  )
done
step "consumer test passed on Node ${majors[*]}"
