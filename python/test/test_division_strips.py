"""Indices divided by a period: `scale[offs // GROUP]` and Inductor's `x % C`, `x // C`.

Such loops run as strips between multiples of the period, in which the quotient is uniform and the remainder
consecutive (tritium-cpu-strip-mine-loops-at-division-periods), when the indices are non-negative and the
period is at least 16; otherwise as they were. These kernels cover both sides of each condition: periods
below, at and above 16 (constant and runtime), periods that do not divide the block, blocks that start inside
a strip, masks, and negative indices.
"""

import re

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def group_scale_kernel(q_ptr, scale_ptr, out_ptr, n, start, GROUP: tl.constexpr, BLOCK: tl.constexpr):
    offs = start + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    q = tl.load(q_ptr + offs, mask=mask)
    scale = tl.load(scale_ptr + offs // GROUP, mask=mask)
    tl.store(out_ptr + offs, q.to(tl.float32) * scale, mask=mask)


@pytest.mark.parametrize("group", [4, 16, 17, 128, 1000])
@pytest.mark.parametrize("start", [0, 5, 131])
def test_group_scales(group, start):
    n = 5000
    q = torch.randint(-128, 128, (n, ), dtype=torch.int8)
    scale = torch.rand(triton.cdiv(n, group)) + 0.5
    out = torch.full((n, ), -1.0)
    block = 256
    grid = (triton.cdiv(n - start, block), )
    group_scale_kernel[grid](q, scale, out, n, start, GROUP=group, BLOCK=block)
    expected = q.float() * scale.repeat_interleave(group)[:n]
    expected[:start] = -1.0
    assert torch.equal(out, expected)


@triton.jit
def broadcast_bias_kernel(x_ptr, bias_ptr, row_scale_ptr, out_ptr, xnumel, ks0, BLOCK: tl.constexpr):
    # As Inductor writes a broadcast over the rows of a (rows, ks0) tensor.
    xindex = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    xmask = xindex < xnumel
    x0 = xindex % ks0
    x1 = xindex // ks0
    tmp0 = tl.load(x_ptr + xindex, xmask)
    tmp1 = tl.load(bias_ptr + x0, xmask)
    tmp2 = tl.load(row_scale_ptr + x1, xmask)
    tl.store(out_ptr + xindex, (tmp0 + tmp1) * tmp2, xmask)


@pytest.mark.parametrize("cols", [3, 15, 16, 33, 768, 1000])
def test_inductor_broadcast_indexing(cols):
    rows = 37
    x = torch.randn(rows, cols)
    bias = torch.randn(cols)
    row_scale = torch.randn(rows)
    out = torch.empty_like(x)
    block = 512
    broadcast_bias_kernel[(triton.cdiv(x.numel(), block), )](x, bias, row_scale, out, x.numel(), cols, BLOCK=block)
    torch.testing.assert_close(out, (x + bias) * row_scale[:, None])


@triton.jit
def signed_division_kernel(src_ptr, out_ptr, base, PERIOD: tl.constexpr, BLOCK: tl.constexpr):
    lanes = tl.arange(0, BLOCK)
    idx = base + lanes  # negative for part of the block: truncating division, remainder with the dividend's sign
    tl.store(out_ptr + lanes, idx // PERIOD * 1000 + idx % PERIOD)


@pytest.mark.parametrize("base", [-100, -64, 0, 7])
def test_negative_indices_keep_truncating_division(base):
    block, period = 128, 32
    out = torch.empty(block, dtype=torch.int32)
    signed_division_kernel[(1, )](out, out, base, PERIOD=period, BLOCK=block)
    idx = torch.arange(block, dtype=torch.int64) + base
    quotient = torch.div(idx, period, rounding_mode="trunc")
    expected = quotient * 1000 + (idx - quotient * period)
    assert torch.equal(out.long(), expected)


def test_group_scale_loads_are_not_gathers():
    n = 4096
    q = torch.randint(-128, 128, (n, ), dtype=torch.int8)
    scale = torch.rand(n // 128)
    out = torch.empty(n)
    kernel = group_scale_kernel[(n // 1024, )](q, scale, out, n, 0, GROUP=128, BLOCK=1024)
    llir = kernel.asm["llir"]
    # The strip loop loads each group's scale once and multiplies consecutive vectors by it.
    assert re.search(r"load <\d+ x i8>", llir), "no consecutive vector load of q"
    strip_part = llir.split("llvm.masked.gather")[0] if "llvm.masked.gather" in llir else llir
    assert re.search(r"= load float, ptr", strip_part), "no scalar load of a group's scale"
