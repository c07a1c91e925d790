"""How long Inductor times each configuration of a CPU kernel it autotunes.

Inductor autotunes many of the Triton kernels it generates (reductions, pointwise kernels of
several shapes): it compiles each candidate configuration and times it. On the CPU it runs each
candidate for 25 ms to warm up and 100 ms to measure, whatever the kernel's length: a small
CNN's training step timed 105 candidates that way, 13.4 s of a 29.7 s compile. Inductor lets a
device register how it benchmarks (`torch._inductor.runtime.benchmarking.register_benchmarker`);
tritium registers one for "cpu" that calls the kernel once to warm up and stops measuring once it
has at least MIN_CALLS calls and BRIEF_MS milliseconds of them (or Inductor's whole `rep`), and
returns their median as Inductor's does. Candidates that differ by less than that window's noise
(10-20% on a shared machine) are all good choices. A long kernel (a matrix product of a model,
10-50 ms a call, timed against aten for every product shape of the graph) stops after LONG_CALLS
calls once they add up to LONG_MS: five calls of each of a training step's twenty products were
seconds of its compile.

Nothing here imports torch: the benchmarker is registered only in a process where Inductor's
benchmarking module is already loaded, when tritium's driver loads a kernel there.
"""

import statistics
import sys
import time

MIN_CALLS = 5
BRIEF_MS = 10.0
LONG_CALLS = 2
LONG_MS = 40.0

_registered = False


def benchmark_briefly(benchmarker, fn, *, warmup=None, rep=100, **kwargs):
    """Median milliseconds of `fn()` over at least MIN_CALLS calls and BRIEF_MS milliseconds, or
    over `rep` milliseconds if that is shorter (with at least MIN_CALLS calls), or over LONG_CALLS
    calls that take LONG_MS."""
    fn()  # warm: fresh pages of outputs, the thread pool's first wake-up
    budget_ms = min(float(rep), BRIEF_MS)
    times = []
    start = time.perf_counter()
    while True:
        before = time.perf_counter()
        fn()
        after = time.perf_counter()
        times.append((after - before) * 1e3)
        elapsed_ms = (after - start) * 1e3
        if (len(times) >= MIN_CALLS and elapsed_ms >= budget_ms) or (len(times) >= LONG_CALLS
                                                                     and elapsed_ms >= LONG_MS):
            return statistics.median(times)


def register_if_inductor_is_loaded():
    """Registers benchmark_briefly for "cpu" once Inductor's benchmarking module is loaded."""
    global _registered
    if _registered:
        return
    benchmarking = sys.modules.get("torch._inductor.runtime.benchmarking")
    register = getattr(benchmarking, "register_benchmarker", None)
    if register is None:
        return
    register("cpu", benchmark_briefly, override=True)
    _registered = True
