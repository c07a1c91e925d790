"""Relaxed atomics of device scope are plain read-modify-writes while their launch runs alone
(one thread runs every program and no other launch runs beside it): still exact on one thread, on
several, and while other Python threads launch kernels on the same memory."""

import threading

import pytest
import torch
import triton
import triton.language as tl
import tritium
from conftest import atomic_rmw_kernel, atomic_rmw_reference


@pytest.mark.parametrize("kind,dtype", [("add", torch.float32), ("add", torch.int32), ("add", torch.float16),
                                        ("add", torch.float64), ("max", torch.int32), ("min", torch.int64),
                                        ("max", torch.float32), ("and", torch.int32), ("or", torch.int64),
                                        ("xor", torch.int32)])
@pytest.mark.parametrize("scope", ["gpu", "cta", "sys"])
def test_relaxed_contended_atomics_are_exact(threads, kind, dtype, scope):
    n, addresses = 3000, 5
    if dtype.is_floating_point:
        vals = torch.randint(-8, 8, (n, )).to(dtype)  # exact sums in any order
    else:
        vals = torch.randint(0, 1 << 20, (n, ), dtype=dtype)
    initial = torch.full((addresses, ), -1, dtype=dtype) if kind == "and" else torch.zeros(addresses, dtype=dtype)
    target = initial.clone()
    old = torch.empty(n, dtype=dtype)
    atomic_rmw_kernel[(triton.cdiv(n, 128), )](target, vals, old, n, KIND=kind, ADDRESSES=addresses, BLOCK=128,
                                               SEM="relaxed", SCOPE=scope)
    torch.testing.assert_close(target, atomic_rmw_reference(kind, initial, vals, addresses))


def test_relaxed_atomics_return_every_old_value(threads):
    # A counter incremented by every lane: the old values are each count exactly once.
    n = 2048
    counter = torch.zeros(1, dtype=torch.int32)
    old = torch.empty(n, dtype=torch.int32)
    atomic_rmw_kernel[(n // 256, )](counter, torch.ones(n, dtype=torch.int32), old, n, KIND="add", ADDRESSES=1,
                                    BLOCK=256, SEM="relaxed")
    assert int(counter) == n
    assert sorted(old.tolist()) == list(range(n))


def test_masked_relaxed_atomics_leave_memory_alone(threads):
    n = 100
    target = torch.zeros(7, dtype=torch.int32)
    old = torch.full((n, ), 99, dtype=torch.int32)
    atomic_rmw_kernel[(1, )](target, torch.ones(n, dtype=torch.int32), old, n, KIND="xchg", ADDRESSES=7, BLOCK=128,
                             SEM="relaxed")
    assert target.tolist() == [1] * 7  # lanes 100..127 are masked off: no element beyond the tensor is written


def test_only_relaxed_device_scope_asks_whether_it_runs_alone():
    args = (torch.zeros(4), torch.ones(64), torch.empty(64), 64)
    gpu = atomic_rmw_kernel[(1, )](*args, KIND="add", ADDRESSES=4, SEM="relaxed", SCOPE="gpu", BLOCK=64)
    assert "tritium_launch_runs_alone" in gpu.asm["llir"] and "atomicrmw fadd" in gpu.asm["llir"]
    system = atomic_rmw_kernel[(1, )](*args, KIND="add", ADDRESSES=4, SEM="relaxed", SCOPE="sys", BLOCK=64)
    assert "tritium_launch_runs_alone" not in system.asm["llir"]


def test_launches_beside_a_launch_running_alone_lose_no_update():
    # On one thread a many-program launch runs alone (plain read-modify-writes) while another Python
    # thread launches one-program grids (atomics) on the same counter: the launcher keeps them apart.
    previous = tritium.get_num_threads()
    tritium.set_num_threads(1)
    try:
        counter = torch.zeros(1, dtype=torch.int32)
        programs, block = 256, 1024
        ones = torch.ones(programs * block, dtype=torch.int32)
        old = torch.empty(programs * block, dtype=torch.int32)
        old_single = torch.empty(block, dtype=torch.int32)
        rounds_alone, rounds_single = 30, 600

        def alone():
            for _ in range(rounds_alone):
                atomic_rmw_kernel[(programs, )](counter, ones, old, ones.numel(), KIND="add", ADDRESSES=1,
                                                BLOCK=block, SEM="relaxed")

        def single():
            for _ in range(rounds_single):
                atomic_rmw_kernel[(1, )](counter, ones, old_single, block, KIND="add", ADDRESSES=1, BLOCK=block,
                                         SEM="relaxed")

        alone()  # compiled before the race
        single()
        counter.zero_()
        workers = [threading.Thread(target=alone), threading.Thread(target=single)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        assert int(counter) == (rounds_alone * programs + rounds_single) * block
    finally:
        tritium.set_num_threads(previous)


@triton.jit
def scatter_add_tile_kernel(out_ptr, index_ptr, value_ptr, old_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    """A 2-D tile of scattered relaxed adds (the addresses are computed before the adds): lanes far apart, lanes
    on the same element, and the old value of each returned."""
    offsets = tl.program_id(0) * ROWS * COLS + tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    old = tl.atomic_add(out_ptr + tl.load(index_ptr + offsets), tl.load(value_ptr + offsets), sem="relaxed")
    tl.store(old_ptr + offsets, old)


def test_scattered_relaxed_adds_of_a_2d_tile(threads):
    programs, rows, cols, targets = 4, 8, 32, 4096
    n = programs * rows * cols
    index = torch.randint(0, targets // 64, (n, )) * 64 + torch.randint(0, 2, (n, ))  # many lanes per element
    out = torch.zeros(targets, dtype=torch.int32)
    old = torch.empty(n, dtype=torch.int32)
    scatter_add_tile_kernel[(programs, )](out, index.to(torch.int32), torch.ones(n, dtype=torch.int32), old,
                                          ROWS=rows, COLS=cols)
    assert out.tolist() == torch.bincount(index, minlength=targets).tolist()
    # Every add saw its own count: the old values of one element are 0, 1, ..., count - 1.
    for element in index.unique().tolist():
        seen = sorted(old[index == element].tolist())
        assert seen == list(range(len(seen))), element
