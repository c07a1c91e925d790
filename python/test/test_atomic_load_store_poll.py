"""tl.atomic_load, tl.atomic_store and tl.atomic_poll on CPU tensors.

Loads and stores are single atomic instructions per element with the requested ordering;
masked-off lanes neither read nor write (a masked load yields 0). atomic_poll spins on each
element until it equals `expected`, or until `timeout_ns` has passed since the op started,
and returns whether each element was seen equal.
"""

import pytest
import torch
import triton
import triton.language as tl

DTYPES = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.float16, torch.bfloat16,
          torch.float32, torch.float64]


@triton.jit
def _copy_kernel(src_ptr, dst_ptr, n, SEM_LOAD: tl.constexpr, SEM_STORE: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.atomic_load(src_ptr + offsets, mask=mask, sem=SEM_LOAD)
    tl.atomic_store(dst_ptr + offsets, x, mask=mask, sem=SEM_STORE)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: str(d).replace("torch.", ""))
@pytest.mark.parametrize("sems", [("acquire", "release"), ("relaxed", "relaxed")], ids=["acq-rel", "relaxed"])
def test_atomic_copy_keeps_bits_and_respects_mask(dtype, sems):
    n = 100
    src = (torch.randn(n) * 50).to(dtype)
    dst = torch.full((128, ), 7, dtype=dtype)
    _copy_kernel[(2, )](src, dst, n, SEM_LOAD=sems[0], SEM_STORE=sems[1], BLOCK=64)
    assert torch.equal(dst[:n], src)
    assert (dst[n:] == 7).all(), "a masked-off lane was written"


@triton.jit
def _masked_load_kernel(src_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.atomic_load(src_ptr + offsets, mask=offsets < n))


def test_masked_atomic_load_yields_zero():
    src = torch.arange(1, 17, dtype=torch.int32)
    out = torch.full((16, ), -1, dtype=torch.int32)
    _masked_load_kernel[(1, )](src, out, 5, BLOCK=16)
    assert out.tolist() == [1, 2, 3, 4, 5] + [0] * 11


@triton.jit
def _scalar_flag_kernel(flag_ptr, data_ptr, out_ptr):
    # Program 0 publishes data then raises the flag; program 1 waits for it and reads the data.
    if tl.program_id(0) == 0:
        tl.store(data_ptr, 42)
        tl.atomic_store(flag_ptr, 1, sem="release")
    else:
        seen = tl.atomic_poll(flag_ptr, 1, sem="acquire")
        tl.store(out_ptr, tl.load(data_ptr) + seen.to(tl.int32))


def test_poll_waits_for_a_release_store_of_another_program():
    flag = torch.zeros(1, dtype=torch.int32)
    data = torch.zeros(1, dtype=torch.int32)
    out = torch.zeros(1, dtype=torch.int32)
    _scalar_flag_kernel[(2, )](flag, data, out)
    assert out.item() == 43


@triton.jit
def _poll_kernel(ptr, expected_ptr, seen_ptr, timeout_ns, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    seen = tl.atomic_poll(ptr + offsets, tl.load(expected_ptr + offsets), timeout_ns=timeout_ns)
    tl.store(seen_ptr + offsets, seen)


@pytest.mark.parametrize("dtype", [torch.int16, torch.int32, torch.int64])
def test_poll_times_out_where_the_value_never_comes(dtype):
    values = torch.arange(8, dtype=dtype)
    expected = values.clone()
    expected[[1, 6]] = 100
    seen = torch.zeros(8, dtype=torch.bool)
    _poll_kernel[(1, )](values, expected, seen, 2_000_000, BLOCK=8)
    assert seen.tolist() == [True, False, True, True, True, True, False, True]
