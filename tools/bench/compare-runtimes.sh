#!/bin/bash
# Replays suites on several runtimes in turn (one run of each, REPS times), so a machine whose
# speed drifts affects them alike, and prints each runtime's median wall time, CPU time and peak
# RSS. Suites come from `npm run bench -- --sizes N --runs 1 --keep` (their suite-N folders).
#
# usage: tools/bench/compare-runtimes.sh REPS LABEL=NODE_BINARY:PARLEY_BIN:SUITE_DIR ...
# e.g.   tools/bench/compare-runtimes.sh 7 \
#          node22="$(scripts/fetch-node.sh 22)/node:apps/cli/bin/parley.js:/tmp/parley-bench-x/suite-1000" \
#          node24="$(scripts/fetch-node.sh 24)/node:apps/cli/bin/parley.js:/tmp/parley-bench-x/suite-1000"
set -euo pipefail
reps=$1; shift
results=$(mktemp)
for _ in $(seq "$reps"); do
  for entry in "$@"; do
    label=${entry%%=*}; spec=${entry#*=}
    IFS=: read -r node bin suite <<<"$spec"
    bin=$(realpath "$bin"); suite=$(realpath "$suite")
    work=$(mktemp -d)
    (cd "$work" && PATH="$(dirname "$node"):$PATH" NO_COLOR=1 /usr/bin/time -o "$work/time" -f "$label %e %U %S %M" \
      "$node" "$bin" run "$suite" --mode replay --out out >/dev/null 2>&1) || { echo "$label: run failed (see $work)" >&2; exit 2; }
    cat "$work/time" >>"$results"; rm -rf "$work"
  done
done
printf '%-10s %5s %10s %9s %9s\n' runtime runs 'wall (s)' 'cpu (s)' 'RSS MiB'
for entry in "$@"; do
  label=${entry%%=*}
  awk -v l="$label" '$1 == l { n++; w[n] = $2; c[n] = $3 + $4; if ($5 > m) m = $5 }
    function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    END { printf "%-10s %5d %10.2f %9.2f %9.0f\n", l, n, median(w, n), median(c, n), m / 1024 }' "$results"
done
rm -f "$results"
