#!/usr/bin/env bash
# Captures each screen of `parley tui` at 80×24 in tmux from the offline examples, as Markdown
# (the screens in docs/tui.md come from here): scripts/capture-tui-screens.sh > /tmp/screens.md
# Needs tmux and a build (`npm run build`).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PARLEY="node $ROOT/apps/cli/bin/parley.js"
WORK="$(mktemp -d)"
SESSION="parley-capture-$$"
trap 'tmux kill-session -t "$SESSION" 2>/dev/null || true; rm -rf "$WORK"' EXIT

start() { # start DIR COMMAND... (at 80×24, or COLUMNS_ROWS="60 16" for another size)
  local dir="$1"; shift
  local size=(${COLUMNS_ROWS:-80 24})
  tmux kill-session -t "$SESSION" 2>/dev/null || true
  # Killing the last session makes the tmux server exit; a new session started in that instant can
  # meet the dying server ("server exited unexpectedly"): then it is started again.
  tmux new-session -d -s "$SESSION" -x "${size[0]}" -y "${size[1]}" -c "$dir" "env -u CI NO_COLOR=1 $*; sleep 600" 2>/dev/null ||
    { sleep 0.5; tmux new-session -d -s "$SESSION" -x "${size[0]}" -y "${size[1]}" -c "$dir" "env -u CI NO_COLOR=1 $*; sleep 600"; }
}
wait_for() { # wait_for PATTERN: until the screen shows it (at most 15 s)
  for _ in $(seq 1 300); do
    if tmux capture-pane -p -t "$SESSION" | grep -q -- "$1"; then return 0; fi
    sleep 0.05
  done
  echo "screen never showed: $1" >&2; tmux capture-pane -p -t "$SESSION" >&2; exit 1
}
wait_gone() { # wait_gone PATTERN: until the screen no longer shows it (at most 15 s)
  for _ in $(seq 1 300); do
    if ! tmux capture-pane -p -t "$SESSION" | grep -q -- "$1"; then return 0; fi
    sleep 0.05
  done
  echo "screen still shows: $1" >&2; tmux capture-pane -p -t "$SESSION" >&2; exit 1
}
keys() { tmux send-keys -t "$SESSION" "$@"; }
shot() { # shot TITLE
  printf '### %s\n\n```\n' "$1"
  tmux capture-pane -p -t "$SESSION"
  printf '```\n\n'
}

# A booking run with one failing blocking scenario, after a passing one.
cp -r "$ROOT/examples/booking" "$WORK/booking"
(cd "$WORK/booking" && $PARLEY run . > /dev/null 2>&1)
sed -i 's/required: \["BK-1042", "SKS4H7T2QX"\]/required: ["BK-1042", "SKS4H7T2QX", "BK-9999"]/' "$WORK/booking/scenarios/spa_booking_swahili_happy.yaml"
(cd "$WORK/booking" && $PARLEY run . > /dev/null 2>&1) || true
cp -r "$ROOT/examples/municipal" "$WORK/municipal"
(cd "$WORK/municipal" && $PARLEY run . > /dev/null 2>&1) || true
cp -r "$ROOT/calibration" "$WORK/calibration"

start "$WORK/municipal" $PARLEY tui
wait_for 'ticket_status'
shot 'Index: `parley tui` (examples/municipal after one run)'

start "$WORK/booking" $PARLEY tui
wait_for 'booking'
keys r; wait_for 'Enter  open run'
shot 'Runs: `r` on the index'
keys '?'; wait_for 'Keys · Runs'
shot 'Runs: every key of the screen (`?`)'
keys '?'; wait_gone 'Keys · Runs'
keys / f a i l Enter; wait_for 'match'
shot 'Runs: `/fail` Enter keeps the runs whose id, suite, status, mode or commit has `fail`'
keys Escape; wait_gone 'filter>'
keys Enter; wait_for 'Enter  open scenario'
shot 'Run: failing scenarios first'
keys Enter; wait_for 'Metrics ('
shot 'Scenario: the metric table against the baseline (`m`)'
keys t; wait_for 'Habari'
keys NPage; wait_for '/100'
shot 'Scenario: the transcript with per-message judge scores and reasons (`t`, then PgDn)'
keys Escape; wait_for 'Enter  open scenario'
keys / f a i l i n g Enter; wait_for 'matches)'
shot 'Run: `/failing` keeps the failures'
keys Down; wait_for '> fail adv'
keys Enter; wait_for 'Metrics ('
keys n; wait_for '✗ failed'
shot 'Scenario: `n` brings the first message a failure points at to the top'

start "$WORK/municipal" $PARLEY tui
wait_for 'ticket_status'
keys r; wait_for 'Enter  open run'
keys Enter; wait_for 'Enter  open scenario'
keys / g b v _ s u p p o r t _ e n Enter; wait_for '(1 match)'
keys Enter; wait_for 'Metrics ('
keys t; wait_for 'What it expects'
shot 'Scenario, metadata_only: the expectations from its file, not the conversation (`t`)'

