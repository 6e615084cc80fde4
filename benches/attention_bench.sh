#!/usr/bin/env bash
# The attention line, eqmap against numpy, same machine, same thread count (a benchmark, not a
# test).
#
#   bash benches/attention_bench.sh [N...]
#
# N defaults to 128 512 1024 2048 (d_k = d_v = 64, f64). Environment: ROUNDS (default 5)
# rounds, each running eqmap (examples/attention_bench.rs) then numpy
# (benches/attention_numpy.py) once over all N, every process with THREADS (default 2)
# threads: MATMUL_NUM_THREADS and EQMAP_THREADS for eqmap, OPENBLAS_NUM_THREADS for numpy.
# OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset for numpy's command only (they slow a
# current OpenBLAS; see the machine notes). Each side reports its median of REPS (default 7)
# evaluations. Prints every round's times and ratio eqmap/numpy (below 1: eqmap faster), then
# per N the median ratio and the median GFLOP/s of each side. See BENCHMARKS.md, "Evaluation".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(128 512 1024 2048)
ROUNDS="${ROUNDS:-5}"
REPS="${REPS:-7}"
THREADS="${THREADS:-2}"

python3 -c 'import numpy' 2>/dev/null || pip install --quiet numpy threadpoolctl
cargo build --release --locked --example attention_bench >&2
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cp target/release/examples/attention_bench "$TMP/attention_bench"

for round in $(seq 1 "$ROUNDS"); do
  MATMUL_NUM_THREADS="$THREADS" EQMAP_THREADS="$THREADS" \
    "$TMP/attention_bench" --reps "$REPS" "${SIZES[@]}" | sed "s/^/round=$round /" >>"$TMP/eqmap.txt"
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS="$THREADS" \
    python3 benches/attention_numpy.py --reps "$REPS" "${SIZES[@]}" | sed "s/^/round=$round /" >>"$TMP/numpy.txt"
done

python3 - "$TMP/eqmap.txt" "$TMP/numpy.txt" <<'EOF'
import statistics, sys

def read(path):
    rows = {}
    for line in open(path):
        fields = dict(f.split("=", 1) for f in line.split()[0:1] + line.split()[2:] if "=" in f)
        fields["round"] = line.split()[0].split("=")[1]
        rows[(int(fields["round"]), int(fields["n"]))] = fields
    return rows

ours, theirs = read(sys.argv[1]), read(sys.argv[2])
print("| round | n | eqmap ms | numpy ms | ratio |")
print("|---|---|---|---|---|")
ratios, gf = {}, {}
for key in sorted(ours):
    a, b = float(ours[key]["eval_ms"]), float(theirs[key]["eval_ms"])
    ratios.setdefault(key[1], []).append(a / b)
    gf.setdefault(key[1], []).append((float(ours[key]["gflops"]), float(theirs[key]["gflops"])))
    print(f"| {key[0]} | {key[1]} | {a:.2f} | {b:.2f} | {a / b:.2f} |")
print()
print("| n | median ratio | eqmap GFLOP/s | numpy GFLOP/s | eqmap front (parse + shapes) ms |")
print("|---|---|---|---|---|")
for n in sorted(ratios):
    fronts = [float(ours[k]["front_ms"]) for k in ours if k[1] == n]
    print(f"| {n} | {statistics.median(ratios[n]):.2f} | {statistics.median(g[0] for g in gf[n]):.1f} "
          f"| {statistics.median(g[1] for g in gf[n]):.1f} | {statistics.median(fronts):.3f} |")
blas = next(iter(theirs.values())).get("blas", "?")
print(f"\nnumpy BLAS: {blas}")
EOF
