"""What the bounds-checking mode costs: the same kernels with and without `check_bounds=True`.

    python bench/bench_bounds_check.py            # full sizes
    python bench/bench_bounds_check.py --quick    # small sizes (what CI runs, to see it works)
    python bench/bench_bounds_check.py --save-path DIR    # also the table as DIR/NAME.csv, plotted in DIR/NAME.png

Columns, all measured in this run at the thread count tritium and torch use by default
(milliseconds, lower is better): tritium as compiled by default, tritium with every load, store
and atomic checked (TRITIUM_CHECK_BOUNDS=1 does the same), torch eager for scale, and the cost
of the checks as a ratio. The default mode has no checks and pays nothing for them: its kernels
are the ones every other benchmark measures.
"""

import functools
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402
from kernels import add, matmul, softmax  # noqa: E402
from timing import median_seconds  # noqa: E402

LINES = ["tritium", "tritium check_bounds", "torch eager"]


def all_cases(quick):
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


@functools.cache  # made once, measured line by line
def checked_cases(quick):
    cases = {}
    for name, run, eager, check in all_cases(quick):
        for options in ({}, {"check_bounds": True}):
            run(**options)
            check()
        cases[name] = {"tritium": run, "tritium check_bounds": lambda run=run: run(check_bounds=True),
                       "torch eager": eager}
    return cases


def measure(provider, kernel, quick):
    return median_seconds(checked_cases(quick)[kernel][provider], min_time=0.05 if quick else 0.5) * 1e3


def main():
    args = report.parser(__doc__, "small sizes").parse_args()
    title = (f"Bounds checking (tritium threads: {os.environ.get('TRITIUM_NUM_THREADS', 'all cores')}, "
             f"torch threads: {torch.get_num_threads()})")
    bench = report.benchmark(title, "ms", ["kernel"], list(checked_cases(args.quick)), LINES, quick=args.quick)
    table = report.run(measure, [bench], args.save_path)
    table["cost of the checks"] = table["tritium check_bounds"] / table["tritium"]
    report.print_table(title, "ms", table, ["kernel", *LINES, "cost of the checks"], better="lower",
                       formats={**{line: "{:.3f}" for line in LINES}, "cost of the checks": "{:.2f}x"})


if __name__ == "__main__":
    main()