start "$WORK/calibration" $PARLEY tui rate --reviewer demo --dir .
wait_for 'to do'
shot 'Rate: `parley tui rate --reviewer demo`'
keys 4 5; wait_for '\[5\]'
shot 'Rate: after `4 5` (focus on the third axis)'
keys r; wait_gone '1-5  rate'
shot 'Rate: the rubric (`r`)'
keys Escape; wait_for '1-5  rate'
keys '?'; wait_for 'Keys · Rate'
shot 'Rate: every key of the screen (`?`)'
keys '?'; wait_for '1-5  rate'
keys Escape; wait_for 'leave anyway'
shot 'Rate: Esc with scores not saved asks first'
keys n; wait_for 'kept rating'
keys 3 Enter; wait_for 'saved '
keys s Enter; wait_for 'skipped '
keys l; wait_for 'Items · demo'
shot 'Rate: the items (`l`): yours rated, skipped and to do, and how many each reviewer rated'
keys / c a l - 2 0 2 6 - 1 1 - 0 0; wait_for 'filter> cal-2026-11-00'
shot 'Rate: `/` in the item list (an id and Enter opens that item)'
keys Escape; wait_gone 'filter>'
keys g; wait_for '^> cal.*rated'
keys Enter; wait_for 'you rated this item'
shot 'Rate: an item you rated, opened from the list: Enter saves the changed scores over your rating'

# The same reviewer in a second terminal saves the item the first one already saved.
start "$WORK/calibration" $PARLEY tui rate --reviewer twice --dir .
wait_for 'to do'
tmux new-session -d -s "$SESSION-2" -x 80 -y 24 -c "$WORK/calibration" "env -u CI NO_COLOR=1 $PARLEY tui rate --reviewer twice --dir .; sleep 600"
for _ in $(seq 1 300); do tmux capture-pane -p -t "$SESSION-2" | grep -q 'to do' && break; sleep 0.05; done
tmux send-keys -t "$SESSION-2" 2 2 2 Enter
for _ in $(seq 1 300); do tmux capture-pane -p -t "$SESSION-2" | grep -q 'saved ' && break; sleep 0.05; done
tmux kill-session -t "$SESSION-2"
keys 4 5 3 Enter; wait_for 'meanwhile'
shot 'Rate: the same reviewer saved this item in another terminal meanwhile'

COLUMNS_ROWS="60 16" start "$WORK/calibration" $PARLEY tui rate --reviewer demo --dir .
wait_for 'terminal too small'
shot 'Any screen below 80×24 (here 60×16)'

# The example calibration folder after `parley calibrate report` (the judge calls replayed into
# .parley/parley.db), so that the kappa screen can list the items behind a matrix cell.
mkdir -p "$WORK/kappa"
cp -r "$ROOT/calibration" "$WORK/kappa/calibration"
rm -rf "$WORK/kappa/calibration/reports"
(cd "$WORK/kappa" && $PARLEY calibrate report --dir calibration > /dev/null 2>&1) || true
start "$WORK/kappa" $PARLEY tui kappa --dir calibration
wait_for 'rev-b '
shot 'Kappa: `parley tui kappa`'
keys Tab; wait_for '> response_naturalness'
keys Tab; wait_for '> cultural_appropriateness'
shot 'Kappa: `Tab` to cultural_appropriateness (the cursor starts on the commonest disagreement)'
keys Enter; wait_for 'judge gave'
shot 'Kappa: `Enter` on a matrix cell lists the items behind it'
keys Escape; wait_for 'JUDGE VS HUMAN'
keys c; wait_for 'CROSS-CHECK VS HUMAN'
keys c; wait_for 'JUDGE VS CROSS-CHECK'
keys c; wait_for 'HUMAN VS HUMAN'
shot 'Kappa: `c` to human vs human, the ceiling, with each reviewer against the other'

start "$WORK/booking" $PARLEY tui run .
wait_for 'exit '
shot 'Live run: `parley tui run .` when the run is over'

# A live run against the fake LLM, slowed down, to catch it in the middle.
{ cat "$WORK/booking/fake-llm.yaml"; printf '\ndefaults: { latency_ms: 300 }\n'; } > "$WORK/slow-fake-llm.yaml"
node "$ROOT/tools/fake-llm/dist/cli.js" --script "$WORK/slow-fake-llm.yaml" --port 8791 > /dev/null 2>&1 &
FAKE_PID=$!
trap 'kill $FAKE_PID 2>/dev/null || true; tmux kill-session -t "$SESSION" 2>/dev/null || true; rm -rf "$WORK"' EXIT

# Re-run from triage: the failing scenario of the newest run, live against the fake LLM.
start "$WORK/booking" OPENAI_BASE_URL=http://127.0.0.1:8791/v1 ANTHROPIC_BASE_URL=http://127.0.0.1:8791 OPENAI_API_KEY=fake ANTHROPIC_API_KEY=fake $PARLEY tui
wait_for 'booking'
keys r; wait_for 'Enter  open run'
keys Enter; wait_for 'Enter  open scenario'
keys Enter; wait_for 'Metrics ('
keys R; wait_for 'est. cost'
keys m; wait_for 'against the models'
shot 'Re-run: `R` on the failing scenario, then `m` for live: the estimated cost before anything runs'
keys Enter; wait_for 'after (re-run)'
shot 'Re-run: the new result beside the old (Enter opens it)'

start "$WORK/booking" OPENAI_BASE_URL=http://127.0.0.1:8791/v1 ANTHROPIC_BASE_URL=http://127.0.0.1:8791 OPENAI_API_KEY=fake ANTHROPIC_API_KEY=fake \
  $PARLEY tui run . --mode live --judge live --out "$WORK/live-out"
wait_for 'running'
wait_for 'Failures\|[1-9]/8 done'
shot 'Live run: `parley tui run . --mode live` in the middle (against the fake LLM, slowed down)'
