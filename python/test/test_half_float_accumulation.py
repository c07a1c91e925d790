"""Sums, products and prefix sums of fp16/bf16 tiles accumulate in fp32 and round once per result, as a GPU's
reduction does in fp32 registers; checked against an exact (fp64) reference."""

import pytest
import torch
import triton
import triton.language as tl

HALF = [torch.float16, torch.bfloat16]


@triton.jit
def reduce_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr, OP: tl.constexpr, AXIS: tl.constexpr):
    rows = tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, COLS)[None, :]
    x = tl.load(x_ptr + rows * COLS + cols)
    if OP == "sum":
        r = tl.sum(x, AXIS)
    else:
        r = tl.reduce(x, AXIS, _multiply)
    if AXIS == 1:
        tl.store(out_ptr + tl.arange(0, ROWS), r)
    else:
        tl.store(out_ptr + tl.arange(0, COLS), r)


@triton.jit
def _multiply(a, b):
    return a * b


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, ROWS: tl.constexpr, COLS: tl.constexpr, AXIS: tl.constexpr):
    offs = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    tl.store(out_ptr + offs, tl.cumsum(tl.load(x_ptr + offs), AXIS))


def once_rounded(exact, dtype):
    """The exact result rounded once to `dtype`, with room for fp32's own summation error."""
    return exact.to(dtype).double()


@pytest.mark.parametrize("dtype", HALF)
def test_sum_of_ones_counts_them(dtype):
    """1024 ones: adding in bf16 element after element stops at 256 (256 + 1 rounds back to 256)."""
    x = torch.ones(4, 1024, dtype=dtype)
    out = torch.empty(4, dtype=dtype)
    reduce_kernel[(1, )](x, out, ROWS=4, COLS=1024, OP="sum", AXIS=1)
    assert torch.equal(out, torch.full((4, ), 1024.0, dtype=dtype))


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", HALF)
def test_sum_rounds_once(dtype, axis):
    g = torch.Generator().manual_seed(21)
    x = (torch.rand(64, 256, generator=g) + 0.5).to(dtype)  # positive: no cancellation to hide the error
    out = torch.empty(256 if axis == 0 else 64, dtype=dtype)
    reduce_kernel[(1, )](x, out, ROWS=64, COLS=256, OP="sum", AXIS=axis)
    exact = x.double().sum(axis)
    # one rounding: within half an ulp of the exact sum (plus fp32's summation error, far below it)
    ulp = torch.tensor([2.0**-7 if dtype == torch.bfloat16 else 2.0**-10]).double() * 2**torch.floor(
        torch.log2(exact.abs()))
    assert ((out.double() - exact).abs() <= 0.5 * ulp * 1.01).all()


@pytest.mark.parametrize("dtype", HALF)
def test_product_rounds_once(dtype):
    g = torch.Generator().manual_seed(22)
    x = (1 + (torch.rand(8, 64, generator=g) - 0.5) / 16).to(dtype)  # products stay near 1
    out = torch.empty(8, dtype=dtype)
    reduce_kernel[(1, )](x, out, ROWS=8, COLS=64, OP="prod", AXIS=1)
    assert torch.equal(out, once_rounded(x.double().prod(1), dtype).to(dtype))


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", HALF)
def test_cumsum_rounds_each_prefix_once(dtype, axis):
    """Every prefix sum within one rounding of the exact prefix (a bf16 running sum drifts by more than
    1% over 256 terms)."""
    g = torch.Generator().manual_seed(23)
    x = (torch.rand(32, 256, generator=g) + 0.5).to(dtype)
    out = torch.empty_like(x)
    cumsum_kernel[(1, )](x, out, ROWS=32, COLS=256, AXIS=axis)
    exact = x.double().cumsum(axis)
    ulp = torch.tensor([2.0**-7 if dtype == torch.bfloat16 else 2.0**-10]).double() * 2**torch.floor(
        torch.log2(exact.abs()))
    assert ((out.double() - exact).abs() <= 0.5 * ulp * 1.01).all()
