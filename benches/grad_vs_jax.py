"""eqmap grad against JAX (CPU, float64): the same formulas, written as code, on the same inputs.

Run by benches/grad_vs_jax.sh, which installs JAX in a virtual environment of its own.

    agree   — for the attention line, masked attention, layer norm, cross entropy, multi-head
              attention and an MLP: the largest difference between eqmap's gradients and JAX's,
              relative to the largest gradient entry (the issue asks for 1e-10).
    bench   — the attention line's gradients with respect to Q, K and V at n = 512, 1024,
              2048, d_k = 64, in one run: JAX's jit-compiled value_and_grad (compile excluded,
              the call alone); eqmap's library call alone (examples/grad_bench: GradSession::
              finish, the tape's forward pass and the backward pass, and Session::evaluate of
              the line, the forward pass alone); and eqmap's whole processes (`eqmap grad` and
              `eqmap eval`: start, parsing, sampling Q, K, V, the passes, JSON written). Each
              the best of a few runs; the threads each uses are printed (CPU time / wall time).
"""

import json
import os
import subprocess
import sys
import tempfile
import time

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)

EQMAP = os.environ.get("EQMAP", "target/release/eqmap")
GRAD_BENCH = os.environ.get("GRAD_BENCH", "target/release/examples/grad_bench")
ATTENTION = r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right)V"


def number(v):
    v = float(v)
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def as_json(x):
    """x as eqmap's --let reads it: numbers, arrays, "inf" and "-inf" for infinities."""
    x = np.asarray(x)
    if x.ndim == 3:
        return json.dumps([[[number(v) for v in row] for row in m] for m in x])
    if x.ndim == 2:
        return json.dumps([[number(v) for v in row] for row in x])
    if x.ndim == 1:
        return json.dumps([number(v) for v in x])
    return json.dumps(number(x))


def eqmap_grad(lines, values, dims, wrt, cotangent=None):
    """Runs eqmap grad on `lines` with `values` bound through files; returns its JSON."""
    with tempfile.TemporaryDirectory() as folder:
        args = [EQMAP, "grad", "-", "--format", "json", "--max-steps", "2000000000"]
        for name, value in values.items():
            path = os.path.join(folder, name + ".json")
            with open(path, "w") as f:
                f.write(as_json(value))
            args += ["--let", f"{name}=@{path}"]
        for name, size in dims.items():
            args += ["--dim", f"{name}={size}"]
        for name in wrt:
            args += ["--wrt", name]
        if cotangent is not None:
            args += ["--cotangent", as_json(cotangent)]
        run = subprocess.run(args, input="\n".join(lines) + "\n", capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"eqmap failed on {lines}: {run.stderr}")
        return json.loads(run.stdout)


def compare(name, lines, values, dims, wrt, f, cotangent=None):
    """eqmap's gradients of `lines` against jax.grad of L = Σ G ⊙ f(values)."""
    out = eqmap_grad(lines, values, dims, wrt, cotangent)
    keys = list(values)

    def loss(*args):
        y = f(**dict(zip(keys, args)))
        return jnp.sum(y * cotangent) if cotangent is not None else y

    positions = [keys.index(w) for w in wrt]
    grads = jax.grad(loss, argnums=positions)(*[jnp.asarray(values[k]) for k in keys])
    worst = 0.0
    for w, g in zip(wrt, grads):
        ours = np.asarray(out["gradients"][w], dtype=float)
        theirs = np.asarray(g)
        scale = max(1.0, float(np.max(np.abs(theirs))))
        worst = max(worst, float(np.max(np.abs(ours - theirs))) / scale)
    print(f"{name:24s} max |eqmap − JAX| / max(1, |grad|) = {worst:.2e}  ({', '.join(wrt)})")
    return worst


def softmax(s, axis=-1):
    return jax.nn.softmax(s, axis=axis)


