#!/usr/bin/env bash
# Parse throughput, eqmap against KaTeX, on one core (a benchmark, not a test).
#
#   bash benches/run-parse-bench.sh [FILE]
#
# FILE defaults to ../shared/corpus-real/im2latex100k_norm_test_val.txt (relative to the repo
# root). Environment: PAIRS (default 9) invocations of each side, alternated eqmap, katex,
# eqmap, katex...; ROUNDS (default 3) rounds per invocation, of which the first WARMUP
# (default 1) are discarded (KaTeX's JIT warms up in round 1). Every process is pinned to core
# CPU (default 0) with taskset. Prints each kept round as a Markdown table row with the ratio
# eqmap/katex (formulas per second), then the median ratio, then the peak RSS of one run each.
# See BENCHMARKS.md, section "Parsing".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
FILE="${1:-../shared/corpus-real/im2latex100k_norm_test_val.txt}"
PAIRS="${PAIRS:-9}"
ROUNDS="${ROUNDS:-3}"
WARMUP="${WARMUP:-1}"
CPU="${CPU:-0}"

if [ ! -r "$FILE" ]; then
  echo "run-parse-bench: cannot read $FILE" >&2
  exit 1
fi
if [ "$ROUNDS" -le "$WARMUP" ]; then
  echo "run-parse-bench: ROUNDS ($ROUNDS) must exceed WARMUP ($WARMUP)" >&2
  exit 2
fi

# Node side: install the pinned KaTeX if missing.
if [ ! -f benches/node_modules/katex/package.json ]; then
  (cd benches && { npm ci --no-audit --no-fund --loglevel=error || npm install --no-audit --no-fund --loglevel=error; })
fi
# Rust side.
cargo build --release --locked --example parse_bench >&2
# Run a private copy, so that a rebuild in the work tree during the run changes nothing.
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cp target/release/examples/parse_bench "$TMP/parse_bench"
EQMAP=("$TMP/parse_bench")
KATEX=(node benches/katex_parse.mjs)

if command -v taskset >/dev/null 2>&1; then
  PIN=(taskset -c "$CPU")
else
  echo "run-parse-bench: taskset not found, running unpinned" >&2
  PIN=()
fi

echo "# file: $FILE ($(grep -c . "$FILE") non-empty lines, $(wc -c <"$FILE") bytes)"
echo "# machine: nproc=$(nproc), cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), pinned: ${PIN[*]:-none}"
echo "# eqmap $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- src grammar Cargo.toml Cargo.lock 2>/dev/null || echo '+dirty'), $(rustc --version)"
echo "# katex $(node -p 'require("./benches/node_modules/katex/package.json").version'), node $(node --version)"
echo "# $PAIRS pairs x $ROUNDS rounds per process, first $WARMUP discarded"

LOG="$TMP/rounds.log"
for pair in $(seq 1 "$PAIRS"); do
  "${PIN[@]}" "${EQMAP[@]}" --rounds "$ROUNDS" "$FILE" | sed "s/^/pair=$pair /" | tee -a "$LOG"
  "${PIN[@]}" "${KATEX[@]}" --rounds "$ROUNDS" "$FILE" | sed "s/^/pair=$pair /" | tee -a "$LOG"
done

# Pair round r of eqmap invocation i with round r of katex invocation i.
awk -v warmup="$WARMUP" '
  function field(name,   i, kv) {
    for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) return kv[2] }
    return ""
  }
  {
    pair = field("pair"); round = field("round")
    if (round <= warmup) next
    key = pair "/" round
    if (!(key in seen)) { seen[key] = 1; keys[++n] = key }
    fps[$2, key] = field("formulas_per_s"); mbs[$2, key] = field("mb_per_s")
    ok[$2] = field("ok"); formulas = field("formulas")
  }
  function median(a, m,   i, j, t) {
    for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  }
  END {
    printf "\n| pair/round | eqmap formulas/s | eqmap MB/s | katex formulas/s | katex MB/s | eqmap/katex |\n"
    printf "|---|---:|---:|---:|---:|---:|\n"
    for (i = 1; i <= n; i++) {
      k = keys[i]
      r[i] = fps["eqmap", k] / fps["katex", k]
      e[i] = fps["eqmap", k]; em[i] = mbs["eqmap", k]; q[i] = fps["katex", k]; qm[i] = mbs["katex", k]
      printf "| %s | %d | %.3f | %d | %.3f | %.3f |\n", k, e[i], em[i], q[i], qm[i], r[i]
    }
    printf "| **median** | %d | %.3f | %d | %.3f | **%.3f** |\n", median(e, n), median(em, n), median(q, n), median(qm, n), median(r, n)
    printf "\nparsed ok: eqmap %s/%s, katex %s/%s\n", ok["eqmap"], formulas, ok["katex"], formulas
    printf "median ratio eqmap/katex (formulas/s): %.3f (target: >= 10)\n", median(r, n)
  }
' "$LOG"

# Peak resident memory of one single-round run of each side.
if [ -x /usr/bin/time ]; then
  for side in eqmap katex; do
    if [ "$side" = eqmap ]; then cmd=("${EQMAP[@]}"); else cmd=("${KATEX[@]}"); fi
    rss=$(/usr/bin/time -v "${PIN[@]}" "${cmd[@]}" --rounds 1 "$FILE" 2>&1 >/dev/null |
      awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }')
    echo "peak RSS, $side, one round: ${rss} KiB ($((rss / 1024)) MiB)"
  done
else
  echo "peak RSS: /usr/bin/time not found, skipped"
fi
