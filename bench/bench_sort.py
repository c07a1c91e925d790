"""Sorting rows with tl.sort: compile time and speed.

    python bench/bench_sort.py            # full: rows of 64 to 4096, one thread and all cores
    python bench/bench_sort.py --quick    # rows of 64 only (what CI runs, to see it works)
    python bench/bench_sort.py --save-path DIR    # also each table as DIR/NAME.csv, plotted in DIR/NAME.png

A program sorts ROWS rows of N float32 values (a tile of at least 1024 elements) with `tl.sort`, which
Triton writes as a bitonic network over a hypercube of the tile; 2^20 values in all. Columns, measured
in this run:
- compile: seconds from the first launch to its return, with an empty Triton cache (ttir to object,
  then the launch), the first kernel of the process excluded (a warm-up kernel runs before);
- tritium, torch.sort (values and indices, torch's own kernel) and numpy (np.sort along rows, one
  thread): million values sorted per second. Results are checked against torch before timing.

Then `torch.sort(x, stable=True)` of 8 rows of N through torch.compile, whose Triton code is
Inductor's own bitonic network (sort_with_index): seconds from the first call to its return with
empty Inductor and Triton caches, Inductor's C++ backend against Inductor with tritium. The C++
backend generates no sort: it calls aten's, so its column is Inductor's tracing and scheduling only.
"""

import os
import sys
import tempfile
import time

import numpy as np
import pandas as pd
import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402
from timing import median_seconds  # noqa: E402

LINES = ["tritium", "torch.sort", "numpy (1 thread)"]
TOTAL = 1 << 20


@triton.jit
def sort_rows(x_ptr, y_ptr, ROWS: tl.constexpr, N: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    offsets = rows * N + tl.arange(0, N)[None, :]
    tl.store(y_ptr + offsets, tl.sort(tl.load(x_ptr + offsets), 1))


def rows_per_program(n):
    return max(1, 1024 // n)


COMPILE_SECONDS = {}


def compiled(n):
    """The kernel for rows of n, compiled on first use with an empty cache (its time recorded)."""
    if n not in COMPILE_SECONDS:
        x = torch.randn(TOTAL // n, n)
        y = torch.empty_like(x)
        rows = rows_per_program(n)
        start = time.perf_counter()
        sort_rows[(x.shape[0] // rows, )](x, y, rows, n)
        COMPILE_SECONDS[n] = time.perf_counter() - start
        torch.testing.assert_close(y, torch.sort(x, 1).values, rtol=0, atol=0)
    return COMPILE_SECONDS[n]


def measure(provider, N, threads):
    n = N
    x = torch.randn(TOTAL // n, n)
    if provider == "tritium":
        compiled(n)
        y = torch.empty_like(x)
        rows = rows_per_program(n)
        fn = lambda: sort_rows[(x.shape[0] // rows, )](x, y, rows, n)  # noqa: E731
    elif provider == "torch.sort":
        fn = lambda: torch.sort(x, 1)  # noqa: E731
    else:
        xn = x.numpy()
        fn = lambda: np.sort(xn, axis=1)  # noqa: E731
    return TOTAL / median_seconds(fn, min_time=0.3) / 1e6


INDUCTOR_LINES = ["Inductor C++", "Inductor + tritium"]


def inductor_compile_seconds(provider, N, threads):
    """Cold compile (and first run) of a stable sort of 8 rows of N through torch.compile."""
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-sort-inductor-")
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-sort-cache-")
    torch._dynamo.reset()
    backend = {"Inductor C++": "cpp", "Inductor + tritium": "triton"}[provider]
    sort = torch.compile(lambda t: torch.sort(t, dim=-1, stable=True), options={"cpu_backend": backend})
    x = torch.randn(8, N)
    start = time.perf_counter()
    values, indices = sort(x)
    seconds = time.perf_counter() - start
    expected = torch.sort(x, dim=-1, stable=True)
    assert torch.equal(values, expected.values) and torch.equal(indices, expected.indices)
    return seconds


def main():
    args = report.parser(__doc__, "rows of 64 only").parse_args()
    import tritium
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-sort-cache-")  # compile times from cold
    cores = os.cpu_count() or 1
    sizes = [64] if args.quick else [64, 256, 1024, 4096]
    warm = torch.randn(1, 16)
    sort_rows[(1, )](warm, torch.empty_like(warm), 1, 16)  # the process's one-time costs, not a sort's
    print(f"tritium {tritium.__version__}; torch {torch.__version__}; {cores} cores; CPU features: "
          f"{report.cpu_features({'avx2', 'fma', 'avx512f', 'avx512bw'})}")
    tables = []
    for threads in ([cores] if args.quick else sorted({1, cores})):
        tritium.set_num_threads(threads)
        torch.set_num_threads(threads)
        bench = report.benchmark(f"tl.sort of float32 rows, {report.threads(threads)}", "million values/s", ["N"],
                                 sizes, LINES, x_log=True, threads=threads)
        tables.append(report.run(measure, [bench], args.save_path))
    tritium.set_num_threads(cores)
    torch.set_num_threads(cores)
    table = pd.concat(tables, ignore_index=True)
    table["rows per program"] = table["N"].map(rows_per_program)
    table["compile (s)"] = table["N"].map(COMPILE_SECONDS)
    table["ratio"] = table["tritium"] / table["torch.sort"]
    report.print_table("tl.sort of float32 rows, 2^20 values", "million values/s", table,
                       ["N", "rows per program", "threads", "compile (s)"] + LINES + ["ratio"],
                       formats={"ratio": "{:.2f}", "compile (s)": "{:.1f}", "N": "{:.0f}", "rows per program": "{:.0f}"})

    torch.compile(lambda t: t + 1)(torch.randn(4))  # torch.compile's own one-time costs, not a sort's
    bench = report.benchmark("torch.sort through torch.compile, cold compile", "s", ["N"],
                             [16] if args.quick else [16, 32, 64], INDUCTOR_LINES, x_log=True, threads=cores)
    table = report.run(inductor_compile_seconds, [bench], args.save_path)
    table["ratio"] = table["Inductor + tritium"] / table["Inductor C++"]
    report.print_table("torch.sort(stable=True) of 8 rows through torch.compile, cold caches", "seconds", table,
                       ["N"] + INDUCTOR_LINES + ["ratio"], better="lower",
                       formats={"N": "{:.0f}", "ratio": "{:.2f}"})


if __name__ == "__main__":
    main()
