#!/usr/bin/env bash
# Two builds of eqmap's parser against each other on one core (a benchmark, not a test).
#
#   bash benches/ab_parse.sh BIN_A BIN_B [FILE]
#
# BIN_A and BIN_B are copies of target/release/examples/parse_bench from two commits (copy
# them aside: a rebuild would change them under the run). FILE defaults to
# ../shared/corpus-real/im2latex100k_norm_test_val.txt. Environment: PAIRS (default 8)
# invocations of each, alternated A, B, A, B…; ROUNDS (default 5) rounds each, of which the
# first is dropped; CPU (default 1) the core they are pinned to. Prints, for each side, the
# median, lowest and highest formulas per second of the kept rounds. On a noisy machine the
# alternation puts both sides through the same noise; quote the medians' ratio.
set -euo pipefail

A="${1:?usage: ab_parse.sh BIN_A BIN_B [FILE]}"
B="${2:?usage: ab_parse.sh BIN_A BIN_B [FILE]}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FILE="${3:-$ROOT/../shared/corpus-real/im2latex100k_norm_test_val.txt}"
PAIRS="${PAIRS:-8}"
ROUNDS="${ROUNDS:-5}"
CPU="${CPU:-1}"

for _ in $(seq "$PAIRS"); do
  for side in A B; do
    bin="$A"; [ "$side" = B ] && bin="$B"
    taskset -c "$CPU" "$bin" --rounds "$ROUNDS" "$FILE" | tail -n +2 | sed "s/^/$side /"
  done
done | awk '{
  for (i = 1; i <= NF; i++) if ($i ~ /^formulas_per_s=/) { split($i, kv, "="); print $1, kv[2] }
}' | sort -k1,1 -k2,2n | awk '
  { v[$1] = v[$1] " " $2; n[$1]++ }
  END {
    for (side in v) {
      split(v[side], x, " ")
      printf "%s median %d formulas/s (lowest %d, highest %d, %d rounds)\n", side, x[int((n[side] + 1) / 2)], x[1], x[n[side]], n[side]
    }
  }' | sort
