"""Vector add, softmax and matmul: tritium against torch eager, numpy and the Triton interpreter.

    python bench/bench_kernels.py            # full sizes
    python bench/bench_kernels.py --quick    # small sizes (what CI runs, to see it works)

All columns are measured in this run, on this machine. The Triton interpreter
(TRITON_INTERPRET=1) runs in a subprocess, on the small sizes only: it is orders of
magnitude slower. Threads: tritium uses TRITIUM_NUM_THREADS or every core; torch uses its
own default (every core).
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402
from timing import median_seconds, print_table  # noqa: E402

INTERPRETER_LIMIT = {"add": 1 << 16, "softmax": 256 * 256, "matmul": 128}


def add_case(n):
    x, y, out = torch.randn(n), torch.randn(n), torch.empty(n)
    xn, yn, on = x.numpy(), y.numpy(), out.numpy()
    return {
        "work": 3 * 4 * n, "check": lambda: torch.testing.assert_close(out, x + y),
        "tritium": lambda: kernels.add(x, y, out), "torch": lambda: torch.add(x, y, out=out),
        "numpy": lambda: np.add(xn, yn, out=on),
    }


def softmax_case(rows, cols):
    x, out = torch.randn(rows, cols), torch.empty(rows, cols)
    xn = x.numpy()

    def numpy_softmax():
        e = np.exp(xn - xn.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    return {
        "work": 2 * 4 * rows * cols, "check": lambda: torch.testing.assert_close(out, torch.softmax(x, 1)),
        "tritium": lambda: kernels.softmax(x, out), "torch": lambda: torch.softmax(x, 1),
        "numpy": numpy_softmax,
    }


def matmul_case(size):
    a, b, c = torch.randn(size, size), torch.randn(size, size), torch.empty(size, size)
    an, bn = a.numpy(), b.numpy()
    return {
        "work": 2 * size**3, "check": lambda: torch.testing.assert_close(c, a @ b, rtol=1e-3, atol=1e-3),
        "tritium": lambda: kernels.matmul(a, b, c), "torch": lambda: torch.mm(a, b),
        "numpy": lambda: an @ bn,
    }


def interpreter_rate(kind, shape):
    """Runs the same kernel under TRITON_INTERPRET=1 in a subprocess; returns work/second."""
    code = f"""
import json, sys, torch
sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})
import kernels
from timing import median_seconds
kind, shape = {kind!r}, {tuple(shape)!r}
if kind == "add":
    x, y, o = torch.randn(shape[0]), torch.randn(shape[0]), torch.empty(shape[0])
    f = lambda: kernels.add(x, y, o, block=1024)
elif kind == "softmax":
    x = torch.randn(*shape); o = torch.empty_like(x)
    f = lambda: kernels.softmax(x, o)
else:
    a, b, c = (torch.randn(shape[0], shape[0]) for _ in range(3))
    f = lambda: kernels.matmul(a, b, c, block=(32, 32, 32))
print(json.dumps(median_seconds(f, min_time=0.5, warmup=1, max_reps=5)))
"""
    env = dict(os.environ, TRITON_INTERPRET="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def rate(seconds, work, scale):
    value = work / seconds / scale
    return f"{value:.1f}" if value >= 1 else f"{value:.3g}"


def run(title, unit, scale, kind, cases):
    rows = []
    for label, shape, case in cases:
        case["tritium"]()
        case["check"]()
        row = [label]
        for column in ("tritium", "torch", "numpy"):
            row.append(rate(median_seconds(case[column]), case["work"], scale))
        elements = shape[0] if kind == "matmul" else int(np.prod(shape))
        if elements <= INTERPRETER_LIMIT[kind]:
            seconds = interpreter_rate(kind, shape)
            row.append(rate(seconds, case["work"], scale) if seconds else "failed")
        else:
            row.append("(too slow)")
        rows.append(row)
    print_table(title, unit, ["size", "tritium", "torch eager", "numpy", "Triton interpreter"], rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    args = parser.parse_args()
    import tritium
    print(f"tritium {tritium.__version__}, {tritium.get_num_threads()} threads; torch {torch.__version__} "
          f"with {torch.get_num_threads()} threads")

    adds = [1 << 16] if args.quick else [1 << 16, 1 << 20, 1 << 24]
    run("vector add, fp32", "GB/s", 1e9, "add", [(f"{n:,}", (n, ), add_case(n)) for n in adds])
    softmaxes = [(256, 256)] if args.quick else [(256, 256), (4096, 1024), (1024, 4096)]
    run("row softmax, fp32", "GB/s", 1e9, "softmax",
        [(f"{r}x{c}", (r, c), softmax_case(r, c)) for r, c in softmaxes])
    sizes = [128] if args.quick else [128, 512, 1024]
    run("matmul, fp32", "GFLOP/s", 1e9, "matmul", [(f"{s}^3", (s, ), matmul_case(s)) for s in sizes])


if __name__ == "__main__":
    main()
