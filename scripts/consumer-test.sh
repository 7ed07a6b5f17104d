#!/usr/bin/env bash
# The real consumer test: packs parley-eval (apps/cli) with `npm pack`, installs the tarball with a
# plain `npm install <tarball>` into empty projects inside a git repository in a temporary folder
# outside this checkout (one at the repository's root, one in a sub-folder as in a monorepo), and
# uses it there as a newcomer would: `parley init` for all seven agent kinds (at the root without
# --github, in the sub-folder with it), every next step init prints executed as printed (the
# record step against tools/fake-llm, the http stub in the background), each suite green offline
# with the network refused, the workflow linted with actionlint, the booking example replayed,
# `parley tui --help`, the API snippets of docs/getting-started.md compiled under tsc --strict without
# @types/node in an ES module and a CommonJS project, then run, and the pasted steps of the README
# and docs/getting-started.md (their `<!-- pasted: project -->` shell blocks) executed as written;
# with PARLEY_TEST_DATABASE_URL (CI), the booking example run into a fresh PostgreSQL database and
# listed from another folder, and the local booking run copied into it and back.
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

kinds=(openai openai-responses anthropic openai-compatible http command module)
no_network="--require $repo/apps/cli/src/test-support/no-network.cjs"

# One step, as printed or pasted: a record step against tools/fake-llm (AGENT_URL for an http stub),
# or any other step with the network refused and no keys (a network attempt fails the test).
record_step() {
  echo "\$ $1   (against tools/fake-llm)"
  AGENT_URL="${2:-}" OPENAI_API_KEY=sk-consumer-test ANTHROPIC_API_KEY=sk-ant-consumer-test \
    OPENAI_BASE_URL="$fake_url/v1" ANTHROPIC_BASE_URL="$fake_url" bash -c "$1" >/dev/null
}
offline_step() {
  echo "\$ $1   (network refused, no keys)"
  rm -f network.log
  PARLEY_NETWORK_LOG="$PWD/network.log" NODE_OPTIONS="$no_network" env -u OPENAI_API_KEY -u ANTHROPIC_API_KEY bash -c "$1" >/dev/null
  test ! -s network.log
}

# Runs the next steps `parley init` printed (its command lines: npx, node, git, indented by four
# under a line saying what each does), as printed, in bash. The first, `npx parley run` (a replay),
# runs with the network refused and no keys: green at once, offline. The http stub's line (to
# start "in a second terminal") runs in the background until the
# steps end, on a free port given to the suite as AGENT_URL; the record step of prompt kinds talks
# to tools/fake-llm (OPENAI_BASE_URL / ANTHROPIC_BASE_URL). Quick mode runs only the replay.
run_printed_steps() {
  local printed=$1 mode=$2 stub_pid="" port=$((20000 + RANDOM % 20000))
  while IFS= read -r line; do
    local command="${line#    }"
    case "$line" in
      "    node "*"/http-agent.mjs")
        echo "\$ $command &"
        PORT=$port bash -c "exec $command" >"$work/stub.out" 2>&1 </dev/null &
        stub_pid=$!
        for _ in $(seq 1 150); do grep -q 'listening on' "$work/stub.out" && break; sleep 0.2; done
        grep -q 'listening on' "$work/stub.out" || { cat "$work/stub.out"; return 1; }
        ;;
      "    npx parley run "*"--mode record"*) record_step "$command" "http://127.0.0.1:$port" ;;
      "    npx parley run"*) offline_step "$command" ;;
      *)
        echo "\$ $command"
        bash -c "$command" >/dev/null
        ;;
    esac
    [ "$mode" = quick ] && break
  done < <(sed -n '/^next/,$p' <<<"$printed" | grep -E '^    (npx|node|git) ')
  if [ -n "$stub_pid" ]; then kill "$stub_pid" 2>/dev/null || true; wait "$stub_pid" 2>/dev/null || true; fi
}

# init of every kind in the current folder (a project), and its printed steps run.
init_all_kinds() {
  local github_flag=$1 mode=$2
  for kind in "${kinds[@]}"; do
    step "npx parley init suite-$kind --agent-kind $kind $github_flag  ($(pwd | sed "s|$work/||"))"
    local printed
    printed="$(npx parley init "suite-$kind" --agent-kind "$kind" $github_flag)"
    grep -q '^parley init: a suite with one' <<<"$printed"
    run_printed_steps "$printed" "$mode"
  done
}