def agree():
    rng = np.random.default_rng(18)
    n, m, d, dv = 6, 7, 4, 5
    q, k, v = rng.standard_normal((n, d)), rng.standard_normal((m, d)), rng.standard_normal((m, dv))
    g = rng.standard_normal((n, dv))
    worst = []
    attn = lambda Q, K, V: softmax(Q @ K.T / jnp.sqrt(d)) @ V
    worst.append(compare("attention", [ATTENTION], {"Q": q, "K": k, "V": v}, {"d_k": d}, ["Q", "K", "V"], attn, g))

    mask = np.where(np.arange(m)[None, :] > np.arange(n)[:, None], -np.inf, 0.0)
    masked_line = r"\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}} + M\right)V"
    masked = lambda Q, K, V, M: softmax(Q @ K.T / jnp.sqrt(d) + M) @ V
    worst.append(compare("masked attention", [masked_line], {"Q": q, "K": k, "V": v, "M": mask}, {"d_k": d}, ["Q", "K", "V"], masked, g))

    x, w = rng.standard_normal(8) + 0.5, rng.standard_normal(8)
    norm_lines = [
        r"\mu = \frac{1}{n}\sum_{i=1}^{n} x_i",
        r"\sigma^2 = \frac{1}{n}\sum_{i=1}^{n}(x_i-\mu)^2",
        r"y_i = \frac{x_i - \mu}{\sqrt{\sigma^2 + \epsilon}}",
        r"w^\top y",
    ]

    def layer_norm(x, w, epsilon):
        mu = jnp.mean(x)
        var = jnp.mean((x - mu) ** 2)
        return w @ ((x - mu) / jnp.sqrt(var + epsilon))

    worst.append(compare("layer norm", norm_lines, {"x": x, "w": w, "epsilon": np.float64(1e-5)}, {"n": 8}, ["x", "w"], layer_norm))

    z = rng.standard_normal(10)
    y = np.eye(10)[3]
    entropy = [r"\hat{y} = \mathrm{softmax}(z)", r"L = -\sum_i y_i \log \hat{y}_i"]
    worst.append(compare("cross entropy", entropy, {"z": z, "y": y}, {}, ["z"], lambda z, y: -jnp.sum(y * jnp.log(softmax(z)))))

    xs, w1, b1, w2, b2 = (rng.standard_normal(s) for s in [(5, 4), (4, 6), (6,), (6, 3), (3,)])
    mlp = lambda X, W_1, b_1, W_2, b_2: jax.nn.relu(X @ W_1 + b_1) @ W_2 + b_2
    values = {"X": xs, "W_1": w1, "b_1": b1, "W_2": w2, "b_2": b2}
    worst.append(compare("MLP", [r"\mathrm{ReLU}(XW_1 + b_1)W_2 + b_2"], values, {}, list(values), mlp, rng.standard_normal((5, 3))))

    h, dm, dh = 2, 4, 2
    X = rng.standard_normal((n, dm))
    WQ, WK, WV = (rng.standard_normal((h, dm, dh)) for _ in range(3))
    WO = rng.standard_normal((h * dh, dm))
    heads = [
        ATTENTION,
        r"\text{head}_h = \operatorname{Attention}(XW_Q^h, XW_K^h, XW_V^h)",
        r"\operatorname{MultiHead}(X) = \operatorname{Concat}(\text{head}_1, \dots, \text{head}_H)W_O",
    ]

    def multi_head(X, W_Q, W_K, W_V, W_O):
        parts = [softmax((X @ W_Q[i]) @ (X @ W_K[i]).T / jnp.sqrt(dh)) @ (X @ W_V[i]) for i in range(h)]
        return jnp.concatenate(parts, axis=1) @ W_O

    values = {"X": X, "W_Q": WQ, "W_K": WK, "W_V": WV, "W_O": WO}
    worst.append(compare("multi-head attention", heads, values, {"H": h, "d_k": dh}, list(values), multi_head, rng.standard_normal((n, dm))))
    print(f"worst of all: {max(worst):.2e} (asked: 1e-10)")
    return max(worst)


def best_of(runs, f):
    """The best wall time of `runs` calls of f, and CPU time / wall time over all of them."""
    times, cpu, wall = [], 0.0, 0.0
    for _ in range(runs):
        before = os.times()
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
        after = os.times()
        wall += times[-1]
        cpu += sum(after[i] - before[i] for i in range(4))
    return min(times), cpu / wall


def library_times(n, reps):
    """examples/grad_bench's best times in seconds: (grad, eval) for size n."""
    run = subprocess.run([GRAD_BENCH, "--reps", str(reps), str(n)], capture_output=True, text=True, check=True)
    fields = dict(f.split("=") for f in run.stdout.split()[1:])
    return float(fields["grad_best_ms"]) / 1e3, float(fields["eval_best_ms"]) / 1e3


def bench():
    declaration = r"Q \in \mathbb{R}^{n \times d_k}, \quad K \in \mathbb{R}^{n \times d_k}, \quad V \in \mathbb{R}^{n \times d_k}"
    line = r"\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right)V"
    print(f"cores: {os.cpu_count()}; JAX {jax.__version__}, devices {jax.devices()}; "
          f"MATMUL_NUM_THREADS={os.environ.get('MATMUL_NUM_THREADS', 'unset')}, EQMAP_THREADS={os.environ.get('EQMAP_THREADS', 'unset')}")
    print("| n | d_k | eqmap library: grad (s) | eval (s) | eqmap process: grad (s) | eval (s) | JAX value_and_grad (s) "
          "| library grad / JAX | process grad / JAX | library backward / forward | process grad / eval | CPU/wall: JAX, eqmap grad |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in [512, 1024, 2048]:
        common = ["--seed", "1", "--dim", f"n={n}", "--dim", "d_k=64", "--max-steps", "4000000000"]
        text = f"{declaration}\n{line}\n"
        grad = lambda: subprocess.run([EQMAP, "grad", "-", "--wrt", "Q", "--wrt", "K", "--wrt", "V", "--cotangent", "ones", "--format", "json", *common], input=text, capture_output=True, text=True, check=True)
        evaluate = lambda: subprocess.run([EQMAP, "eval", "-", "--format", "json", *common], input=text, capture_output=True, text=True, check=True)
        rng = np.random.default_rng(1)
        q, k, v = (jnp.asarray(rng.standard_normal((n, 64))) for _ in range(3))
        f = jax.jit(jax.value_and_grad(lambda Q, K, V: jnp.sum(softmax(Q @ K.T / 8.0) @ V), argnums=(0, 1, 2)))
        jax.block_until_ready(f(q, k, v))
        t_jax, jax_threads = best_of(7, lambda: jax.block_until_ready(f(q, k, v)))
        l_grad, l_eval = library_times(n, 7)
        (t_grad, grad_threads), (t_eval, _) = best_of(5, grad), best_of(5, evaluate)
        backward = (l_grad - l_eval) / l_eval
        print(f"| {n} | 64 | {l_grad:.4f} | {l_eval:.4f} | {t_grad:.3f} | {t_eval:.3f} | {t_jax:.4f} | {l_grad / t_jax:.2f}× "
              f"| {t_grad / t_jax:.2f}× | {backward:.2f}× | {t_grad / t_eval:.2f}× | {jax_threads:.2f}, {grad_threads:.2f} |")


if __name__ == "__main__":
    what = sys.argv[1:] or ["agree", "bench"]
    if "agree" in what:
        agree()
    if "bench" in what:
        bench()
