"""What the bounds-checking mode costs: the same kernels with and without `check_bounds=True`.

    python bench/bench_bounds_check.py            # full sizes
    python bench/bench_bounds_check.py --quick    # small sizes (what CI runs, to see it works)

Columns, all measured in this run at the thread count tritium and torch use by default
(milliseconds, lower is better): tritium as compiled by default, tritium with every load, store
and atomic checked (TRITIUM_CHECK_BOUNDS=1 does the same), torch eager for scale, and the cost
of the checks as a ratio. The default mode has no checks and pays nothing for them: its kernels
are the ones every other benchmark measures.
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernels import add, matmul, softmax  # noqa: E402
from timing import median_seconds, print_table  # noqa: E402


def cases(quick):
    n = 1 << (16 if quick else 22)
    rows, cols = (256, 256) if quick else (4096, 1024)
    size = 128 if quick else 512
    x, y, out = torch.randn(n), torch.randn(n), torch.empty(n)
    s, s_out = torch.randn(rows, cols), torch.empty(rows, cols)
    a, b, c = torch.randn(size, size), torch.randn(size, size), torch.empty(size, size)
    yield (f"add {n}", lambda **o: add(x, y, out, **o), lambda: torch.add(x, y, out=out),
           lambda: torch.testing.assert_close(out, x + y))
    yield (f"softmax {rows}x{cols}", lambda **o: softmax(s, s_out, **o), lambda: torch.softmax(s, dim=1),
           lambda: torch.testing.assert_close(s_out, torch.softmax(s, dim=1)))
    yield (f"matmul {size}", lambda **o: matmul(a, b, c, **o), lambda: torch.mm(a, b, out=c),
           lambda: torch.testing.assert_close(c, a @ b, rtol=1e-3, atol=1e-3))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    min_time = 0.05 if args.quick else 0.5
    rows = []
    for name, run, eager, check in cases(args.quick):
        for options in ({}, {"check_bounds": True}):
            run(**options)
            check()
        plain = median_seconds(lambda: run(), min_time=min_time)
        checked = median_seconds(lambda: run(check_bounds=True), min_time=min_time)
        torch_time = median_seconds(eager, min_time=min_time)
        rows.append([name, f"{plain * 1e3:.3f}", f"{checked * 1e3:.3f}", f"{torch_time * 1e3:.3f}",
                     f"{checked / plain:.2f}x"])
    print_table(f"Bounds checking (tritium threads: {os.environ.get('TRITIUM_NUM_THREADS', 'all cores')}, "
                f"torch threads: {torch.get_num_threads()})", "ms",
                ["kernel", "tritium", "tritium check_bounds", "torch eager", "cost of the checks"], rows,
                better="lower")


if __name__ == "__main__":
    main()
