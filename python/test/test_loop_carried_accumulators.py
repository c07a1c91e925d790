"""Loops that accumulate loaded tiles into a loop-carried tile (`acc = tl.where(mask, acc + x, acc)`, as
Inductor writes every reduction that loops, and `acc += tl.load(...)`) compute the next tile element by
element, loading each element of x where it is used (stream-loads-into-stores), instead of copying the loaded
tile into a buffer first. The results must equal torch's whatever the dtype, mask or combination; where the
loaded tile is needed as it is, it keeps its buffer."""

import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def masked_row_sums(x_ptr, out_ptr, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr,
                    OP: tl.constexpr):
    # Inductor's looped reduction over rows: [XBLOCK, R0_BLOCK] tiles of x[x, r], masked on both dimensions.
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    if OP == "max":
        acc = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    else:
        acc = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0 = r0_offset + r0_base
        r0_mask = r0 < r0_numel
        x = tl.load(x_ptr + (r0 + r0_numel * xindex), r0_mask & xmask, other=0.0).to(tl.float32)
        if OP == "max":
            acc = tl.where(r0_mask & xmask, tl.maximum(acc, x), acc)
        elif OP == "sum_of_squares":
            acc = tl.where(r0_mask & xmask, acc + x * x, acc)
        else:
            acc = tl.where(r0_mask & xmask, acc + x, acc)
    if OP == "max":
        total = tl.max(acc, 1)[:, None]
    else:
        total = tl.sum(acc, 1)[:, None]
    tl.store(out_ptr + xindex, total, xmask)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
@pytest.mark.parametrize("op", ["sum", "max", "sum_of_squares"])
@pytest.mark.parametrize("rows, cols, xblock, r0_block", [(64, 512, 8, 64), (37, 100, 4, 16), (5, 1000, 1, 256)])
def test_masked_row_reductions(dtype, op, rows, cols, xblock, r0_block):
    x = torch.randn(rows, cols).to(dtype)
    out = torch.full((rows, ), 7.0)
    compiled = masked_row_sums[(triton.cdiv(rows, xblock), )](x, out, rows, cols, XBLOCK=xblock, R0_BLOCK=r0_block,
                                                               OP=op)
    xf = x.float()
    expected = {"sum": xf.sum(1), "max": xf.amax(1), "sum_of_squares": (xf * xf).sum(1)}[op]
    torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-3)
    # The loaded tile is read where it is added and the accumulator updated in place: the loop allocates no
    # tile buffer.
    linalg = compiled.asm["linalg"]
    loop = linalg[linalg.index("scf.for"):]
    assert "memref.alloc()" not in loop, loop


@triton.jit
def accumulate_ints(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # The tutorial form: acc += tl.load(...) over blocks of a row, integers.
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.int32)
    for start in range(0, n, BLOCK):
        acc += tl.load(x_ptr + tl.program_id(0) * n + start + offs, mask=start + offs < n, other=0)
    tl.store(out_ptr + tl.program_id(0), tl.sum(acc, 0))


@pytest.mark.parametrize("n", [1, 100, 1024, 3000])
def test_integer_accumulation(n):
    x = torch.randint(-1000, 1000, (3, n), dtype=torch.int32)
    out = torch.zeros(3, dtype=torch.int32)
    accumulate_ints[(3, )](x, out, n, BLOCK=128)
    assert torch.equal(out, x.sum(1, dtype=torch.int32))


@triton.jit
def accumulate_and_copy(x_ptr, copy_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # The loaded tile feeds the accumulator and a store in the same iteration.
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        mask = start + offs < n
        x = tl.load(x_ptr + start + offs, mask=mask, other=0.0)
        tl.store(copy_ptr + start + offs, x * 2.0, mask=mask)
        acc += x
    tl.store(out_ptr, tl.sum(acc, 0))


def test_accumulator_beside_a_store():
    x = torch.randn(1000)
    copy = torch.zeros(1000)
    out = torch.zeros(1)
    accumulate_and_copy[(1, )](x, copy, out, 1000, BLOCK=64)
    torch.testing.assert_close(copy, x * 2)
    torch.testing.assert_close(out, x.sum()[None], rtol=1e-4, atol=1e-4)


@triton.jit
def accumulate_in_place(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Each iteration overwrites what it loaded: reading x at the accumulator must still see the old values.
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n, BLOCK):
        mask = start + offs < n
        x = tl.load(x_ptr + start + offs, mask=mask, other=0.0)
        acc = acc + x
        tl.store(x_ptr + start + offs, acc, mask=mask)
    tl.store(out_ptr + offs, acc)


def test_accumulator_of_a_tile_overwritten_in_the_loop():
    x = torch.randn(640)
    out = torch.zeros(64)
    expected_acc = x.view(10, 64).cumsum(0)
    accumulate_in_place[(1, )](x, out, 640, BLOCK=64)
    torch.testing.assert_close(out, expected_acc[-1], rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(x.view(10, 64), expected_acc, rtol=1e-4, atol=1e-4)


@triton.jit
def accumulate_with_transposed_tile(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # The next tile reads the loop-carried one at other indices (through a transposition, which is
    # computed whole before the tile is updated) besides the index it writes.
    rows = tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    acc = tl.zeros([BLOCK, BLOCK], tl.float32)
    for i in range(0, n):
        x = tl.load(x_ptr + i * BLOCK * BLOCK + rows * BLOCK + cols)
        acc = acc + tl.trans(acc) * 0.5 + x
    tl.store(out_ptr + rows * BLOCK + cols, acc)


def test_accumulator_read_through_a_transposition():
    x = torch.randn(3, 8, 8)
    out = torch.zeros(8, 8)
    accumulate_with_transposed_tile[(1, )](x, out, 3, BLOCK=8)
    acc = torch.zeros(8, 8)
    for i in range(3):
        acc = acc + acc.t() * 0.5 + x[i]
    torch.testing.assert_close(out, acc, rtol=1e-5, atol=1e-5)
