#!/bin/bash
# Times short commands of several builds of the bin, interleaved (one run of each in turn, REPS
# times), beside `node -e 0`, and prints each one's median wall and CPU time and largest peak RSS:
# `--version`, `--help`, `validate SUITE` and `run SUITE --mode replay`, each in a fresh folder.
# SUITE is a small suite, e.g. the suite-1 of `npm run bench -- --sizes 1 --runs 1 --keep`.
# Another build's bin runs from a copy of its apps/cli/{bin,dist,package.json} beside a
# node_modules link (the bundle's externals are resolved from there).
#
# usage: tools/bench/compare-startup.sh REPS SUITE BIN...
set -euo pipefail
reps=$1; suite=$(realpath "$2"); shift 2
bins=(); for bin in "$@"; do bins+=("$(realpath "$bin")"); done
set -- "${bins[@]}"
results=$(mktemp)
for _ in $(seq "$reps"); do
  for workload in node version help validate replay; do
    index=0
    for bin in "$@"; do
      index=$((index + 1))
      if [ "$workload" = node ] && [ "$index" -gt 1 ]; then continue; fi
      case $workload in
        node) command=(node -e 0); label="node -e 0" ;;
        version) command=(node "$bin" --version); label="#$index --version" ;;
        help) command=(node "$bin" --help); label="#$index --help" ;;
        validate) command=(node "$bin" validate "$suite"); label="#$index validate" ;;
        replay) command=(node "$bin" run "$suite" --mode replay --out out); label="#$index replay" ;;
      esac
      work=$(mktemp -d)
      (cd "$work" && NO_COLOR=1 /usr/bin/time -o "$work/time" -f "%e %U %S %M" "${command[@]}" >/dev/null 2>&1) || { echo "$label failed (see $work)" >&2; exit 2; }
      echo "$label|$(cat "$work/time")" >>"$results"; rm -rf "$work"
    done
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
index=0; for bin in "$@"; do index=$((index + 1)); echo "#$index = $bin"; done
awk -F'|' '{ split($2, v, " "); k = $1; n[k]++; w[k, n[k]] = v[1]; c[k, n[k]] = v[2] + v[3]; if (v[4] > m[k]) m[k] = v[4] }
  function med(a, k, n,   i, j, t, x) { for (i = 1; i <= n; i++) x[i] = a[k, i]
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
    return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2 }
  END { for (k in n) printf "%-14s runs %d  wall %.3f s  cpu %.3f s  peak RSS %.0f MiB\n", k, n[k], med(w, k, n[k]), med(c, k, n[k]), m[k] / 1024 }' "$results" | sort
rm -f "$results"
