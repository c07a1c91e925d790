"""tl.atomic_* on CPU tensors, contended by many programs, with masks."""

import pytest
import torch
import triton
import triton.language as tl

from conftest import atomic_rmw_kernel, atomic_rmw_reference, random_tensor


@pytest.mark.parametrize("kind,dtype", [("add", torch.float32), ("add", torch.int32), ("add", torch.int64),
                                        ("add", torch.float64), ("add", torch.float16),
                                        ("max", torch.float32), ("max", torch.int32),
                                        ("min", torch.float32), ("min", torch.int64),
                                        ("and", torch.int32), ("or", torch.int32), ("xor", torch.int64)])
def test_contended_atomics(kind, dtype):
    n = 1000
    if dtype.is_floating_point:
        vals = torch.randint(-8, 8, (n, )).to(dtype)  # exact in every float type, any order
    else:
        vals = torch.randint(0, 1 << 20, (n, ), dtype=dtype)
    initial = torch.zeros(4, dtype=dtype) if kind != "and" else torch.full((4, ), -1, dtype=dtype)
    target = initial.clone()
    old = torch.empty(n, dtype=dtype)
    atomic_rmw_kernel[(triton.cdiv(n, 64), )](target, vals, old, n, KIND=kind, ADDRESSES=4, BLOCK=64)
    torch.testing.assert_close(target, atomic_rmw_reference(kind, initial, vals, 4))


def test_atomic_xchg_returns_every_old_value_once():
    n = 256
    vals = torch.arange(1, n + 1, dtype=torch.int32)
    target = torch.zeros(4, dtype=torch.int32)
    old = torch.empty(n, dtype=torch.int32)
    atomic_rmw_kernel[(4, )](target, vals, old, n, KIND="xchg", ADDRESSES=4, BLOCK=64)
    # Per address, the old values plus the final value are exactly the initial 0 and the lane's values.
    for lane in range(4):
        seen = sorted(old[lane::4].tolist() + [int(target[lane])])
        assert seen == sorted([0] + vals[lane::4].tolist())


def test_masked_atomics_leave_memory_alone():
    target = torch.zeros(4)
    vals = torch.ones(10)
    old = torch.empty(10)
    atomic_rmw_kernel[(1, )](target, vals, old, 2, KIND="add", ADDRESSES=4, BLOCK=16)
    assert target.tolist() == [1.0, 1.0, 0.0, 0.0]


@triton.jit
def counter_kernel(counter_ptr, order_ptr):
    # Each program takes a ticket with compare-and-swap.
    current = tl.load(counter_ptr, volatile=True)
    while tl.atomic_cas(counter_ptr, current, current + 1) != current:
        current = tl.load(counter_ptr, volatile=True)
    tl.store(order_ptr + tl.program_id(0), current)


def test_atomic_cas_ticket_lock():
    counter = torch.zeros(1, dtype=torch.int32)
    order = torch.full((200, ), -1, dtype=torch.int32)
    counter_kernel[(200, )](counter, order)
    assert int(counter) == 200
    assert sorted(order.tolist()) == list(range(200))


@triton.jit
def cas_float_kernel(ptr, cmp, val):
    tl.atomic_cas(ptr, cmp, val)


def test_atomic_cas_on_floats_compares_bits():
    x = torch.tensor([1.5])
    cas_float_kernel[(1, )](x, 1.5, 2.5)
    assert x.item() == 2.5
    cas_float_kernel[(1, )](x, 1.5, 9.0)
    assert x.item() == 2.5
