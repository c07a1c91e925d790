"""Shared timing for the benchmarks: the median wall time of repeated calls."""

import statistics
import time


def median_seconds(fn, min_time=0.2, warmup=3, max_reps=1000):
    for _ in range(warmup):
        fn()
    times = []
    start = time.perf_counter()
    while len(times) < max_reps and (time.perf_counter() - start < min_time or len(times) < 5):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)