step "tools/fake-llm for the record steps"
fake_log="$work/fake-llm.out"
# One friendly answer to every model call: the scaffold's expectations hold for it.
printf 'rules:\n  - name: any\n    reply: { content: "Hello! I can tell you about our opening hours and prices. What would you like to know?" }\n' > "$work/fake-llm.yaml"
PATH="$("$repo/scripts/fetch-node.sh" 22):$PATH" node "$repo/tools/fake-llm/dist/cli.js" --script "$work/fake-llm.yaml" >"$fake_log" 2>&1 &
fake_pid=$!
trap 'kill $fake_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do grep -qs 'listening on' "$fake_log" && break; sleep 0.1; done
fake_url="$(grep -o 'http://[^ ]*' "$fake_log" | head -1)"
echo "fake-llm at $fake_url"

# The two TypeScript snippets of docs/getting-started.md, written out as files.
readme_snippet() {
  node -e '
    const text = require("fs").readFileSync(process.argv[1], "utf8");
    const at = text.indexOf("<!-- snippet: " + process.argv[2]);
    if (at < 0) { console.error("docs/getting-started.md has no snippet " + process.argv[2]); process.exit(1); }
    const start = text.indexOf("```ts\n", at) + 6;
    process.stdout.write(text.slice(start, text.indexOf("```\n", start)));
  ' "$repo/docs/getting-started.md" "$1"
}

# The shell blocks the README and docs/getting-started.md mark `<!-- pasted: project -->`, executed
# line by line as written in a fresh project of the git repository (one per file), the tarball's
# path put where the docs say /path/to/parley-eval-<version>.tgz. Record steps talk to
# tools/fake-llm; init runs with no keys (it records its starter conversation from a scripted
# responder on 127.0.0.1); every other parley step runs with the network refused and no keys.
run_pasted_steps() {
  local doc=$1 project
  project="$(pwd)/pasted-$(basename "$doc" .md)"
  mkdir -p "$project"
  (
    cd "$project"
    npm init -y >/dev/null
    local count=0
    while IFS= read -r command; do
      command="$(sed -E "s#/path/to/parley-eval-[0-9][0-9.]*\.tgz#$tarball#g" <<<"$command")"
      count=$((count + 1))
      case "$command" in
        *"--mode record"*) record_step "$command" ;;
        "npx parley init"*)
          echo "\$ $command   (no keys)"
          env -u OPENAI_API_KEY -u ANTHROPIC_API_KEY bash -c "$command" >/dev/null
          ;;
        "npx parley "*) offline_step "$command" ;;
        *)
          echo "\$ $command"
          bash -c "$command" >/dev/null
          ;;
      esac
    done < <(node "$repo/scripts/docs/shell-blocks.mjs" project "$doc")
    [ "$count" -gt 0 ] || { echo "$doc has no pasted: project block" >&2; exit 1; }
  )
}

