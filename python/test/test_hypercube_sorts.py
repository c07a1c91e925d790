"""tl.sort, tl.topk and tl.flip on large tiles. Triton reshapes the tile into a hypercube
([2] * log2(size)) and finds each element's partner as `a ^ xor_sum(a)` along one axis of two;
tritium reads the partner at the mirrored index instead and merges the hypercube's loops
(tritium-cpu-fold-pair-xor-sums-into-reversals, tritium-cpu-collapse-hypercube-loop-nests).
These tiles (up to 8192 elements, up to 13 dimensions) check the result of that rewrite against
numpy: ascending and descending, with ties, signed zeros, NaN-free extremes and every width of
element, several rows per program and several programs per launch.
"""

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

from test_scan_and_sort import _ids, as_torch, to_numpy


@triton.jit
def sort_tile(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, DESCENDING: tl.constexpr):
    rows = tl.program_id(0) * M + tl.arange(0, M)[:, None]
    offs = rows * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + offs, tl.sort(tl.load(x_ptr + offs), descending=DESCENDING))


@triton.jit
def topk_tile(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rows = tl.program_id(0) * M + tl.arange(0, M)[:, None]
    x = tl.load(x_ptr + rows * N + tl.arange(0, N)[None, :])
    tl.store(out_ptr + rows * K + tl.arange(0, K)[None, :], tl.topk(x, K))


@triton.jit
def flip_tile(x_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, DIM: tl.constexpr):
    offs = (tl.arange(0, A)[:, None, None] * B * C + tl.arange(0, B)[None, :, None] * C +
            tl.arange(0, C)[None, None, :])
    tl.store(out_ptr + offs, tl.flip(tl.load(x_ptr + offs), DIM))


DTYPES = [torch.float32, torch.float64, torch.bfloat16, torch.float16, torch.int8, torch.int16, torch.int32,
          torch.int64, torch.uint8]


def values(shape, dtype, seed):
    g = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        x = torch.randn(shape, generator=g).to(dtype)
        flat = x.view(-1)
        # Ties, signed zeros and the extremes of the type.
        flat[:6] = torch.tensor([0.0, -0.0, 1.5, 1.5, torch.finfo(dtype).max, torch.finfo(dtype).min]).to(dtype)
        return x
    info = torch.iinfo(dtype)
    x = torch.randint(max(info.min, -2**40), min(info.max, 2**40) + 1, shape, generator=g, dtype=torch.int64)
    x = x.to(dtype)
    x.view(-1)[:4] = torch.tensor([info.min, info.max, 0, 0]).to(dtype)
    return x


def check_sort(dtype, M, N, programs, descending):
    x = values((programs * M, N), dtype, seed=N + M)
    out = torch.empty_like(x)
    sort_tile[(programs, )](x, out, M=M, N=N, DESCENDING=descending)
    expected = np.sort(to_numpy(x), axis=1)
    if descending:
        expected = np.flip(expected, 1)
    torch.testing.assert_close(out, as_torch(expected.copy(), dtype), rtol=0, atol=0)


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=_ids(DTYPES))
def test_sort_every_dtype(dtype, descending):
    # 16 rows of 128 per program: an 11-dimensional hypercube, two programs.
    check_sort(dtype, 16, 128, 2, descending)


@pytest.mark.parametrize("M, N, programs, descending", [(1, 1024, 2, False), (1, 1024, 2, True), (64, 16, 3, True),
                                                        (2, 4096, 1, False)])
def test_sort_tile_shapes(M, N, programs, descending):
    check_sort(torch.float32, M, N, programs, descending)


@pytest.mark.parametrize("K", [2, 256])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int32], ids=_ids([torch.float32, torch.int32]))
def test_topk_of_long_rows(dtype, K):
    M, N = 4, 1024
    x = values((M, N), dtype, seed=K)
    out = torch.empty(M, K, dtype=dtype)
    topk_tile[(1, )](x, out, M=M, N=N, K=K)
    expected = np.flip(np.sort(to_numpy(x), axis=1), 1)[:, :K]
    torch.testing.assert_close(out, as_torch(expected.copy(), dtype), rtol=0, atol=0)


@pytest.mark.parametrize("dim", [0, 1, 2])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int8, torch.int64, torch.bool],
                         ids=_ids([torch.float32, torch.float16, torch.int8, torch.int64, torch.bool]))
def test_flip_of_3d_tiles(dtype, dim):
    A, B, C = 4, 32, 16
    if dtype == torch.bool:
        x = torch.rand(A, B, C) > 0.5
    else:
        x = values((A, B, C), dtype, seed=dim)
    out = torch.empty_like(x)
    flip_tile[(1, )](x, out, A=A, B=B, C=C, DIM=dim)
    assert torch.equal(out, x.flip(dim))
