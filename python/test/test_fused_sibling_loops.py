"""A row's reductions and the tiles handed from one loop to the next run in one loop.

`tritium-cpu-fuse-independent-sibling-loops` joins loops over the same range when neither
depends on the other, or when one hands the other a tile slice by slice along the loop (an
element, or a row of a block of rows, whose loop nests then join row by row). Each kernel here
is checked against torch on inputs that take every path (masked tails, rows with NaN or
infinity, blocks of rows with masked ones, outputs that alias inputs, a program that reads
what it wrote), and the
softmax's LLVM IR is checked for the fused loop itself.
"""

import re

import pytest
import torch
import triton
import triton.language as tl

from test_streamed_loads import gelu_layer_norm_kernel


@triton.jit
def inductor_style_softmax(out_ptr, x_ptr, n_rows, n_cols, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    # As Inductor writes softmax(x * scale) over rows longer than a persistent reduction: one loop
    # for the row's not-finite check and two maxima, one for the exponentials (stored, summed),
    # one for the division.
    rows = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    row_mask = rows < n_rows
    cols = tl.arange(0, RBLOCK)[None, :]
    not_finite = tl.full([XBLOCK, RBLOCK], False, tl.int1)
    row_max = tl.full([XBLOCK, RBLOCK], float("-inf"), tl.float32)
    scaled_max = tl.full([XBLOCK, RBLOCK], float("-inf"), tl.float32)
    for start in tl.range(0, n_cols, RBLOCK):
        mask = (start + cols < n_cols) & row_mask
        x = tl.load(x_ptr + rows * n_cols + start + cols, mask, other=0.0)
        scaled = x * 0.125
        bad = ~((scaled == scaled) & (tl.abs(scaled) != float("inf")))
        not_finite = tl.where(mask, not_finite | bad, not_finite)
        row_max = tl.where(mask, tl.maximum(row_max, x), row_max)
        scaled_max = tl.where(mask, tl.maximum(scaled_max, scaled), scaled_max)
    any_bad = tl.max(not_finite.to(tl.int8), 1)[:, None] != 0
    row_max = tl.max(row_max, 1)[:, None]
    scaled_max = tl.max(scaled_max, 1)[:, None]
    total = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    for start in tl.range(0, n_cols, RBLOCK):
        mask = (start + cols < n_cols) & row_mask
        x = tl.load(x_ptr + rows * n_cols + start + cols, mask, other=0.0)
        shifted = tl.where(any_bad, x * 0.125 - scaled_max, (x - row_max) * 0.125)
        e = tl.exp(shifted)
        total = tl.where(mask, total + e, total)
        tl.store(out_ptr + rows * n_cols + start + cols, e, mask)
    total = tl.sum(total, 1)[:, None]
    for start in tl.range(0, n_cols, RBLOCK):
        mask = (start + cols < n_cols) & row_mask
        e = tl.load(out_ptr + rows * n_cols + start + cols, mask, other=0.0)
        tl.store(out_ptr + rows * n_cols + start + cols, e / total, mask)


def softmax(x, xblock, rblock):
    out = torch.empty_like(x)
    rows, cols = x.shape
    compiled = inductor_style_softmax[(triton.cdiv(rows, xblock), )](out, x, rows, cols, XBLOCK=xblock, RBLOCK=rblock)
    return out, compiled


def expected_softmax(x):
    scaled = x * 0.125
    if torch.isfinite(scaled).all():
        return torch.softmax(scaled, -1)
    # What the kernel computes per row: a row with a value that is not finite is shifted by the
    # scaled max (giving NaN where torch would too).
    rows = []
    for row in x:
        s = row * 0.125
        shifted = s - s.max() if not torch.isfinite(s).all() else (row - row.max()) * 0.125
        e = torch.exp(shifted)
        rows.append(e / e.sum())
    return torch.stack(rows)


@pytest.mark.parametrize("shape,xblock,rblock", [
    ((64, 4096), 1, 4096),  # one step per row: the tiles of the three loops are rows
    ((33, 1000), 1, 1024),  # a masked tail
    ((30, 300), 4, 128),  # several rows per program, several steps, the last rows masked
])
def test_softmax_in_fused_loops(shape, xblock, rblock):
    x = torch.randn(shape) * 4
    out, _ = softmax(x, xblock, rblock)
    torch.testing.assert_close(out, expected_softmax(x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("special", [float("nan"), float("inf"), float("-inf")])
def test_softmax_rows_with_values_that_are_not_finite(special):
    """A NaN makes the fused maxima's fast path give way to the exact loops (and the not-finite
    flag pick the other shift); infinities do the same through the flag alone."""
    x = torch.randn(8, 4096)
    x[3, 1000] = special
    x[5, 17] = special
    out, _ = softmax(x, 1, 4096)
    torch.testing.assert_close(out, expected_softmax(x), rtol=1e-5, atol=1e-6, equal_nan=True)
    clean = [r for r in range(8) if r not in (3, 5)]
    assert torch.isfinite(out[clean]).all()


def loop_bodies(llir):
    """The LLVM IR's basic blocks, by label."""
    return re.split(r"\n(?=[A-Za-z0-9_.]+:)", llir)


def test_the_row_is_read_once_before_the_exponentials():
    """The three loop-carried tiles of the first loop (not-finite flags, maxima of x and of the
    scaled x) are each updated by a loop of their own, fused into one: some vectorized loop
    holds the not-finite check (|x| == inf) and both maxima."""
    _, compiled = softmax(torch.randn(4, 4096), 1, 4096)
    bodies = [b for b in loop_bodies(compiled.asm["llir"]) if b.startswith("vector.body")]
    fused = [b for b in bodies if "0x7FF0000000000000" in b and b.count("@llvm.maxnum") >= 2]
    assert fused, "\n\n".join(bodies)


@triton.jit
def sum_and_sum_of_squares(x_ptr, mean_ptr, var_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask, other=0.0)
    mean = tl.sum(x, 0) / n_cols
    mean_square = tl.sum(x * x, 0) / n_cols
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, mean_square - mean * mean)


@pytest.mark.parametrize("n_cols", [1024, 1000, 7])
def test_two_sums_of_one_row(n_cols):
    x = torch.randn(16, n_cols) + 0.5
    mean, var = torch.empty(16), torch.empty(16)
    sum_and_sum_of_squares[(16, )](x, mean, var, n_cols, BLOCK=triton.next_power_of_2(n_cols))
    torch.testing.assert_close(mean, x.mean(1), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(var, x.var(1, correction=0), rtol=1e-4, atol=1e-4)


@triton.jit
def exp_in_place_and_sum(x_ptr, sum_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    e = tl.exp(tl.load(x_ptr + row * n_cols + cols, mask, other=0.0))
    tl.store(x_ptr + row * n_cols + cols, e, mask)
    tl.store(sum_ptr + row, tl.sum(tl.where(mask, e, 0.0), 0))


@pytest.mark.parametrize("n_cols", [2048, 999])
def test_output_that_is_the_input(n_cols):
    x = torch.randn(8, n_cols)
    expected = torch.exp(x)
    sums = torch.empty(8)
    exp_in_place_and_sum[(8, )](x, sums, n_cols, BLOCK=triton.next_power_of_2(n_cols))
    torch.testing.assert_close(x, expected)
    torch.testing.assert_close(sums, expected.sum(1), rtol=1e-5, atol=1e-4)


@triton.jit
def store_then_read_reversed(x_ptr, out_ptr, sum_ptr, BLOCK: tl.constexpr):
    # The program reads back what it stored, in the other order: the loop that stores and the
    # loop that reads may not run as one (its first iterations would read elements not stored yet).
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * BLOCK + cols)
    tl.store(out_ptr + row * BLOCK + cols, x * 2.0)
    back = tl.load(out_ptr + row * BLOCK + (BLOCK - 1 - cols))
    tl.store(sum_ptr + row * BLOCK + cols, back + x)


def test_a_program_reads_what_it_stored():
    x = torch.randn(4, 512)
    out, result = torch.empty_like(x), torch.empty_like(x)
    store_then_read_reversed[(4, )](x, out, result, BLOCK=512)
    torch.testing.assert_close(out, x * 2)
    torch.testing.assert_close(result, (x * 2).flip(1) + x)


@pytest.mark.parametrize("n_rows,xblock", [(64, 8), (37, 8), (5, 4)])
def test_blocks_of_rows(n_rows, xblock):
    """A block of rows at a time (Inductor's persistent reductions): the row loops of the GELU's
    tile, the two sums and the store join, and so do the column loops they hold."""
    x, w, b = torch.randn(n_rows, 256), torch.randn(256), torch.randn(256)
    out = torch.empty_like(x)
    gelu_layer_norm_kernel[(triton.cdiv(n_rows, xblock), )](x, w, b, out, n_rows, N=256, BLOCK_R=xblock)
    expected = torch.nn.functional.layer_norm(torch.nn.functional.gelu(x), (256, ), w, b, eps=1e-5)
    torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-4)
