#!/usr/bin/env bash
# Batch annotation: wall time and peak memory of `eqmap batch`, next to KaTeX's time to only
# parse the same lines, in the same run (a benchmark, not a test).
#
#   bash benches/batch_bench.sh [FILE]
#
# FILE defaults to ../shared/corpus-real/im2latex100k_norm_test_val.txt (relative to the repo
# root). Environment: PAIRS (default 9: fewer medians drift with this machine's load) alternated
# runs of eqmap and KaTeX on FILE; JOBS
# (default: all cores) threads for eqmap. Every run is measured with /usr/bin/time -v (wall
# clock, user and system CPU, peak resident set size). Then, once each: eqmap on one thread,
# on the shipped corpus (corpus/), and on FILE repeated 10 times (memory must stay flat);
# with MILLION=1 also on 1,000,000 short lines (d2l_inline.txt cycled, about a minute).
# Records go to /dev/null; the record count comes from the JSON summary. With AB="BIN …",
# each of those other eqmap binaries (builds of other commits, copied aside) runs in every
# pair too, after this tree's, for an A/B comparison in the same run. See BENCHMARKS.md,
# section "Batch".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
FILE="${1:-../shared/corpus-real/im2latex100k_norm_test_val.txt}"
PAIRS="${PAIRS:-9}"
JOBS="${JOBS:-$(nproc)}"

if [ ! -r "$FILE" ]; then
  echo "batch_bench: cannot read $FILE" >&2
  exit 1
fi
if [ ! -x /usr/bin/time ]; then
  echo "batch_bench: /usr/bin/time not found (apt-get install time)" >&2
  exit 1
fi
if [ ! -f benches/node_modules/katex/package.json ]; then
  (cd benches && { npm ci --no-audit --no-fund --loglevel=error || npm install --no-audit --no-fund --loglevel=error; })
fi
cargo build --release --locked >&2
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
# A private copy, so that a rebuild in the work tree during the run changes nothing.
cp target/release/eqmap "$TMP/eqmap"

# measure LABEL CMD...: runs CMD under /usr/bin/time -v, prints one Markdown row.
measure() {
  local label="$1"
  shift
  /usr/bin/time -v -o "$TMP/time" "$@" >"$TMP/stdout" 2>"$TMP/stderr"
  local wall user sys rss records
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$TMP/time")
  user=$(awk -F': ' '/User time/ { print $2 }' "$TMP/time")
  sys=$(awk -F': ' '/System time/ { print $2 }' "$TMP/time")
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$TMP/time")
  if [ -s "$TMP/summary.json" ]; then
    records=$(awk -F': ' '/"records"/ { gsub(/,/, "", $2); print $2; exit }' "$TMP/summary.json")
  else
    records=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^formulas=/) { split($i, kv, "="); print kv[2] } }' "$TMP/stdout")
  fi
  rm -f "$TMP/summary.json"
  printf '| %s | %s | %.2f | %.2f | %.1f |\n' "$label" "$records" "$wall" "$(echo "$user + $sys" | bc)" "$(echo "$rss / 1024" | bc -l)"
  echo "$wall" >"$TMP/last_wall"
}

EQMAP_BATCH=("$TMP/eqmap" batch --summary "$TMP/summary.json" --summary-format json)
read -r -a OTHERS <<<"${AB:-}"

echo "# file: $FILE ($(grep -c . "$FILE") non-empty lines, $(wc -c <"$FILE") bytes)"
echo "# machine: nproc=$(nproc), cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# eqmap $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- src grammar data Cargo.toml Cargo.lock 2>/dev/null || echo '+dirty'), $(rustc --version)"
echo "# katex $(node -p 'require("./benches/node_modules/katex/package.json").version'), node $(node --version)"
echo
echo "| run | records | wall s | CPU s (user+sys) | peak RSS MiB |"
echo "|---|---:|---:|---:|---:|"
for pair in $(seq 1 "$PAIRS"); do
  measure "eqmap batch, $JOBS threads ($pair)" "${EQMAP_BATCH[@]}" --jobs "$JOBS" "$FILE"
  echo "$(cat "$TMP/last_wall")" >>"$TMP/eqmap_walls"
  for other in "${!OTHERS[@]}"; do
    measure "${OTHERS[$other]} batch, $JOBS threads ($pair)" "${OTHERS[$other]}" batch --summary "$TMP/summary.json" --summary-format json --jobs "$JOBS" "$FILE"
    echo "$(cat "$TMP/last_wall")" >>"$TMP/other_walls_$other"
  done
  measure "KaTeX parse only ($pair)" node benches/katex_parse.mjs --rounds 1 "$FILE"
  echo "$(cat "$TMP/last_wall")" >>"$TMP/katex_walls"
  katex_seconds=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^seconds=/) { split($i, kv, "="); print kv[2] } }' "$TMP/stdout")
  echo "$katex_seconds" >>"$TMP/katex_parse_seconds"
done
measure "eqmap batch, 1 thread" "${EQMAP_BATCH[@]}" --jobs 1 "$FILE"
for i in $(seq 1 10); do cat "$FILE"; done >"$TMP/repeated.txt"
measure "eqmap batch, $JOBS threads, FILE x10" "${EQMAP_BATCH[@]}" --jobs "$JOBS" "$TMP/repeated.txt"
measure "eqmap batch corpus/, $JOBS threads" "${EQMAP_BATCH[@]}" --jobs "$JOBS" corpus/
SHORT=../shared/corpus-real/d2l_inline.txt
if [ "${MILLION:-0}" = 1 ] && [ -r "$SHORT" ]; then
  awk 'NF { a[++n] = $0 } END { for (i = 0; i < 1000000; i++) print a[i % n + 1] }' "$SHORT" >"$TMP/million.txt"
  measure "eqmap batch, 1,000,000 short lines (d2l_inline cycled)" "${EQMAP_BATCH[@]}" --jobs "$JOBS" "$TMP/million.txt"
fi

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
eq=$(median <"$TMP/eqmap_walls")
kw=$(median <"$TMP/katex_walls")
kp=$(median <"$TMP/katex_parse_seconds")
echo
echo "median wall: eqmap batch ${eq} s; KaTeX process ${kw} s, of which parsing ${kp} s (its own timer)"
echo "ratio eqmap batch wall / KaTeX parse time: $(echo "$eq / $kp" | bc -l | cut -c1-5) (target: <= 0.2, and under 0.3 s)"
for other in "${!OTHERS[@]}"; do
  ow=$(median <"$TMP/other_walls_$other")
  echo "${OTHERS[$other]}: median wall ${ow} s, / KaTeX parse time $(echo "$ow / $kp" | bc -l | cut -c1-5), this tree / it $(echo "$eq / $ow" | bc -l | cut -c1-5)"
done
