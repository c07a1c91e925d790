"""Integer division by a value known only at run time (Inductor's `xindex // ks1` under dynamic=True) runs
as a multiply by a magic number computed once a launch: exact for every dividend and divisor."""

import numpy as np
import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def divide_kernel(x_ptr, q_ptr, r_ptr, d, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(q_ptr + offsets, x // d, mask=mask)
    tl.store(r_ptr + offsets, x % d, mask=mask)


@triton.jit
def divide_unsigned_kernel(x_ptr, q_ptr, r_ptr, d, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    divisor = d.to(tl.uint32)
    tl.store(q_ptr + offsets, x // divisor, mask=mask)
    tl.store(r_ptr + offsets, x % divisor, mask=mask)


def _dividends(dtype):
    info = np.iinfo(dtype)
    edges = np.array([0, 1, 2, 3, 7, 63, 64, 65, 999, 1000, 1001, info.max, info.max - 1, info.min, info.min + 1],
                     dtype=np.int64)
    edges = edges[(edges >= info.min) & (edges <= info.max)]
    rng = np.random.default_rng(0)
    random = rng.integers(info.min, info.max, size=4000, endpoint=True, dtype=np.int64)
    return np.concatenate([edges, -edges[edges > info.min], random]).clip(info.min, info.max).astype(dtype)


def _expected(x, d, dtype):
    """C's truncating division and remainder in exact integers, wrapped to the dtype (INT_MIN / -1 wraps)."""
    x64, d64 = x.astype(object), int(d) if d != 0 else 1
    q = np.array([abs(v) // abs(d64) * (1 if (v >= 0) == (d64 > 0) else -1) for v in x64], dtype=object)
    r = x64 - q * d64
    bits = np.iinfo(dtype).bits
    wrap = lambda v: ((v + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))) if np.iinfo(dtype).min < 0 \
        else v % (1 << bits)  # noqa: E731
    return (np.array([wrap(v) for v in q], dtype=np.int64).astype(dtype),
            np.array([wrap(v) for v in r], dtype=np.int64).astype(dtype))


@pytest.mark.parametrize("d", [2, 3, 7, 10, 64, 100, 1000, 65537, 2**31 - 1, -1, -2, -3, -7, -64, -1000, -2**31, 0])
def test_int32_division_by_a_runtime_divisor_is_exact(d):
    x = _dividends(np.int32)
    xt = torch.from_numpy(x)
    q, r = torch.empty_like(xt), torch.empty_like(xt)
    compiled = divide_kernel[(triton.cdiv(x.size, 1024), )](xt, q, r, d, x.size, BLOCK=1024)
    expected_q, expected_r = _expected(x, d, np.int32)
    np.testing.assert_array_equal(q.numpy(), expected_q)
    np.testing.assert_array_equal(r.numpy(), expected_r)
    # The loop multiplies: no 32-bit division is left in the kernel (the magic number's own division is 64-bit).
    llir = compiled.asm["llir"]
    assert "sdiv i32" not in llir and "srem i32" not in llir and "sdiv <" not in llir


@pytest.mark.parametrize("d", [2, 3, 7, 641, 2**31 + 5, 2**32 - 1])
def test_uint32_division_by_a_runtime_divisor_is_exact(d):
    x = _dividends(np.uint32)
    xt = torch.from_numpy(x.view(np.int32)).view(torch.uint32)
    q, r = torch.empty_like(xt), torch.empty_like(xt)
    compiled = divide_unsigned_kernel[(triton.cdiv(x.size, 1024), )](xt, q, r, d, x.size, BLOCK=1024)
    llir = compiled.asm["llir"]
    assert "udiv i32" not in llir and "urem i32" not in llir and "udiv <" not in llir
    np.testing.assert_array_equal(q.view(torch.int32).numpy().view(np.uint32), x // np.uint32(d))
    np.testing.assert_array_equal(r.view(torch.int32).numpy().view(np.uint32), x % np.uint32(d))
