"""Launch cost: what a launch of an already compiled kernel costs, layer by layer.

    python bench/bench_launch.py            # full
    python bench/bench_launch.py --quick    # fewer repetitions (what CI runs, to see it works)
    python bench/bench_launch.py --save-path DIR    # also each table as DIR/NAME.csv, plotted in DIR/NAME.png

Columns, all measured in this run (microseconds per launch, lower is better):
- `kernel[grid](...)`: Triton's JIT dispatch (argument binding, specialisation, cache lookup)
  plus everything below it;
- `CompiledKernel.run`: the launcher call Inductor's generated code makes directly: tritium's
  argument packing, the GIL release, the thread-pool hand-off and the programs;
- torch eager: `torch.add(x, y, out=...)` on the same 4-element tensors, for scale.
The kernel does almost nothing (4 elements per program), so the numbers are the overhead.
"""

import functools
import os
import sys
import time

import pandas as pd
import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

LINES = ["kernel[grid](...)", "CompiledKernel.run", "torch.add (eager)"]


@triton.jit
def tiny_kernel(a_ptr, b_ptr, c_ptr, d_ptr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(d_ptr + offsets, tl.load(a_ptr + offsets) + tl.load(b_ptr + offsets) + tl.load(c_ptr + offsets))


def per_call_us(fn, reps):
    for _ in range(min(reps, 200)):
        fn()
    best = float("inf")
    for _ in range(5):  # the best of five batches: the least disturbed by other work
        start = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - start) / reps)
    return best * 1e6


@functools.lru_cache(maxsize=1)  # perf_report measures every line at one grid before the next grid
def launches(programs):
    """The ways to launch the kernel on `programs` programs, by line."""
    block = 4
    a, b, c, d = (torch.randn(programs * block) for _ in range(4))
    grid = (programs, )
    compiled = tiny_kernel[grid](a, b, c, d, BLOCK=block)
    torch.testing.assert_close(d, a + b + c)
    run, function, packed = compiled.run, compiled.function, compiled.packed_metadata
    from triton import knobs
    enter, exit_ = knobs.runtime.launch_enter_hook, knobs.runtime.launch_exit_hook

    def direct():
        run(programs, 1, 1, None, function, packed, None, enter, exit_, a, b, c, d, block)

    return dict(zip(LINES, (lambda: tiny_kernel[grid](a, b, c, d, BLOCK=block), direct,
                            lambda: torch.add(a, b, out=d))))


def measure(provider, programs, reps, threads):
    return per_call_us(launches(programs)[provider], reps)


def main():
    args = report.parser(__doc__, "fewer repetitions").parse_args()
    import tritium
    reps = 500 if args.quick else 20000
    cores = os.cpu_count() or 1
    tables = []
    for threads in sorted({1, cores}):
        tritium.set_num_threads(threads)
        bench = report.benchmark(f"launch cost, tritium on {report.threads(threads)}", "µs per launch", ["programs"],
                                 [1, 4, 64], LINES, x_log=True, reps=reps, threads=threads)
        tables.append(report.run(measure, [bench], args.save_path))
    tritium.set_num_threads(cores)
    print(f"tritium {tritium.__version__}; torch {torch.__version__} with {torch.get_num_threads()} threads; "
          f"{cores} cores")
    table = pd.concat(tables, ignore_index=True).rename(columns={"threads": "tritium threads"})
    report.print_table("launch cost of a 4-tensor kernel", "µs per launch", table,
                       ["tritium threads", "programs"] + LINES, better="lower",
                       formats={"programs": "{:.0f}", **{line: "{:.2f}" for line in LINES}})


if __name__ == "__main__":
    main()
