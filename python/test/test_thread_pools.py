"""Which threads run a shared grid: the process's OpenMP runtime (torch's) or tritium's own pool."""

import ast
import os
import subprocess
import sys

import pytest
import triton
import triton.language as tl

import tritium


def _run(code, drop=(), **env):
    environment = {k: v for k, v in os.environ.items() if k != "TRITIUM_THREAD_POOL" and k not in drop}
    environment.update(env)
    return subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True,
                          timeout=300, check=True)


def test_own_pool_without_an_openmp_runtime_and_openmp_once_torch_is_loaded():
    # torch brings libgomp; the lookup is repeated once the loader has loaded something new.
    out = _run("import tritium; print(tritium.get_thread_pool()); import torch; print(tritium.get_thread_pool())")
    assert out.stdout.split() == ["tritium", "openmp"]


def test_environment_chooses_tritiums_pool():
    out = _run("import torch, tritium; print(tritium.get_thread_pool())", TRITIUM_THREAD_POOL="tritium")
    assert out.stdout.strip() == "tritium"


def test_unknown_pool_in_the_environment_warns_and_keeps_the_default():
    out = _run("import torch, tritium; print(tritium.get_thread_pool())", TRITIUM_THREAD_POOL="tbb")
    assert out.stdout.strip() == "openmp"
    assert "TRITIUM_THREAD_POOL='tbb' is not one of openmp, tritium" in out.stderr


def test_thread_count_follows_torch_on_openmp_threads_unless_told():
    code = ("import torch, tritium\n"
            "torch.set_num_threads(1); a = tritium.get_num_threads()\n"
            "torch.set_num_threads(3); b = tritium.get_num_threads()\n"
            "tritium.set_num_threads(2); torch.set_num_threads(1); c = tritium.get_num_threads()\n"
            "print(a, b, c)")
    out = _run(code, drop=("TRITIUM_NUM_THREADS", "OMP_NUM_THREADS"))
    assert out.stdout.split() == ["1", "3", "2"]
    out = _run("import torch, tritium; torch.set_num_threads(1); print(tritium.get_num_threads())",
               TRITIUM_NUM_THREADS="3")
    assert out.stdout.strip() == "3"


def test_unknown_pool_is_rejected():
    with pytest.raises(ValueError, match="openmp, tritium"):
        tritium.set_thread_pool("tbb")


TEAM_SMALLER_THAN_ASKED = """
import sys
sys.path.insert(0, {tests!r})
import torch, tritium
from test_runtime import count_programs_kernel

assert tritium.get_thread_pool() == "openmp"
for grid in (2, 5, 33):
    counts = torch.zeros(grid, dtype=torch.int32)
    work = torch.rand(64 * (grid + 1))
    for _ in range(10):
        count_programs_kernel[(grid, )](counts, work, STEPS=2000)
    assert counts.tolist() == [10] * grid, (grid, counts.tolist())
print("ok")
"""


def test_every_program_runs_when_openmp_gives_fewer_threads_than_parts():
    """OMP_THREAD_LIMIT=1 leaves a team of one thread for four parts: it must take them all."""
    code = TEAM_SMALLER_THAN_ASKED.format(tests=os.path.dirname(os.path.abspath(__file__)))
    out = _run(code, OMP_THREAD_LIMIT="1", TRITIUM_NUM_THREADS="4")
    assert out.stdout.strip() == "ok"



@triton.jit
def rendezvous_kernel(flags, seen, spins):
    # Each program raises its flag, then watches the other's for a fixed while: it sees it only if the two
    # programs run at the same time. The watch does not end early, so a program takes as long run alone as run
    # beside the other (the caller's estimate of a program's time must not depend on how it was run). `spins` is an
    # argument: one compiled kernel runs tiny and long programs.
    pid = tl.program_id(0)
    tl.atomic_xchg(flags + pid, 1)
    found = 0
    for _ in range(spins):
        found = tl.maximum(found, tl.atomic_add(flags + (1 - pid), 0))
    tl.store(seen + pid, found)


TWO_LONG_PROGRAMS = """
import sys
sys.path.insert(0, {tests!r})
import torch, tritium
from test_thread_pools import rendezvous_kernel

assert tritium.get_thread_pool() == {pool!r}, tritium.get_thread_pool()
for launch in range(3):
    flags = torch.zeros(2, dtype=torch.int32)
    seen = torch.zeros(2, dtype=torch.int32)
    rendezvous_kernel[(2, )](flags, seen, 2_000_000)
    print(launch, seen.tolist())
"""


@pytest.mark.parametrize("pool", ["openmp", "tritium"])
def test_a_grid_of_two_long_programs_runs_on_two_threads_at_once(pool):
    """The caller runs a grid's first programs alone while sharing them looks dearer than running them; a kernel
    whose programs took long at that probe is shared from its first program at its next launches (a persistent
    kernel's grid of one program per thread ran at one thread's speed)."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs two cores")  # every CI host has two
    code = TWO_LONG_PROGRAMS.format(tests=os.path.dirname(os.path.abspath(__file__)), pool=pool)
    out = _run(code, TRITIUM_NUM_THREADS="2", TRITIUM_THREAD_POOL=pool)
    launches = out.stdout.split("\n")
    assert launches[1:3] == ["1 [1, 1]", "2 [1, 1]"], out.stdout


TINY_THEN_LONG_PROGRAMS = """
import sys
sys.path.insert(0, {tests!r})
import torch, tritium
from test_thread_pools import rendezvous_kernel

def launch(spins):
    flags = torch.zeros(2, dtype=torch.int32)
    seen = torch.zeros(2, dtype=torch.int32)
    rendezvous_kernel[(2, )](flags, seen, spins)
    return seen.tolist()

for _ in range(5):
    launch(3)  # far too short to share: the caller runs both programs, then trusts that for a few launches
print([launch(2_000_001) for _ in range(12)])
"""


@pytest.mark.parametrize("pool", ["openmp", "tritium"])
def test_programs_that_turn_long_are_shared_again_within_a_few_launches(pool):
    """A grid found far too short to share runs on the caller without reading the clock for a few launches (the
    probe cost tiny grids on two threads a fifth of their launch); when the same kernel's programs turn long, the
    next probe sees it, and at most a few launches later the two programs run at once again."""
    if (os.cpu_count() or 1) < 2:
        pytest.skip("needs two cores")  # every CI host has two
    code = TINY_THEN_LONG_PROGRAMS.format(tests=os.path.dirname(os.path.abspath(__file__)))
    out = _run(code, TRITIUM_NUM_THREADS="2", TRITIUM_THREAD_POOL=pool)
    launches = ast.literal_eval(out.stdout.strip().splitlines()[-1])
    # Programs run one after the other see [0, 1]; run at once, [1, 1]. The first long launch runs them one after
    # the other (trusted, or probed); with the trust never expiring, so would every one.
    assert launches[0] == [0, 1], launches
    assert launches[-3:] == [[1, 1]] * 3, launches
