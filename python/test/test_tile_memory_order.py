"""Kernels whose 2-D tiles run along memory in their first dimension (Inductor's reductions over a
tensor's outer dimension) are transposed (transpose-tiles-to-memory-order), so that their loops run along
memory; kernels whose accesses disagree, or that use ops the transposition does not cover, are left as they
are. Either way every element keeps its pointer, mask and value: the results must equal torch's."""

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def weight_grad_kernel(a_ptr, b_ptr, w_ptr, out_ptr, xnumel, r0_numel, XBLOCK: tl.constexpr,
                       R0_BLOCK: tl.constexpr):
    # As Inductor writes the sum over rows of (a + b) * w[r] for a (r0_numel, xnumel) tensor: x is contiguous.
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    acc = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0 = r0_offset + r0_base
        r0_mask = r0 < r0_numel
        a = tl.load(a_ptr + (xindex + xnumel * r0), r0_mask & xmask, other=0.0)
        b = tl.load(b_ptr + (xindex + xnumel * r0), r0_mask & xmask, other=0.0)
        w = tl.load(w_ptr + r0, r0_mask, other=0.0)
        acc = tl.where(r0_mask & xmask, acc + (a + b) * w, acc)
    total = tl.sum(acc, 1)[:, None]
    tl.store(out_ptr + xindex, total, xmask)


@pytest.mark.parametrize("xblock, r0_block", [(64, 4), (64, 64), (8, 512), (16, 1), (4, 64), (2, 1024)])
@pytest.mark.parametrize("cols, rows", [(512, 1024), (100, 37)])
def test_outer_reductions(xblock, r0_block, cols, rows):
    a, b, w = torch.randn(rows, cols), torch.randn(rows, cols), torch.randn(rows)
    out = torch.full((cols, ), 7.0)
    compiled = weight_grad_kernel[(triton.cdiv(cols, xblock), )](a, b, w, out, cols, rows, XBLOCK=xblock,
                                                                 R0_BLOCK=r0_block)
    torch.testing.assert_close(out, ((a + b) * w[:, None]).sum(0), rtol=1e-4, atol=1e-3)
    linalg = compiled.asm["linalg"]
    # The accumulator tile, as the loops see it: transposed where its first dimension is long enough to fill
    # vectors (8) and the second is not 1 (a square tile looks the same either way).
    if xblock == r0_block:
        pass
    elif xblock >= 8 and r0_block > 1:
        assert f"{r0_block}x{xblock}xf32" in linalg and f"{xblock}x{r0_block}xf32" not in linalg
    elif r0_block > 1:
        assert f"{xblock}x{r0_block}xf32" in linalg


@triton.jit
def transpose_copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    # Loads run along the second dimension and stores along the first: the accesses disagree.
    i = tl.arange(0, BLOCK)[:, None]
    j = tl.arange(0, BLOCK)[None, :]
    mask = (i < n) & (j < n)
    tile = tl.load(src_ptr + i * n + j, mask)
    tl.store(dst_ptr + j * n + i, tile + 1.0, mask)


@triton.jit
def column_scan_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    # Along the first dimension in memory, but through a scan, which the transposition does not cover.
    i = tl.arange(0, BLOCK)[:, None]
    j = tl.arange(0, BLOCK)[None, :]
    mask = (i < n) & (j < n)
    tile = tl.load(src_ptr + i + j * n, mask, other=0.0)
    tl.store(dst_ptr + i + j * n, tl.cumsum(tile, 1), mask)


def test_kernels_left_as_they_are():
    n, block = 20, 32
    x = torch.randn(n, n)
    out = torch.empty_like(x)
    transpose_copy_kernel[(1, )](x, out, n, BLOCK=block)
    torch.testing.assert_close(out, x.t() + 1.0)
    column_scan_kernel[(1, )](x, out, n, BLOCK=block)
    torch.testing.assert_close(out, x.cumsum(0))


@triton.jit
def channel_sums_kernel(x_ptr, out_ptr, xnumel, r0_numel, CHANNELS: tl.constexpr, XBLOCK: tl.constexpr,
                        R0_BLOCK: tl.constexpr):
    # A batch norm's per-channel sums of a channels-last (N*H*W, CHANNELS) tensor as Inductor splits them:
    # x enumerates (split, channel) pairs, x0 = x % CHANNELS is contiguous in memory and x1 = x // CHANNELS
    # picks the split's rows.
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    x0 = xindex % CHANNELS
    x1 = xindex // CHANNELS
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    acc = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0 = r0_offset + r0_base
        r0_mask = r0 < r0_numel
        v = tl.load(x_ptr + (x0 + CHANNELS * r0 + CHANNELS * r0_numel * x1), r0_mask & xmask, other=0.0)
        acc = tl.where(r0_mask & xmask, acc + v * v, acc)
    tl.store(out_ptr + xindex, tl.sum(acc, 1)[:, None], xmask)


@pytest.mark.parametrize("xblock, r0_block", [(64, 4), (32, 8), (128, 2)])
def test_channels_last_sums_through_remainders(xblock, r0_block):
    """The pointer offsets go through x % 64 and x // 64: piecewise contiguous along the first dimension, so the
    tiles are transposed; a block of x may span two splits (XBLOCK 128)."""
    channels, splits, rows = 64, 6, 50
    x = torch.randn(splits, rows, channels)
    out = torch.full((splits * channels, ), 7.0)
    compiled = channel_sums_kernel[(triton.cdiv(splits * channels, xblock), )](
        x, out, splits * channels, rows, CHANNELS=channels, XBLOCK=xblock, R0_BLOCK=r0_block)
    torch.testing.assert_close(out, (x * x).sum(1).reshape(-1), rtol=1e-4, atol=1e-3)
    assert f"{r0_block}x{xblock}xf32" in compiled.asm["linalg"]