for major in "${majors[@]}"; do
  node_bin="$("$repo/scripts/fetch-node.sh" "$major")"
  repository="$work/repo-node$major"
  mkdir -p "$repository/packages/assistant"
  (
    export PATH="$node_bin:$PATH"
    started=$SECONDS
    cd "$repository"
    git init -q . && git config user.email consumer@test && git config user.name consumer
    step "node $(node --version): npm install <tarball> in an empty project at the git root ($repository)"
    npm init -y >/dev/null
    npm install --no-audit --no-fund "$tarball"
    test ! -e node_modules/better-sqlite3/build   # prebuilt binary: nothing was compiled
    # Every printed step on the first runtime; on the next, each kind's offline replay (CI time).
    mode=full; [ "$major" != "${majors[0]}" ] && mode=quick
    init_all_kinds "" "$mode"
    test ! -e .github
    grep -q '^# yaml-language-server: \$schema=../../node_modules/parley-eval/schemas/scenario.schema.json$' suite-openai/scenarios/first_conversation.yaml
    test -f node_modules/parley-eval/schemas/suite.schema.json

    step "node $(node --version): the same in a sub-folder project (packages/assistant), with --github"
    cd packages/assistant
    npm init -y >/dev/null
    npm install --no-audit --no-fund "$tarball" >/dev/null
    init_all_kinds "--github" "$mode"
    test ! -e .github && test -f "$repository/.github/workflows/parley.yml"
    grep -q 'working-directory: packages/assistant' "$repository/.github/workflows/parley.yml"
    grep -q '^# yaml-language-server: \$schema=../../node_modules/parley-eval/schemas/scenario.schema.json$' suite-module/scenarios/first_conversation.yaml

    step "actionlint on the workflow init wrote"
    node "$repo/scripts/lint-workflows.mjs" "$repository/.github/workflows/parley.yml"

    step "npx parley run booking (the example, replayed with the network refused)"
    cd "$repository"
    cp -r "$repo/examples/booking" booking
    rm -rf booking/.parley
    PARLEY_NETWORK_LOG="$repository/network.log" NODE_OPTIONS="$no_network" npx parley run booking --out reports/booking >/dev/null
    test ! -s network.log
    test -f reports/booking/report.json

    if [ -n "${PARLEY_TEST_DATABASE_URL:-}" ]; then
      step "the team store: pg comes with the package; parley run with PARLEY_DATABASE_URL (a fresh database on CI's PostgreSQL), runs list elsewhere; the local run copied in and back"
      team_db="parley_consumer_node${major}_$$"
      team_url="${PARLEY_TEST_DATABASE_URL%/*}/$team_db"
      # With the pg the package installed (node_modules/pg beside parley-eval).
      admin() { node -e 'const pg = require("pg"); const c = new pg.Client(process.argv[1]); c.connect().then(() => c.query(process.argv[2])).then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });' "$PARLEY_TEST_DATABASE_URL" "$1"; }
      admin "CREATE DATABASE $team_db"
      mkdir -p team-run team-list
      cp -r booking team-run/booking
      rm -rf team-run/booking/.parley
      (cd team-run && PARLEY_DATABASE_URL="$team_url" npx parley run booking --out reports >/dev/null && test ! -e .parley/parley.db)
      (cd team-list && PARLEY_DATABASE_URL="$team_url" npx parley runs list --format json | grep -q '"suite": "ratiba_booking"')
      npx parley store copy --to "$team_url" --merge 2>/dev/null
      mkdir -p team-back
      (cd team-back && npx parley store copy --from "$team_url" >/dev/null 2>&1 && npx parley runs list --format json | grep -q '"suite": "ratiba_booking"')
      admin "DROP DATABASE $team_db"
    fi

    step "npx parley tui --help"
    npx parley tui --help | head -3

    step "the API snippets of docs/getting-started.md: tsc --strict, no @types/node, ES module and CommonJS projects; then run"
    for type in module commonjs; do
      project="$repository/api-$type"
      mkdir -p "$project/agents" "$project/node_modules"
      ln -s "$repository/node_modules/parley-eval" "$project/node_modules/parley-eval"
      ln -s "$repository/node_modules/zod" "$project/node_modules/zod"
      printf '{ "name": "api-%s", "type": "%s" }\n' "$type" "$type" > "$project/package.json"
      readme_snippet module-agent > "$project/agents/agent.mts"
      check="check.mts"; [ "$type" = commonjs ] && check="check.ts"
      readme_snippet run-from-code > "$project/$check"
      # No "lib" (the default, with the DOM's URL and AbortSignal that zod's types name) and no
      # Node types: "types": [] keeps @types/node out even if one is installed somewhere above.
      printf '{ "compilerOptions": { "module": "nodenext", "moduleResolution": "nodenext", "target": "es2023", "strict": true, "noEmit": true, "skipLibCheck": false, "types": [] }, "include": ["agents/agent.mts", "%s"] }\n' "$check" > "$project/tsconfig.json"
      (cd "$project" && node "$repo/node_modules/typescript/bin/tsc" -p tsconfig.json)
      echo "$type: compiles"
    done
    cp -r booking api-module/booking
    (cd api-module/booking && node -e "import('../check.mts').then((m) => m.check()).then((line) => { console.log(line); if (!/pass \(exit 0\)/.test(line)) process.exit(1); })")
    if [ "$mode" = full ]; then
      for doc in README.md docs/getting-started.md; do
        step "the pasted steps of $doc (its pasted: project blocks), in a fresh project of the git repository"
        run_pasted_steps "$doc"
      done
    fi
    echo "node $(node --version): consumer test took $((SECONDS - started)) s"
  )
done
step "consumer test passed on Node ${majors[*]}"
