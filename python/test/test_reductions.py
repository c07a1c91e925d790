"""Sum and max along each axis of a 2-D block, and reductions with index operands."""

import pytest
import torch
import triton
import triton.language as tl

from conftest import random_tensor


@triton.jit
def reduce_2d_kernel(x_ptr, sum0_ptr, sum1_ptr, max0_ptr, max1_ptr, M, N, stride_m,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_m + cols[None, :], mask=mask, other=0)
    tl.store(sum0_ptr + cols, tl.sum(x, axis=0), mask=cols < N)
    tl.store(sum1_ptr + rows, tl.sum(x, axis=1), mask=rows < M)
    lowest = tl.full(x.shape, -1000000, x.dtype) if x.dtype.is_int() else tl.full(x.shape, float("-inf"), x.dtype)
    xm = tl.where(mask, x, lowest)
    tl.store(max0_ptr + cols, tl.max(xm, axis=0), mask=cols < N)
    tl.store(max1_ptr + rows, tl.max(xm, axis=1), mask=rows < M)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("M,N", [(1, 1), (16, 16), (13, 29), (64, 128), (5, 200)])
def test_sum_and_max_along_each_axis(dtype, M, N):
    x = random_tensor((M, N), dtype)
    BM, BN = triton.next_power_of_2(M), triton.next_power_of_2(N)
    sum0, max0 = torch.empty(N, dtype=dtype), torch.empty(N, dtype=dtype)
    sum1, max1 = torch.empty(M, dtype=dtype), torch.empty(M, dtype=dtype)
    reduce_2d_kernel[(1, )](x, sum0, sum1, max0, max1, M, N, x.stride(0), BLOCK_M=BM, BLOCK_N=BN)
    if dtype.is_floating_point:
        tol = 1e-4 if dtype == torch.float32 else 5e-2
        torch.testing.assert_close(sum0.float(), x.float().sum(0), rtol=tol, atol=tol * N)
        torch.testing.assert_close(sum1.float(), x.float().sum(1), rtol=tol, atol=tol * N)
    else:
        torch.testing.assert_close(sum0, x.sum(0).to(dtype))
        torch.testing.assert_close(sum1, x.sum(1).to(dtype))
    torch.testing.assert_close(max0, x.max(0).values)
    torch.testing.assert_close(max1, x.max(1).values)


@triton.jit
def argmax_kernel(x_ptr, idx_ptr, val_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=-float("inf"))
    value, index = tl.max(x, axis=0, return_indices=True)
    tl.store(idx_ptr + row, index)
    tl.store(val_ptr + row, value)


def test_argmax_with_ties_picks_first():
    x = torch.tensor([[1.0, 5.0, 5.0, 2.0], [3.0, 3.0, 3.0, 3.0], [-1.0, -2.0, -3.0, 7.0]])
    idx = torch.empty(3, dtype=torch.int32)
    val = torch.empty(3)
    argmax_kernel[(3, )](x, idx, val, 4, BLOCK=4)
    assert idx.tolist() == [1, 0, 3]
    assert val.tolist() == [5.0, 3.0, 7.0]


def test_argmax_random_rows():
    x = torch.randn(50, 300)
    idx = torch.empty(50, dtype=torch.int32)
    val = torch.empty(50)
    argmax_kernel[(50, )](x, idx, val, 300, BLOCK=512)
    torch.testing.assert_close(idx.long(), x.argmax(1))
    torch.testing.assert_close(val, x.max(1).values)


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + cols, mask=cols < N, other=0)
    tl.store(out_ptr + cols, tl.cumsum(x, axis=0), mask=cols < N)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int32])
def test_cumsum(dtype):
    x = random_tensor(300, dtype)
    out = torch.empty_like(x)
    cumsum_kernel[(1, )](x, out, 300, BLOCK=512)
    if dtype.is_floating_point:
        torch.testing.assert_close(out, x.cumsum(0), rtol=1e-4, atol=1e-4)
    else:
        torch.testing.assert_close(out, x.cumsum(0).to(dtype))
