#!/usr/bin/env bash
# eqmap grad against JAX (CPU, float64): installs JAX from PyPI into a virtual environment of
# its own (VENV, default target/jax-venv), builds eqmap, then runs benches/grad_vs_jax.py
# ("agree", "bench", or both when no argument is given).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-target/jax-venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet jax numpy
fi
cargo build --release --locked --bin eqmap --example grad_bench
EQMAP="${CARGO_TARGET_DIR:-target}/release/eqmap" GRAD_BENCH="${CARGO_TARGET_DIR:-target}/release/examples/grad_bench" "$VENV/bin/python" benches/grad_vs_jax.py "$@"
