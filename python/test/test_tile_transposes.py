"""`tl.trans` of 2-D tiles: every dtype and shape gives the transposed values.

Tiles of 32- and 64-bit elements whose sides are multiples of a 256-bit vector's elements
transpose by register blocks (vector loads, shuffles, vector stores; checked in the LLVM IR);
other tiles stay element loops. Both paths are compared with torch here, alone and feeding a
product (attention's `q @ k^T`).
"""

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, SCALE: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    if SCALE:
        x = x * 2  # the transpose then reads a computed tile, not the loaded one
    t = tl.trans(x)
    tl.store(out_ptr + cols[:, None] * M + rows[None, :], t)


@triton.jit
def scores_kernel(q_ptr, k_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    rows = tl.arange(0, M)
    keys = tl.arange(0, N)
    dims = tl.arange(0, D)
    q = tl.load(q_ptr + rows[:, None] * D + dims[None, :])
    k = tl.load(k_ptr + keys[:, None] * D + dims[None, :])
    tl.store(out_ptr + rows[:, None] * N + keys[None, :], tl.dot(q, tl.trans(k)))


def _tile(dtype, m, n, seed):
    g = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        return torch.randn(m, n, generator=g, dtype=torch.float64).to(dtype)
    return torch.randint(-(2**15), 2**15, (m, n), generator=g).to(dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int32, torch.float64, torch.int64, torch.float16,
                                   torch.bfloat16, torch.int8])
@pytest.mark.parametrize("m,n", [(8, 8), (4, 4), (16, 32), (64, 64), (32, 8), (4, 16), (2, 8), (16, 2)])
@pytest.mark.parametrize("scale", [False, True])
def test_transpose_values(dtype, m, n, scale):
    x = _tile(dtype, m, n, m * 100 + n)
    out = torch.empty(n, m, dtype=dtype)
    transpose_kernel[(1,)](x, out, M=m, N=n, SCALE=scale)
    expected = (x * 2 if scale else x).t()
    assert torch.equal(out, expected)


@pytest.mark.parametrize("dtype,m,n,blocks", [(torch.float32, 64, 64, True), (torch.int32, 16, 8, True),
                                              (torch.float64, 4, 8, True), (torch.float32, 4, 8, False),
                                              (torch.float16, 16, 16, False)])
def test_blocked_transposes_use_shuffles(dtype, m, n, blocks):
    """A blocked transpose reaches LLVM as whole-vector loads and shuffles; no element of it is
    inserted into a vector one at a time. (SCALE makes the transposed tile a computed one.)"""
    x = _tile(dtype, m, n, 7)
    out = torch.empty(n, m, dtype=dtype)
    kernel = transpose_kernel[(1,)](x, out, M=m, N=n, SCALE=True)
    assert torch.equal(out, (x * 2).t())
    llir = kernel.asm["llir"]
    if blocks:
        assert "shufflevector" in llir and "insertelement" not in llir, llir


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("m,n,d", [(64, 64, 64), (32, 16, 128), (16, 64, 32)])
def test_scores_of_transposed_keys(dtype, m, n, d):
    q = _tile(dtype, m, d, 1)
    k = _tile(dtype, n, d, 2)
    out = torch.empty(m, n, dtype=dtype)
    scores_kernel[(1,)](q, k, out, M=m, N=n, D=d)
    tol = 1e-4 if dtype == torch.float32 else 1e-10
    torch.testing.assert_close(out, q @ k.t(), rtol=tol, atol=tol * d)
