"""tl.cat, tl.join, tl.split, tl.gather, tl.histogram, tl.reshape/trans/permute."""

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def join_split_kernel(a_ptr, b_ptr, joined_ptr, lo_ptr, hi_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    j = tl.join(a, b)  # N x 2
    tl.store(joined_ptr + offs[:, None] * 2 + tl.arange(0, 2)[None, :], j)
    lo, hi = tl.split(j)
    tl.store(lo_ptr + offs, lo)
    tl.store(hi_ptr + offs, hi)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int32, torch.float16])
def test_join_and_split(dtype):
    a = torch.arange(16).to(dtype)
    b = (torch.arange(16) * 10).to(dtype)
    joined = torch.empty(16, 2, dtype=dtype)
    lo, hi = torch.empty_like(a), torch.empty_like(a)
    join_split_kernel[(1, )](a, b, joined, lo, hi, N=16)
    torch.testing.assert_close(joined, torch.stack([a, b], dim=1))
    torch.testing.assert_close(lo, a)
    torch.testing.assert_close(hi, b)


@triton.jit
def cat_kernel(a_ptr, b_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    c = tl.cat(tl.load(a_ptr + offs), tl.load(b_ptr + offs))
    tl.store(out_ptr + tl.arange(0, 2 * N), c)


def test_cat():
    a, b = torch.randn(32), torch.randn(32)
    out = torch.empty(64)
    cat_kernel[(1, )](a, b, out, N=32)
    torch.testing.assert_close(out, torch.cat([a, b]))


@triton.jit
def gather_kernel(src_ptr, idx_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    src = tl.load(src_ptr + rows * N + cols)
    idx = tl.load(idx_ptr + rows * N + cols)
    tl.store(out_ptr + rows * N + cols, tl.gather(src, idx, axis=1))


def test_gather_along_axis():
    src = torch.randn(8, 16)
    idx = torch.randint(0, 16, (8, 16), dtype=torch.int32)
    out = torch.empty(8, 16)
    gather_kernel[(1, )](src, idx, out, M=8, N=16)
    torch.testing.assert_close(out, torch.gather(src, 1, idx.long()))


@triton.jit
def histogram_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    h = tl.histogram(x, BINS, mask=offs < n)
    tl.store(out_ptr + tl.arange(0, BINS), h)


def test_histogram_with_mask():
    x = torch.randint(0, 8, (100, ), dtype=torch.int32)
    out = torch.empty(8, dtype=torch.int32)
    histogram_kernel[(1, )](x, out, 100, BLOCK=128, BINS=8)
    torch.testing.assert_close(out, torch.bincount(x, minlength=8).to(torch.int32))


@triton.jit
def permute_reshape_kernel(x_ptr, out_ptr):
    a = tl.arange(0, 2)[:, None, None] * 16 + tl.arange(0, 4)[None, :, None] * 4 + tl.arange(0, 4)[None, None, :]
    x = tl.load(x_ptr + a)
    y = tl.permute(x, (2, 0, 1))  # 4 x 2 x 4
    z = tl.reshape(y, (8, 4))
    tl.store(out_ptr + tl.arange(0, 8)[:, None] * 4 + tl.arange(0, 4)[None, :], z)


def test_permute_then_reshape():
    x = torch.arange(32, dtype=torch.float32)
    out = torch.empty(8, 4)
    permute_reshape_kernel[(1, )](x, out)
    torch.testing.assert_close(out, x.reshape(2, 4, 4).permute(2, 0, 1).reshape(8, 4))
