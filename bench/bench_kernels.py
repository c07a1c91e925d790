"""Vector add, softmax and matmul: tritium against torch eager, numpy and the Triton interpreter.

    python bench/bench_kernels.py            # full sizes
    python bench/bench_kernels.py --quick    # small sizes (what CI runs, to see it works)
    python bench/bench_kernels.py --save-path DIR    # also each table as DIR/NAME.csv, plotted in DIR/NAME.png

All columns are measured in this run, on this machine. The Triton interpreter
(TRITON_INTERPRET=1) runs in a subprocess, on the small sizes only ("—" above them): it is
orders of magnitude slower. Threads: tritium uses TRITIUM_NUM_THREADS or every core; torch
uses its own default (every core).
"""

import functools
import json
import math
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402
import report  # noqa: E402
from timing import median_seconds  # noqa: E402

INTERPRETER_LIMIT = {"add": 1 << 16, "softmax": 256 * 256, "matmul": 128}
LINES = ["tritium", "torch eager", "numpy", "Triton interpreter"]


def add_case(n):
    x, y, out = torch.randn(n), torch.randn(n), torch.empty(n)
    xn, yn, on = x.numpy(), y.numpy(), out.numpy()
    return {
        "work": 3 * 4 * n, "check": lambda: torch.testing.assert_close(out, x + y),
        "tritium": lambda: kernels.add(x, y, out), "torch eager": lambda: torch.add(x, y, out=out),
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
        "tritium": lambda: kernels.softmax(x, out), "torch eager": lambda: torch.softmax(x, 1),
        "numpy": numpy_softmax,
    }


def matmul_case(size):
    a, b, c = torch.randn(size, size), torch.randn(size, size), torch.empty(size, size)
    an, bn = a.numpy(), b.numpy()
    return {
        "work": 2 * size**3, "check": lambda: torch.testing.assert_close(c, a @ b, rtol=1e-3, atol=1e-3),
        "tritium": lambda: kernels.matmul(a, b, c), "torch eager": lambda: torch.mm(a, b),
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
        print(f"Triton interpreter failed on {kind} {shape}: {(out.stderr.strip().splitlines() or [''])[-1]}")
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


@functools.lru_cache(maxsize=1)  # perf_report measures every line at one size before the next size
def checked_case(kind, *shape):
    case = {"add": add_case, "softmax": softmax_case, "matmul": matmul_case}[kind](*shape)
    case["tritium"]()
    case["check"]()
    return case


def measure(provider, kind, size, scale, **shape):
    """Work per second (over scale) of one implementation at one size; None where the interpreter is too slow."""
    shape = tuple(shape.values())
    case = checked_case(kind, *shape)
    if provider != "Triton interpreter":
        return case["work"] / median_seconds(case[provider]) / scale
    if (shape[0] if kind == "matmul" else math.prod(shape)) > INTERPRETER_LIMIT[kind]:
        return None
    seconds = interpreter_rate(kind, shape)
    return case["work"] / seconds / scale if seconds else None


def main():
    args = report.parser(__doc__, "small sizes only").parse_args()
    import tritium
    print(f"tritium {tritium.__version__}, {tritium.get_num_threads()} threads; torch {torch.__version__} "
          f"with {torch.get_num_threads()} threads")

    adds = [1 << 16] if args.quick else [1 << 16, 1 << 20, 1 << 24]
    softmaxes = [(256, 256)] if args.quick else [(256, 256), (4096, 1024), (1024, 4096)]
    sizes = [128] if args.quick else [128, 512, 1024]
    for title, unit, kind, x_names, x_vals in (
        ("vector add, fp32", "GB/s", "add", ["size", "n"], [(f"{n:,}", n) for n in adds]),
        ("row softmax, fp32", "GB/s", "softmax", ["size", "rows", "cols"], [(f"{r}x{c}", r, c) for r, c in softmaxes]),
        ("matmul, fp32", "GFLOP/s", "matmul", ["size", "n"], [(f"{n}^3", n) for n in sizes]),
    ):
        bench = report.benchmark(f"kernels: {title}", unit, x_names, x_vals, LINES, kind=kind, scale=1e9)
        report.print_table(title, unit, report.run(measure, [bench], args.save_path), ["size"] + LINES)


if __name__ == "__main__":
    main()
