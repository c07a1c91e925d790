"""Reductions along the rows of 2-D tiles (`tl.sum(x, 1)` and friends over a block of rows).

With a constant row length of at least 16, tritium keeps the row's loop rolled and carries the
running value in a register so that LLVM vectorizes it along the row (checked in the LLVM IR);
shorter rows are vectorized across rows. Both must give the reference's values, for every
combiner LLVM may reorder (float sums with Triton's `reassoc`, integer sums, bitwise and min/max
reductions) and for a user's float combiner, which it may not.
"""

import numpy as np
import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _bitwise_xor(a, b):
    return a ^ b


@triton.jit
def _minimum(a, b):
    return tl.minimum(a, b)


@triton.jit
def _strict_sum(a, b):  # a user combiner: Triton gives its addf no fast-math flags
    return a + b


@triton.jit
def tile_row_reduction_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr, OP: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, COLS)
    x = tl.load(x_ptr + rows[:, None] * COLS + cols[None, :])
    if OP == "sum":
        result = tl.sum(x, 1)
    elif OP == "sum_of_squares":
        result = tl.sum(x * x, 1)
    elif OP == "xor":
        result = tl.reduce(x, 1, _bitwise_xor)
    elif OP == "min":
        result = tl.reduce(x, 1, _minimum)
    else:
        result = tl.reduce(x, 1, _strict_sum)
    tl.store(out_ptr + rows, result)


def _reference(x, op):
    if op == "sum":
        return x.double().sum(1) if x.is_floating_point() else x.sum(1, dtype=x.dtype)
    if op == "sum_of_squares":
        return (x.double() ** 2).sum(1) if x.is_floating_point() else (x * x).sum(1, dtype=x.dtype)
    if op == "xor":
        return torch.from_numpy(np.bitwise_xor.reduce(x.numpy(), axis=1))
    if op == "min":
        return x.amin(1)
    return x.double().sum(1)


CASES = [("sum", torch.float32), ("sum", torch.float64), ("sum", torch.int32), ("sum", torch.int64),
         ("sum_of_squares", torch.float32), ("sum_of_squares", torch.int32), ("xor", torch.int32),
         ("min", torch.int16), ("strict_sum", torch.float32)]


@pytest.mark.parametrize("op,dtype", CASES)
@pytest.mark.parametrize("rows,cols", [(64, 64), (8, 16), (4, 256), (16, 8), (32, 4)])
def test_tile_row_reduction_values(op, dtype, rows, cols):
    g = torch.Generator().manual_seed(rows * 1000 + cols)
    programs = 3
    if dtype.is_floating_point:
        x = torch.randn(programs * rows, cols, generator=g, dtype=torch.float64).to(dtype)
    else:
        x = torch.randint(-1000, 1000, (programs * rows, cols), generator=g).to(dtype)
    out = torch.empty(programs * rows, dtype=x.dtype)
    tile_row_reduction_kernel[(programs,)](x, out, ROWS=rows, COLS=cols, OP=op)
    expected = _reference(x, op)
    if dtype.is_floating_point:
        tol = 1e-4 if dtype == torch.float32 else 1e-12
        torch.testing.assert_close(out.double(), expected.double(), rtol=tol, atol=tol * cols)
    else:
        torch.testing.assert_close(out, expected.to(out.dtype), rtol=0, atol=0)


@pytest.mark.parametrize("cols,rolled", [(64, True), (16, True), (8, False)])
def test_row_loops_of_at_least_16_stay_rolled(cols, rolled):
    """A rolled row loop is vectorized by LLVM along the row: whole vectors of a row summed, then
    one vector reduction per row, instead of one element of eight rows inserted at a time."""
    x = torch.randn(64, cols)
    out = torch.empty(64)
    kernel = tile_row_reduction_kernel[(1,)](x, out, ROWS=64, COLS=cols, OP="sum")
    torch.testing.assert_close(out, x.sum(1), rtol=1e-5, atol=1e-5)
    llir = kernel.asm["llir"]
    assert ("llvm.vector.reduce.fadd" in llir) == rolled, llir
    if rolled:
        assert llir.count("insertelement") < 16, llir

