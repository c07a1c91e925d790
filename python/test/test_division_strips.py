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
    # A vectorized block (LLVM's blocks are separated by blank lines) that loads consecutive q
    # and one scale: the strip loop's body. (The iterations before the first group boundary
    # may gather.)
    blocks = llir.split("\n\n")
    assert any(re.search(r"load <\d+ x i8>", b) and re.search(r"= load float, ptr", b) for b in blocks), \
        "no strip loop loading a group's scale once"


@triton.jit
def rotary_kernel(qkv_ptr, cos_ptr, sin_ptr, out_ptr, xnumel, start, HEADS: tl.constexpr, SEQ: tl.constexpr,
                  HALF: tl.constexpr, BLOCK: tl.constexpr):
    # Inductor's rotary embedding of the queries of a (batch, seq, 3, HEADS, 2 * HALF) projection into a
    # (batch, HEADS, seq, 2 * HALF) output: one index decomposed by the nested periods HALF, HALF * HEADS,
    # HALF * HEADS * SEQ.
    xindex = start + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    xmask = xindex < xnumel
    x0 = xindex % HALF
    x1 = (xindex // HALF) % HEADS
    x4 = xindex // (HALF * HEADS)
    x2 = (xindex // (HALF * HEADS)) % SEQ
    x3 = xindex // (HALF * HEADS * SEQ)
    row = 2 * HALF * x1 + 6 * HALF * HEADS * x4
    a = tl.load(qkv_ptr + (x0 + row), xmask)
    b = tl.load(qkv_ptr + (HALF + x0 + row), xmask)
    cos = tl.load(cos_ptr + (x0 + HALF * x2), xmask)
    sin = tl.load(sin_ptr + (x0 + HALF * x2), xmask)
    out = x0 + 2 * HALF * x2 + 2 * HALF * SEQ * x1 + 2 * HALF * SEQ * HEADS * x3
    tl.store(out_ptr + out, a * cos - b * sin, xmask)
    tl.store(out_ptr + (HALF + out), a * sin + b * cos, xmask)


@pytest.mark.parametrize("half, heads", [(32, 8), (16, 4), (24, 2), (8, 4)])
@pytest.mark.parametrize("start", [0, 40])
def test_nested_periods_of_rotary_embeddings(half, heads, start):
    """Periods that are multiples of the smallest (32, 256, 25600; 16, 64, 6400; 24, 48, 4800) fold into one
    strip loop (the lit test strip-mine-loops-at-division-periods.mlir checks that no division is left in it);
    8 is below the shortest strip, so that kernel keeps its divisions. Elements before `start` stay untouched."""
    batch, seq = 2, 100
    qkv = torch.randn(batch, seq, 3, heads, 2 * half)
    cos, sin = torch.randn(seq, half), torch.randn(seq, half)
    out = torch.full((batch, heads, seq, 2 * half), -7.0)
    n = batch * seq * heads * half
    block = 512
    rotary_kernel[(triton.cdiv(n - start, block), )](qkv, cos, sin, out, n, start, HEADS=heads, SEQ=seq, HALF=half,
                                                      BLOCK=block)
    q = qkv[:, :, 0].transpose(1, 2)
    q1, q2 = q[..., :half], q[..., half:]
    expected = torch.cat([q1 * cos - q2 * sin, q1 * sin + q2 * cos], -1)
    # The first `start` rotated elements (in the kernel's index order: x0 fastest, then head, seq, batch) are not
    # written.
    flat = expected.permute(0, 2, 1, 3).reshape(batch * seq * heads, 2, half).clone()
    skipped = torch.zeros(n, dtype=torch.bool)
    skipped[:start] = True
    skipped = skipped.view(batch * seq * heads, half)
    flat[:, 0][skipped] = -7.0
    flat[:, 1][skipped] = -7.0
    expected = flat.view(batch, seq, heads, 2 * half).permute(0, 2, 1, 3)
    torch.testing.assert_close(out, expected, rtol=1e-6, atol=1e-6)



@triton.jit
def halves_kernel(x_ptr, out_ptr, xnumel, start, CUT: tl.constexpr, FORM: tl.constexpr, INCLUSIVE: tl.constexpr,
                  PERIOD: tl.constexpr, BLOCK: tl.constexpr):
    # Inductor's rotate-half: x0 = xindex % PERIOD picks a part of each row by comparing x0 with a bound, in
    # each of the forms a comparison can take (the strip loops split where the test changes).
    xindex = start + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    xmask = xindex < xnumel
    x0 = xindex % PERIOD
    x1 = xindex // PERIOD
    if FORM == "lt":
        first = x0 < CUT
    elif FORM == "le":
        first = x0 <= CUT
    elif FORM == "reversed_gt":
        first = CUT > x0
    elif FORM == "ge_int64":
        first = ~(x0.to(tl.int64) >= CUT)
    else:  # "gt": with the complement's own test
        first = x0 <= CUT
    if INCLUSIVE:
        second = x0 > CUT
    else:
        second = x0 >= CUT
    lo = tl.load(x_ptr + (PERIOD * x1 + (x0 + PERIOD - CUT) % PERIOD), first & xmask, other=0.0)
    hi = tl.load(x_ptr + (PERIOD * x1 + (x0 - CUT)), second & xmask, other=0.0)
    tl.store(out_ptr + xindex, tl.where(first, -lo, hi), xmask)


@pytest.mark.parametrize("form", ["lt", "le", "reversed_gt", "ge_int64", "gt"])
@pytest.mark.parametrize("cut, block, start", [(32, 1024, 0), (32, 64, 0), (20, 256, 0), (32, 1024, 17),
                                               (0, 256, 0), (63, 128, 5), (64, 256, 0)])
def test_tests_of_the_remainder_split_strips(form, cut, block, start):
    """Every iteration of a strip takes the branch its own element takes, at cuts inside the period, at its
    ends (0, 63) and past it (64), for blocks of one strip and of many, with blocks starting inside a strip."""
    period, rows = 64, 37
    x = torch.randn(rows * period)
    out = torch.full_like(x, 7.0)
    n = x.numel() - 3  # the last program is partly masked
    inclusive = form in ("le", "gt")
    halves_kernel[(triton.cdiv(n - start, block), )](x, out, n, start, CUT=cut, FORM=form, INCLUSIVE=inclusive,
                                                     PERIOD=period, BLOCK=block)
    index = torch.arange(x.numel())
    x0, x1 = index % period, index // period
    first = x0 <= cut if inclusive else x0 < cut
    lo = x[(period * x1 + (x0 + period - cut) % period).clamp(max=x.numel() - 1)]
    hi = x[(period * x1 + x0 - cut).clamp(min=0, max=x.numel() - 1)]
    expected = torch.where(first, -lo, hi)
    expected[:start] = 7.0
    expected[n:] = 7.0
    assert torch.equal(out, expected)
