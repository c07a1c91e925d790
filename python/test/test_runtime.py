"""The native launcher: thread count, GIL release, vectorized code."""

import os
import re
import subprocess
import sys
import threading
import time

import pytest
import torch
import triton
import triton.language as tl

import tritium
from test_softmax import softmax_kernel
from test_vector_add import add_kernel


def _vector_ops(llir):
    return re.findall(r"<\d+ x (?:float|half|bfloat|double|i\d+)>", llir)


def test_vector_add_llvm_ir_is_vectorized():
    x = torch.randn(4096)
    k = add_kernel[(4, )](x, x, torch.empty_like(x), 4096, BLOCK=1024)
    vector_ops = _vector_ops(k.asm["llir"])
    assert vector_ops, "the vector add kernel's LLVM IR holds no vector operations"
    assert re.search(r"fadd <\d+ x float>", k.asm["llir"])


def test_softmax_llvm_ir_is_vectorized():
    x = torch.randn(4, 1024)
    out = torch.empty_like(x)
    k = softmax_kernel[(4, )](out, x, x.stride(0), out.stride(0), 1024, BLOCK=1024)
    llir = k.asm["llir"]
    assert re.search(r"fsub <\d+ x float>|fmul <\d+ x float>", llir), "exp is not vectorized"
    assert re.search(r"(fadd|reduce\.fadd|maxnum|maximum)[^\n]*<\d+ x float>", llir), "reductions are scalar"


def test_every_stage_is_visible():
    x = torch.randn(16)
    k = add_kernel[(1, )](x, x, torch.empty_like(x), 16, BLOCK=16)
    assert "tt.func" in k.asm["ttir"]
    assert "func.func" in k.asm["linalg"] and "tt." not in k.asm["linalg"].replace("tt.divisibility", "")
    assert "define" in k.asm["llir"]
    assert isinstance(k.asm["obj"], bytes) and k.asm["obj"][:4] == b"\x7fELF"


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_thread_count_is_configurable(threads):
    previous = tritium.get_num_threads()
    try:
        tritium.set_num_threads(threads)
        assert tritium.get_num_threads() == threads
        x = torch.randn(100000)
        out = torch.empty_like(x)
        add_kernel[(triton.cdiv(100000, 256), )](x, x, out, 100000, BLOCK=256)
        torch.testing.assert_close(out, x + x)
    finally:
        tritium.set_num_threads(previous)


@triton.jit
def count_programs_kernel(counts, work, STEPS: tl.constexpr):
    # Long enough (a few µs) that the caller shares the grid with the pool.
    pid = tl.program_id(0)
    acc = tl.load(work + tl.arange(0, 64))
    for _ in range(STEPS):
        acc = acc * 0.999 + 0.001
    tl.store(work + 64 * (pid + 1) + tl.arange(0, 64), acc)
    tl.atomic_add(counts + pid, 1)


@pytest.mark.parametrize("pool", ["openmp", "tritium"])
@pytest.mark.parametrize("threads", [2, 3, 4])
def test_every_program_of_a_shared_grid_runs_once_at_every_launch(threads, pool):
    """Each thread owns a part of the grid and takes chunks of the others' when its own is done:
    grids smaller than the pool, grids that do not divide, and launches back to back (a worker still in the
    last launch while the next begins) must still run every program exactly once, on torch's OpenMP threads
    and on tritium's own pool."""
    previous = tritium.get_num_threads()
    try:
        tritium.set_num_threads(threads)
        tritium.set_thread_pool(pool)
        assert tritium.get_thread_pool() == pool
        for grid in (2, 3, 5, 7, 16, 61, 257):
            counts = torch.zeros(grid, dtype=torch.int32)
            work = torch.rand(64 * (grid + 1))
            launches = 40
            for _ in range(launches):
                count_programs_kernel[(grid, )](counts, work, STEPS=2000)
            assert counts.tolist() == [launches] * grid, f"grid {grid}"
    finally:
        tritium.set_num_threads(previous)
        tritium.set_thread_pool("openmp")


def test_thread_count_rejects_zero():
    with pytest.raises(ValueError):
        tritium.set_num_threads(0)


def test_thread_count_from_environment():
    code = "import tritium; print(tritium.get_num_threads())"
    env = dict(os.environ, TRITIUM_NUM_THREADS="3")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "3"


def test_default_thread_count_is_core_count():
    code = "import tritium; print(tritium.get_num_threads())"
    env = {k: v for k, v in os.environ.items() if k not in ("TRITIUM_NUM_THREADS", "OMP_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert int(out.stdout) == os.cpu_count()


def test_thread_count_follows_omp_num_threads_unless_tritium_num_threads_is_set():
    code = "import tritium; print(tritium.get_num_threads())"
    env = {k: v for k, v in os.environ.items() if k != "TRITIUM_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], env=dict(env, OMP_NUM_THREADS="5"), capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "5"
    out = subprocess.run([sys.executable, "-c", code], env=dict(env, OMP_NUM_THREADS="5", TRITIUM_NUM_THREADS="3"),
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "3"


@triton.jit
def spin_kernel(out_ptr, iterations, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(iterations):
        acc = acc * 0.999 + 1.0
    tl.store(out_ptr + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), acc)


def test_launch_releases_the_gil():
    out = torch.empty(64)
    spin_kernel[(1, )](out, 10, BLOCK=64)  # compile first
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    start = time.perf_counter()
    spin_kernel[(1, )](out, 20_000_000, BLOCK=64)
    end = time.perf_counter()
    done.set()
    ticker.join()
    during = [t for t in ticks if start < t < end]
    assert end - start > 0.05, "the kernel ran too briefly to observe the GIL"
    assert len(during) >= 5, "Python threads did not run while the kernel ran"


FORK_AFTER_LAUNCH = """
import os, sys, torch, triton, triton.language as tl

@triton.jit
def plus_one_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, offs < n) + 1, offs < n)

x = torch.randn(4096 * 64)
out = torch.empty_like(x)
plus_one_kernel[(64, )](x, out, x.numel(), BLOCK=4096)  # the threads of the grid now exist
pid = os.fork()
if pid == 0:
    # GNU's OpenMP runtime waits forever in a child forked after parallel work (torch's own operations
    # included) unless the child runs on one thread, as torch's DataLoader workers do; tritium's grids
    # run on a pool of the child's own.
    torch.set_num_threads(1)
    out2 = torch.empty_like(x)
    plus_one_kernel[(64, )](x, out2, x.numel(), BLOCK=4096)
    sys.exit(0 if torch.equal(out2, x + 1) else 1)  # a normal exit runs the pool's destructor
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX-only")
@pytest.mark.parametrize("pool", ["openmp", "tritium"])
def test_a_forked_child_launches_and_exits(tmp_path, pool):
    """A child forked after launches has none of the parent's worker threads: it launches on a
    pool of its own and exits without waiting for threads that do not exist."""
    script = tmp_path / "fork_after_launch.py"
    script.write_text(FORK_AFTER_LAUNCH)
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, TRITIUM_NUM_THREADS="2", TRITIUM_THREAD_POOL=pool))
    assert result.returncode == 0, result.stderr[-2000:]
