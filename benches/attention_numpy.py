"""The attention line in numpy, f64, timed the same way as examples/attention_bench.rs.

    python3 benches/attention_numpy.py [--reps R] N...

For each N (default 128 512 1024 2048), d_k = d_v = 64, entries from N(0, 1), it evaluates
softmax(Q K^T / sqrt(d_k)) V with the usual stable row softmax (subtract the row max, exp,
divide by the row sum) R times (default 7) and prints the median, in the same format as the
Rust side:

    numpy n=512 d=64 eval_ms=5.100 gflops=3.29 blas=openblas/SkylakeX/2

GFLOP/s counts the two products, 4 n^2 d floating-point operations.
"""

import sys
import time

import numpy as np

D = 64


def attention(q, k, v):
    s = q @ k.T / np.sqrt(q.shape[1])
    s -= s.max(axis=1, keepdims=True)
    e = np.exp(s)
    e /= e.sum(axis=1, keepdims=True)
    return e @ v


def blas():
    try:
        from threadpoolctl import threadpool_info

        info = [i for i in threadpool_info() if i.get("user_api") == "blas"]
        if info:
            i = info[0]
            return f"{i['internal_api']}/{i.get('architecture')}/{i['num_threads']}"
    except ImportError:
        pass
    return "unknown"


def main(argv):
    reps, sizes = 7, []
    args = iter(argv)
    for arg in args:
        if arg == "--reps":
            reps = int(next(args))
        else:
            sizes.append(int(arg))
    sizes = sizes or [128, 512, 1024, 2048]
    rng = np.random.default_rng(42)
    for n in sizes:
        q, k, v = (rng.standard_normal((n, D)) for _ in range(3))
        times = []
        for _ in range(reps):
            start = time.perf_counter()
            out = attention(q, k, v)
            times.append(time.perf_counter() - start)
        times.sort()
        t = times[len(times) // 2]
        gflops = 4 * n * n * D / t / 1e9
        print(f"numpy n={n} d={D} eval_ms={t * 1e3:.3f} gflops={gflops:.2f} blas={blas()} checksum={out.sum():.6f}")


if __name__ == "__main__":
    main(sys.argv[1:])
