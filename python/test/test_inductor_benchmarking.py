"""The benchmarker tritium registers for Inductor's autotuning on the CPU."""

import os
import subprocess
import sys
import time

import pytest

from tritium import inductor_benchmarking


class _Sleeper:
    def __init__(self, seconds):
        self.seconds = seconds
        self.calls = 0

    def __call__(self):
        self.calls += 1
        time.sleep(self.seconds)


def test_a_kernel_longer_than_the_window_is_called_the_fewest_times():
    """One warm-up call, then MIN_CALLS timed ones: by then BRIEF_MS (or rep) has passed."""
    fn = _Sleeper(0.003)
    median = inductor_benchmarking.benchmark_briefly(None, fn, warmup=25, rep=100)
    assert fn.calls == 1 + inductor_benchmarking.MIN_CALLS
    assert median >= 3


def test_a_long_kernel_is_called_long_calls_times():
    """A kernel whose LONG_CALLS calls take LONG_MS (a model's matrix product) stops there."""
    seconds = inductor_benchmarking.LONG_MS / 1e3 / inductor_benchmarking.LONG_CALLS
    fn = _Sleeper(seconds)
    median = inductor_benchmarking.benchmark_briefly(None, fn, warmup=25, rep=100)
    assert fn.calls == 1 + inductor_benchmarking.LONG_CALLS
    assert median >= seconds * 1e3


def test_a_short_kernel_is_timed_for_the_whole_window():
    calls = []
    median = inductor_benchmarking.benchmark_briefly(None, lambda: calls.append(time.perf_counter()), rep=100)
    assert calls[-1] - calls[1] >= inductor_benchmarking.BRIEF_MS / 1e3 * 0.9
    assert len(calls) > 1 + inductor_benchmarking.MIN_CALLS
    assert median >= 0


def test_rep_shorter_than_the_window_bounds_it():
    calls = []
    inductor_benchmarking.benchmark_briefly(None, lambda: calls.append(time.perf_counter()), rep=1)
    assert len(calls) >= 1 + inductor_benchmarking.MIN_CALLS
    # Every call but the last began inside the 1 ms, unless the fewest calls took longer.
    assert len(calls) == 1 + inductor_benchmarking.MIN_CALLS or calls[-2] - calls[1] < 1e-3


REGISTERED_BY_A_COMPILE = """
import torch
from torch._inductor.runtime import benchmarking
from tritium import inductor_benchmarking
assert benchmarking._BENCHMARK_DISPATCH["cpu"] is not inductor_benchmarking.benchmark_briefly
f = torch.compile(lambda x: x.sin().sum(1), options={"cpu_backend": "triton"})
x = torch.randn(64, 1024)
# Sums of 1024 values in whichever order the autotuned configuration takes: f32 rounding apart.
torch.testing.assert_close(f(x), x.sin().sum(1), rtol=1e-5, atol=1e-4)
print(benchmarking._BENCHMARK_DISPATCH["cpu"] is inductor_benchmarking.benchmark_briefly)
"""


def test_inductor_uses_it_once_it_compiles_through_tritium(tmp_path):
    environment = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(tmp_path / "inductor"),
                       TRITON_CACHE_DIR=str(tmp_path / "triton"))
    out = subprocess.run([sys.executable, "-c", REGISTERED_BY_A_COMPILE], env=environment, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == "True"
