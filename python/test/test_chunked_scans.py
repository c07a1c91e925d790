"""Scans of long rows, which run in chunks: each chunk of 16 elements is scanned on its own, then
combined with the running value of the chunks before it, in one walk over the row. Each program
here scans one row, as a 1-D tile or as the rows of a [M, N] tile (which are walked one by one);
results are compared with sequential scans in numpy at lengths from two chunks up, forward and
reverse, with combiners that are not commutative (the order of the combiner's arguments matters)
and with several operands.
"""

import numpy as np
import pytest
import torch
import triton
import triton.language as tl

from test_scan_and_sort import (ALL_DTYPES, _ids, as_torch, cum_kernel, linear_recurrence_combine, np_linear_recurrence,
                                np_scan, product_values, scan_result_dtype, small_values, to_numpy)

LENGTHS = [32, 64, 256, 512, 1024, 4096]


@triton.jit
def cum_rows_1d(x_ptr, out_ptr, N: tl.constexpr, OP: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    if OP == "sum":
        y = tl.cumsum(x, 0, reverse=REVERSE)
    else:
        y = tl.cumprod(x, 0, reverse=REVERSE)
    tl.store(out_ptr + offs, y)


@pytest.mark.parametrize("tile", ["1d", "2d"])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("N", LENGTHS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=_ids(ALL_DTYPES))
def test_cumsum_long_rows(dtype, N, reverse, tile):
    M = 3
    x = small_values((M, N), dtype)
    out_dtype = scan_result_dtype(dtype)
    out = torch.empty((M, N), dtype=out_dtype)
    if tile == "1d":
        cum_rows_1d[(M, )](x, out, N=N, OP="sum", REVERSE=reverse)
    else:
        cum_kernel[(1, )](x, out, M, N, OP="sum", AXIS=1, REVERSE=reverse, BLOCK_M=4, BLOCK_N=N)
    expected = as_torch(np_scan(to_numpy(x), 1, reverse, "sum", out_dtype), out_dtype)
    if dtype in (torch.float16, torch.bfloat16) and N > 256:
        # Running sums of +-8 over thousands of elements leave the 16-bit formats' exact range.
        torch.testing.assert_close(out.double(), expected.double(), rtol=1e-2, atol=8.0)
    else:
        torch.testing.assert_close(out, expected, rtol=0, atol=0)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("N", [32, 128, 1024])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int32, torch.int64],
                         ids=_ids([torch.float32, torch.float64, torch.int32, torch.int64]))
def test_cumprod_long_rows(dtype, N, reverse):
    x = product_values((2, N), dtype)
    out = torch.empty_like(x)
    cum_rows_1d[(2, )](x, out, N=N, OP="prod", REVERSE=reverse)
    expected = as_torch(np_scan(to_numpy(x), 1, reverse, "prod", dtype), dtype)
    torch.testing.assert_close(out, expected, rtol=0, atol=0, equal_nan=True)


@triton.jit
def linear_recurrence_rows(a_ptr, b_ptr, ha_ptr, hb_ptr, N: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    ha, hb = tl.associative_scan((tl.load(a_ptr + offs), tl.load(b_ptr + offs)), 0, linear_recurrence_combine,
                                 reverse=REVERSE)
    tl.store(ha_ptr + offs, ha)
    tl.store(hb_ptr + offs, hb)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("N", [32, 64, 1024])
@pytest.mark.parametrize("dtype", [torch.float64, torch.int64], ids=_ids([torch.float64, torch.int64]))
def test_linear_recurrence_long_rows(dtype, N, reverse):
    """h_t = a_t h_{t-1} + b_t: the combiner is associative but not commutative, over two operands."""
    a = product_values((2, N), dtype)
    b = small_values((2, N), dtype, -4, 4)
    ha, hb = torch.empty_like(a), torch.empty_like(b)
    linear_recurrence_rows[(2, )](a, b, ha, hb, N=N, REVERSE=reverse)
    ea, eb = np_linear_recurrence(to_numpy(a), to_numpy(b), 1, reverse)
    torch.testing.assert_close(ha, as_torch(ea, dtype), rtol=0, atol=0)
    torch.testing.assert_close(hb, as_torch(eb, dtype), rtol=0, atol=0)


@triton.jit
def cumsum_1d(x_ptr, out_ptr, N: tl.constexpr, REVERSE: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), 0, reverse=REVERSE))


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("N", [32, 8192])
def test_cumsum_1d_float32_against_float64(N, reverse):
    x = torch.randn(N)
    out = torch.empty_like(x)
    cumsum_1d[(1, )](x, out, N=N, REVERSE=reverse)
    expected = (x.double().flip(0).cumsum(0).flip(0) if reverse else x.double().cumsum(0)).float()
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-4 * np.sqrt(N))
